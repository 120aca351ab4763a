package engine

import (
	"fmt"
	"path/filepath"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/lang"
)

// evaluator holds the values computed so far in one walk and answers
// lang.Data queries from them. Each value is stored once, when the graph
// node that computes it finishes, and read by the nodes that depend on it.
type evaluator struct {
	cfg       *configs.Module
	workspace string
	cwd       string

	// base is the module's scope; its function table is built once per walk.
	base *lang.Scope

	mu        sync.RWMutex
	variables map[string]cty.Value
	locals    map[string]cty.Value
	resources map[string]cty.Value // by addrs.Resource.String()
}

var _ lang.Data = (*evaluator)(nil)

// newEvaluator returns an evaluator for one walk. pure makes impure
// functions (uuid, timestamp, bcrypt) unknown, as they are during plan and
// validate: their values are decided once, at apply.
func newEvaluator(cfg *configs.Module, workspace, cwd string, pure bool) *evaluator {
	ev := &evaluator{
		cfg: cfg, workspace: workspace, cwd: cwd,
		variables: map[string]cty.Value{},
		locals:    map[string]cty.Value{},
		resources: map[string]cty.Value{},
	}
	ev.base = &lang.Scope{Data: ev, BaseDir: cfg.SourceDir, PureOnly: pure}
	return ev
}

// scope returns the module-level scope (no count or each).
func (ev *evaluator) scope() *lang.Scope {
	return ev.base
}

func (ev *evaluator) setVariable(name string, v cty.Value) {
	ev.mu.Lock()
	ev.variables[name] = v
	ev.mu.Unlock()
}

func (ev *evaluator) setLocal(name string, v cty.Value) {
	ev.mu.Lock()
	ev.locals[name] = v
	ev.mu.Unlock()
}

func (ev *evaluator) setResource(addr addrs.Resource, v cty.Value) {
	ev.mu.Lock()
	ev.resources[addr.String()] = v
	ev.mu.Unlock()
}

func undeclared(what, name string, rng hcl.Range, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Reference to undeclared %s", what),
		Detail:   detail,
		Subject:  rng.Ptr(),
	}}
}

// GetInputVariable implements lang.Data.
func (ev *evaluator) GetInputVariable(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if _, ok := ev.cfg.Variables[name]; !ok {
		return cty.DynamicVal, undeclared("input variable", name, rng,
			fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", name, name))
	}
	ev.mu.RLock()
	defer ev.mu.RUnlock()
	if v, ok := ev.variables[name]; ok {
		return v, nil
	}
	return cty.DynamicVal, nil
}

// GetLocalValue implements lang.Data.
func (ev *evaluator) GetLocalValue(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if _, ok := ev.cfg.Locals[name]; !ok {
		return cty.DynamicVal, undeclared("local value", name, rng,
			fmt.Sprintf("A local value with the name %q has not been declared.", name))
	}
	ev.mu.RLock()
	defer ev.mu.RUnlock()
	if v, ok := ev.locals[name]; ok {
		return v, nil
	}
	return cty.DynamicVal, nil
}

// GetResource implements lang.Data.
func (ev *evaluator) GetResource(ref lang.ResourceRef, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	addr := ref.Resource
	var ok bool
	if addr.Mode == addrs.DataResourceMode {
		_, ok = ev.cfg.DataResources[addr.String()]
	} else {
		_, ok = ev.cfg.ManagedResources[addr.String()]
	}
	if !ok {
		what := "resource"
		detail := fmt.Sprintf("A managed resource %q %q has not been declared in the root module.", addr.Type, addr.Name)
		if addr.Mode == addrs.DataResourceMode {
			what = "data resource"
			detail = fmt.Sprintf("A data resource %q %q has not been declared in the root module.", addr.Type, addr.Name)
		}
		return cty.DynamicVal, undeclared(what, addr.String(), rng, detail)
	}
	ev.mu.RLock()
	defer ev.mu.RUnlock()
	if v, ok := ev.resources[addr.String()]; ok {
		return v, nil
	}
	return cty.DynamicVal, nil
}

// GetPathAttr implements lang.Data.
func (ev *evaluator) GetPathAttr(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch name {
	case "module", "root":
		return cty.StringVal(filepath.ToSlash(ev.cfg.SourceDir)), nil
	case "cwd":
		return cty.StringVal(filepath.ToSlash(ev.cwd)), nil
	}
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  `Invalid "path" attribute`,
		Detail:   fmt.Sprintf(`The "path" object does not have an attribute named %q. The supported attributes are path.cwd, path.module, and path.root.`, name),
		Subject:  rng.Ptr(),
	}}
}

// GetTerraformAttr implements lang.Data.
func (ev *evaluator) GetTerraformAttr(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if name == "workspace" {
		return cty.StringVal(ev.workspace), nil
	}
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  `Invalid "terraform" attribute`,
		Detail:   fmt.Sprintf(`The "terraform" object does not have an attribute named %q. The only supported attribute is terraform.workspace, the name of the currently-selected workspace.`, name),
		Subject:  rng.Ptr(),
	}}
}

// GetModuleCall implements lang.Data. Module calls are not supported yet,
// so every reference is to an undeclared module.
func (ev *evaluator) GetModuleCall(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return cty.DynamicVal, undeclared("module", name, rng,
		fmt.Sprintf("No module call named %q is declared in the root module.", name))
}
