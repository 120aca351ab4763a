package lang

import (
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
	body   hcl.Body
	schema *configschema.Block
	spec   hcldec.Spec
	// refs are the body's references, when they could be found without
	// an error (ok).
	refs []*Reference
	ok   bool
	// attrs is set when the body is native syntax with no dynamic block,
	// the spec an object of attributes and literals alone, and the body's
	// content matched the schema without a diagnostic: then evaluating is
	// evaluating these expressions. Nil otherwise: hcldec decodes.
	attrs []preparedAttr
}

// preparedAttr is one attribute of a flat spec: its expression in the
// body (nil when unset), or a literal value.
type preparedAttr struct {
	name    string
	attr    *hcl.Attribute
	ty      cty.Type  // the type an expression converts to
	null    cty.Value // the value when unset
	literal bool      // a LiteralSpec: null is its value
}

// PrepareBlock prepares body for evaluation with schema, whose decoder
// spec is spec (schema.DecoderSpec()).
func PrepareBlock(body hcl.Body, schema *configschema.Block, spec hcldec.Spec) *PreparedBlock {
	p := &PreparedBlock{body: body, schema: schema, spec: spec}
	if mayHaveDynamicBlocks(body) {
		// Dynamic blocks are expanded with values: nothing is prepared.
		return p
	}
	refs, diags := References(hcldec.Variables(body, spec))
	if diags.HasErrors() || len(diags) > 0 {
		return p
	}
	p.refs, p.ok = refs, true
	obj, isObj := spec.(hcldec.ObjectSpec)
	if !isObj {
		return p
	}
	attrs := make([]preparedAttr, 0, len(obj))
	for name, s := range obj {
		switch s := s.(type) {
		case *hcldec.AttrSpec:
			if customdecode.CustomExpressionDecoderForType(s.Type) != nil {
				return p
			}
			attrs = append(attrs, preparedAttr{name: s.Name, ty: s.Type, null: cty.NullVal(s.Type.WithoutOptionalAttributesDeep())})
		case *hcldec.LiteralSpec:
			attrs = append(attrs, preparedAttr{name: name, null: s.Value, literal: true})
		default:
			return p
		}
	}
	content, cdiags := body.Content(hcldec.ImpliedSchema(spec))
	if len(cdiags) > 0 || len(content.Blocks) > 0 {
		return p
	}
	for i := range attrs {
		if !attrs[i].literal {
			attrs[i].attr = content.Attributes[attrs[i].name]
		}
	}
	p.attrs = attrs
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
	if !p.ok || p.attrs == nil {
		return s.EvalBlockSpec(p.body, p.schema, p.spec)
	}
	ctx, diags := s.EvalContext(p.refs)
	if diags.HasErrors() {
		return s.EvalBlockSpec(p.body, p.schema, p.spec)
	}
	vals := make(map[string]cty.Value, len(p.attrs))
	for _, a := range p.attrs {
		if a.attr == nil {
			vals[a.name] = a.null
			continue
		}
		v, vdiags := a.attr.Expr.Value(ctx)
		if vdiags.HasErrors() {
			return s.EvalBlockSpec(p.body, p.schema, p.spec)
		}
		cv, err := convert.Convert(v, a.ty)
		if err != nil {
			return s.EvalBlockSpec(p.body, p.schema, p.spec)
		}
		diags = append(diags, vdiags...)
		vals[a.name] = cv
	}
	return cty.ObjectVal(vals), diags
}
