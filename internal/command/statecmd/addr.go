package statecmd

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// stateTarget is an address given to a state command: a module instance
// (module.a["x"].module.b), a whole resource (module.a.aws_instance.b) or
// one resource instance (aws_instance.b[0]).
type stateTarget struct {
	module addrs.ModuleInstance
	// resource is nil when the target is a module.
	resource *addrs.Resource
	// key is the instance key; hasKey says whether the address had an
	// index, which makes it an instance rather than a whole resource.
	key    addrs.InstanceKey
	hasKey bool
}

func (t stateTarget) isModule() bool   { return t.resource == nil }
func (t stateTarget) isInstance() bool { return t.resource != nil && t.hasKey }

// String returns the address in its canonical form.
func (t stateTarget) String() string {
	switch {
	case t.isModule():
		return t.module.String()
	case t.hasKey:
		return t.instance().String()
	default:
		return t.absResource().String()
	}
}

func (t stateTarget) absResource() addrs.AbsResource {
	return addrs.AbsResource{Module: t.module, Resource: *t.resource}
}

func (t stateTarget) instance() addrs.AbsResourceInstance {
	return t.absResource().Instance(t.key)
}

// parseStateTarget parses a module, resource or resource instance address.
func parseStateTarget(s string) (stateTarget, hcl.Diagnostics) {
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return stateTarget{}, diags
	}
	if mod, ok := addrs.ParseModuleInstance(trav); ok {
		return stateTarget{module: mod}, nil
	}
	inst, diags := addrs.ParseAbsResourceInstance(trav)
	if diags.HasErrors() {
		return stateTarget{}, diags
	}
	_, hasKey := trav[len(trav)-1].(hcl.TraverseIndex)
	r := inst.Resource.Resource
	return stateTarget{module: inst.Module, resource: &r, key: inst.Resource.Key, hasKey: hasKey}, nil
}

// containsInstance reports whether the target selects an instance. A
// module step without a key selects every instance of that module call, as
// Terraform's -target does; resources and instances match exactly.
func (t stateTarget) containsInstance(addr addrs.AbsResourceInstance) bool {
	if t.isModule() {
		return t.module.Selects(addr.Module)
	}
	if t.module.Compare(addr.Module) != 0 || addr.Resource.Resource != *t.resource {
		return false
	}
	return !t.hasKey || addr.Resource.Key == t.key
}

// moduleHasPrefix reports whether m is prefix or lies inside it, keys
// compared exactly.
func moduleHasPrefix(m, prefix addrs.ModuleInstance) bool {
	return len(m) >= len(prefix) && m[:len(prefix)].Compare(prefix) == 0
}

// matchingInstances returns the instances of s the target selects, in
// the order `state list` prints them.
func matchingInstances(s *states.State, t stateTarget) []addrs.AbsResourceInstance {
	var ret []addrs.AbsResourceInstance
	for _, addr := range listOrder(s) {
		if t.containsInstance(addr) {
			ret = append(ret, addr)
		}
	}
	return ret
}

// listOrder returns every instance address in the order Terraform's state
// commands print them: modules by depth and then by address, and within a
// module the state file's order of resources and keys.
func listOrder(s *states.State) []addrs.AbsResourceInstance {
	all := s.AllInstances()
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i].Module, all[j].Module
		if len(a) != len(b) {
			return len(a) < len(b)
		}
		return a.String() < b.String()
	})
	return all
}
