package engine

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine/dag"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// PlanOpts are the user's choices for a plan.
type PlanOpts struct {
	Mode plans.Mode
	// Variables are the root module variable values the user supplied.
	Variables map[string]InputValue
	// SkipRefresh skips ReadResource (-refresh=false).
	SkipRefresh bool
	// RefreshOnly, when not nil and SkipRefresh is not set, limits
	// refreshing to the managed resource instances it returns true for
	// (with their deposed objects); the others are planned from their
	// prior state as stored, as with -refresh=false. strata watch uses it
	// to refresh only the instances whose turn has come.
	RefreshOnly func(addrs.AbsResourceInstance) bool
	// Targets limits the plan to these resources or instances and what
	// they depend on (-target).
	Targets []addrs.Target
	// Excludes leaves these resources or instances out of the plan, with
	// everything that depends on them (or, destroying, everything they
	// depend on): OpenTofu's -exclude. It is not used with Targets.
	Excludes []addrs.Target
	// ForceReplace plans these instances for replacement (-replace).
	ForceReplace []addrs.Target
	// AllowProviderChange accepts that the identity arguments of a
	// provider configuration (region, project, endpoint...) changed under
	// existing objects: a warning instead of an error, and the apply
	// records the new configuration for them (-allow-provider-change).
	AllowProviderChange bool
	// GenerateConfigOut, when set, is the file configuration is generated
	// into for import blocks whose target is not configured
	// (-generate-config-out); the caller writes it from the plan.
	GenerateConfigOut string
	// ConditionErrors makes a failing precondition or postcondition of a
	// managed resource an error in a refresh-only plan, where it is
	// otherwise a warning: Terraform's refresh command treats them so.
	ConditionErrors bool
	// HideValidationWarnings leaves out the warnings of the validation a
	// plan starts with, which Terraform's plan, apply and destroy
	// commands show and terraform test's cleanup does not.
	HideValidationWarnings bool

	// timestamp is the value of plantimestamp(): when planning started.
	timestamp time.Time
}

// forceReplace reports whether -replace names the instance. As in
// Terraform, a resource address without a key names only an instance
// without one: it does not replace every instance of a counted resource.
func (o PlanOpts) forceReplace(addr addrs.AbsResourceInstance) bool {
	for _, t := range o.ForceReplace {
		if t.ContainsInstance(addr) && (t.Instance || addr.Resource.Key == addrs.NoKey) {
			return true
		}
	}
	return false
}

// refresh reports whether the plan refreshes the instance.
func (o PlanOpts) refresh(addr addrs.AbsResourceInstance) bool {
	return !o.SkipRefresh && (o.RefreshOnly == nil || o.RefreshOnly(addr))
}

// Plan compares the configuration with prevRun (which may be nil for no
// state) and returns the changes that would make them match. When
// planning could not start (errors in the configuration as a whole) the
// plan is nil; errors met while planning return what was planned so far,
// with Errored set, so that it can be shown as Terraform shows it.
func (e *Engine) Plan(ctx context.Context, prevRun *states.State, opts PlanOpts) (*plans.Plan, hcl.Diagnostics) {
	vdiags := e.beforePlan(ctx, opts)
	if vdiags.HasErrors() {
		return nil, vdiags
	}
	var plan *plans.Plan
	var diags hcl.Diagnostics
	if opts.Mode == plans.DestroyMode && !opts.SkipRefresh && !prevRun.Empty() {
		plan, diags = e.destroyPlan(ctx, prevRun, opts)
	} else {
		plan, _, diags = e.plan(ctx, prevRun, opts)
	}
	if opts.HideValidationWarnings {
		return plan, diags
	}
	return plan, append(vdiags, diags...)
}

// beforePlan checks what every plan checks before planning, as
// Terraform: provisioner plugins that are missing (worded as a plan's
// error), required variables without a value, then the whole
// configuration's validation, so that an error anywhere stops the plan
// (in a resource with count = 0 too). It returns validation's warnings,
// which Terraform shows before the plan's own, even where planning
// repeats them.
func (e *Engine) beforePlan(ctx context.Context, opts PlanOpts) hcl.Diagnostics {
	if diags := e.provisionerPluginDiags(false); diags.HasErrors() {
		return diags
	}
	if missing := e.missingVariables(opts); missing.HasErrors() {
		return missing
	}
	return e.Validate(ctx)
}

// missingVariables reports the required root module variables opts
// gives no value: as in Terraform, they stop a plan before it starts,
// before validation.
func (e *Engine) missingVariables(opts PlanOpts) hcl.Diagnostics {
	var missing hcl.Diagnostics
	for _, name := range sortedKeys(e.Config.Module.Variables) {
		if v := e.Config.Module.Variables[name]; v.Required() {
			if _, ok := opts.Variables[name]; !ok {
				missing = append(missing, missingVariable(v))
			}
		}
	}
	return missing
}

// destroyPlan plans a destroy as Terraform does: first a normal plan,
// which refreshes the state and evaluates the whole configuration (its
// errors, such as failed variable validations or references to outputs
// that do not exist, stop the destroy, and its data sources are read),
// then the destroy plan from the refreshed state. With an empty state
// there is nothing to refresh and the normal plan is skipped.
//
// As in Terraform, the normal plan records the root outputs it evaluated
// in the state the destroy plan starts from: the destroy plan's outputs
// go from the values the configuration now gives them (outputs added
// since the last apply included) to null.
func (e *Engine) destroyPlan(ctx context.Context, prevRun *states.State, opts PlanOpts) (*plans.Plan, hcl.Diagnostics) {
	opts.timestamp = time.Now().UTC().Truncate(time.Second)
	normal := opts
	normal.Mode, normal.ForceReplace, normal.GenerateConfigOut = plans.NormalMode, nil, ""
	refreshed, _, diags := e.plan(ctx, prevRun, normal)
	if diags.HasErrors() || refreshed == nil {
		return nil, diags
	}
	// The normal plan's warnings are left out: the destroy plan reports
	// its own, and they would be shown twice.
	destroy := opts
	destroy.SkipRefresh = true
	plan, _, ddiags := e.plan(ctx, e.withPlannedOutputs(refreshed), destroy)
	if plan != nil {
		plan.PrevRunState = prevRun
		plan.SkipRefresh = false
	}
	return plan, ddiags
}

// withPlannedOutputs returns a plan's prior state holding the root
// outputs the plan evaluated, as Terraform's refreshed state does: a
// wholly known value replaces the recorded one, a null one removes it;
// outputs still unknown, or left out by -target, keep the value
// recorded, and so do outputs no longer configured.
func (e *Engine) withPlannedOutputs(p *plans.Plan) *states.State {
	s := p.PriorState
	if s.Outputs == nil {
		s.Outputs = map[string]*states.OutputValue{}
	}
	for _, oc := range p.Changes.Outputs {
		if _, ok := e.Config.Module.Outputs[oc.Name]; !ok || oc.After == cty.NilVal || !oc.After.IsWhollyKnown() {
			continue
		}
		if oc.After.IsNull() {
			delete(s.Outputs, oc.Name)
			continue
		}
		s.Outputs[oc.Name] = &states.OutputValue{Value: marks.UnmarkDeep(oc.After), Sensitive: oc.Sensitive}
	}
	return s
}

// plan is Plan's walk, also returning the walker (nil when planning did
// not start), whose evaluator holds the planned values. Its callers have
// passed beforePlan.
func (e *Engine) plan(ctx context.Context, prevRun *states.State, opts PlanOpts) (*plans.Plan, *walker, hcl.Diagnostics) {
	if prevRun == nil {
		prevRun = states.New()
	}
	if opts.timestamp.IsZero() {
		opts.timestamp = time.Now().UTC().Truncate(time.Second)
	}
	if opts.GenerateConfigOut != "" && opts.Mode == plans.NormalMode {
		if diags := addGeneratedResources(e.Config); diags.HasErrors() {
			return nil, nil, diags
		}
	}
	// The walk changes its state only where it finds objects changed (a
	// refresh, moves, data sources): the rest stays shared with prevRun.
	working := prevRun.CopyOnWrite()
	moved := applyMoves(e.Config, working)
	w := e.newWalker(working, true)
	w.ev.base.PlanTimestamp = opts.timestamp
	w.destroying = opts.Mode == plans.DestroyMode
	defer w.ps.release(ctx)
	pw := &planWalk{walker: w, opts: opts, inState: map[string][]addrs.AbsResource{}, moved: moved}
	w.recordedOutputs = map[string]cty.Value{}

	cg, diags := w.buildConfigGraph(ctx)
	pw.cg = cg
	pw.addOrphans(working)
	diags = append(diags, cycleDiags(cg.g)...)
	diags = append(diags, checkMoveStatements(e.Config)...)
	diags = append(diags, checkMoves(e.Config)...)
	if len(opts.Targets) > 0 && !diags.HasErrors() {
		pw.whole = pruneToTargets(cg, opts.Targets, opts.Mode == plans.DestroyMode)
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Resource targeting is in effect",
			Detail: `You are creating a plan with the -target option, which means that the result of this plan may not represent all of the changes requested by the current configuration.

The -target option is not for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when strata specifically suggests to use it as part of an error message.`,
		})
	}
	if len(opts.Excludes) > 0 && !diags.HasErrors() {
		pruneExcluded(cg, opts.Excludes, opts.Mode == plans.DestroyMode)
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Resource targeting is in effect",
			Detail: `You are creating a plan with the -exclude option, which means that the result of this plan may not represent all of the changes requested by the current configuration.

The -exclude option is not for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes.`,
		})
	}
	if diags.HasErrors() {
		return nil, nil, diags
	}
	plan := &plans.Plan{Mode: opts.Mode, Changes: &plans.Changes{}, PrevRunState: prevRun, VariableValues: map[string]cty.Value{}, SkipRefresh: opts.SkipRefresh, Targets: opts.Targets, Excludes: opts.Excludes, ForceReplace: opts.ForceReplace, Timestamp: opts.timestamp}
	var skipped skippedVariables
	// As in apply: provider operations are bounded by -parallelism
	// (walker.acquire), nodes wait for nothing else, and a few times as
	// many running nodes keep the next ones evaluated. Every ready node at
	// once (10,000 chain heads at 100,000 resources) held a goroutine
	// each, their stacks (47 MB) and what they had evaluated, waiting for
	// a slot.
	diags = collapseCancelled(append(diags, cg.g.WalkWith(ctx, dag.WalkOptions[node]{Parallelism: 4 * e.parallelism(), OnSkip: skipped.onSkip}, skipped.visit(w.closeWhenDone(cg.g, w.withModuleOverrides(pw.visit))))...))
	if !w.destroying {
		skipped.report(w, cg)
	}
	diags = append(diags, w.closeEphemerals(context.WithoutCancel(ctx))...)

	if !diags.HasErrors() && opts.Mode == plans.NormalMode {
		diags = append(diags, pw.checkImportTargets()...)
		diags = append(diags, pw.checkMovedInstances()...)
	}
	// Outputs that are in the state but no longer configured are removed,
	// unless -target limits the plan: then they keep their values, as in
	// Terraform.
	for name, o := range prevRun.Outputs {
		if _, ok := e.Config.Module.Outputs[name]; !ok && len(opts.Targets) == 0 {
			w.outputs = append(w.outputs, &plans.OutputChange{Name: name, Action: plans.Delete, Before: o.Value, After: cty.NullVal(o.Value.Type()), Sensitive: o.Sensitive})
		}
	}
	for _, t := range opts.ForceReplace {
		if t.Instance {
			continue
		}
		var keys []addrs.InstanceKey
		seen := map[addrs.InstanceKey]bool{}
		for _, c := range w.changes {
			if k := c.Addr.Resource.Key; c.Addr.ContainingResource().String() == t.Resource.String() && k != addrs.NoKey && !seen[k] {
				keys, seen[k] = append(keys, k), true
			}
		}
		if len(keys) == 0 {
			continue
		}
		sort.Slice(keys, func(i, j int) bool { return addrs.CompareKeys(keys[i], keys[j]) < 0 })
		var options strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&options, "\n  -replace=%q", t.Resource.Instance(k).String())
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Incompletely-matched force-replace resource instance",
			Detail:   fmt.Sprintf("Your force-replace request for %s doesn't match any resource instances because it lacks an instance key.\n\nTo force replacement of particular instances, use one or more of the following options instead:%s", t, options.String()),
		})
	}
	for _, c := range w.changes {
		if p, ok := moved[c.Addr.String()]; ok && c.DeposedKey == "" {
			c.PrevRunAddr = &p
			if c.Reason == plans.ReasonDeleteBecauseNoResourceConfig {
				// As in Terraform: the move's destination is not
				// configured.
				c.Reason = plans.ReasonDeleteBecauseNoMoveTarget
			}
		}
	}
	var forgotten []string
	for _, c := range w.changes {
		if c.Action == plans.Forget {
			forgotten = append(forgotten, " - "+c.Addr.String())
		}
	}
	if len(forgotten) > 0 {
		sort.Strings(forgotten)
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Some objects will no longer be managed by strata",
			Detail:   "If you apply this plan, strata will discard its tracking information for the following objects, but it will not delete them:\n" + strings.Join(forgotten, "\n") + "\n\nAfter applying this plan, strata will no longer manage these objects. You will need to import them into strata to manage them again.",
		})
	}
	plan.Changes.Resources = w.changes
	plan.Changes.Outputs = w.outputs
	plan.ModuleOutputs = w.recordedOutputs
	sortChanges(plan.Changes)
	if opts.Mode == plans.NormalMode {
		var affected []*plans.ResourceInstanceChange
		for _, c := range plan.Changes.Resources {
			if len(c.ProviderConfigChanged) > 0 && !c.Action.IsReplace() {
				affected = append(affected, c)
			}
		}
		if len(affected) > 0 {
			diags = append(diags, providerChangeDiag(affected, opts.AllowProviderChange))
		}
	}
	plan.DriftedResources = pw.drift
	plan.ObjectsReencoded = pw.reencoded
	sortChanges(&plans.Changes{Resources: plan.DriftedResources})
	// The walk is over: its state becomes the plan's without a copy,
	// which would hold a third copy of every object at the plan's peak.
	plan.PriorState = w.state.Take()
	if opts.Mode == plans.RefreshOnlyMode && pw.depsChanged && !plan.ObjectsReencoded && len(plan.DriftedResources) == 0 {
		plan.ObjectsReencoded = dependenciesChanged(prevRun, plan.PriorState)
	}
	if opts.Mode == plans.DestroyMode {
		w.destroyCheckResults()
	} else {
		w.declareCheckable(!diags.HasErrors() && len(opts.Targets) == 0)
	}
	plan.Checks = w.checks.results()
	w.ev.mu.RLock()
	for name, v := range w.ev.variables[addrs.RootModuleInstance.String()] {
		// As Terraform, a value given is recorded as given, before
		// conversion to the variable's type (the string "1" of -var n=1);
		// applying the plan converts it again.
		if in, ok := opts.Variables[name]; ok && in.Value != cty.NilVal && !in.Value.IsNull() {
			v = in.Value
		} else {
			plan.DefaultedVariables = append(plan.DefaultedVariables, name)
		}
		plan.VariableValues[name] = v
	}
	slices.Sort(plan.DefaultedVariables)
	recordEphemeralVariables(plan, e.Config.Module.Variables, opts.Variables)
	w.ev.mu.RUnlock()
	plan.Errored = diags.HasErrors()
	plan.DeferRelevantAttributes(func() []plans.RelevantAttr { return e.relevantAttributes(context.WithoutCancel(ctx), plan) })
	return plan, w, diags
}

// liveInstances reports whether a module instance is one of instances, the
// module instances a resource is planned in, for the n objects of the
// resource the state holds: by comparing them (one module instance, as
// for every resource of the root module) or, for many, through a set.
func liveInstances(instances []addrs.ModuleInstance, n int) func(addrs.ModuleInstance) bool {
	if len(instances) <= 8 || n <= 1 {
		return func(mi addrs.ModuleInstance) bool {
			for _, live := range instances {
				if live.Compare(mi) == 0 {
					return true
				}
			}
			return false
		}
	}
	set := make(map[string]bool, len(instances))
	for _, mi := range instances {
		set[mi.String()] = true
	}
	return func(mi addrs.ModuleInstance) bool { return set[mi.String()] }
}

// addOrphans adds a node for each resource in the state but not in the
// configuration; the others are planned by their resource's node, in
// whichever module instances they are.
func (pw *planWalk) addOrphans(working *states.State) {
	cg := pw.cg
	for _, r := range working.SortedResources() {
		key := r.Addr.Config().String()
		if _, ok := cg.resources[key]; ok {
			pw.inState[key] = append(pw.inState[key], r.Addr)
			continue
		}
		n := &orphanNode{addr: r.Addr}
		cg.g.Connect(n, cg.providerNode(r.ProviderConfig))
	}
}

// planWalk is the state of one plan walk.
type planWalk struct {
	*walker
	opts PlanOpts
	cg   *configGraph
	// inState lists the resources of the prior state by the configured
	// resource they are instances of (ConfigResource.String()).
	inState map[string][]addrs.AbsResource
	// whole holds, under -target, the resources planned in full: those
	// targeted as a whole (by AbsResource) and those the targets depend on
	// (by ConfigResource, in every module instance).
	whole map[string]bool
	// drift collects changes refreshing found; guarded by walker.mu.
	drift []*plans.ResourceInstanceChange
	// reencoded is plans.Plan's ObjectsReencoded; guarded by walker.mu.
	reencoded bool
	// depsChanged records that refreshing gave some managed object other
	// dependencies than it had, which may or may not be the same list
	// once written (see dependenciesChanged); guarded by walker.mu.
	depsChanged bool
	// moved maps the address of each object a moved block moved to the
	// address the previous run recorded it at.
	moved map[string]addrs.AbsResourceInstance
	// imported holds the instances import blocks adopted in this plan;
	// guarded by walker.mu.
	imported map[string]bool
	// importCache holds each import block's expansion; guarded by
	// walker.mu.
	importCache map[*configs.Import][]importTarget
}

func (pw *planWalk) addDrift(c *plans.ResourceInstanceChange) {
	pw.mu.Lock()
	pw.drift = append(pw.drift, c)
	pw.mu.Unlock()
}

// targeted reports whether an instance is to be planned: there is no
// -target, its resource is planned in full, or a target names it.
func (pw *planWalk) targeted(addr addrs.AbsResourceInstance) bool {
	r := addr.ContainingResource()
	for _, t := range pw.opts.Excludes {
		if t.ContainsInstance(addr) {
			return false
		}
	}
	if len(pw.opts.Targets) == 0 || pw.whole[r.String()] || pw.whole[r.Config().String()] {
		return true
	}
	for _, t := range pw.opts.Targets {
		if t.ContainsInstance(addr) {
			return true
		}
	}
	return false
}

func (pw *planWalk) visit(ctx context.Context, n node) hcl.Diagnostics {
	switch n := n.(type) {
	case *varNode:
		return pw.evalVariable(n, pw.opts.Variables)
	case *localNode:
		return pw.evalLocal(n)
	case *moduleNode:
		diags := pw.expandModule(n)
		if pw.opts.Mode == plans.DestroyMode {
			// Everything in the state is destroyed, whatever the
			// module's instances would be now.
			return nil
		}
		return diags
	case *providerNode:
		return pw.configureProvider(ctx, n)
	case *resourceNode:
		return pw.visitResource(ctx, n)
	case *orphanNode:
		provider, ok := pw.state.ResourceProvider(n.addr)
		if !ok {
			return nil
		}
		if pw.opts.Mode == plans.RefreshOnlyMode && n.addr.Resource.Mode != addrs.DataResourceMode {
			return pw.refreshResource(ctx, n.addr, provider, nil)
		}
		// A data source no longer configured leaves the state, in a
		// refresh too, as in Terraform.
		reason := plans.ReasonDeleteBecauseNoResourceConfig
		if pw.opts.Mode == plans.DestroyMode {
			reason = plans.ReasonNone
		}
		return pw.planDestroyResource(ctx, n.addr, provider, reason)
	case *outputNode:
		if !n.path.IsRoot() {
			return pw.evalChildOutput(n)
		}
		return pw.planOutput(n)
	case *checkNode:
		if pw.opts.Mode == plans.DestroyMode {
			return nil
		}
		return pw.evalCheck(n, true)
	}
	return nil
}

// visitResource plans a configured resource in every instance of its
// module, concurrently, and the deletion of its objects in module
// instances that no longer exist.
func (pw *planWalk) visitResource(ctx context.Context, n *resourceNode) hcl.Diagnostics {
	if n.addr.Resource.Mode == addrs.EphemeralResourceMode {
		return pw.openEphemeral(ctx, n)
	}
	var diags hcl.Diagnostics
	var buf [96]byte
	inState := pw.inState[string(n.addr.AppendString(buf[:0]))]
	var instances []addrs.ModuleInstance
	if pw.opts.Mode != plans.DestroyMode {
		instances = pw.ev.moduleInstances(n.addr.Module)
		// ignore_changes was checked by the validation every plan
		// starts with.
		diags = append(diags, eachModuleInstance(instances, func(mi addrs.ModuleInstance) hcl.Diagnostics {
			addr := n.addr.Resource.Absolute(mi)
			// Data sources are read as in a normal plan, -refresh-only
			// too: as in Terraform, refresh records their new results.
			if pw.opts.Mode == plans.RefreshOnlyMode && n.addr.Resource.Mode != addrs.DataResourceMode {
				return pw.refreshResource(ctx, addr, n.provider, n)
			}
			return pw.planResource(ctx, n, addr)
		})...)
	}
	live := liveInstances(instances, len(inState))
	for _, addr := range inState {
		if live(addr.Module) {
			continue
		}
		// The resource is still configured, so its provider configuration
		// is the one it would use now, as in Terraform: the one recorded
		// in the state may be gone.
		provider := n.provider
		switch {
		case pw.opts.Mode == plans.RefreshOnlyMode && n.addr.Resource.Mode != addrs.DataResourceMode:
			diags = append(diags, pw.refreshResource(ctx, addr, provider, nil)...)
		case pw.opts.Mode == plans.DestroyMode:
			// As in Terraform, references see the objects as the state
			// has them: provider configurations and module expansions
			// are evaluated with them. A data source's object leaves the
			// state when its deletion is planned, a managed one is
			// refreshed first.
			data := n.addr.Resource.Mode == addrs.DataResourceMode
			if data {
				pw.publishPrior(ctx, n, addr)
			}
			diags = append(diags, pw.planDestroyResource(ctx, addr, provider, plans.ReasonNone)...)
			if !data {
				pw.publishPrior(ctx, n, addr)
			}
		default:
			diags = append(diags, pw.planDestroyResource(ctx, addr, provider, plans.ReasonDeleteBecauseNoModule)...)
		}
	}
	return diags
}

// publishPrior makes the objects the state has for a configured resource
// in one module instance its value for references.
func (pw *planWalk) publishPrior(ctx context.Context, n *resourceNode, addr addrs.AbsResource) {
	rt, diags := pw.resourceType(ctx, addr, n.provider, nil)
	if diags.HasErrors() {
		return
	}
	x := emptyExpansion(n.cfg)
	values := map[addrs.InstanceKey]cty.Value{}
	for _, key := range pw.state.InstanceKeys(addr) {
		var v cty.Value
		ok := false
		if addr.Resource.Mode == addrs.DataResourceMode {
			if obj := pw.state.Object(addr.Instance(key)); obj != nil {
				var err error
				v, err = decodeObject(obj, rt)
				ok = err == nil
			}
		} else {
			v, ok = pw.untargetedValue(ctx, rt, addr.Instance(key))
		}
		if ok {
			values[key] = v
			x.keys = append(x.keys, key)
		}
	}
	sort.Slice(x.keys, func(i, j int) bool { return addrs.CompareKeys(x.keys[i], x.keys[j]) < 0 })
	pw.ev.setResource(addr, resourceValue(x, values))
}

// planOutput evaluates an output and records its change.
func (pw *planWalk) planOutput(n *outputNode) hcl.Diagnostics {
	name := n.cfg.Name
	var before cty.Value = cty.NullVal(cty.DynamicPseudoType)
	prior := pw.state.Output(name)
	if prior != nil {
		before = prior.Value
	}
	if pw.opts.Mode == plans.DestroyMode {
		if prior != nil {
			pw.mu.Lock()
			pw.outputs = append(pw.outputs, &plans.OutputChange{Name: name, Action: plans.Delete, Before: before, After: cty.NullVal(before.Type()), Sensitive: prior.Sensitive})
			pw.mu.Unlock()
		}
		return nil
	}
	after, diags := pw.evalOutput(n)
	if diags.HasErrors() {
		return diags
	}
	action := plans.Update
	switch {
	case after.IsKnown() && after.IsNull():
		// Null outputs are not stored: nothing to add, or a removal.
		action = plans.NoOp
		if prior != nil {
			action = plans.Delete
		}
	case prior == nil:
		action = plans.Create
	case after.IsWhollyKnown():
		ub := marks.UnmarkDeep(before)
		ua := marks.UnmarkDeep(after)
		if eq := ub.Equals(ua); eq.IsKnown() && eq.True() && prior.Sensitive == n.cfg.Sensitive {
			action = plans.NoOp
		}
	}
	pw.mu.Lock()
	pw.outputs = append(pw.outputs, &plans.OutputChange{Name: name, Action: action, Before: before, After: after, Sensitive: n.cfg.Sensitive})
	pw.mu.Unlock()
	return diags
}

// sortChanges puts changes in address order, current objects before
// deposed ones, and outputs by name.
func sortChanges(c *plans.Changes) {
	// The addresses are rendered once each, not twice per comparison.
	type keyed struct {
		c        *plans.ResourceInstanceChange
		addr     string
		resource string // the containing resource's address
		name     string // the resource's address within its module
	}
	ks := make([]keyed, len(c.Resources))
	for i, rc := range c.Resources {
		ks[i] = keyed{rc, rc.Addr.String(), rc.Addr.ContainingResource().String(), rc.Addr.Resource.Resource.String()}
	}
	sort.SliceStable(ks, func(i, j int) bool {
		a, b := ks[i], ks[j]
		if a.addr != b.addr {
			if a.resource == b.resource {
				return addrs.CompareKeys(a.c.Addr.Resource.Key, b.c.Addr.Resource.Key) < 0
			}
			// a.c.Addr.Less(b.c.Addr), with the names rendered.
			am, bm := a.c.Addr.Module, b.c.Addr.Module
			if len(am) != len(bm) {
				return len(am) < len(bm)
			}
			if c := am.Compare(bm); c != 0 {
				return c < 0
			}
			if a.name != b.name {
				return a.name < b.name
			}
			return addrs.CompareKeys(a.c.Addr.Resource.Key, b.c.Addr.Resource.Key) < 0
		}
		return a.c.DeposedKey < b.c.DeposedKey
	})
	for i, k := range ks {
		c.Resources[i] = k.c
	}
	sort.Slice(c.Outputs, func(i, j int) bool { return c.Outputs[i].Name < c.Outputs[j].Name })
}

// targetMatcher says which -target or -exclude addresses name node n: a
// configured resource matches one in any of its module's instances, an
// orphan matches by its own address. It is nil for other nodes.
func targetMatcher(n node) func(addrs.Target) bool {
	switch n := n.(type) {
	case *resourceNode:
		return func(t addrs.Target) bool { return t.ContainsConfig(n.addr) }
	case *orphanNode:
		return func(t addrs.Target) bool { return t.ContainsResource(n.addr) }
	}
	return nil
}

// pruneToTargets removes from the plan graph everything the targeted
// resources do not depend on, and outputs that depend on anything removed
// or on no targeted resource. When destroying, it keeps what depends on
// the targets instead: those must go first; and no root output.
func pruneToTargets(cg *configGraph, targets []addrs.Target, destroy bool) map[string]bool {
	g := cg.g
	keep := map[node]bool{}
	whole := map[string]bool{}
	for _, n := range g.Vertices() {
		matches := targetMatcher(n)
		if matches == nil {
			continue
		}
		for _, t := range targets {
			if !matches(t) {
				continue
			}
			keep[n] = true
			if !t.Instance && !t.Module {
				whole[t.Resource.String()] = true
			}
			related := g.Descendants(n)
			if destroy {
				related = g.Ancestors(n)
			}
			for _, d := range related {
				keep[d] = true
				switch d := d.(type) {
				case *resourceNode:
					whole[d.addr.String()] = true
				case *orphanNode:
					whole[d.addr.String()] = true
				}
			}
		}
	}
	for _, n := range g.Vertices() {
		o, ok := n.(*outputNode)
		if !ok {
			continue
		}
		if destroy && o.path.IsRoot() {
			// As Terraform: a targeted destroy leaves the root outputs
			// as they are.
			keep[n] = false
			continue
		}
		// As Terraform, an output is planned when it depends on what is
		// targeted (and, here, on nothing left out): one that depends
		// on no resource at all keeps its value too.
		all, some := true, false
		for _, d := range g.Descendants(n) {
			switch d.(type) {
			case *resourceNode, *orphanNode:
				all = all && keep[d]
				some = some || keep[d]
			}
		}
		if all && some {
			keep[n] = true
			for _, d := range g.Descendants(n) {
				keep[d] = true
			}
		}
	}
	for _, n := range g.Vertices() {
		if !keep[n] {
			g.Remove(n)
		}
	}
	return whole
}

// pruneExcluded removes from the graph what -exclude leaves out, as
// OpenTofu does: the resources the excludes name as a whole (a resource, or
// everything in a module) and everything that depends on a resource they
// name, even on one instance only; when destroying, the resources those
// depend on instead, which cannot be destroyed while they remain. An
// excluded instance of a resource that is otherwise planned is left out by
// planWalk.targeted.
func pruneExcluded(cg *configGraph, excludes []addrs.Target, destroy bool) {
	g := cg.g
	remove := map[node]bool{}
	for _, n := range g.Vertices() {
		matches := targetMatcher(n)
		if matches == nil {
			continue
		}
		for _, t := range excludes {
			if !matches(t) {
				continue
			}
			if !t.Instance {
				remove[n] = true
			}
			if destroy {
				for _, d := range g.Descendants(n) {
					switch d.(type) {
					case *resourceNode, *orphanNode:
						remove[d] = true
					}
				}
			} else {
				for _, d := range g.Ancestors(n) {
					remove[d] = true
				}
			}
		}
	}
	for n := range remove {
		g.Remove(n)
	}
}
