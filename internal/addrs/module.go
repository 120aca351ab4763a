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
