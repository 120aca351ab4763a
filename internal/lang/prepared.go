package lang

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/strata-dev/strata/internal/configs/configschema"
)

// PreparedBlock is what evaluating one body with one schema needs that
// does not depend on the values it refers to: the references it makes and,
// for a body of attributes alone, which schema attribute each of its
// arguments sets. The engine evaluates a resource block once per instance
// and per walk; preparing the block once spares each evaluation the
// decoder's schema building and body matching, which cost more than the
// expressions themselves. A PreparedBlock is read-only once built and safe
// to share between goroutines.
type PreparedBlock struct {
	body  hcl.Body
	shape *BlockShape
	// refs are the body's references, when they could be found without
	// an error (ok).
	refs []*Reference
	ok   bool
	// flat is set when the body is native syntax with no dynamic block,
	// the shape flat and the body's content matched the schema without a
	// diagnostic: then evaluating is evaluating exprs, the expression
	// setting each of shape.attrs (nil where unset). Otherwise hcldec
	// decodes.
	flat  bool
	exprs []hcl.Expression
}

// BlockShape is what preparing bodies with one schema shares: the schema,
// its decoder spec and, when the spec is an object of attributes and
// literals alone (flat), those in a fixed order. Bodies of one resource
// type share one, so a prepared body holds no more than its expressions
// (a resource of 100,000 keeps a few hundred bytes each otherwise).
type BlockShape struct {
	schema  *configschema.Block
	spec    hcldec.Spec
	flat    bool
	attrs   []shapeAttr
	implied *hcl.BodySchema
}

// shapeAttr is one attribute of a flat spec.
type shapeAttr struct {
	name    string
	ty      cty.Type  // the type an expression converts to
	null    cty.Value // the value when unset
	literal bool      // a LiteralSpec: null is its value
}

// NewBlockShape returns the shape of bodies decoded with schema, whose
// decoder spec is spec (schema.DecoderSpec()).
func NewBlockShape(schema *configschema.Block, spec hcldec.Spec) *BlockShape {
	sh := &BlockShape{schema: schema, spec: spec}
	obj, isObj := spec.(hcldec.ObjectSpec)
	if !isObj {
		return sh
	}
	names := make([]string, 0, len(obj))
	for name := range obj {
		names = append(names, name)
	}
	sort.Strings(names)
	attrs := make([]shapeAttr, 0, len(obj))
	for _, name := range names {
		switch s := obj[name].(type) {
		case *hcldec.AttrSpec:
			if customdecode.CustomExpressionDecoderForType(s.Type) != nil {
				return sh
			}
			attrs = append(attrs, shapeAttr{name: s.Name, ty: s.Type, null: cty.NullVal(s.Type.WithoutOptionalAttributesDeep())})
		case *hcldec.LiteralSpec:
			attrs = append(attrs, shapeAttr{name: name, null: s.Value, literal: true})
		default:
			return sh
		}
	}
	sh.flat, sh.attrs, sh.implied = true, attrs, hcldec.ImpliedSchema(spec)
	return sh
}

// PrepareBlock prepares body for evaluation with schema, whose decoder
// spec is spec (schema.DecoderSpec()).
func PrepareBlock(body hcl.Body, schema *configschema.Block, spec hcldec.Spec) *PreparedBlock {
	return NewBlockShape(schema, spec).Prepare(body)
}

// Prepare prepares body for evaluation with sh's schema.
func (sh *BlockShape) Prepare(body hcl.Body) *PreparedBlock {
	p := &PreparedBlock{body: body, shape: sh}
	if mayHaveDynamicBlocks(body) {
		// Dynamic blocks are expanded with values: nothing is prepared.
		return p
	}
	refs, diags := References(hcldec.Variables(body, sh.spec))
	if diags.HasErrors() || len(diags) > 0 {
		return p
	}
	p.refs, p.ok = refs, true
	if !sh.flat {
		return p
	}
	content, cdiags := body.Content(sh.implied)
	if len(cdiags) > 0 || len(content.Blocks) > 0 {
		return p
	}
	var exprs []hcl.Expression
	for i, a := range sh.attrs {
		if a.literal {
			continue
		}
		if attr := content.Attributes[a.name]; attr != nil {
			if exprs == nil {
				exprs = make([]hcl.Expression, len(sh.attrs))
			}
			exprs[i] = attr.Expr
		}
	}
	p.flat, p.exprs = true, exprs
	return p
}

// References returns the references of the body, as BlockReferences
// does, and true; false when the body has dynamic blocks or its references
// come with diagnostics: then BlockReferences gives them.
func (p *PreparedBlock) References() ([]*Reference, bool) {
	return p.refs, p.ok
}

// EvalPreparedBlock is EvalBlockSpec(p's body, schema and spec), with the
// work PrepareBlock did done once. The result and diagnostics are the
// same: whatever goes wrong is evaluated again by EvalBlockSpec, for its
// diagnostics.
func (s *Scope) EvalPreparedBlock(p *PreparedBlock) (cty.Value, hcl.Diagnostics) {
	sh := p.shape
	if !p.ok || !p.flat {
		return s.EvalBlockSpec(p.body, sh.schema, sh.spec)
	}
	ctx, diags := s.EvalContext(p.refs)
	if diags.HasErrors() {
		return s.EvalBlockSpec(p.body, sh.schema, sh.spec)
	}
	vals := make(map[string]cty.Value, len(sh.attrs))
	for i, a := range sh.attrs {
		var expr hcl.Expression
		if p.exprs != nil {
			expr = p.exprs[i]
		}
		if expr == nil {
			vals[a.name] = a.null
			continue
		}
		v, vdiags := expr.Value(ctx)
		if vdiags.HasErrors() {
			return s.EvalBlockSpec(p.body, sh.schema, sh.spec)
		}
		cv, err := convert.Convert(v, a.ty)
		if err != nil {
			return s.EvalBlockSpec(p.body, sh.schema, sh.spec)
		}
		diags = append(diags, vdiags...)
		vals[a.name] = cv
	}
	return cty.ObjectVal(vals), diags
}
