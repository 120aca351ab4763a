package engine

import (
	"context"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/plans"
)

// RelevantAttributes finds the resource attributes that the plan's
// changes depend on, as Terraform's reference analysis does: the
// references made by the configuration of every changing resource
// instance, of every changing root output and of every output of a
// module instance (Terraform plans those as created, except when
// destroying), followed through local values, input variables, module
// outputs and the referenced resources' own arguments. Like Terraform,
// the analysis goes by module instance where a reference gives the key,
// and uses the instance with no key where it does not (module.m.out).
// The engine defers them on the plan (plans.Plan.Relevant finds them when
// first asked for); the plan document lists them as relevant_attributes and the human plan
// view uses them to show only the drift that may have affected the plan.
// Terraform lists them in no particular order; strata sorts them.
func (e *Engine) relevantAttributes(ctx context.Context, p *plans.Plan) []plans.RelevantAttr {
	return RelevantAttributes(e.Config, p, func(pc addrs.AbsProviderConfig, mode addrs.ResourceMode, typeName string) *configschema.Block {
		return e.ResourceSchema(ctx, pc.Provider, mode, typeName)
	})
}

// RelevantAttributes is the analysis of relevantAttributes for the
// configuration cfg, with the resource types' schemas from schemaFn.
func RelevantAttributes(cfg *configs.Config, p *plans.Plan, schemaFn func(addrs.AbsProviderConfig, addrs.ResourceMode, string) *configschema.Block) []plans.RelevantAttr {
	if cfg == nil || p == nil {
		return nil
	}
	changes := p.Changes
	if changes == nil {
		changes = &plans.Changes{}
	}
	a := &refAnalyzer{cfg: cfg, schemaFn: schemaFn, found: map[string]plans.RelevantAttr{}, visited: map[string]bool{}}
	var refs []absRef
	seen := map[string]bool{}
	for _, rc := range changes.Resources {
		res := rc.Addr.ContainingResource()
		if rc.Action == plans.NoOp || seen[res.String()] {
			continue
		}
		seen[res.String()] = true
		if r := a.resource(res.Module, res.Resource); r != nil {
			refs = append(refs, a.bodyRefs(res.Module, r, r.Config, r.schema)...)
		}
	}
	for _, oc := range changes.Outputs {
		if oc.Action != plans.NoOp {
			refs = append(refs, a.outputRefs(addrs.RootModuleInstance, oc.Name)...)
		}
	}
	for _, mi := range plannedModuleInstances(cfg, p) {
		for _, name := range sortedKeys(cfg.Descendant(mi.Module()).Module.Outputs) {
			refs = append(refs, a.outputRefs(mi, name)...)
		}
	}
	a.visit(refs)
	if len(a.found) == 0 {
		return nil
	}
	keys := sortedKeys(a.found)
	ret := make([]plans.RelevantAttr, len(keys))
	for i, k := range keys {
		ret[i] = a.found[k]
	}
	sort.SliceStable(ret, func(i, j int) bool { return ret[i].Resource < ret[j].Resource })
	return ret
}

// plannedModuleInstances returns the module instances, other than the
// root, whose outputs Terraform plans: none in a destroy plan; otherwise
// those holding (or containing a module instance holding) a resource
// instance in the prior state or the plan that is not deleted for lack
// of its module, and below them and the root, the single instance of
// every module call without count or for_each. Instances of a call with
// count or for_each and no resources anywhere below are not known here.
func plannedModuleInstances(cfg *configs.Config, p *plans.Plan) []addrs.ModuleInstance {
	if p.Mode == plans.DestroyMode {
		return nil
	}
	removed := map[string]bool{}
	var candidates []addrs.ModuleInstance
	if p.Changes != nil {
		for _, rc := range p.Changes.Resources {
			if rc.Reason == plans.ReasonDeleteBecauseNoModule {
				removed[rc.Addr.Module.String()] = true
			}
			candidates = append(candidates, rc.Addr.Module)
		}
	}
	if p.PriorState != nil {
		for _, r := range p.PriorState.Resources {
			candidates = append(candidates, r.Addr.Module)
		}
	}
	found := map[string]addrs.ModuleInstance{}
	var add func(m addrs.ModuleInstance)
	add = func(m addrs.ModuleInstance) {
		c := cfg.Descendant(m.Module())
		if _, ok := found[m.String()]; ok || c == nil || removed[m.String()] {
			return
		}
		found[m.String()] = m
		for name, call := range c.Module.ModuleCalls {
			if call.Count == nil && call.ForEach == nil {
				add(m.Child(name, addrs.NoKey))
			}
		}
	}
	add(addrs.RootModuleInstance)
	for _, m := range candidates {
		if removed[m.String()] {
			continue
		}
		for ; !m.IsRoot(); m = m.Parent() {
			add(m)
		}
	}
	delete(found, "")
	ret := make([]addrs.ModuleInstance, 0, len(found))
	for _, k := range sortedKeys(found) {
		ret = append(ret, found[k])
	}
	return ret
}

// absRef is a reference made in a module instance; resource is the
// resource whose block makes it, which count.* and each.* refer to.
type absRef struct {
	module   addrs.ModuleInstance
	resource *configs.Resource
	ref      *lang.Reference
}

type refAnalyzer struct {
	cfg      *configs.Config
	found    map[string]plans.RelevantAttr
	visited  map[string]bool
	schemaFn func(addrs.AbsProviderConfig, addrs.ResourceMode, string) *configschema.Block
}

type configuredResource struct {
	*configs.Resource
	schema *configschema.Block
}

// module returns the configuration of a module instance, or nil.
func (a *refAnalyzer) module(m addrs.ModuleInstance) *configs.Module {
	if c := a.cfg.Descendant(m.Module()); c != nil {
		return c.Module
	}
	return nil
}

// resource returns the configuration of a resource in a module instance,
// or nil.
func (a *refAnalyzer) resource(m addrs.ModuleInstance, r addrs.Resource) *configuredResource {
	mod := a.module(m)
	if mod == nil {
		return nil
	}
	rs := mod.ManagedResources
	if r.Mode == addrs.DataResourceMode {
		rs = mod.DataResources
	}
	c, ok := rs[r.String()]
	if !ok {
		return nil
	}
	provider := addrs.AbsProviderConfig{Provider: mod.ProviderForLocalName(c.ProviderLocalName())}
	return &configuredResource{Resource: c, schema: a.schemaFn(provider, c.Mode, c.Type)}
}

// outputRefs returns the references of an output of a module instance.
func (a *refAnalyzer) outputRefs(m addrs.ModuleInstance, name string) []absRef {
	mod := a.module(m)
	if mod == nil || mod.Outputs[name] == nil {
		return nil
	}
	return a.exprRefs(m, nil, mod.Outputs[name].Expr)
}

func (a *refAnalyzer) exprRefs(m addrs.ModuleInstance, r *configs.Resource, expr hcl.Expression) []absRef {
	refs, _ := lang.ReferencesInExpr(expr)
	return absRefs(m, r, refs)
}

func absRefs(m addrs.ModuleInstance, r *configs.Resource, refs []*lang.Reference) []absRef {
	ret := make([]absRef, len(refs))
	for i, ref := range refs {
		ret[i] = absRef{module: m, resource: r, ref: ref}
	}
	return ret
}

// bodyRefs returns the references a part of resource r's block makes:
// with a schema, every argument and nested block; without, its
// attributes.
func (a *refAnalyzer) bodyRefs(m addrs.ModuleInstance, r *configuredResource, body hcl.Body, schema *configschema.Block) []absRef {
	if body == nil {
		return nil
	}
	if schema != nil {
		refs, _ := lang.BlockReferences(body, schema)
		return absRefs(m, r.Resource, refs)
	}
	attrs, _ := body.JustAttributes()
	var ret []absRef
	for _, name := range sortedKeys(attrs) {
		ret = append(ret, a.exprRefs(m, r.Resource, attrs[name].Expr)...)
	}
	return ret
}

// visit records the resource references among refs and follows every
// reference to what it refers to, once.
func (a *refAnalyzer) visit(refs []absRef) {
	pending := refs
	for len(pending) > 0 {
		ar := pending[0]
		pending = pending[1:]
		subject, remaining, _ := lang.ReferenceParts(ar.ref)
		module := ar.module.String()
		// key names what the reference's meta-references depend on, so
		// that each is followed once: the subject (with the module
		// instance key and output name of a module call), not the
		// attributes and elements taken from it, except for the argument
		// of a resource that a resource reference names.
		key := module + "|" + subject
		switch s := ar.ref.Subject.(type) {
		case lang.ResourceRef:
			if r := a.resource(ar.module, s.Resource); r != nil && r.schema != nil {
				a.found[module+"|"+subject+lang.RelativeTraversalString(remaining)] = plans.RelevantAttr{Resource: moduleAddrPrefix(ar.module) + subject, Attr: relTraversalPath(remaining)}
			}
			key = module + "|" + s.Resource.String()
			if len(remaining) > 0 {
				step, ok := remaining[0].(hcl.TraverseAttr)
				if !ok {
					continue // resourceRefs follows nothing
				}
				key += "." + step.Name
			}
		case lang.CountAttr, lang.EachAttr:
			if ar.resource == nil {
				continue
			}
			key += "|" + ar.resource.Addr().String()
		}
		if a.visited[key] {
			continue
		}
		a.visited[key] = true
		pending = append(pending, a.metaRefs(ar, remaining)...)
	}
}

// moduleAddrPrefix is what an address in module instance m starts with.
func moduleAddrPrefix(m addrs.ModuleInstance) string {
	if m.IsRoot() {
		return ""
	}
	return m.String() + "."
}

// metaRefs returns the references that contribute to the value a
// reference refers to: a local value's expression; the argument of the
// module block that sets an input variable; a module output's
// expression (every output's, for a whole module instance); the
// count or for_each of the resource that count.* or each.* belongs to;
// or the resource arguments behind a resource attribute (the whole
// resource body for a reference to the whole resource).
func (a *refAnalyzer) metaRefs(ar absRef, remaining hcl.Traversal) []absRef {
	switch s := ar.ref.Subject.(type) {
	case lang.LocalValue:
		if mod := a.module(ar.module); mod != nil && mod.Locals[s.Name] != nil {
			return a.exprRefs(ar.module, nil, mod.Locals[s.Name].Expr)
		}
	case lang.InputVariable:
		if ar.module.IsRoot() {
			return nil
		}
		if c := a.cfg.Descendant(ar.module.Module()); c != nil && c.Call != nil && c.Call.Inputs[s.Name] != nil {
			return a.exprRefs(ar.module.Parent(), nil, c.Call.Inputs[s.Name].Expr)
		}
	case lang.ModuleCallRef:
		return a.moduleCallRefs(ar.module, s.Name, ar.ref.Remaining)
	case lang.CountAttr, lang.EachAttr:
		if ar.resource.Count != nil {
			return a.exprRefs(ar.module, nil, ar.resource.Count)
		}
		if ar.resource.ForEach != nil {
			return a.exprRefs(ar.module, nil, ar.resource.ForEach)
		}
	case lang.ResourceRef:
		return a.resourceRefs(ar.module, s.Resource, remaining)
	}
	return nil
}

// moduleCallRefs returns the references behind module.NAME[KEY].OUTPUT
// made in module instance m: those of the output in the called
// instance, or of all its outputs when the reference names none.
func (a *refAnalyzer) moduleCallRefs(m addrs.ModuleInstance, name string, t hcl.Traversal) []absRef {
	var key addrs.InstanceKey
	if k, ok := lang.LeadingInstanceKey(t); ok {
		key, t = instanceKey(k), t[1:]
	}
	callee := m.Child(name, key)
	mod := a.module(callee)
	if mod == nil {
		return nil
	}
	if len(t) > 0 {
		if attr, ok := t[0].(hcl.TraverseAttr); ok {
			return a.outputRefs(callee, attr.Name)
		}
	}
	var ret []absRef
	for _, out := range sortedKeys(mod.Outputs) {
		ret = append(ret, a.outputRefs(callee, out)...)
	}
	return ret
}

// instanceKey converts a valid instance key value (see validInstanceKey).
func instanceKey(k cty.Value) addrs.InstanceKey {
	if k.Type() == cty.String {
		return addrs.StringKey(k.AsString())
	}
	i, _ := k.AsBigFloat().Int64()
	return addrs.IntKey(i)
}

// resourceRefs returns the references behind an attribute of a resource
// in module instance m: those of the argument or nested blocks the
// first step of remaining names, or of the whole body.
func (a *refAnalyzer) resourceRefs(m addrs.ModuleInstance, res addrs.Resource, remaining hcl.Traversal) []absRef {
	r := a.resource(m, res)
	if r == nil {
		return nil
	}
	if len(remaining) == 0 {
		return a.bodyRefs(m, r, r.Config, r.schema)
	}
	step, ok := remaining[0].(hcl.TraverseAttr)
	if !ok {
		return nil
	}
	if r.schema == nil {
		attrs, _ := r.Config.JustAttributes()
		if attr, ok := attrs[step.Name]; ok {
			return a.exprRefs(m, r.Resource, attr.Expr)
		}
		return nil
	}
	content, _, _ := r.Config.PartialContent(r.schema.BodySchema())
	if attr, ok := content.Attributes[step.Name]; ok {
		return a.exprRefs(m, r.Resource, attr.Expr)
	}
	var ret []absRef
	if nb, ok := r.schema.BlockTypes[step.Name]; ok {
		for _, b := range content.Blocks {
			if b.Type == step.Name {
				ret = append(ret, a.bodyRefs(m, r, b.Body, &nb.Block)...)
			}
		}
	}
	return ret
}

// relTraversalPath is the path a relative traversal names, leaving out
// unknown index steps.
func relTraversalPath(t hcl.Traversal) cty.Path {
	ret := cty.Path{}
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			ret = append(ret, cty.GetAttrStep{Name: s.Name})
		case hcl.TraverseIndex:
			if s.Key.IsWhollyKnown() {
				ret = append(ret, cty.IndexStep{Key: s.Key})
			}
		}
	}
	return ret
}
