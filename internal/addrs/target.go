package addrs

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Target is what -target and -replace name: a whole resource, one
// instance of it, or (for -target) a module call or module instance and
// everything in it. A module step written without a key matches every
// instance of that call, as in Terraform.
type Target struct {
	Resource AbsResource
	// Key is the instance key; it is meaningful only when Instance is set.
	Key      InstanceKey
	Instance bool
	// Module is set when the target is a module: Resource.Module is its
	// path and Resource.Resource is empty.
	Module bool
}

// ParseTarget parses `TYPE.NAME`, `TYPE.NAME[KEY]`, the data and module
// forms of them, or a module address such as `module.a` or `module.a[0]`.
func ParseTarget(s string) (Target, hcl.Diagnostics) {
	if mi, ok := ParseModuleInstanceStr(s); ok {
		return Target{Resource: AbsResource{Module: mi}, Module: true}, nil
	}
	inst, diags := ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		return Target{}, diags
	}
	return Target{Resource: inst.ContainingResource(), Key: inst.Resource.Key, Instance: strings.HasSuffix(strings.TrimSpace(s), "]")}, nil
}

// ParseModuleInstanceStr parses an address made only of module steps,
// such as module.a[0].module.b.
func ParseModuleInstanceStr(s string) (ModuleInstance, bool) {
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, false
	}
	return ParseModuleInstance(trav)
}

// ParseModuleInstance parses a traversal made only of module steps, such
// as module.a or module.a[0].module.b["x"]. It reports false for anything
// else, such as a resource address.
func ParseModuleInstance(trav hcl.Traversal) (ModuleInstance, bool) {
	var mi ModuleInstance
	for i := 0; i < len(trav); i++ {
		if stepName(trav[i]) != "module" || i+1 >= len(trav) {
			return nil, false
		}
		call, ok := trav[i+1].(hcl.TraverseAttr)
		if !ok {
			return nil, false
		}
		step := ModuleInstanceStep{Name: call.Name}
		i++
		if i+1 < len(trav) {
			if ix, ok := trav[i+1].(hcl.TraverseIndex); ok {
				k, err := keyFromValue(ix.Key)
				if err != nil {
					return nil, false
				}
				step.Key = k
				i++
			}
		}
		mi = append(mi, step)
	}
	return mi, len(mi) > 0
}

// SplitModuleInstance splits an address such as module.a[0].output.o
// into its module instance (module.a[0]) and the names that follow it
// (output, o); an address with no module steps has the root module.
func SplitModuleInstance(s string) (ModuleInstance, []string, bool) {
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, nil, false
	}
	i := 0
	for i+1 < len(trav) && stepName(trav[i]) == "module" {
		end := i + 2
		if end < len(trav) {
			if _, ok := trav[end].(hcl.TraverseIndex); ok {
				end++
			}
		}
		if end >= len(trav) {
			break
		}
		i = end
	}
	var mi ModuleInstance
	if i > 0 {
		var ok bool
		if mi, ok = ParseModuleInstance(trav[:i]); !ok {
			return nil, nil, false
		}
	}
	var names []string
	for _, t := range trav[i:] {
		if n := stepName(t); n != "" {
			names = append(names, n)
		}
	}
	return mi, names, true
}

func stepName(s hcl.Traverser) string {
	switch s := s.(type) {
	case hcl.TraverseRoot:
		return s.Name
	case hcl.TraverseAttr:
		return s.Name
	}
	return ""
}

// String returns the address as given.
func (t Target) String() string {
	switch {
	case t.Module:
		return t.Resource.Module.String()
	case t.Instance:
		return t.Resource.Instance(t.Key).String()
	}
	return t.Resource.String()
}

// ContainsResource reports whether the target covers any instance of r.
func (t Target) ContainsResource(r AbsResource) bool {
	if t.Module {
		return moduleMatches(t.Resource.Module, r.Module, true)
	}
	return t.Resource.Resource == r.Resource && moduleMatches(t.Resource.Module, r.Module, false)
}

// ContainsInstance reports whether the target covers the instance.
func (t Target) ContainsInstance(i AbsResourceInstance) bool {
	if !t.ContainsResource(i.ContainingResource()) {
		return false
	}
	return !t.Instance || CompareKeys(t.Key, i.Resource.Key) == 0
}

// ContainsConfig reports whether the target covers instances of the
// configured resource r in some module instance.
func (t Target) ContainsConfig(r ConfigResource) bool {
	tm := t.Resource.Module.Module()
	if t.Module {
		return r.Module.HasPrefix(tm)
	}
	return t.Resource.Resource == r.Resource && tm.Equal(r.Module)
}

// Selects reports whether module instance m is t or lies inside it,
// as a module target selects it: a step of t without a key matches every
// key.
func (t ModuleInstance) Selects(m ModuleInstance) bool { return moduleMatches(t, m, true) }

// moduleMatches reports whether module instance m is the target's module
// instance t, or inside it when prefix is set. A target step without a
// key matches every key.
func moduleMatches(t, m ModuleInstance, prefix bool) bool {
	if len(m) < len(t) || (!prefix && len(m) != len(t)) {
		return false
	}
	for i, step := range t {
		if m[i].Name != step.Name {
			return false
		}
		if step.Key != NoKey && CompareKeys(step.Key, m[i].Key) != 0 {
			return false
		}
	}
	return true
}
