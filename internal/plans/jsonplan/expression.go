package jsonplan

import (
	"encoding/json"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang"
)

// expression describes one expression: its value when it is a constant,
// and the references it makes.
type expression struct {
	ConstantValue json.RawMessage `json:"constant_value,omitempty"`
	References    []string        `json:"references,omitempty"`
}

func (e expression) empty() bool { return e.ConstantValue == nil && len(e.References) == 0 }

// marshalExpressions describes the arguments set in a body: attributes by
// name, nested blocks as a list (or, for map nesting, an object keyed by
// label) of their own descriptions. Without a schema, only attributes
// are described.
func marshalExpressions(body hcl.Body, schema *configschema.Block) map[string]any {
	if body == nil {
		return nil
	}
	ret := map[string]any{}
	if schema == nil {
		attrs, _ := body.JustAttributes()
		for name, a := range attrs {
			ret[name] = marshalExpression(a.Expr)
		}
	} else {
		content, _, _ := body.PartialContent(schema.BodySchema())
		for name, a := range content.Attributes {
			ret[name] = marshalExpression(a.Expr)
		}
		for _, typeName := range sortedKeys(schema.BlockTypes) {
			nb := schema.BlockTypes[typeName]
			var blocks []*hcl.Block
			for _, b := range content.Blocks {
				if b.Type == typeName {
					blocks = append(blocks, b)
				}
			}
			if len(blocks) == 0 {
				continue
			}
			switch nb.Nesting {
			case configschema.NestingSingle, configschema.NestingGroup:
				ret[typeName] = marshalExpressions(blocks[0].Body, &nb.Block)
			case configschema.NestingMap:
				m := map[string]any{}
				for _, b := range blocks {
					if len(b.Labels) > 0 {
						m[b.Labels[0]] = marshalExpressions(b.Body, &nb.Block)
					}
				}
				ret[typeName] = m
			default:
				list := make([]any, 0, len(blocks))
				for _, b := range blocks {
					list = append(list, marshalExpressions(b.Body, &nb.Block))
				}
				ret[typeName] = list
			}
		}
	}
	if len(ret) == 0 {
		return nil
	}
	return ret
}

// marshalExpression describes one expression: its value when it can be
// evaluated with no variables and no functions, and each reference it
// makes from the longest form to the shortest, as Terraform lists them
// (`var.a.b`, `var.a`; `aws_x.y[0].id`, `aws_x.y[0]`, `aws_x.y`;
// `module.m["k"].out`, `module.m["k"]`).
func marshalExpression(expr hcl.Expression) expression {
	var ret expression
	if expr == nil {
		return ret
	}
	// Evaluated with no variables and no functions: a reference or a
	// function call makes the value (or part of it) unknown.
	if v, _ := expr.Value(nil); v != cty.NilVal && v.IsWhollyKnown() {
		ret.ConstantValue, _ = marshalValue(v)
	}
	refs, _ := lang.ReferencesInExpr(expr)
	for _, ref := range refs {
		subject, remaining, container := lang.ReferenceParts(ref)
		for n := len(remaining); n > 0; n-- {
			ret.References = append(ret.References, subject+lang.RelativeTraversalString(remaining[:n]))
		}
		ret.References = append(ret.References, subject)
		if container != "" {
			ret.References = append(ret.References, container)
		}
	}
	return ret
}

// traversalFull renders an absolute traversal such as a depends_on entry.
func traversalFull(t hcl.Traversal) string {
	if len(t) == 0 {
		return ""
	}
	return t.RootName() + lang.RelativeTraversalString(t[1:])
}
