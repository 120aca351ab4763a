package engine

import (
	"context"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/dag"
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
}

// Plan compares the configuration with prevRun (which may be nil for no
// state) and returns the changes that would make them match. The returned
// plan is non-nil even with errors, so that what was planned can be shown.
func (e *Engine) Plan(ctx context.Context, prevRun *states.State, opts PlanOpts) (*plans.Plan, hcl.Diagnostics) {
	if prevRun == nil {
		prevRun = states.New()
	}
	w := e.newWalker(prevRun.DeepCopy(), true)
	defer w.ps.closeAll(context.WithoutCancel(ctx))
	pw := &planWalk{walker: w, opts: opts}

	cg, diags := w.buildConfigGraph(ctx)
	pw.cg = cg
	// Resources in the state but not in the configuration are orphans.
	for _, r := range prevRun.SortedResources() {
		if _, ok := cg.resources[r.Addr.Resource.String()]; ok && r.Addr.Module.IsRoot() {
			continue
		}
		n := &orphanNode{addr: r.Addr}
		cg.g.Connect(n, cg.providerNode(r.ProviderConfig))
	}
	diags = append(diags, cycleDiags(cg.g)...)
	plan := &plans.Plan{Mode: opts.Mode, Changes: &plans.Changes{}, PrevRunState: prevRun, VariableValues: map[string]cty.Value{}, SkipRefresh: opts.SkipRefresh}
	if diags.HasErrors() {
		plan.Errored = true
		return plan, diags
	}
	diags = collapseCancelled(append(diags, cg.g.WalkWith(ctx, dag.WalkOptions[node]{Parallelism: 1 << 16}, pw.visit)...))

	// Outputs that are in the state but no longer configured are removed.
	for name, o := range prevRun.Outputs {
		if _, ok := e.Config.Outputs[name]; !ok {
			w.outputs = append(w.outputs, &plans.OutputChange{Name: name, Action: plans.Delete, Before: o.Value, After: cty.NullVal(o.Value.Type()), Sensitive: o.Sensitive})
		}
	}
	plan.Changes.Resources = w.changes
	plan.Changes.Outputs = w.outputs
	sortChanges(plan.Changes)
	plan.PriorState = w.state.Snapshot()
	w.ev.mu.RLock()
	for name, v := range w.ev.variables {
		plan.VariableValues[name] = v
	}
	w.ev.mu.RUnlock()
	plan.Errored = diags.HasErrors()
	return plan, diags
}

// planWalk is the state of one plan walk.
type planWalk struct {
	*walker
	opts PlanOpts
	cg   *configGraph
}

func (pw *planWalk) visit(ctx context.Context, n node) hcl.Diagnostics {
	switch n := n.(type) {
	case *varNode:
		return pw.evalVariable(n, pw.opts.Variables)
	case *localNode:
		return pw.evalLocal(n)
	case *providerNode:
		return pw.configureProvider(ctx, n)
	case *resourceNode:
		if pw.opts.Mode == plans.DestroyMode {
			return pw.planDestroyResource(ctx, n.addr, n.provider, plans.ReasonNone)
		}
		return pw.planResource(ctx, n)
	case *orphanNode:
		provider, ok := pw.state.ResourceProvider(n.addr)
		if !ok {
			return nil
		}
		reason := plans.ReasonDeleteBecauseNoResourceConfig
		if pw.opts.Mode == plans.DestroyMode {
			reason = plans.ReasonNone
		}
		return pw.planDestroyResource(ctx, n.addr, provider, reason)
	case *outputNode:
		return pw.planOutput(n)
	}
	return nil
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
	case prior == nil:
		action = plans.Create
	case after.IsWhollyKnown():
		ub, _ := before.UnmarkDeep()
		ua, _ := after.UnmarkDeep()
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
	sort.SliceStable(c.Resources, func(i, j int) bool {
		a, b := c.Resources[i], c.Resources[j]
		if a.Addr.String() != b.Addr.String() {
			if a.Addr.ContainingResource().String() == b.Addr.ContainingResource().String() {
				return addrs.CompareKeys(a.Addr.Resource.Key, b.Addr.Resource.Key) < 0
			}
			return a.Addr.Less(b.Addr)
		}
		return a.DeposedKey < b.DeposedKey
	})
	sort.Slice(c.Outputs, func(i, j int) bool { return c.Outputs[i].Name < c.Outputs[j].Name })
}
