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
	g         *dag.Graph[node]
	vars      map[string]*varNode
	locals    map[string]*localNode
	outputs   map[string]*outputNode
	resources map[string]*resourceNode // by addrs.Resource.String()
	providers map[string]*providerNode // by AbsProviderConfig.String()
}

// buildConfigGraph adds nodes for variables, locals, outputs, provider
// configurations and resources, connected by their references. Schemas
// are needed to find references inside resource bodies.
func (w *walker) buildConfigGraph(ctx context.Context) (*configGraph, hcl.Diagnostics) {
	cfg := w.e.Config
	cg := &configGraph{
		g:         dag.New[node](),
		vars:      map[string]*varNode{},
		locals:    map[string]*localNode{},
		outputs:   map[string]*outputNode{},
		resources: map[string]*resourceNode{},
		providers: map[string]*providerNode{},
	}
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(cfg.Variables) {
		n := &varNode{cfg: cfg.Variables[name]}
		cg.vars[name] = n
		cg.g.Add(n)
	}
	for _, name := range sortedKeys(cfg.Locals) {
		n := &localNode{cfg: cfg.Locals[name]}
		cg.locals[name] = n
		cg.g.Add(n)
	}
	for _, key := range sortedKeys(cfg.ProviderConfigs) {
		p := cfg.ProviderConfigs[key]
		addr := addrs.AbsProviderConfig{Provider: cfg.ProviderForLocalName(p.Name), Alias: p.Alias}
		n := &providerNode{addr: addr, cfg: p}
		cg.providers[addr.String()] = n
		cg.g.Add(n)
	}
	addResources := func(m map[string]*configs.Resource) {
		for _, key := range sortedKeys(m) {
			r := m[key]
			paddr, pdiags := w.resourceProvider(r)
			diags = append(diags, pdiags...)
			n := &resourceNode{addr: r.Addr().Absolute(addrs.RootModuleInstance), cfg: r, provider: paddr}
			cg.resources[key] = n
			cg.g.Add(n)
			pn := cg.providerNode(paddr)
			cg.g.Connect(n, pn)
		}
	}
	addResources(cfg.ManagedResources)
	addResources(cfg.DataResources)
	for _, name := range sortedKeys(cfg.Outputs) {
		n := &outputNode{cfg: cfg.Outputs[name]}
		cg.outputs[name] = n
		cg.g.Add(n)
	}

	// Edges from references.
	for _, n := range cg.g.Vertices() {
		refs, rdiags := w.nodeReferences(ctx, n)
		diags = append(diags, rdiags...)
		for _, ref := range refs {
			if target := cg.referenced(ref.Subject); target != nil {
				cg.g.Connect(n, target)
			}
		}
	}
	// depends_on edges.
	connectDeps := func(n node, deps []hcl.Traversal) {
		for _, trav := range deps {
			ref, rdiags := lang.ParseRef(trav)
			diags = append(diags, rdiags...)
			if ref == nil {
				continue
			}
			target := cg.referenced(ref.Subject)
			if target == nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid depends_on reference",
					Detail:   fmt.Sprintf("%s is not declared in this module. depends_on may refer only to resources, data resources and modules declared in the same module.", ref.Subject),
					Subject:  trav.SourceRange().Ptr(),
				})
				continue
			}
			cg.g.Connect(n, target)
		}
	}
	for _, n := range cg.resources {
		connectDeps(n, n.cfg.DependsOn)
	}
	for _, n := range cg.outputs {
		connectDeps(n, n.cfg.DependsOn)
	}
	return cg, diags
}

// providerNode returns the node of a provider configuration, adding one
// for an implied (block-less) configuration.
func (cg *configGraph) providerNode(addr addrs.AbsProviderConfig) *providerNode {
	if n, ok := cg.providers[addr.String()]; ok {
		return n
	}
	n := &providerNode{addr: addr}
	cg.providers[addr.String()] = n
	cg.g.Add(n)
	return n
}

// referenced returns the node a reference subject names, or nil.
func (cg *configGraph) referenced(sub lang.Referenceable) node {
	switch s := sub.(type) {
	case lang.InputVariable:
		if n, ok := cg.vars[s.Name]; ok {
			return n
		}
	case lang.LocalValue:
		if n, ok := cg.locals[s.Name]; ok {
			return n
		}
	case lang.ResourceRef:
		if n, ok := cg.resources[s.Resource.String()]; ok {
			return n
		}
	}
	return nil
}

// nodeReferences returns the references a configuration node's
// expressions make.
func (w *walker) nodeReferences(ctx context.Context, n node) ([]*lang.Reference, hcl.Diagnostics) {
	switch n := n.(type) {
	case *varNode:
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
	case *outputNode:
		return lang.ReferencesInExpr(n.cfg.Expr)
	case *providerNode:
		if n.cfg == nil {
			return nil, nil
		}
		schema, err := w.ps.schema(ctx, n.addr)
		if err != nil {
			return nil, nil // reported when the node runs
		}
		return lang.BlockReferences(n.cfg.Config, schema.Provider.Block)
	case *resourceNode:
		var refs []*lang.Reference
		var diags hcl.Diagnostics
		for _, e := range []hcl.Expression{n.cfg.Count, n.cfg.ForEach} {
			r, d := lang.ReferencesInExpr(e)
			refs, diags = append(refs, r...), append(diags, d...)
		}
		if n.cfg.Managed != nil {
			for _, e := range n.cfg.Managed.ReplaceTriggeredBy {
				r, d := lang.ReferencesInExpr(e)
				refs, diags = append(refs, r...), append(diags, d...)
			}
		}
		// An import block's ID is evaluated when its target is planned.
		for _, im := range w.e.Config.Imports {
			if im.To.Resource.Resource == n.cfg.Addr() {
				for _, e := range []hcl.Expression{im.ID, im.ForEach, im.ToKey} {
					r, d := lang.ReferencesInExpr(e)
					refs, diags = append(refs, r...), append(diags, d...)
				}
			}
		}
		schema, _, err := w.resourceSchema(ctx, n.cfg.Addr(), n.provider)
		if err != nil {
			return refs, diags // reported when the node runs
		}
		r, d := lang.BlockReferences(n.cfg.Config, schema)
		return append(refs, r...), append(diags, d...)
	}
	return nil, nil
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
				out = append(out, d.addr)
			case *localNode, *varNode:
				visit(d)
			}
		}
	}
	visit(n)
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// resourceProvider resolves the provider configuration a resource uses.
func (w *walker) resourceProvider(r *configs.Resource) (addrs.AbsProviderConfig, hcl.Diagnostics) {
	cfg := w.e.Config
	name := r.ProviderLocalName()
	addr := addrs.AbsProviderConfig{Provider: cfg.ProviderForLocalName(name)}
	if r.ProviderRef != nil && r.ProviderRef.Alias != "" {
		addr.Alias = r.ProviderRef.Alias
		if _, ok := cfg.ProviderConfigs[r.ProviderRef.String()]; !ok {
			return addr, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Provider configuration not present",
				Detail:   fmt.Sprintf("The resource %s refers to provider configuration %s, which is not declared. Add a provider %q block with alias = %q.", r.Addr(), r.ProviderRef, r.ProviderRef.Name, r.ProviderRef.Alias),
				Subject:  r.ProviderRef.NameRange.Ptr(),
			}}
		}
	}
	return addr, nil
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
