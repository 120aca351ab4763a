package lang

import (
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang/funcs"
)

// Data supplies the values references resolve to. The engine implements it
// over its in-progress plan or apply. Each method returns a value (unknown
// when not yet known) and diagnostics for references to things that do not
// exist, with rng as the subject.
type Data interface {
	GetInputVariable(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	GetLocalValue(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	GetResource(ref ResourceRef, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	GetPathAttr(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	GetTerraformAttr(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	GetModuleCall(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics)
}

// InstanceKeyData holds count.index or each.key/each.value for expressions
// inside a resource instance. Unset fields mean the resource does not use
// count or for_each.
type InstanceKeyData struct {
	CountIndex cty.Value
	EachKey    cty.Value
	EachValue  cty.Value
}

// Scope is where expressions are evaluated: the data they can reach, the
// instance key data of the enclosing resource, and the function library.
type Scope struct {
	Data Data
	Key  InstanceKeyData
	// BaseDir is the directory relative paths in functions start from, as
	// messages name it (relative to WorkDir, as Terraform prints it).
	BaseDir string
	// WorkDir is the absolute working directory BaseDir is in; empty
	// means the process's.
	WorkDir string
	// PureOnly makes impure functions (timestamp, uuid) return unknown, for
	// validation.
	PureOnly bool
	// PlanTimestamp, when set, is the value of plantimestamp(), known even
	// when PureOnly is set.
	PlanTimestamp time.Time
	// Self is the value of `self`, set only where it is allowed
	// (postconditions); cty.NilVal elsewhere.
	Self cty.Value

	funcsOnce sync.Once
	funcs     map[string]function.Function
	// pf holds the provider-defined functions resolved so far in this
	// module instance; set with funcs.
	pf *providerFuncs
}

// WithKey returns a scope sharing s's data and functions, for one instance.
func (s *Scope) WithKey(key InstanceKeyData) *Scope {
	fs := s.Functions()
	ret := &Scope{Data: s.Data, Key: key, BaseDir: s.BaseDir, WorkDir: s.WorkDir, PureOnly: s.PureOnly, PlanTimestamp: s.PlanTimestamp, Self: s.Self, funcs: fs, pf: s.pf}
	ret.funcsOnce.Do(func() {})
	return ret
}

// WithData returns a scope like s, sharing its functions, whose
// references resolve through d: the scope of another module instance.
func (s *Scope) WithData(d Data) *Scope {
	ret := s.WithKey(s.Key)
	ret.Data = d
	// Another module instance may know other providers by the same
	// local names.
	ret.pf = &providerFuncs{}
	return ret
}

// WithFunction returns a scope like s with one more function, such as the
// console's own type().
func (s *Scope) WithFunction(name string, f function.Function) *Scope {
	ret := s.WithKey(s.Key)
	fs := make(map[string]function.Function, len(ret.funcs)+1)
	for k, v := range ret.funcs {
		fs[k] = v
	}
	fs[name] = f
	ret.funcs = fs
	return ret
}

// WithSelf returns a scope like s in which `self` is v.
func (s *Scope) WithSelf(v cty.Value) *Scope {
	ret := s.WithKey(s.Key)
	ret.Self = v
	return ret
}

// Functions returns the function table, built once per scope.
func (s *Scope) Functions() map[string]function.Function {
	s.funcsOnce.Do(func() {
		s.funcs = funcs.FunctionsAt(funcs.Dir{Work: s.WorkDir, Base: s.BaseDir}, s.PureOnly, s.PlanTimestamp)
		s.pf = &providerFuncs{}
	})
	return s.funcs
}

// EvalExpr evaluates expr and converts the result to wantType (use
// cty.DynamicPseudoType for no conversion).
func (s *Scope) EvalExpr(expr hcl.Expression, wantType cty.Type) (cty.Value, hcl.Diagnostics) {
	return s.EvalExprWith(expr, wantType, nil)
}

// EvalExprWith is EvalExpr with extra top-level names the language itself
// does not have, such as the run and output objects of test files:
// references whose root is a key of extra take their value from it.
func (s *Scope) EvalExprWith(expr hcl.Expression, wantType cty.Type, extra map[string]cty.Value) (cty.Value, hcl.Diagnostics) {
	refs, diags := referencesWithout(expr, extra)
	ctx, cdiags := s.evalContextWith(refs, extra)
	diags = append(diags, cdiags...)
	if diags.HasErrors() {
		return cty.UnknownVal(wantType), diags
	}
	val, vdiags := expr.Value(ctx)
	for s.resolveProviderFuncs(vdiags) {
		ctx, _ = s.evalContextWith(refs, extra)
		val, vdiags = expr.Value(ctx)
	}
	diags = append(diags, s.providerFuncDiags(vdiags)...)
	if wantType != cty.DynamicPseudoType {
		conv, err := convert.Convert(val, wantType)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity:    hcl.DiagError,
				Summary:     "Incorrect value type",
				Detail:      fmt.Sprintf("Invalid expression value: %s.", err),
				Subject:     expr.Range().Ptr(),
				Expression:  expr,
				EvalContext: ctx,
			})
			return cty.UnknownVal(wantType), diags
		}
		val = conv
	}
	return val, diags
}

// ExpandBlock expands `dynamic` blocks in body, evaluating their for_each
// expressions in this scope.
func (s *Scope) ExpandBlock(body hcl.Body, schema *configschema.Block) (hcl.Body, hcl.Diagnostics) {
	if !mayHaveDynamicBlocks(body) {
		return body, nil
	}
	spec := schema.DecoderSpec()
	travs := dynblock.ExpandVariablesHCLDec(body, spec)
	refs, diags := References(travs)
	ctx, cdiags := s.EvalContext(refs)
	diags = append(diags, cdiags...)
	return dynblock.Expand(body, ctx), diags
}

// mayHaveDynamicBlocks reports whether body, or a block nested in it,
// may contain a `dynamic` block. Most bodies are native syntax without
// one, and skipping the expansion for them saves a third of the time of
// evaluating a resource's configuration.
func mayHaveDynamicBlocks(body hcl.Body) bool {
	b, ok := body.(*hclsyntax.Body)
	if !ok {
		return true // JSON or merged override bodies: expand to find out
	}
	for _, blk := range b.Blocks {
		if blk.Type == "dynamic" || mayHaveDynamicBlocks(blk.Body) {
			return true
		}
	}
	return false
}

// EvalBlock decodes body with schema, evaluating every expression in it.
// The result conforms to schema.ImpliedType().
func (s *Scope) EvalBlock(body hcl.Body, schema *configschema.Block) (cty.Value, hcl.Diagnostics) {
	return s.EvalBlockSpec(body, schema, schema.DecoderSpec())
}

// EvalBlockSpec is EvalBlock with schema's decoder spec built beforehand
// (schema.DecoderSpec()), for a caller evaluating many bodies with one
// schema.
func (s *Scope) EvalBlockSpec(body hcl.Body, schema *configschema.Block, spec hcldec.Spec) (cty.Value, hcl.Diagnostics) {
	orig := body
	body, diags := s.ExpandBlock(body, schema)
	refs, rdiags := References(hcldec.Variables(body, spec))
	diags = append(diags, rdiags...)
	ctx, cdiags := s.EvalContext(refs)
	diags = append(diags, cdiags...)
	if diags.HasErrors() {
		return cty.UnknownVal(schema.ImpliedType()), diags
	}
	val, ddiags := hcldec.Decode(body, spec, ctx)
	for s.resolveProviderFuncs(ddiags) {
		// dynamic blocks' for_each expressions may call them too.
		body, _ = s.ExpandBlock(orig, schema)
		ctx, _ = s.EvalContext(refs)
		val, ddiags = hcldec.Decode(body, spec, ctx)
	}
	ddiags = s.providerFuncDiags(ddiags)
	diags = append(diags, ddiags...)
	if ddiags.HasErrors() {
		return cty.UnknownVal(schema.ImpliedType()), diags
	}
	return val, diags
}

// BlockReferences returns the references made by a body decoded with
// schema, including those in dynamic blocks (their for_each and labels
// arguments as well as their content).
func BlockReferences(body hcl.Body, schema *configschema.Block) ([]*Reference, hcl.Diagnostics) {
	// VariablesHCLDec already includes the for_each and labels expressions
	// that ExpandVariablesHCLDec would return; adding those again would
	// report each of them, and any diagnostics about them, twice.
	return References(dynblock.VariablesHCLDec(body, schema.DecoderSpec()))
}

// EvalContextWith builds the context EvalExprWith evaluates expr in, for
// diagnostics that show the values an expression refers to.
func (s *Scope) EvalContextWith(expr hcl.Expression, extra map[string]cty.Value) (*hcl.EvalContext, hcl.Diagnostics) {
	refs, diags := referencesWithout(expr, extra)
	ctx, cdiags := s.evalContextWith(refs, extra)
	return ctx, append(diags, cdiags...)
}

// referencesWithout returns the references of expr, leaving out those
// whose root is a key of extra.
func referencesWithout(expr hcl.Expression, extra map[string]cty.Value) ([]*Reference, hcl.Diagnostics) {
	if len(extra) == 0 {
		return ReferencesInExpr(expr)
	}
	var travs []hcl.Traversal
	for _, t := range expr.Variables() {
		if _, ok := extra[t.RootName()]; !ok {
			travs = append(travs, t)
		}
	}
	return References(travs)
}

func (s *Scope) evalContextWith(refs []*Reference, extra map[string]cty.Value) (*hcl.EvalContext, hcl.Diagnostics) {
	ctx, diags := s.EvalContext(refs)
	if ctx.Variables == nil && len(extra) > 0 {
		// A child context holding provider functions has no variables
		// of its own; its parent's are still seen through it.
		ctx.Variables = map[string]cty.Value{}
	}
	for name, v := range extra {
		ctx.Variables[name] = v
	}
	return ctx, diags
}

// EvalContext builds an hcl.EvalContext holding just the values refs need.
func (s *Scope) EvalContext(refs []*Reference) (*hcl.EvalContext, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	vars := map[string]map[string]cty.Value{}
	put := func(root, name string, v cty.Value) {
		m := vars[root]
		if m == nil {
			m = map[string]cty.Value{}
			vars[root] = m
		}
		m[name] = v
	}
	topLevel := map[string]cty.Value{}
	dataResources := map[string]map[string]cty.Value{}
	ephemeralResources := map[string]map[string]cty.Value{}
	managed := map[string]map[string]cty.Value{}
	prefixed := map[string]map[string]cty.Value{}
	for _, ref := range refs {
		var v cty.Value
		var vdiags hcl.Diagnostics
		switch sub := ref.Subject.(type) {
		case InputVariable:
			v, vdiags = s.Data.GetInputVariable(sub.Name, ref.SourceRange)
			put("var", sub.Name, v)
		case LocalValue:
			v, vdiags = s.Data.GetLocalValue(sub.Name, ref.SourceRange)
			put("local", sub.Name, v)
		case PathAttr:
			v, vdiags = s.Data.GetPathAttr(sub.Name, ref.SourceRange)
			put("path", sub.Name, v)
		case TerraformAttr:
			v, vdiags = s.Data.GetTerraformAttr(sub.Name, ref.SourceRange)
			put("terraform", sub.Name, v)
		case ModuleCallRef:
			v, vdiags = s.Data.GetModuleCall(sub.Name, ref.SourceRange)
			put("module", sub.Name, v)
		case CountAttr:
			v, vdiags = s.countAttr(sub, ref.SourceRange)
			put("count", sub.Name, v)
		case EachAttr:
			v, vdiags = s.eachAttr(sub, ref.SourceRange)
			put("each", sub.Name, v)
		case SelfRef:
			if s.Self != cty.NilVal {
				topLevel["self"] = s.Self
				break
			}
			vdiags = hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  `Invalid "self" reference`,
				Detail:   `The "self" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.`,
				Subject:  ref.SourceRange.Ptr(),
			}}
		case ResourceRef:
			v, vdiags = s.Data.GetResource(sub, ref.SourceRange)
			target := managed
			switch {
			case sub.Resource.Mode == addrs.DataResourceMode:
				target = dataResources
			case sub.Resource.Mode == addrs.EphemeralResourceMode:
				target = ephemeralResources
			case sub.Prefixed:
				target = prefixed
			}
			m := target[sub.Resource.Type]
			if m == nil {
				m = map[string]cty.Value{}
				target[sub.Resource.Type] = m
			}
			m[sub.Resource.Name] = v
		}
		diags = append(diags, vdiags...)
	}
	for root, m := range vars {
		topLevel[root] = cty.ObjectVal(m)
	}
	for typ, m := range managed {
		topLevel[typ] = cty.ObjectVal(m)
	}
	for root, byType := range map[string]map[string]map[string]cty.Value{"data": dataResources, "resource": prefixed, "ephemeral": ephemeralResources} {
		if len(byType) == 0 {
			continue
		}
		d := map[string]cty.Value{}
		for typ, m := range byType {
			d[typ] = cty.ObjectVal(m)
		}
		topLevel[root] = cty.ObjectVal(d)
	}
	ctx := &hcl.EvalContext{Variables: topLevel, Functions: s.Functions()}
	return s.withProviderFuncs(ctx), diags
}

func (s *Scope) countAttr(sub CountAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if sub.Name != "index" {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  `Invalid "count" attribute`,
			Detail:   fmt.Sprintf(`The "count" object does not have an attribute named %q. The only supported attribute is count.index, which is the index of each instance of a resource block that has the "count" argument set.`, sub.Name),
			Subject:  rng.Ptr(),
		}}
	}
	if s.Key.CountIndex == cty.NilVal {
		return cty.UnknownVal(cty.Number), hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  `Reference to "count" in non-counted context`,
			Detail:   `The "count" object can only be used in "module", "resource", and "data" blocks, and only when the "count" argument is set.`,
			Subject:  rng.Ptr(),
		}}
	}
	return s.Key.CountIndex, nil
}

func (s *Scope) eachAttr(sub EachAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if sub.Name != "key" && sub.Name != "value" {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  `Invalid "each" attribute`,
			Detail:   fmt.Sprintf(`The "each" object does not have an attribute named %q. The supported attributes are each.key and each.value, the current key and value pair of the "for_each" attribute set.`, sub.Name),
			Subject:  rng.Ptr(),
		}}
	}
	if s.Key.EachKey == cty.NilVal {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  `Reference to "each" in context without for_each`,
			Detail:   `The "each" object can be used only in "module" or "resource" blocks, and only when the "for_each" argument is set.`,
			Subject:  rng.Ptr(),
		}}
	}
	if sub.Name == "key" {
		return s.Key.EachKey, nil
	}
	return s.Key.EachValue, nil
}
