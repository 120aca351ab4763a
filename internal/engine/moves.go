package engine

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/states"
)

// applyMoves renames objects in s as the configuration's moved blocks say,
// in order, then applies the moves Terraform implies when a resource starts
// or stops using count (TYPE.NAME <-> TYPE.NAME[0]). It returns each moved
// instance's previous address, keyed by its new address.
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
	for _, m := range cfg.Module.Moved {
		if m.From.Instance {
			from, to := m.From.Resource.Instance(m.From.Key), m.To.Resource.Instance(m.To.Key)
			if s.MoveInstance(from, to) {
				record(from, to)
			}
			continue
		}
		r := s.Resource(m.From.Resource)
		if r == nil {
			continue
		}
		keys := r.SortedKeys()
		if s.MoveResource(m.From.Resource, m.To.Resource) {
			for _, k := range keys {
				record(m.From.Resource.Instance(k), m.To.Resource.Instance(k))
			}
		}
	}
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

// checkMoves reports moved blocks whose source resource is still declared:
// an object cannot be both moved away and kept. Sources naming one instance
// are checked by checkMovedInstances, once count and for_each are known.
func checkMoves(cfg *configs.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, m := range cfg.Module.Moved {
		rc := cfg.Module.ManagedResources[m.From.Resource.Resource.String()]
		if rc == nil || m.From.Instance || !m.From.Resource.Module.IsRoot() {
			continue
		}
		diags = append(diags, movedStillExists(m, "resource", rc.DeclRange))
	}
	return diags
}

// checkMovedInstances reports moved blocks whose source instance is still
// one of its resource's instances. It runs after planning, when count and
// for_each can be evaluated.
func (pw *planWalk) checkMovedInstances() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, m := range pw.e.Config.Module.Moved {
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

// movedStillExists is Terraform's error for a moved block whose source
// (what is "resource" or "instance") is still declared at decl.
func movedStillExists(m *configs.Moved, what string, decl hcl.Range) *hcl.Diagnostic {
	declared := "resource"
	if what == "instance" {
		declared = "resource instance"
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Moved object still exists",
		Detail: fmt.Sprintf("This statement declares a move from %s, but that %s is still declared at %s:%d,%d.\n\nChange your configuration so that this %s will be declared as %s instead.",
			m.From, declared, decl.Filename, decl.Start.Line, decl.Start.Column, what, m.To),
		Subject: m.DeclRange.Ptr(),
	}
}
