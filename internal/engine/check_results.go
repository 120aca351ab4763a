package engine

import (
	"sort"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/plans"
)

// checkObject names a checkable configuration object.
type checkObject struct {
	kind     string
	module   addrs.Module
	resource addrs.Resource // kind resource
	name     string         // the other kinds
}

func (o checkObject) key() string {
	if o.kind == plans.CheckKindResource {
		return o.kind + "|" + o.module.String() + "|" + o.resource.String()
	}
	return o.kind + "|" + o.module.String() + "|" + o.name
}

// checkRecorder collects the results of conditions during a walk: what
// the plan document's "checks" says.
type checkRecorder struct {
	mu        sync.Mutex
	objects   map[string]*plans.CheckResult
	instances map[string]*plans.CheckInstanceResult // by object key, module instance and instance key
}

// report records one condition's status for an instance of obj; an
// instance's status is the worst of its conditions'.
func (r *checkRecorder) report(obj checkObject, mi addrs.ModuleInstance, key addrs.InstanceKey, status plans.CheckStatus, problem string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.objects == nil {
		r.objects = map[string]*plans.CheckResult{}
	}
	if r.instances == nil {
		r.instances = map[string]*plans.CheckInstanceResult{}
	}
	objKey := obj.key()
	res, ok := r.objects[objKey]
	if !ok {
		res = &plans.CheckResult{Kind: obj.kind, Module: obj.module, Resource: obj.resource, Name: obj.name, Status: plans.CheckPass}
		r.objects[objKey] = res
	}
	instKey := objKey + "|" + mi.String() + addrs.KeyString(key)
	inst, ok := r.instances[instKey]
	if !ok {
		inst = &plans.CheckInstanceResult{Module: mi, Key: key, Status: plans.CheckPass}
		r.instances[instKey] = inst
		res.Instances = append(res.Instances, inst)
	}
	inst.Status = inst.Status.Worse(status)
	res.Status = res.Status.Worse(status)
	if problem != "" {
		inst.Problems = append(inst.Problems, problem)
	}
}

// declare lists a checkable object with no results yet: status pass and no
// instances when planning finished (it has none, such as a resource with
// count = 0), unknown when planning did not get to it.
func (r *checkRecorder) declare(obj checkObject, finished bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.objects == nil {
		r.objects = map[string]*plans.CheckResult{}
	}
	if _, ok := r.objects[obj.key()]; ok {
		return
	}
	status := plans.CheckPass
	if !finished {
		status = plans.CheckUnknown
	}
	r.objects[obj.key()] = &plans.CheckResult{Kind: obj.kind, Module: obj.module, Resource: obj.resource, Name: obj.name, Status: status}
}

// declareCheckable declares every checkable object of the configuration,
// as Terraform's plan lists them all.
func (w *walker) declareCheckable(finished bool) {
	w.e.Config.DeepEach(func(c *configs.Config) {
		m := c.Module
		for _, name := range sortedKeys(m.Variables) {
			if len(m.Variables[name].Validations) > 0 {
				w.checks.declare(checkObject{kind: plans.CheckKindVariable, module: c.Path, name: name}, finished)
			}
		}
		for _, name := range sortedKeys(m.Outputs) {
			if len(m.Outputs[name].Preconditions) > 0 {
				w.checks.declare(checkObject{kind: plans.CheckKindOutput, module: c.Path, name: name}, finished)
			}
		}
		for _, name := range sortedKeys(m.Checks) {
			w.checks.declare(checkObject{kind: plans.CheckKindCheck, module: c.Path, name: name}, finished)
		}
		for _, key := range sortedKeys(m.ManagedResources) {
			r := m.ManagedResources[key]
			if r.Managed != nil && len(r.Managed.Preconditions)+len(r.Managed.Postconditions) > 0 {
				w.checks.declare(checkObject{kind: plans.CheckKindResource, module: c.Path, resource: r.Addr()}, finished)
			}
		}
		for _, key := range sortedKeys(m.DataResources) {
			r := m.DataResources[key]
			if r.Check == "" && len(r.Preconditions)+len(r.Postconditions) > 0 {
				w.checks.declare(checkObject{kind: plans.CheckKindResource, module: c.Path, resource: r.Addr()}, finished)
			}
		}
	})
}

// destroyCheckResults replaces what a destroy plan recorded with what
// Terraform's says: nothing is checked, so every checkable object is
// unknown, with no instances apart from the root module's outputs, which
// the plan removes.
func (w *walker) destroyCheckResults() {
	w.checks.mu.Lock()
	w.checks.objects, w.checks.instances = nil, nil
	w.checks.mu.Unlock()
	for _, name := range sortedKeys(w.e.Config.Module.Outputs) {
		if len(w.e.Config.Module.Outputs[name].Preconditions) > 0 {
			obj := checkObject{kind: plans.CheckKindOutput, module: addrs.RootModule, name: name}
			w.checks.report(obj, addrs.RootModuleInstance, addrs.NoKey, plans.CheckUnknown, "")
		}
	}
	w.declareCheckable(false)
}

// results returns every object's results, instances in address order.
func (r *checkRecorder) results() []*plans.CheckResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*plans.CheckResult, 0, len(r.objects))
	for _, res := range r.objects {
		sort.Slice(res.Instances, func(i, j int) bool {
			a, b := res.Instances[i], res.Instances[j]
			if c := a.Module.Compare(b.Module); c != 0 {
				return c < 0
			}
			return addrs.CompareKeys(a.Key, b.Key) < 0
		})
		out = append(out, res)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Kind+out[i].Module.String()+out[i].Name+out[i].Resource.String() < out[j].Kind+out[j].Module.String()+out[j].Name+out[j].Resource.String()
	})
	return out
}

// rule evaluates a condition of obj's instance (mi, key) in scope, records
// its status and returns the diagnostics for a failure.
func (w *walker) rule(obj checkObject, mi addrs.ModuleInstance, key addrs.InstanceKey, scope *lang.Scope, condition, message hcl.Expression, summary, suffix string) hcl.Diagnostics {
	status, problem, diags := checkRule(scope, condition, message, summary, suffix, obj.kind == plans.CheckKindVariable)
	w.checks.report(obj, mi, key, status, problem)
	if status == plans.CheckFail {
		markCondition(diags, obj)
	}
	return diags
}

// configAddr returns the checkable object's address in the
// configuration, such as var.v or module.m.terraform_data.a.
func (o checkObject) configAddr() string {
	r := plans.CheckResult{Kind: o.kind, Module: o.module, Resource: o.resource, Name: o.name}
	return r.ConfigAddr()
}

// conditionDiag marks the diagnostic of a failed condition (a variable
// validation, a precondition or postcondition) with the checkable object
// it belongs to, for strata test's expect_failures.
type conditionDiag struct{ checkable string }

// markCondition marks the diagnostics of a failed condition of obj.
func markCondition(diags hcl.Diagnostics, obj checkObject) {
	for _, d := range diags {
		switch x := d.Extra.(type) {
		case nil:
			d.Extra = conditionDiag{checkable: obj.configAddr()}
		case checkDiag:
			x.checkable = obj.configAddr()
			d.Extra = x
		}
	}
}

// ConditionObject returns the address of the checkable object (var.v,
// output.o, check.c, a resource; prefixed by its module outside the
// root) whose failed condition produced d, or "" for other diagnostics.
func ConditionObject(d *hcl.Diagnostic) string {
	switch x := d.Extra.(type) {
	case conditionDiag:
		return x.checkable
	case checkDiag:
		return x.checkable
	}
	return ""
}
