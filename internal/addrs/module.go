package addrs

import "strings"

// ModuleInstanceStep is one `module.NAME[KEY]` step of a module instance path.
type ModuleInstanceStep struct {
	Name string
	Key  InstanceKey
}

// ModuleInstance is the path from the root module to a module instance; the
// root module is the empty path.
type ModuleInstance []ModuleInstanceStep

// RootModuleInstance is the root module.
var RootModuleInstance ModuleInstance

// IsRoot reports whether m is the root module.
func (m ModuleInstance) IsRoot() bool { return len(m) == 0 }

// String returns `module.a.module.b["x"]`, or "" for the root module.
func (m ModuleInstance) String() string {
	var b strings.Builder
	for i, s := range m {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString("module.")
		b.WriteString(s.Name)
		b.WriteString(KeyString(s.Key))
	}
	return b.String()
}

// Compare orders module instances step by step, by call name and then by
// instance key; a path sorts before the paths it contains.
func (m ModuleInstance) Compare(o ModuleInstance) int {
	for i := 0; i < len(m) && i < len(o); i++ {
		if m[i].Name != o[i].Name {
			if m[i].Name < o[i].Name {
				return -1
			}
			return 1
		}
		if c := CompareKeys(m[i].Key, o[i].Key); c != 0 {
			return c
		}
	}
	return len(m) - len(o)
}

// Module returns the static module path, dropping instance keys.
func (m ModuleInstance) Module() Module {
	ret := make(Module, len(m))
	for i, s := range m {
		ret[i] = s.Name
	}
	return ret
}

// Module is a static module path (names only); the root is empty.
type Module []string

// RootModule is the root module path.
var RootModule Module

// IsRoot reports whether m is the root module.
func (m Module) IsRoot() bool { return len(m) == 0 }

// String returns `module.a.module.b`.
func (m Module) String() string {
	parts := make([]string, len(m))
	for i, n := range m {
		parts[i] = "module." + n
	}
	return strings.Join(parts, ".")
}

// Child returns the instance of the module call name with key inside m.
func (m ModuleInstance) Child(name string, key InstanceKey) ModuleInstance {
	ret := make(ModuleInstance, len(m), len(m)+1)
	copy(ret, m)
	return append(ret, ModuleInstanceStep{Name: name, Key: key})
}

// Parent returns the module instance that contains m; the root's parent is
// the root.
func (m ModuleInstance) Parent() ModuleInstance {
	if len(m) == 0 {
		return m
	}
	return m[:len(m)-1]
}

// Child returns the path of the module call name inside m.
func (m Module) Child(name string) Module {
	ret := make(Module, len(m), len(m)+1)
	copy(ret, m)
	return append(ret, name)
}

// Parent returns the module that contains m; the root's parent is the root.
func (m Module) Parent() Module {
	if len(m) == 0 {
		return m
	}
	return m[:len(m)-1]
}

// Equal reports whether two static paths are the same.
func (m Module) Equal(o Module) bool {
	if len(m) != len(o) {
		return false
	}
	for i := range m {
		if m[i] != o[i] {
			return false
		}
	}
	return true
}

// HasPrefix reports whether p is m or one of its ancestors.
func (m Module) HasPrefix(p Module) bool {
	return len(p) <= len(m) && m[:len(p)].Equal(p)
}

// ConfigResource is a resource block in a module of the configuration,
// independent of module and resource instances.
type ConfigResource struct {
	Module   Module
	Resource Resource
}

// String returns `module.a.module.b.TYPE.NAME`.
func (r ConfigResource) String() string {
	if r.Module.IsRoot() {
		return r.Resource.String()
	}
	return r.Module.String() + "." + r.Resource.String()
}

// AppendString appends r.String() to buf, as Resource.AppendString.
func (r ConfigResource) AppendString(buf []byte) []byte {
	if !r.Module.IsRoot() {
		buf = append(buf, r.Module.String()...)
		buf = append(buf, '.')
	}
	return r.Resource.AppendString(buf)
}
