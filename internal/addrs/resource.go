package addrs

import (
	"fmt"
	"strings"
)

// ResourceMode distinguishes managed resources from data sources.
type ResourceMode rune

const (
	// ManagedResourceMode is a `resource` block.
	ManagedResourceMode ResourceMode = 'M'
	// DataResourceMode is a `data` block.
	DataResourceMode ResourceMode = 'D'
	// EphemeralResourceMode is an `ephemeral` block: opened during a run,
	// never stored in state or plans.
	EphemeralResourceMode ResourceMode = 'E'
)

// StateName returns the mode as the state file spells it.
func (m ResourceMode) StateName() string {
	if m == DataResourceMode {
		return "data"
	}
	return "managed"
}

// Resource is a resource in a module, independent of instances.
type Resource struct {
	Mode ResourceMode
	Type string
	Name string
}

// String returns `TYPE.NAME`, `data.TYPE.NAME` or `ephemeral.TYPE.NAME`.
func (r Resource) String() string {
	switch r.Mode {
	case DataResourceMode:
		return "data." + r.Type + "." + r.Name
	case EphemeralResourceMode:
		return "ephemeral." + r.Type + "." + r.Name
	}
	return r.Type + "." + r.Name
}

// AppendString appends r.String() to buf: a map keyed by addresses can
// be read with m[string(r.AppendString(buf))] without building a string.
func (r Resource) AppendString(buf []byte) []byte {
	switch r.Mode {
	case DataResourceMode:
		buf = append(buf, "data."...)
	case EphemeralResourceMode:
		buf = append(buf, "ephemeral."...)
	}
	buf = append(buf, r.Type...)
	buf = append(buf, '.')
	return append(buf, r.Name...)
}

// Instance returns the address of one instance of the resource.
func (r Resource) Instance(key InstanceKey) ResourceInstance {
	return ResourceInstance{Resource: r, Key: key}
}

// Absolute places the resource in a module instance.
func (r Resource) Absolute(m ModuleInstance) AbsResource {
	return AbsResource{Module: m, Resource: r}
}

// ImpliedProvider returns the provider type a resource type belongs to when
// no provider is given: the prefix before the first underscore.
func (r Resource) ImpliedProvider() string {
	typ, _, _ := strings.Cut(r.Type, "_")
	return typ
}

// ResourceInstance is one instance of a resource.
type ResourceInstance struct {
	Resource Resource
	Key      InstanceKey
}

// String returns the address, e.g. `terraform_data.a[0]`.
func (r ResourceInstance) String() string {
	return r.Resource.String() + KeyString(r.Key)
}

// Absolute places the instance in a module instance.
func (r ResourceInstance) Absolute(m ModuleInstance) AbsResourceInstance {
	return AbsResourceInstance{Module: m, Resource: r}
}

// AbsResource is a resource inside a particular module instance.
type AbsResource struct {
	Module   ModuleInstance
	Resource Resource
}

// String returns the address, e.g. `module.x.terraform_data.a`.
func (r AbsResource) String() string {
	if r.Module.IsRoot() {
		return r.Resource.String()
	}
	return r.Module.String() + "." + r.Resource.String()
}

// AppendString appends r.String() to buf, as Resource.AppendString.
func (r AbsResource) AppendString(buf []byte) []byte {
	if !r.Module.IsRoot() {
		buf = append(buf, r.Module.String()...)
		buf = append(buf, '.')
	}
	return r.Resource.AppendString(buf)
}

// Instance returns the address of one instance of the resource.
func (r AbsResource) Instance(key InstanceKey) AbsResourceInstance {
	return AbsResourceInstance{Module: r.Module, Resource: r.Resource.Instance(key)}
}

// Config returns the static resource an AbsResource is an instance of.
func (r AbsResource) Config() ConfigResource {
	return ConfigResource{Module: r.Module.Module(), Resource: r.Resource}
}

// AbsResourceInstance is one resource instance in a module instance.
type AbsResourceInstance struct {
	Module   ModuleInstance
	Resource ResourceInstance
}

// String returns the full address, e.g. `module.x["a"].terraform_data.b[0]`.
func (r AbsResourceInstance) String() string {
	if r.Module.IsRoot() {
		return r.Resource.String()
	}
	return r.Module.String() + "." + r.Resource.String()
}

// ContainingResource returns the resource the instance belongs to.
func (r AbsResourceInstance) ContainingResource() AbsResource {
	return AbsResource{Module: r.Module, Resource: r.Resource.Resource}
}

// Less orders instance addresses for stable output as Terraform does:
// shallower modules first, then by module instance, resource address and
// key.
func (r AbsResourceInstance) Less(o AbsResourceInstance) bool {
	if len(r.Module) != len(o.Module) {
		return len(r.Module) < len(o.Module)
	}
	if c := r.Module.Compare(o.Module); c != 0 {
		return c < 0
	}
	rs, os := r.Resource.Resource.String(), o.Resource.Resource.String()
	if rs != os {
		return rs < os
	}
	return CompareKeys(r.Resource.Key, o.Resource.Key) < 0
}

// GoString helps debugging.
func (r AbsResourceInstance) GoString() string { return fmt.Sprintf("addrs(%s)", r) }
