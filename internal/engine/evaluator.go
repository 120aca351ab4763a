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
	"github.com/strata-dev/strata/internal/lang/marks"
)

// evaluator holds the values computed so far in one walk and answers
// lang.Data queries from them, per module instance. Each value is stored
// once, when the graph node that computes it finishes, and read by the
// nodes that depend on it.
type evaluator struct {
	cfg       *configs.Config
	workspace string
	cwd       string

	// base is the root module's scope; its function table is built once
	// per walk and shared by every module instance's scope.
	base *lang.Scope

	mu sync.RWMutex
	// variables, locals and outputs are keyed by module instance, then by
	// name. Only child module outputs are kept here.
	variables map[string]map[string]cty.Value
	locals    map[string]map[string]cty.Value
	outputs   map[string]map[string]cty.Value
	resources map[string]cty.Value // by addrs.AbsResource.String()
	// modules holds each module call's expansion, keyed by callKey.
	modules map[string]*expansion
	scopes  map[string]*lang.Scope
	// applying is true in an apply walk: terraform.applying.
	applying bool
	// providerFuncs resolves provider-defined functions; nil where
	// none can be called.
	providerFuncs *providerFunctions
	// overridden holds the module instances strata test's
	// override_module replaces one by one (module.a[1]), with their
	// outputs: they and what is in them are left out of every walk.
	overridden map[string]instanceOverride
}

// instanceOverride is a module instance replaced by given outputs.
type instanceOverride struct {
	mi      addrs.ModuleInstance
	outputs cty.Value
}

// newEvaluator returns an evaluator for one walk. pure makes impure
// functions (uuid, timestamp, bcrypt) unknown, as they are during plan and
// validate: their values are decided once, at apply.
//
// workDir is the absolute working directory relative paths are in (empty:
// the process's), cwd the value of path.cwd.
func newEvaluator(cfg *configs.Config, workspace, workDir, cwd string, pure bool) *evaluator {
	ev := &evaluator{
		cfg: cfg, workspace: workspace, cwd: cwd,
		variables: map[string]map[string]cty.Value{},
		locals:    map[string]map[string]cty.Value{},
		outputs:   map[string]map[string]cty.Value{},
		resources: map[string]cty.Value{},
		modules:   map[string]*expansion{},
		scopes:    map[string]*lang.Scope{},
	}
	// Relative paths in functions start from the root module's directory
	// inside the working directory; their errors name the paths relative
	// to it, as Terraform's do.
	ev.base = &lang.Scope{BaseDir: cfg.Module.SourceDir, WorkDir: workDir, PureOnly: pure}
	ev.base.Data = &moduleData{ev: ev, cfg: cfg}
	ev.scopes[""] = ev.base
	return ev
}

// scope returns the scope of a module instance (no count or each).
func (ev *evaluator) scope(mi addrs.ModuleInstance) *lang.Scope {
	key := mi.String()
	ev.mu.RLock()
	s, ok := ev.scopes[key]
	ev.mu.RUnlock()
	if ok {
		return s
	}
	s = ev.base.WithData(&moduleData{ev: ev, mi: mi, cfg: ev.cfg.Descendant(mi.Module())})
	ev.mu.Lock()
	ev.scopes[key] = s
	ev.mu.Unlock()
	return s
}

// callKey identifies a module call inside one instance of its caller.
func callKey(caller addrs.ModuleInstance, name string) string {
	return caller.String() + "|" + name
}

func setIn(m map[string]map[string]cty.Value, mi addrs.ModuleInstance, name string, v cty.Value) {
	key := mi.String()
	inner := m[key]
	if inner == nil {
		inner = map[string]cty.Value{}
		m[key] = inner
	}
	inner[name] = v
}

func (ev *evaluator) setVariable(mi addrs.ModuleInstance, name string, v cty.Value) {
	ev.mu.Lock()
	setIn(ev.variables, mi, name, v)
	ev.mu.Unlock()
}

func (ev *evaluator) setLocal(mi addrs.ModuleInstance, name string, v cty.Value) {
	ev.mu.Lock()
	setIn(ev.locals, mi, name, v)
	ev.mu.Unlock()
}

func (ev *evaluator) setOutput(mi addrs.ModuleInstance, name string, v cty.Value) {
	ev.mu.Lock()
	setIn(ev.outputs, mi, name, v)
	ev.mu.Unlock()
}

func (ev *evaluator) setResource(addr addrs.AbsResource, v cty.Value) {
	ev.mu.Lock()
	ev.resources[addr.String()] = v
	ev.mu.Unlock()
}

func (ev *evaluator) setModuleExpansion(caller addrs.ModuleInstance, name string, x *expansion) {
	ev.mu.Lock()
	ev.modules[callKey(caller, name)] = x
	ev.mu.Unlock()
}

// moduleExpansion returns the expansion of a module call in one instance
// of its caller, or nil when it has not been expanded.
func (ev *evaluator) moduleExpansion(caller addrs.ModuleInstance, name string) *expansion {
	ev.mu.RLock()
	defer ev.mu.RUnlock()
	return ev.modules[callKey(caller, name)]
}

// moduleInstances returns the instances of a static module path known so
// far: the root, or every expanded instance of each instance of its parent.
func (ev *evaluator) moduleInstances(p addrs.Module) []addrs.ModuleInstance {
	if p.IsRoot() {
		return []addrs.ModuleInstance{addrs.RootModuleInstance}
	}
	name := p[len(p)-1]
	var out []addrs.ModuleInstance
	for _, parent := range ev.moduleInstances(p.Parent()) {
		x := ev.moduleExpansion(parent, name)
		if x == nil {
			continue
		}
		for _, k := range x.keys {
			child := parent.Child(name, k)
			if _, skip := ev.overridden[child.String()]; skip {
				continue
			}
			out = append(out, child)
		}
	}
	return out
}

// instanceKeyData returns count.index or each.key/each.value for the last
// step of a module instance, as its module block's arguments see them.
func (ev *evaluator) instanceKeyData(mi addrs.ModuleInstance) lang.InstanceKeyData {
	if mi.IsRoot() {
		return lang.InstanceKeyData{}
	}
	last := mi[len(mi)-1]
	x := ev.moduleExpansion(mi.Parent(), last.Name)
	if x == nil {
		return lang.InstanceKeyData{}
	}
	return x.keyData(last.Key)
}

// moduleData answers references made in one module instance.
type moduleData struct {
	ev  *evaluator
	mi  addrs.ModuleInstance
	cfg *configs.Config
}

var _ lang.Data = (*moduleData)(nil)

func undeclared(what, name string, rng hcl.Range, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Reference to undeclared %s", what),
		Detail:   detail,
		Subject:  rng.Ptr(),
	}}
}

// undeclaredResource reports a reference to a resource that module (as
// messages name it) does not declare, in Terraform's words.
func undeclaredResource(addr addrs.Resource, module string, rng hcl.Range) hcl.Diagnostics {
	kind := "managed resource"
	if addr.Mode == addrs.DataResourceMode {
		kind = "data resource"
	}
	return undeclared("resource", addr.String(), rng, fmt.Sprintf("A %s %q %q has not been declared in %s.", kind, addr.Type, addr.Name, module))
}

// moduleName is how messages name the module: "the root module" or
// "module.x".
func (d *moduleData) moduleName() string {
	if d.mi.IsRoot() {
		return "the root module"
	}
	return d.cfg.Path.String()
}

func (d *moduleData) get(m map[string]map[string]cty.Value, name string) cty.Value {
	d.ev.mu.RLock()
	defer d.ev.mu.RUnlock()
	if v, ok := m[d.mi.String()][name]; ok {
		return v
	}
	return cty.DynamicVal
}

// GetInputVariable implements lang.Data.
func (d *moduleData) GetInputVariable(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if _, ok := d.cfg.Module.Variables[name]; !ok {
		return cty.DynamicVal, undeclared("input variable", name, rng,
			fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", name, name))
	}
	return d.get(d.ev.variables, name), nil
}

// GetLocalValue implements lang.Data.
func (d *moduleData) GetLocalValue(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if _, ok := d.cfg.Module.Locals[name]; !ok {
		return cty.DynamicVal, undeclared("local value", name, rng,
			fmt.Sprintf("A local value with the name %q has not been declared.", name))
	}
	return d.get(d.ev.locals, name), nil
}

// GetResource implements lang.Data.
func (d *moduleData) GetResource(ref lang.ResourceRef, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	addr := ref.Resource
	if d.ev.cfg.Resource(d.cfg.Path, addr) == nil {
		return cty.DynamicVal, undeclaredResource(addr, d.moduleName(), rng)
	}
	d.ev.mu.RLock()
	defer d.ev.mu.RUnlock()
	if v, ok := d.ev.resources[addr.Absolute(d.mi).String()]; ok {
		return v, nil
	}
	return cty.DynamicVal, nil
}

// GetPathAttr implements lang.Data.
func (d *moduleData) GetPathAttr(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch name {
	case "module":
		return cty.StringVal(filepath.ToSlash(d.cfg.Module.SourceDir)), nil
	case "root":
		return cty.StringVal(filepath.ToSlash(d.ev.cfg.Module.SourceDir)), nil
	case "cwd":
		return cty.StringVal(filepath.ToSlash(d.ev.cwd)), nil
	}
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  `Invalid "path" attribute`,
		Detail:   fmt.Sprintf(`The "path" object does not have an attribute named %q.`, name),
		Subject:  rng.Ptr(),
	}}
}

// GetTerraformAttr implements lang.Data.
func (d *moduleData) GetTerraformAttr(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch name {
	case "workspace":
		return cty.StringVal(d.ev.workspace), nil
	case "applying":
		// True only while applying, and ephemeral: it differs between
		// plan and apply.
		return cty.BoolVal(d.ev.applying).Mark(marks.Ephemeral), nil
	}
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  `Invalid "terraform" attribute`,
		Detail:   fmt.Sprintf(`The "terraform" object does not have an attribute named %q. The only supported attributes are terraform.workspace, the name of the currently-selected workspace, and terraform.applying, a boolean which is true only during apply.`, name),
		Subject:  rng.Ptr(),
	}}
}

// GetModuleCall implements lang.Data: an object of the child's outputs,
// or a tuple (count) or object (for_each) of such objects.
func (d *moduleData) GetModuleCall(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	child := d.cfg.Children[name]
	if child == nil {
		return cty.DynamicVal, undeclared("module", name, rng,
			fmt.Sprintf("No module call named %q is declared in %s.", name, d.moduleName()))
	}
	x := d.ev.moduleExpansion(d.mi, name)
	if x == nil {
		return cty.DynamicVal, nil
	}
	if x.unknown != nil && (child.Call.Count != nil || child.Call.ForEach != nil) {
		// Validate does not know the instance keys: as in Terraform, a
		// counted call is an unknown list and a for_each call an unknown
		// map of objects with the outputs as attributes, so that both
		// module.x[0].out and misspelt output names can be checked.
		atys := make(map[string]cty.Type, len(child.Module.Outputs))
		for oname := range child.Module.Outputs {
			atys[oname] = cty.DynamicPseudoType
		}
		if child.Call.Count != nil {
			return cty.UnknownVal(cty.List(cty.Object(atys))), nil
		}
		return cty.UnknownVal(cty.Map(cty.Object(atys))), nil
	}
	values := make(map[addrs.InstanceKey]cty.Value, len(x.keys))
	d.ev.mu.RLock()
	for _, k := range x.keys {
		got := d.ev.outputs[d.mi.Child(name, k).String()]
		attrs := make(map[string]cty.Value, len(child.Module.Outputs))
		for oname, o := range child.Module.Outputs {
			v, ok := got[oname]
			if !ok {
				v = cty.DynamicVal
			}
			if o.Sensitive {
				v = v.Mark(marks.Sensitive)
			}
			attrs[oname] = v
		}
		values[k] = cty.ObjectVal(attrs)
	}
	d.ev.mu.RUnlock()
	return resourceValue(x, values), nil
}
