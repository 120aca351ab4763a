package engine

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/dag"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// Apply carries out a plan and returns the new state. The state is
// returned even with errors: it holds everything that was done. When ctx
// is cancelled, no new operations start, providers are asked to stop,
// running operations finish and the state so far is returned.
func (e *Engine) Apply(ctx context.Context, plan *plans.Plan) (*states.State, hcl.Diagnostics) {
	if plan.Errored {
		return plan.PriorState, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot apply incomplete plan",
			Detail:   "strata produced an invalid plan with errors, so it cannot be applied.",
		}}
	}
	if !plan.Applyable() && plan.Changes.HasChanges() {
		// As in Terraform: a refresh-only plan whose only changes are
		// output values not yet known is not applyable.
		return plan.PriorState, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot apply non-applyable plan",
			Detail:   "The given plan is not applyable. If this seems like a bug in strata, then please report it!",
		}}
	}
	aw := e.newApplyWalk(plan)
	w := aw.walker
	defer w.ps.release(ctx)
	diags := aw.buildGraph(ctx)
	if diags.HasErrors() {
		return plan.PriorState, diags
	}
	cg := aw.cg

	// Tell providers to stop when the user interrupts.
	stop := context.AfterFunc(ctx, func() {
		for _, h := range e.Hooks {
			h.Stopping()
		}
		w.ps.stopAll(context.WithoutCancel(ctx))
	})
	defer stop()

	// Provider operations are bounded by -parallelism (walker.acquire);
	// the walk runs a few times as many nodes, so that the next ones have
	// their configuration evaluated when a slot frees. Every ready node at
	// once (thousands, with many independent chains) would each hold a
	// goroutine whose stack grew evaluating, only to wait for a slot.
	diags = collapseCancelled(append(diags, cg.g.WalkWith(ctx, dag.WalkOptions[node]{Parallelism: 4 * e.parallelism(), OnSkip: aw.skipped}, w.closeWhenDone(cg.g, w.withModuleOverrides(aw.visit)))...))
	diags = append(diags, w.closeEphemerals(context.WithoutCancel(ctx))...)
	// A destroy removes the root outputs, unless -target or -exclude
	// limited it: then they keep their values, as in Terraform.
	if plan.Mode == plans.DestroyMode && len(plan.Targets) == 0 && len(plan.Excludes) == 0 {
		for name := range e.Config.Module.Outputs {
			aw.setOutput(name, nil)
		}
	}
	for _, oc := range plan.Changes.Outputs {
		if _, ok := e.Config.Module.Outputs[oc.Name]; !ok && oc.Action == plans.Delete {
			aw.setOutput(oc.Name, nil)
		}
	}
	// The walk is over: its state is the new state, without a copy.
	newState := w.state.Take()
	if plan.Mode != plans.RefreshOnlyMode {
		w.recordProviderConfigs(newState, plan)
	}
	switch plan.Mode {
	case plans.NormalMode, plans.RefreshOnlyMode:
		newState.CheckResults = applyCheckResults(plan.Checks, w.checks.results())
	case plans.DestroyMode:
		// As Terraform, the state keeps the destroy plan's results:
		// every object unknown, since nothing was checked.
		newState.CheckResults = applyCheckResults(plan.Checks, nil)
	}
	return newState, diags
}

// newApplyWalk prepares the walk that applies plan.
func (e *Engine) newApplyWalk(plan *plans.Plan) *applyWalk {
	w := e.newWalker(plan.PriorState.DeepCopy(), false)
	w.ev.base.PlanTimestamp = plan.Timestamp
	w.ev.applying = true
	w.destroying = plan.Mode == plans.DestroyMode
	aw := &applyWalk{walker: w, plan: plan, byResource: map[string][]*plans.ResourceInstanceChange{}, planned: map[string]bool{}, inputs: map[string]InputValue{}}
	w.plannedOutputs = plan.ModuleOutputs
	for _, oc := range plan.Changes.Outputs {
		aw.planned[oc.Name] = true
	}
	for _, c := range plan.Changes.Resources {
		key := c.Addr.ContainingResource().String()
		aw.byResource[key] = append(aw.byResource[key], c)
	}
	for name, v := range plan.VariableValues {
		aw.inputs[name] = InputValue{Value: v}
	}
	return aw
}

// buildGraph builds the apply graph: the configuration's, with a node per
// deletion, ordered as addDestroyNodes explains.
func (aw *applyWalk) buildGraph(ctx context.Context) hcl.Diagnostics {
	cg, diags := aw.buildConfigGraph(ctx)
	if diags.HasErrors() {
		return diags
	}
	aw.cg = cg
	aw.addDestroyNodes()
	aw.checksLast()
	return append(diags, cycleDiags(cg.g)...)
}

// applyWalk is the state of one apply walk.
type applyWalk struct {
	*walker
	plan       *plans.Plan
	cg         *configGraph
	inputs     map[string]InputValue
	byResource map[string][]*plans.ResourceInstanceChange
	destroys   map[string]*destroyNode
	// planned holds the outputs the plan has changes for.
	planned map[string]bool
	// byConfigResource indexes the plan's changes by configuration
	// resource, built when the walk first skips a resource (see
	// resourceChanges).
	byConfigResource map[string][]*plans.ResourceInstanceChange

	// deposedKeys maps instances replaced create-before-destroy to the key
	// their old object was deposed under. Guarded by walker.mu.
	deposedKeys map[string]string
}

// addDestroyNodes adds a node for each deletion in the plan, ordered
// against the resource nodes and each other:
//   - a resource's creates wait for its delete-then-create deletions;
//   - create-then-delete deletions wait for the resource's creates;
//   - an object's deletion waits for the deletion of objects that depend
//     on it, and for the update of configured resources that used to.
func (aw *applyWalk) addDestroyNodes() {
	g := aw.cg.g
	aw.destroys = map[string]*destroyNode{}
	var dependents []destroyDependent
	cbd := map[string][]*destroyNode{}
	for _, c := range aw.plan.Changes.Resources {
		if c.Action != plans.Delete && c.Action != plans.Forget && !c.Action.IsReplace() {
			continue
		}
		dn := &destroyNode{addr: c.Addr, deposed: c.DeposedKey}
		aw.destroys[dn.String()] = dn
		g.Add(dn)
		rn := aw.cg.resources[c.Addr.ContainingResource().Config().String()]
		switch c.Action {
		case plans.DeleteThenCreate:
			g.Connect(rn, dn)
		case plans.CreateThenDelete:
			g.Connect(dn, rn)
			key := c.Addr.ContainingResource().Config().String()
			cbd[key] = append(cbd[key], dn)
		}
		var provider node = aw.cg.providerNode(c.ProviderAddr)
		g.Connect(dn, provider)
		var deps []addrs.AbsResource
		if obj := aw.objectFor(c); obj != nil {
			deps = obj.Dependencies
		}
		if rn != nil {
			// The object's list may be shared with copies of the state.
			deps = slices.Concat(deps, aw.cg.resourceDeps(rn))
		}
		dependents = append(dependents, destroyDependent{n: dn, deps: deps})
	}
	aw.deferCreateBeforeDestroy(cbd)
	byResource := map[string][]*destroyNode{}
	for _, d := range aw.destroys {
		key := d.addr.ContainingResource().Config().String()
		byResource[key] = append(byResource[key], d)
	}
	connectDestroyOrder(g, dependents, byResource)
	// Configured resources that used to depend on a resource being
	// deleted outright are updated first.
	deleted := map[string]bool{}
	for _, c := range aw.plan.Changes.Resources {
		if c.Action == plans.Delete && c.DeposedKey == "" {
			deleted[c.Addr.String()] = true
		}
	}
	if len(deleted) == 0 || aw.plan.Mode == plans.DestroyMode {
		// Nothing to look for in the prior state's dependencies, which
		// hold every transitive dependency of every object: nothing is
		// deleted, or everything is and no configured resource changes.
		return
	}
	for _, r := range aw.plan.PriorState.SortedResources() {
		rn := aw.cg.resources[r.Addr.Config().String()]
		if rn == nil {
			continue
		}
		for _, inst := range r.Instances {
			if inst.Current == nil {
				continue
			}
			for _, dep := range inst.Current.Dependencies {
				for _, target := range byResource[dep.String()] {
					if target.deposed == "" && deleted[target.addr.String()] && !aw.cg.g.HasEdge(rn, aw.cg.resources[dep.Config().String()]) {
						g.Connect(target, rn)
					}
				}
			}
		}
	}
}

// checksLast orders the reads of data sources nested in check blocks after
// every other change, as Terraform does, so that checks see the
// infrastructure as the apply left it.
func (aw *applyWalk) checksLast() {
	var nested []*resourceNode
	for _, rn := range aw.cg.resources {
		if rn.cfg.Check != "" {
			nested = append(nested, rn)
		}
	}
	if len(nested) == 0 {
		return
	}
	for _, n := range aw.cg.g.Vertices() {
		switch n := n.(type) {
		case *resourceNode:
			if n.cfg.Check != "" || n.addr.Resource.Mode != addrs.ManagedResourceMode {
				continue
			}
		case *destroyNode:
		default:
			continue
		}
		for _, rn := range nested {
			aw.cg.g.Connect(rn, n)
		}
	}
}

// deferCreateBeforeDestroy orders the deletion of each object replaced
// create-before-destroy (cbd, keyed by resource) after every configured
// resource that refers to that resource, so that dependents move to the
// new object while the old one still exists, and a failing dependent
// leaves the old object in place.
func (aw *applyWalk) deferCreateBeforeDestroy(cbd map[string][]*destroyNode) {
	if len(cbd) == 0 {
		return
	}
	for _, rn := range aw.cg.resources {
		for _, dep := range aw.cg.resourceDeps(rn) {
			for _, dn := range cbd[dep.String()] {
				aw.cg.g.Connect(dn, rn)
			}
		}
	}
}

// objectFor returns the prior object a change starts from.
func (aw *applyWalk) objectFor(c *plans.ResourceInstanceChange) *states.ObjectSrc {
	if c.DeposedKey != "" {
		return aw.state.Deposed(c.Addr, c.DeposedKey)
	}
	return aw.state.Object(c.Addr)
}

func (aw *applyWalk) visit(ctx context.Context, n node) hcl.Diagnostics {
	switch n := n.(type) {
	case *varNode:
		return aw.evalVariable(n, aw.inputs)
	case *localNode:
		return aw.evalLocal(n)
	case *moduleNode:
		diags := aw.expandModule(n)
		if aw.plan.Mode == plans.DestroyMode {
			return nil
		}
		return diags
	case *providerNode:
		return aw.configureProvider(ctx, n)
	case *resourceNode:
		return aw.applyResource(ctx, n)
	case *destroyNode:
		return aw.applyDestroy(ctx, n)
	case *outputNode:
		if !n.path.IsRoot() {
			return aw.evalChildOutput(n)
		}
		return aw.applyOutput(n)
	case *checkNode:
		// As in Terraform, applying a refresh-only plan checks the
		// assertions too, and records their results.
		if aw.plan.Mode != plans.NormalMode && aw.plan.Mode != plans.RefreshOnlyMode {
			return nil
		}
		// Nor under -target or -exclude, as Terraform: a check is never
		// among what a targeted apply covers.
		if len(aw.plan.Targets) > 0 || len(aw.plan.Excludes) > 0 {
			return nil
		}
		return aw.evalCheck(n, false)
	}
	return nil
}

// skipped tells the hooks that have hooks.SkipHook about the planned
// changes of a node the walk did not visit: those of every instance of a
// resource (in every module instance), or the one deletion of a destroy
// node.
func (aw *applyWalk) skipped(n node, cause dag.SkipCause) {
	var hs []hooks.SkipHook
	for _, h := range aw.e.Hooks {
		if sh, ok := h.(hooks.SkipHook); ok {
			hs = append(hs, sh)
		}
	}
	if len(hs) == 0 {
		return
	}
	hc := hooks.SkipDependencyFailed
	if cause == dag.SkipCancelled {
		hc = hooks.SkipInterrupted
	}
	report := func(c *plans.ResourceInstanceChange) {
		for _, h := range hs {
			h.SkippedApply(c.Addr, c.DeposedKey, c.Action, hc)
		}
	}
	switch n := n.(type) {
	case *resourceNode:
		// The changes applyResourceIn would have made: creates, updates
		// and the create half of replaces (deletions have nodes of their
		// own).
		for _, c := range aw.resourceChanges(n.addr) {
			if c.DeposedKey == "" && c.Action != plans.NoOp && c.Action != plans.Delete {
				report(c)
			}
		}
	case *destroyNode:
		for _, c := range aw.byResource[n.addr.ContainingResource().String()] {
			if c.Addr.String() == n.addr.String() && c.DeposedKey == n.deposed && c.Action != plans.NoOp {
				report(c)
			}
		}
	}
}

// resourceChanges returns the planned changes of a configuration
// resource's instances, in every module instance. Only the walk's
// coordinating goroutine calls it (from skipped), so the index it builds
// on first use needs no lock.
func (aw *applyWalk) resourceChanges(addr addrs.ConfigResource) []*plans.ResourceInstanceChange {
	if aw.byConfigResource == nil {
		aw.byConfigResource = map[string][]*plans.ResourceInstanceChange{}
		for _, c := range aw.plan.Changes.Resources {
			key := c.Addr.ContainingResource().Config().String()
			aw.byConfigResource[key] = append(aw.byConfigResource[key], c)
		}
	}
	return aw.byConfigResource[addr.String()]
}

// applyOutput evaluates an output with the applied values and stores it.
func (aw *applyWalk) applyOutput(n *outputNode) hcl.Diagnostics {
	if aw.plan.Mode == plans.DestroyMode || !aw.planned[n.cfg.Name] {
		// Outputs the plan left out (-target) keep their values.
		return nil
	}
	v, diags := aw.evalOutput(n)
	if diags.HasErrors() {
		return diags
	}
	if !v.IsWhollyKnown() && aw.plan.Mode == plans.RefreshOnlyMode {
		// It refers to something not created yet: nothing to record.
		return diags
	}
	if !v.IsWhollyKnown() {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Output value not known after apply",
			Detail:   fmt.Sprintf("The value of output %q is still unknown after apply. This usually means a provider returned an incomplete object.", n.cfg.Name),
			Subject:  n.cfg.DeclRange.Ptr(),
		})
	}
	if v.IsNull() {
		// As in Terraform, null outputs are not kept in the state.
		aw.setOutput(n.cfg.Name, nil)
		return diags
	}
	aw.setOutput(n.cfg.Name, &states.OutputValue{Value: v, Sensitive: n.cfg.Sensitive})
	return diags
}

func (aw *applyWalk) setOutput(name string, v *states.OutputValue) {
	aw.state.SetOutput(name, v)
	if aw.e.Recorder != nil {
		_ = aw.e.Recorder.SetOutput(name, v)
	}
}

// record stores an object in the walk's state and tells the recorder.
func (aw *applyWalk) record(addr addrs.AbsResourceInstance, deposed string, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) hcl.Diagnostics {
	if deposed == "" {
		aw.state.SetObject(addr, obj, provider)
	} else {
		aw.state.SetDeposed(addr, deposed, obj, provider)
	}
	if aw.e.Recorder == nil {
		return nil
	}
	if err := aw.e.Recorder.Set(addr, deposed, obj, provider); err != nil {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to persist state",
			Detail:   fmt.Sprintf("The change to %s was made but could not be written to the state journal: %s.", addr, err),
		}}
	}
	return nil
}

// syncRecords makes the completion records so far durable, for a
// recorder that holds them unsynced.
func (aw *applyWalk) syncRecords(addr addrs.AbsResourceInstance) hcl.Diagnostics {
	s, ok := aw.e.Recorder.(states.RecordSyncer)
	if !ok {
		return nil
	}
	if err := s.Sync(); err != nil {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to persist state",
			Detail:   fmt.Sprintf("Could not write the state journal to disk before the provisioners of %s, so they were not started: %s.", addr, err),
		}}
	}
	return nil
}

// intent records that a provider is about to change an object.
func (aw *applyWalk) intent(addr addrs.AbsResourceInstance, deposed string, action plans.Action) hcl.Diagnostics {
	if aw.e.Recorder == nil {
		return nil
	}
	if err := aw.e.Recorder.Intent(addr, deposed, actionVerb(action)); err != nil {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to persist state",
			Detail:   fmt.Sprintf("Could not record the pending change to %s in the state journal, so it was not started: %s.", addr, err),
		}}
	}
	return nil
}

func actionVerb(a plans.Action) string {
	switch a {
	case plans.Create:
		return "create"
	case plans.Update:
		return "update"
	case plans.Delete:
		return "delete"
	case plans.DeleteThenCreate, plans.CreateThenDelete:
		return "replace"
	}
	return "no-op"
}
