package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/states"
)

// applyMoves renames objects in s as the configuration's moved blocks say,
// module by module from the root and in file order within a module (a
// child module's blocks apply in each of its instances), then applies the
// moves Terraform implies when a resource starts or stops using count
// (TYPE.NAME <-> TYPE.NAME[0]). It returns each moved instance's previous
// address, keyed by its new address.
func applyMoves(cfg *configs.Config, s *states.State) map[string]addrs.AbsResourceInstance {
	prev := map[string]addrs.AbsResourceInstance{}
	record := func(from, to addrs.AbsResourceInstance) {
		orig := from
		if p, ok := prev[from.String()]; ok {
			orig = p // a chain of moves keeps the first address
			delete(prev, from.String())
		}
		prev[to.String()] = orig
	}
	moveResource := func(from, to addrs.AbsResource) {
		r := s.Resource(from)
		if r == nil {
			return
		}
		keys := r.SortedKeys()
		if s.MoveResource(from, to) {
			for _, k := range keys {
				record(from.Instance(k), to.Instance(k))
			}
		}
	}
	cfg.DeepEach(func(c *configs.Config) {
		for _, m := range c.Module.Moved {
			for _, mi := range stateModuleInstances(s, c.Path) {
				switch {
				case m.IsModule:
					moveModule(s, mi, m, moveResource)
				case m.From.Instance:
					from := m.From.Resource.Instance(m.From.Key)
					to := m.To.Resource.Instance(m.To.Key)
					from.Module, to.Module = joinModule(mi, from.Module), joinModule(mi, to.Module)
					if s.MoveInstance(from, to) {
						record(from, to)
					}
				default:
					from, to := m.From.Resource, m.To.Resource
					from.Module, to.Module = joinModule(mi, from.Module), joinModule(mi, to.Module)
					moveResource(from, to)
				}
			}
		}
	})
	for _, r := range s.SortedResources() {
		addr := r.Addr
		rc := cfg.Resource(addr.Module.Module(), addr.Resource)
		if rc == nil || addr.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		switch {
		case rc.Count != nil && len(r.Instances) == 1 && r.Instances[addrs.NoKey] != nil:
			from, to := addr.Instance(addrs.NoKey), addr.Instance(addrs.IntKey(0))
			if s.MoveInstance(from, to) {
				record(from, to)
			}
		case rc.Count == nil && rc.ForEach == nil && r.Instances[addrs.NoKey] == nil && r.Instances[addrs.IntKey(0)] != nil:
			from, to := addr.Instance(addrs.IntKey(0)), addr.Instance(addrs.NoKey)
			if s.MoveInstance(from, to) {
				record(from, to)
			}
		}
	}
	return prev
}

// moveModule moves every resource in the module instances a module moved
// block names, inside module instance mi: all instances of the call (with
// their keys) or just the one instance named.
func moveModule(s *states.State, mi addrs.ModuleInstance, m *configs.Moved, moveResource func(from, to addrs.AbsResource)) {
	from, to := joinModule(mi, m.FromModule), joinModule(mi, m.ToModule)
	for _, r := range s.SortedResources() {
		rest, ok := trimModule(r.Addr.Module, from, m.ModuleInstance)
		if !ok {
			continue
		}
		dest := joinModule(to, nil)
		if !m.ModuleInstance {
			// The whole call moves: each instance keeps its key.
			dest[len(dest)-1].Key = r.Addr.Module[len(from)-1].Key
		}
		moveResource(r.Addr, r.Addr.Resource.Absolute(joinModule(dest, rest)))
	}
}

// trimModule reports whether module instance m is inside prefix (with its
// keys when keyed, or any instance of prefix's last call otherwise) and
// returns the steps after it.
func trimModule(m, prefix addrs.ModuleInstance, keyed bool) (addrs.ModuleInstance, bool) {
	if len(m) < len(prefix) {
		return nil, false
	}
	for i, step := range prefix {
		if m[i].Name != step.Name {
			return nil, false
		}
		last := i == len(prefix)-1
		if (keyed || !last) && addrs.CompareKeys(m[i].Key, step.Key) != 0 {
			return nil, false
		}
	}
	return m[len(prefix):], true
}

// joinModule returns the module instance rel inside base.
func joinModule(base, rel addrs.ModuleInstance) addrs.ModuleInstance {
	out := make(addrs.ModuleInstance, 0, len(base)+len(rel))
	return append(append(out, base...), rel...)
}

// stateModuleInstances returns the instances of a static module path that
// hold resources in s: where a child module's moved blocks apply.
func stateModuleInstances(s *states.State, p addrs.Module) []addrs.ModuleInstance {
	if p.IsRoot() {
		return []addrs.ModuleInstance{addrs.RootModuleInstance}
	}
	seen := map[string]bool{}
	var out []addrs.ModuleInstance
	for _, r := range s.SortedResources() {
		m := r.Addr.Module
		if len(m) < len(p) || !m[:len(p)].Module().Equal(p) {
			continue
		}
		mi := m[:len(p)]
		if !seen[mi.String()] {
			seen[mi.String()] = true
			out = append(out, append(addrs.ModuleInstance{}, mi...))
		}
	}
	return out
}

// checkMoves reports moved blocks whose source resource is still declared:
// an object cannot be both moved away and kept. Sources naming one instance
// are checked by checkMovedInstances, once count and for_each are known.
func checkMoves(cfg *configs.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	cfg.DeepEach(func(c *configs.Config) {
		for _, m := range c.Module.Moved {
			if m.IsModule {
				// A whole module call moved away must not still be called.
				if m.ModuleInstance || len(m.FromModule) != 1 {
					continue
				}
				if call, ok := c.Module.ModuleCalls[m.FromModule[0].Name]; ok {
					diags = append(diags, movedStillExists(m, "module call", call.DeclRange))
				}
				continue
			}
			rc := c.Module.ManagedResources[m.From.Resource.Resource.String()]
			if rc == nil || m.From.Instance || !m.From.Resource.Module.IsRoot() {
				continue
			}
			diags = append(diags, movedStillExists(m, "resource", rc.DeclRange))
		}
	})
	return diags
}

// checkMovedInstances reports moved blocks whose source instance is still
// one of its resource's instances. It runs after planning, when count and
// for_each can be evaluated.
func (pw *planWalk) checkMovedInstances() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, m := range pw.e.Config.Module.Moved {
		if m.IsModule {
			diags = append(diags, pw.checkMovedModuleInstance(m)...)
			continue
		}
		rc := pw.e.Config.Module.ManagedResources[m.From.Resource.Resource.String()]
		if rc == nil || !m.From.Instance || !m.From.Resource.Module.IsRoot() {
			continue
		}
		x, xdiags := pw.expandResource(rc, addrs.RootModuleInstance)
		if xdiags.HasErrors() || !x.has(m.From.Key) {
			continue
		}
		decl := rc.DeclRange
		if rc.Count != nil {
			decl = rc.Count.Range()
		} else if rc.ForEach != nil {
			decl = rc.ForEach.Range()
		}
		diags = append(diags, movedStillExists(m, "instance", decl))
	}
	return diags
}

// checkMovedModuleInstance reports a root module moved block whose source
// module instance is still one of its call's instances.
func (pw *planWalk) checkMovedModuleInstance(m *configs.Moved) hcl.Diagnostics {
	if !m.ModuleInstance {
		return nil // whole calls are checked before planning
	}
	from := m.FromModule
	child := pw.e.Config.Descendant(from.Module())
	if child == nil {
		return nil
	}
	for _, mi := range pw.ev.moduleInstances(from.Module()) {
		if mi.String() != from.String() {
			continue
		}
		decl := child.Call.DeclRange
		if child.Call.Count != nil {
			decl = child.Call.Count.Range()
		} else if child.Call.ForEach != nil {
			decl = child.Call.ForEach.Range()
		}
		return hcl.Diagnostics{movedStillExists(m, "module instance", decl)}
	}
	return nil
}

// movedStillExists is Terraform's error for a moved block whose source
// (what is "resource", "instance", "module call" or "module instance") is
// still declared at decl.
func movedStillExists(m *configs.Moved, what string, decl hcl.Range) *hcl.Diagnostic {
	declared := what
	switch what {
	case "instance":
		declared = "resource instance"
	case "module call":
		what = "call"
	case "module instance":
		what = "instance"
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Moved object still exists",
		Detail: fmt.Sprintf("This statement declares a move from %s, but that %s is still declared at %s:%d,%d.\n\nChange your configuration so that this %s will be declared as %s instead.",
			m.FromAddr(), declared, decl.Filename, decl.Start.Line, decl.Start.Column, what, m.ToAddr()),
		Subject: m.DeclRange.Ptr(),
	}
}

// checkMoveStatements reports moved blocks that contradict each other, in
// each module: two destinations for one source, two sources for one
// destination, and chains of moves that end where they started.
func checkMoveStatements(cfg *configs.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	cfg.DeepEach(func(c *configs.Config) {
		diags = append(diags, ambiguousMoves(c.Module.Moved)...)
		diags = append(diags, cyclicMoves(c.Module.Moved)...)
	})
	return diags
}

func ambiguousMoves(moved []*configs.Moved) hcl.Diagnostics {
	var diags hcl.Diagnostics
	from, to := map[string]*configs.Moved{}, map[string]*configs.Moved{}
	for _, m := range moved {
		kind := "resource"
		if m.IsModule {
			kind = "module"
		}
		if prev, ok := from[m.FromAddr()]; ok && prev.ToAddr() != m.ToAddr() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Ambiguous move statements",
				Detail: fmt.Sprintf("A statement at %s declared that %s moved to %s, but this statement instead declares that it moved to %s.\n\nEach %s can move to only one destination %s.",
					shortPos(prev.DeclRange), m.FromAddr(), prev.ToAddr(), m.ToAddr(), kind, kind),
				Subject: m.DeclRange.Ptr(),
			})
			continue
		}
		if prev, ok := to[m.ToAddr()]; ok && prev.FromAddr() != m.FromAddr() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Ambiguous move statements",
				Detail: fmt.Sprintf("A statement at %s declared that %s moved to %s, but this statement instead declares that %s moved there.\n\nEach %s can have moved from only one source %s.",
					shortPos(prev.DeclRange), prev.FromAddr(), m.ToAddr(), m.FromAddr(), kind, kind),
				Subject: m.DeclRange.Ptr(),
			})
			continue
		}
		from[m.FromAddr()], to[m.ToAddr()] = m, m
	}
	return diags
}

func cyclicMoves(moved []*configs.Moved) hcl.Diagnostics {
	var diags hcl.Diagnostics
	byFrom := map[string]*configs.Moved{}
	for _, m := range moved {
		if _, ok := byFrom[m.FromAddr()]; !ok {
			byFrom[m.FromAddr()] = m
		}
	}
	reported := map[*configs.Moved]bool{}
	for _, start := range moved {
		if reported[start] {
			continue
		}
		// Follow the chain from start; a cycle brings it back.
		var chain []*configs.Moved
		seen := map[*configs.Moved]bool{}
		for m := start; m != nil && !seen[m]; m = byFrom[m.ToAddr()] {
			seen[m] = true
			chain = append(chain, m)
		}
		if last := chain[len(chain)-1]; byFrom[last.ToAddr()] != start {
			continue
		}
		sort.Slice(chain, func(i, j int) bool { return chain[i].DeclRange.Start.Byte < chain[j].DeclRange.Start.Byte })
		var b strings.Builder
		for _, m := range chain {
			reported[m] = true
			fmt.Fprintf(&b, "\n  - %s: %s → %s", shortPos(m.DeclRange), moveEndpoint(m.FromAddr(), m), moveEndpoint(m.ToAddr(), m))
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Cyclic dependency in move statements",
			Detail:   "The following chained move statements form a cycle, and so there is no final location to move objects to:" + b.String() + "\n\nA chain of move statements must end with an address that doesn't appear in any other statements, and which typically also refers to an object still declared in the configuration.",
		})
	}
	return diags
}

// moveEndpoint writes a move's address as Terraform lists it in a cycle:
// a whole resource or module call with [*].
func moveEndpoint(addr string, m *configs.Moved) string {
	if (m.IsModule && !m.ModuleInstance) || (!m.IsModule && !m.From.Instance) {
		return addr + "[*]"
	}
	return addr
}

func shortPos(r hcl.Range) string {
	return fmt.Sprintf("%s:%d,%d", r.Filename, r.Start.Line, r.Start.Column)
}
