package addrs

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Target is what -target and -replace name: a whole resource, or one
// instance of it.
type Target struct {
	Resource AbsResource
	// Key is the instance key; it is meaningful only when Instance is set.
	Key      InstanceKey
	Instance bool
}

// ParseTarget parses `TYPE.NAME`, `TYPE.NAME[KEY]` or the data and module
// forms of them.
func ParseTarget(s string) (Target, hcl.Diagnostics) {
	inst, diags := ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		return Target{}, diags
	}
	return Target{Resource: inst.ContainingResource(), Key: inst.Resource.Key, Instance: strings.HasSuffix(strings.TrimSpace(s), "]")}, nil
}

// String returns the address as given.
func (t Target) String() string {
	if t.Instance {
		return t.Resource.Instance(t.Key).String()
	}
	return t.Resource.String()
}

// ContainsResource reports whether the target covers any instance of r.
func (t Target) ContainsResource(r AbsResource) bool {
	return t.Resource.String() == r.String()
}

// ContainsInstance reports whether the target covers the instance.
func (t Target) ContainsInstance(i AbsResourceInstance) bool {
	if !t.ContainsResource(i.ContainingResource()) {
		return false
	}
	return !t.Instance || CompareKeys(t.Key, i.Resource.Key) == 0
}
