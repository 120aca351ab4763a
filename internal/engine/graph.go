package engine

import (
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine/dag"
	"github.com/strata-dev/strata/internal/lang"
)

// configGraph holds the nodes for everything in the configuration and the
// edges between them implied by references and depends_on.
type configGraph struct {
	g *dag.Graph[node]
	// vars, locals and outputs are keyed by node name (String()).
	vars      map[string]*varNode
	locals    map[string]*localNode
	outputs   map[string]*outputNode
	modules   map[string]*moduleNode   // by addrs.Module.String()
	resources map[string]*resourceNode // by addrs.ConfigResource.String()
	providers map[string]*providerNode // by AbsProviderConfig.String()
	// refErrs holds, for each node, the errors in its references found
	// while building the graph (undeclared objects, invalid references,
	// undeclared depends_on entries). They are also in the diagnostics
	// buildConfigGraph returns; validation reports them as the node's own,
	// as Terraform's walk does (see Validate).
	refErrs map[node]hcl.Diagnostics
}

// nodeErrs records the errors among diags as n's and returns diags.
func (cg *configGraph) nodeErrs(n node, diags hcl.Diagnostics) hcl.Diagnostics {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			cg.refErrs[n] = append(cg.refErrs[n], d)
		}
	}
	return diags
}

// buildConfigGraph adds nodes for the variables, locals, outputs, module
// calls, provider configurations and resources of every module,
// connected by their references. Schemas are needed to find references
// inside resource bodies.
func (w *walker) buildConfigGraph(ctx context.Context) (*configGraph, hcl.Diagnostics) {
	cg := &configGraph{
		g:         dag.New[node](),
		vars:      map[string]*varNode{},
		locals:    map[string]*localNode{},
		outputs:   map[string]*outputNode{},
		modules:   map[string]*moduleNode{},
		resources: map[string]*resourceNode{},
		providers: map[string]*providerNode{},
		refErrs:   map[node]hcl.Diagnostics{},
	}
	var diags hcl.Diagnostics
	w.e.Config.DeepEach(func(c *configs.Config) {
		diags = append(diags, w.addModuleNodes(cg, c)...)
	})
	// Everything in a child module waits for the module's expansion.
	for _, n := range cg.g.Vertices() {
		if home := nodeModule(n); !home.IsRoot() {
			cg.g.Connect(n, cg.modules[home.String()])
		}
	}

	// Edges from references. References to things not declared are
	// reported here, before anything is evaluated, as Terraform's
	// validation does before a plan.
	reported := map[string]bool{}
	for _, n := range cg.g.Vertices() {
		refs, rdiags := w.nodeReferences(ctx, n)
		diags = append(diags, cg.nodeErrs(n, rdiags)...)
		from := referencesModule(n)
		if v, ok := n.(*varNode); ok && v.call != nil {
			// The module block's argument is written in the caller; the
			// variable's validation rules, in the module itself.
			if attr, ok := v.call.Inputs[v.cfg.Name]; ok {
				callRefs, cdiags := lang.ReferencesInExpr(attr.Expr)
				diags = append(diags, cg.nodeErrs(n, cdiags)...)
				w.connectRefs(cg, n, v.path.Parent(), callRefs, &diags, reported)
			}
			from = v.path
		}
		w.connectRefs(cg, n, from, refs, &diags, reported)
		if rn, ok := n.(*resourceNode); ok && rn.cfg.Managed != nil {
			// As Terraform: a replace_triggered_by reference to an
			// undeclared resource is not a validation error; planning the
			// resource reports it (replaceTriggered).
			for _, e := range rn.cfg.Managed.ReplaceTriggeredBy {
				refs, rdiags := lang.ReferencesInExpr(e)
				diags = append(diags, cg.nodeErrs(n, rdiags)...)
				for _, ref := range refs {
					for _, target := range cg.referenced(from, ref) {
						cg.g.Connect(n, target)
					}
				}
			}
		}
	}
	// depends_on edges.
	connectDeps := func(n node, from addrs.Module, deps []hcl.Traversal) {
		for _, trav := range deps {
			ref, rdiags := lang.ParseRef(trav)
			diags = append(diags, cg.nodeErrs(n, rdiags)...)
			if ref == nil {
				continue
			}
			targets := cg.referenced(from, ref)
			if mc, ok := ref.Subject.(lang.ModuleCallRef); ok {
				targets = cg.moduleContents(from.Child(mc.Name))
			}
			if len(targets) == 0 {
				// As Terraform: the first undeclared object of the list,
				// in the words of any other reference to it.
				diags = append(diags, cg.nodeErrs(n, undeclaredDependency(ref, trav, from))...)
				return
			}
			for _, t := range targets {
				cg.g.Connect(n, t)
			}
		}
	}
	for _, key := range sortedKeys(cg.resources) {
		n := cg.resources[key]
		connectDeps(n, n.addr.Module, n.cfg.DependsOn)
	}
	for _, key := range sortedKeys(cg.outputs) {
		n := cg.outputs[key]
		connectDeps(n, n.path, n.cfg.DependsOn)
	}
	for _, key := range sortedKeys(cg.modules) {
		n := cg.modules[key]
		connectDeps(n, n.path.Parent(), n.call.DependsOn)
	}
	for _, key := range sortedKeys(cg.resources) {
		if n := cg.resources[key]; n.addr.Resource.Mode == addrs.DataResourceMode {
			n.dependsOn = append(cg.explicitDeps(w.e.Config, n), cg.directManagedRefs(n)...)
		}
	}
	cg.forceCreateBeforeDestroy()
	return cg, diags
}

// forceCreateBeforeDestroy marks every managed resource that a resource
// with create_before_destroy depends on, directly or through anything
// else (locals, variables, modules, other resources), as
// create-before-destroy too. Terraform does the same: the replacement of
// the dependent must exist before the old dependency goes, so the
// dependency cannot be destroyed first.
func (cg *configGraph) forceCreateBeforeDestroy() {
	for _, key := range sortedKeys(cg.resources) {
		n := cg.resources[key]
		if n.cfg.Managed == nil || !n.cfg.Managed.CreateBeforeDestroy {
			continue
		}
		for _, d := range cg.g.Descendants(n) {
			if r, ok := d.(*resourceNode); ok && r.addr.Resource.Mode == addrs.ManagedResourceMode {
				r.forcedCBD = true
			}
		}
	}
}

// directManagedRefs returns the managed resources a data resource's own
// arguments refer to. As in Terraform, a pending change to one of them
// defers the read to apply even when the values referred to are known
// (a file a managed resource is about to write, say); references through
// locals or module variables do not.
func (cg *configGraph) directManagedRefs(n *resourceNode) []addrs.ConfigResource {
	var out []addrs.ConfigResource
	for _, d := range cg.g.DependsOn(n) {
		if r, ok := d.(*resourceNode); ok && r.addr.Resource.Mode == addrs.ManagedResourceMode {
			out = append(out, r.addr)
		}
	}
	return out
}

// explicitDeps returns the managed resources a data resource waits for
// through depends_on: its own, and that of every module call it is inside.
// A target that is not a managed resource (a module, an output, another
// data resource) stands for the managed resources it refers to.
func (cg *configGraph) explicitDeps(cfg *configs.Config, n *resourceNode) []addrs.ConfigResource {
	seen := map[node]bool{}
	var out []addrs.ConfigResource
	var visit func(node)
	visit = func(v node) {
		if seen[v] {
			return
		}
		seen[v] = true
		if r, ok := v.(*resourceNode); ok && r.addr.Resource.Mode == addrs.ManagedResourceMode {
			out = append(out, r.addr)
			return
		}
		for _, d := range cg.g.DependsOn(v) {
			if _, ok := d.(*providerNode); !ok {
				visit(d)
			}
		}
	}
	targets := func(from addrs.Module, deps []hcl.Traversal) {
		for _, trav := range deps {
			ref, _ := lang.ParseRef(trav)
			if ref == nil {
				continue
			}
			ts := cg.referenced(from, ref)
			if mc, ok := ref.Subject.(lang.ModuleCallRef); ok {
				ts = cg.moduleContents(from.Child(mc.Name))
			}
			for _, t := range ts {
				visit(t)
			}
		}
	}
	targets(n.addr.Module, n.cfg.DependsOn)
	for p := n.addr.Module; !p.IsRoot(); p = p.Parent() {
		if c := cfg.Descendant(p); c != nil && c.Call != nil {
			targets(p.Parent(), c.Call.DependsOn)
		}
	}
	return out
}

// addModuleNodes adds the nodes of one module of the tree.
func (w *walker) addModuleNodes(cg *configGraph, c *configs.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	mod := c.Module
	if c.Call != nil {
		n := &moduleNode{path: c.Path, call: c.Call}
		cg.modules[c.Path.String()] = n
		cg.g.Add(n)
		if parent := c.Path.Parent(); !parent.IsRoot() {
			cg.g.Connect(n, cg.modules[parent.String()])
		}
	}
	for _, name := range sortedKeys(mod.Variables) {
		n := &varNode{path: c.Path, cfg: mod.Variables[name], call: c.Call}
		cg.vars[n.String()] = n
		cg.g.Add(n)
	}
	for _, name := range sortedKeys(mod.Locals) {
		n := &localNode{path: c.Path, cfg: mod.Locals[name]}
		cg.locals[n.String()] = n
		cg.g.Add(n)
	}
	for _, key := range sortedKeys(mod.ProviderConfigs) {
		p := mod.ProviderConfigs[key]
		if c.Call != nil {
			if _, passed := c.Call.PassedFor(configs.ProviderRef{Name: p.Name, Alias: p.Alias}); passed {
				continue // a proxy for the caller's configuration
			}
		}
		addr := addrs.AbsProviderConfig{Module: c.Path, Provider: mod.ProviderForLocalName(p.Name), Alias: p.Alias}
		n := &providerNode{addr: addr, cfg: p}
		cg.providers[addr.String()] = n
		cg.g.Add(n)
	}
	addResources := func(m map[string]*configs.Resource) {
		for _, key := range sortedKeys(m) {
			r := m[key]
			paddr, pkey, pdiags := resourceProvider(c, r)
			for _, d := range pdiags {
				// Resources using the same configuration a module call
				// passes get the same error, about the call: once.
				if !hasDiag(diags, d) {
					diags = append(diags, d)
				}
			}
			n := &resourceNode{addr: addrs.ConfigResource{Module: c.Path, Resource: r.Addr()}, cfg: r, provider: paddr, providerKey: pkey}
			cg.resources[n.addr.String()] = n
			cg.g.Add(n)
			cg.g.Connect(n, cg.providerNode(paddr))
		}
	}
	addResources(mod.ManagedResources)
	addResources(mod.DataResources)
	addResources(mod.EphemeralResources)
	for _, name := range sortedKeys(mod.Checks) {
		n := &checkNode{path: c.Path, cfg: mod.Checks[name]}
		cg.g.Add(n)
		// A check waits for its own data sources, referred to or not.
		for _, r := range n.cfg.DataResources {
			if rn, ok := cg.resources[addrs.ConfigResource{Module: c.Path, Resource: r.Addr()}.String()]; ok {
				cg.g.Connect(n, rn)
			}
		}
	}
	for _, name := range sortedKeys(mod.Outputs) {
		n := &outputNode{path: c.Path, cfg: mod.Outputs[name]}
		cg.outputs[n.String()] = n
		cg.g.Add(n)
	}
	return diags
}

// nodeModule returns the module a node belongs to: the module whose
// expansion it needs.
func nodeModule(n node) addrs.Module {
	switch n := n.(type) {
	case *varNode:
		return n.path
	case *localNode:
		return n.path
	case *outputNode:
		return n.path
	case *resourceNode:
		return n.addr.Module
	case *providerNode:
		return n.addr.Module
	case *checkNode:
		return n.path
	}
	return addrs.RootModule
}

// referencesModule returns the module a node's expressions are written in:
// a module call's expansion is set by arguments of the module block in the
// caller.
func referencesModule(n node) addrs.Module {
	if n, ok := n.(*moduleNode); ok {
		return n.path.Parent()
	}
	return nodeModule(n)
}

// providerNode returns the node of a provider configuration, adding one
// for an implied (block-less) configuration.
func (cg *configGraph) providerNode(addr addrs.AbsProviderConfig) *providerNode {
	addr = addr.Config()
	if n, ok := cg.providers[addr.String()]; ok {
		return n
	}
	n := &providerNode{addr: addr}
	cg.providers[addr.String()] = n
	cg.g.Add(n)
	return n
}

// referenced returns the nodes a reference made in module m needs.
func (cg *configGraph) referenced(m addrs.Module, ref *lang.Reference) []node {
	one := func(n node, ok bool) []node {
		if !ok {
			return nil
		}
		return []node{n}
	}
	switch s := ref.Subject.(type) {
	case lang.InputVariable:
		n, ok := cg.vars[inModule(m, "var."+s.Name)]
		return one(n, ok)
	case lang.LocalValue:
		n, ok := cg.locals[inModule(m, "local."+s.Name)]
		return one(n, ok)
	case lang.ResourceRef:
		n, ok := cg.resources[addrs.ConfigResource{Module: m, Resource: s.Resource}.String()]
		return one(n, ok)
	case lang.ModuleCallRef:
		child := m.Child(s.Name)
		mn, ok := cg.modules[child.String()]
		if !ok {
			return nil
		}
		out := []node{mn}
		if name := referencedOutput(ref.Remaining); name != "" {
			if on, ok := cg.outputs[inModule(child, "output."+name)]; ok {
				return append(out, on)
			}
		}
		for _, key := range sortedKeys(cg.outputs) {
			if on := cg.outputs[key]; on.path.Equal(child) {
				out = append(out, on)
			}
		}
		return out
	}
	return nil
}

// connectRefs connects n to what references made in module m name, and
// reports references to undeclared objects once each.
func (w *walker) connectRefs(cg *configGraph, n node, m addrs.Module, refs []*lang.Reference, diags *hcl.Diagnostics, reported map[string]bool) {
	for _, ref := range refs {
		for _, target := range cg.referenced(m, ref) {
			cg.g.Connect(n, target)
		}
		for _, d := range w.undeclaredRef(m, ref) {
			if key := d.Subject.String() + d.Summary; !reported[key] {
				reported[key] = true
				*diags = append(*diags, d)
				if d.Severity == hcl.DiagError {
					cg.refErrs[n] = append(cg.refErrs[n], d)
				}
			}
		}
	}
}

// undeclaredRef reports a reference made in module m to a variable, local
// value, resource or module call the module does not declare.
func (w *walker) undeclaredRef(m addrs.Module, ref *lang.Reference) hcl.Diagnostics {
	cfg := w.e.Config.Descendant(m)
	if cfg == nil {
		return nil
	}
	d := &moduleData{ev: w.ev, mi: staticInstance(m), cfg: cfg}
	var diags hcl.Diagnostics
	switch s := ref.Subject.(type) {
	case lang.InputVariable:
		_, diags = d.GetInputVariable(s.Name, ref.SourceRange)
	case lang.LocalValue:
		_, diags = d.GetLocalValue(s.Name, ref.SourceRange)
	case lang.ResourceRef:
		_, diags = d.GetResource(s, ref.SourceRange)
	case lang.ModuleCallRef:
		if cfg.Children[s.Name] == nil {
			_, diags = d.GetModuleCall(s.Name, moduleRefRange(ref))
		}
	}
	return diags
}

// moduleRefRange returns the range of a reference to a module call as
// Terraform reports it: through the instance key and the output name,
// when there are (module.x[0].out).
func moduleRefRange(ref *lang.Reference) hcl.Range {
	rng, rest := ref.SourceRange, ref.Remaining
	if len(rest) > 0 {
		if _, ok := rest[0].(hcl.TraverseIndex); ok {
			rng = hcl.RangeBetween(rng, rest[0].SourceRange())
			rest = rest[1:]
		}
	}
	if len(rest) > 0 {
		if _, ok := rest[0].(hcl.TraverseAttr); ok {
			rng = hcl.RangeBetween(rng, rest[0].SourceRange())
		}
	}
	return rng
}

// referencedOutput returns the output a module reference names, as in
// module.x.out or module.x[0].out, or "" when it names the whole module.
func referencedOutput(rest hcl.Traversal) string {
	if len(rest) > 0 {
		if _, ok := rest[0].(hcl.TraverseIndex); ok {
			rest = rest[1:]
		}
	}
	if len(rest) > 0 {
		if a, ok := rest[0].(hcl.TraverseAttr); ok {
			return a.Name
		}
	}
	return ""
}

// moduleContents returns the resources and outputs of a module and the
// modules it calls, what depends_on = [module.x] waits for.
func (cg *configGraph) moduleContents(p addrs.Module) []node {
	var out []node
	for _, key := range sortedKeys(cg.resources) {
		if n := cg.resources[key]; n.addr.Module.HasPrefix(p) {
			out = append(out, n)
		}
	}
	for _, key := range sortedKeys(cg.outputs) {
		if n := cg.outputs[key]; n.path.HasPrefix(p) {
			out = append(out, n)
		}
	}
	if n, ok := cg.modules[p.String()]; ok {
		out = append(out, n)
	}
	return out
}

// nodeReferences returns the references a configuration node's
// expressions make.
func (w *walker) nodeReferences(ctx context.Context, n node) ([]*lang.Reference, hcl.Diagnostics) {
	switch n := n.(type) {
	case *varNode:
		// The references of its validation rules; a child's module block
		// argument is connected by buildConfigGraph.
		var refs []*lang.Reference
		var diags hcl.Diagnostics
		for _, v := range n.cfg.Validations {
			r, d := lang.ReferencesInExpr(v.Condition)
			refs, diags = append(refs, r...), append(diags, d...)
			r, d = lang.ReferencesInExpr(v.ErrorMessage)
			refs, diags = append(refs, r...), append(diags, d...)
		}
		return refs, diags
	case *localNode:
		return lang.ReferencesInExpr(n.cfg.Expr)
	case *checkNode:
		var refs []*lang.Reference
		var diags hcl.Diagnostics
		for _, rule := range n.cfg.Asserts {
			for _, e := range []hcl.Expression{rule.Condition, rule.ErrorMessage} {
				r, d := lang.ReferencesInExpr(e)
				refs, diags = append(refs, r...), append(diags, d...)
			}
		}
		return refs, diags
	case *moduleNode:
		var refs []*lang.Reference
		var diags hcl.Diagnostics
		exprs := []hcl.Expression{n.call.Count, n.call.ForEach, n.call.Enabled}
		for _, pp := range n.call.Providers {
			exprs = append(exprs, pp.InParent.KeyExpr)
		}
		for _, e := range exprs {
			r, d := lang.ReferencesInExpr(e)
			refs, diags = append(refs, r...), append(diags, d...)
		}
		return refs, diags
	case *outputNode:
		refs, diags := lang.ReferencesInExpr(n.cfg.Expr)
		// Preconditions are evaluated with the value: they wait for what
		// they refer to, or they would see it unknown and pass.
		r, d := conditionReferences(n.cfg.Preconditions)
		return append(refs, r...), append(diags, d...)
	case *providerNode:
		if n.cfg == nil {
			return nil, nil
		}
		refs, diags := lang.ReferencesInExpr(n.cfg.ForEach)
		schema, err := w.ps.schema(ctx, n.addr)
		if err != nil {
			return refs, diags // reported when the node runs
		}
		r, d := lang.BlockReferences(n.cfg.Config, schema.Provider.Block)
		return append(refs, r...), append(diags, d...)
	case *resourceNode:
		var refs []*lang.Reference
		var diags hcl.Diagnostics
		exprs := []hcl.Expression{n.cfg.Count, n.cfg.ForEach, n.cfg.Enabled}
		if n.cfg.ProviderRef != nil {
			exprs = append(exprs, n.cfg.ProviderRef.KeyExpr)
		}
		for _, e := range exprs {
			r, d := lang.ReferencesInExpr(e)
			refs, diags = append(refs, r...), append(diags, d...)
		}
		if n.cfg.Managed != nil {
			r, d := w.e.provisionerReferences(n.cfg.Managed.Provisioners)
			refs, diags = append(refs, r...), append(diags, d...)
			for _, rules := range [][]*configs.CheckRule{n.cfg.Managed.Preconditions, n.cfg.Managed.Postconditions} {
				r, d = conditionReferences(rules)
				refs, diags = append(refs, r...), append(diags, d...)
			}
		}
		for _, rules := range [][]*configs.CheckRule{n.cfg.Preconditions, n.cfg.Postconditions} {
			r, d := conditionReferences(rules)
			refs, diags = append(refs, r...), append(diags, d...)
		}
		// An import block's ID is evaluated when its target is planned.
		for _, im := range w.e.Config.Module.Imports {
			if im.To.ContainingResource().Config().String() == n.addr.String() {
				for _, e := range append([]hcl.Expression{im.ID, im.Identity, im.ForEach, im.ToKey}, im.ToModuleKeys...) {
					r, d := lang.ReferencesInExpr(e)
					refs, diags = append(refs, r...), append(diags, d...)
				}
			}
		}
		schema, _, err := w.resourceSchema(ctx, n.addr.Resource, n.provider)
		if err != nil {
			return refs, diags // reported when the node runs
		}
		if r, ok := w.preparedBlock(n.cfg.Config, schema).References(); ok {
			// The references evaluating the block finds, found once.
			return append(refs, r...), diags
		}
		r, d := lang.BlockReferences(n.cfg.Config, schema)
		return append(refs, r...), append(diags, d...)
	}
	return nil, nil
}

// conditionReferences returns the references of the conditions and error
// messages of precondition and postcondition blocks.
func conditionReferences(rules []*configs.CheckRule) ([]*lang.Reference, hcl.Diagnostics) {
	var refs []*lang.Reference
	var diags hcl.Diagnostics
	for _, rule := range rules {
		for _, e := range []hcl.Expression{rule.Condition, rule.ErrorMessage} {
			r, d := lang.ReferencesInExpr(e)
			refs, diags = append(refs, r...), append(diags, d...)
		}
	}
	return refs, diags
}

// resourceDeps returns the resources a resource node depends on directly,
// looking through locals and variables: what the state records as the
// object's dependencies.
func (cg *configGraph) resourceDeps(n *resourceNode) []addrs.AbsResource {
	seen := map[node]bool{}
	var out []addrs.AbsResource
	var visit func(node)
	visit = func(v node) {
		for _, d := range cg.g.DependsOn(v) {
			if seen[d] {
				continue
			}
			seen[d] = true
			switch d := d.(type) {
			case *resourceNode:
				out = append(out, staticAbs(d.addr))
			case *localNode, *varNode, *outputNode, *moduleNode:
				visit(d)
			}
		}
	}
	visit(n)
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// staticAbs returns a resource's address with no module instance keys, the
// form state files record dependencies in.
func staticAbs(r addrs.ConfigResource) addrs.AbsResource {
	return r.Resource.Absolute(staticInstance(r.Module))
}

// resourceProvider resolves the provider configuration a resource in
// module c uses: a provider block in the module, one its caller passes
// with the providers argument, or, for a default (unaliased)
// configuration, the caller's own, up to an implied one in the root. When
// the configuration uses for_each, the key expression says which of its
// instances each resource instance uses.
func resourceProvider(c *configs.Config, r *configs.Resource) (addrs.AbsProviderConfig, *providerKeyExpr, hcl.Diagnostics) {
	var key *providerKeyExpr
	if r.ProviderRef != nil && r.ProviderRef.KeyExpr != nil {
		key = &providerKeyExpr{expr: r.ProviderRef.KeyExpr}
	}
	ref := configs.ProviderRef{Name: r.ProviderLocalName()}
	if r.ProviderRef != nil {
		ref = *r.ProviderRef
	}
	want := ref
	// via is the last reference in a providers argument followed: the
	// configuration a caller passes in.
	var via *configs.ProviderRef
	for cur := c; ; {
		// A configuration the caller passes in takes the place of the
		// module's own block, which is then an empty proxy block (a
		// non-empty one is an error when the configuration is loaded).
		if cur.Call != nil {
			if passed, ok := cur.Call.PassedFor(ref); ok {
				if passed.KeyExpr != nil {
					key = &providerKeyExpr{expr: passed.KeyExpr, call: cur.Path}
				}
				ref, cur, via = passed, cur.Parent, &passed
				continue
			}
		}
		fqn := cur.Module.ProviderForLocalName(ref.Name)
		if _, ok := cur.Module.ProviderConfigs[ref.String()]; ok {
			return addrs.AbsProviderConfig{Module: cur.Path, Provider: fqn, Alias: ref.Alias}, key, nil
		}
		if ref.Alias == "" {
			if cur.Parent == nil {
				return addrs.AbsProviderConfig{Provider: fqn}, key, nil
			}
			// Inherit the caller's default configuration of the same
			// provider, whatever the caller calls it.
			ref, cur = configs.ProviderRef{Name: localNameFor(cur.Parent.Module, fqn)}, cur.Parent
			continue
		}
		if via != nil {
			// The caller passes a configuration it does not have.
			where := "the root module"
			if !cur.Path.IsRoot() {
				where = cur.Path.String()
			}
			return addrs.AbsProviderConfig{Module: cur.Path, Provider: fqn, Alias: ref.Alias}, nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Provider configuration not present",
				Detail:   fmt.Sprintf("The providers argument passes provider configuration %s, but %s declares no such configuration. Add a provider %q block with alias = %q to %s.", via, where, via.Name, via.Alias, where),
				Subject:  via.NameRange.Ptr(),
			}}
		}
		detail := fmt.Sprintf("The resource %s refers to provider configuration %s, which is not declared. Add a provider %q block with alias = %q.", r.Addr(), want, want.Name, want.Alias)
		if !c.Path.IsRoot() {
			detail = fmt.Sprintf("The resource %s in %s refers to provider configuration %s, which no provider block declares and the module's callers do not pass in. Pass one with the module block's providers argument, such as providers = { %s = %s }.", r.Addr(), c.Path, want, want, want)
		}
		return addrs.AbsProviderConfig{Module: c.Path, Provider: c.Module.ProviderForLocalName(want.Name), Alias: want.Alias}, nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Provider configuration not present",
			Detail:   detail,
			Subject:  rangeOf(r),
		}}
	}
}

func hasDiag(diags hcl.Diagnostics, d *hcl.Diagnostic) bool {
	for _, have := range diags {
		if have.Summary == d.Summary && have.Detail == d.Detail && have.Subject != nil && d.Subject != nil && *have.Subject == *d.Subject {
			return true
		}
	}
	return false
}

func rangeOf(r *configs.Resource) *hcl.Range {
	if r.ProviderRef != nil {
		return r.ProviderRef.NameRange.Ptr()
	}
	return r.DeclRange.Ptr()
}

// localNameFor returns the local name a module uses for a provider: its
// required_providers entry, or the provider's type.
func localNameFor(m *configs.Module, p addrs.Provider) string {
	for _, name := range sortedKeys(m.RequiredProviders) {
		if m.RequiredProviders[name].Source == p {
			return name
		}
	}
	return p.Type
}

// undeclaredDependency reports a depends_on entry that names nothing
// declared in module from.
func undeclaredDependency(ref *lang.Reference, trav hcl.Traversal, from addrs.Module) hcl.Diagnostics {
	module := "the root module"
	if !from.IsRoot() {
		module = from.String()
	}
	switch s := ref.Subject.(type) {
	case lang.ResourceRef:
		return undeclaredResource(s.Resource, module, trav.SourceRange())
	case lang.ModuleCallRef:
		return undeclared("module", s.Name, trav.SourceRange(), fmt.Sprintf("No module call named %q is declared in %s.", s.Name, module))
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid depends_on reference",
		Detail:   fmt.Sprintf("%s is not declared in this module. depends_on may refer only to resources, data resources and modules declared in the same module.", ref.Subject),
		Subject:  trav.SourceRange().Ptr(),
	}}
}

func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// cycleDiags reports cycles in g as errors.
func cycleDiags(g *dag.Graph[node]) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, c := range g.Cycles() {
		names := make([]string, len(c))
		for i, n := range c {
			names[i] = n.String()
		}
		sort.Strings(names)
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Cycle: " + joinNames(names),
			Detail:   "These objects refer to each other, so none of them can be evaluated first. Remove one of the references to break the cycle.",
		})
	}
	return diags
}

func joinNames(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}
