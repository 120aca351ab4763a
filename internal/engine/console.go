package engine

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// Console evaluates expressions against the configuration and a state, as
// `strata console` does: resources have the values recorded in the state,
// and variables and locals are evaluated from the configuration.
type Console struct {
	scope *lang.Scope
	// ps holds the providers started to call provider-defined functions.
	ps *providerSet
}

// Close ends the provider processes the console started to call
// provider-defined functions.
func (c *Console) Close(ctx context.Context) {
	c.ps.closeAll(ctx)
}

// NewConsole prepares a console: it decodes every resource in the state
// and evaluates the configuration's variables and locals.
func (e *Engine) NewConsole(ctx context.Context, state *states.State, vars map[string]InputValue) (*Console, hcl.Diagnostics) {
	return e.newConsole(ctx, state, vars, nil)
}

// NewConsoleAfterApply prepares a console on the state that applying plan
// left, seeing child module outputs as the apply saw them: those known
// when planned keep their planned values (plans.Plan.ModuleOutputs), as
// the assertions of terraform test see them.
func (e *Engine) NewConsoleAfterApply(ctx context.Context, state *states.State, vars map[string]InputValue, plan *plans.Plan) (*Console, hcl.Diagnostics) {
	return e.newConsole(ctx, state, vars, plan.ModuleOutputs)
}

func (e *Engine) newConsole(ctx context.Context, state *states.State, vars map[string]InputValue, plannedOutputs map[string]cty.Value) (*Console, hcl.Diagnostics) {
	// As in terraform console, the impure functions (uuid, timestamp,
	// bcrypt) are called for real, and there is no plantimestamp: there is
	// no plan.
	w := e.newWalker(state.DeepCopy(), false)
	w.plannedOutputs = plannedOutputs
	defer w.ps.closeAll(context.WithoutCancel(ctx))
	cg, diags := w.buildConfigGraph(ctx)
	if diags.HasErrors() {
		return nil, diags
	}
	// Resources: their state values, shaped by count or for_each, in
	// every module instance the state has them in.
	for _, r := range w.state.Snapshot().SortedResources() {
		n, ok := cg.resources[r.Addr.Config().String()]
		if !ok {
			continue
		}
		addr := r.Addr
		values := map[addrs.InstanceKey]cty.Value{}
		x := emptyExpansion(n.cfg)
		rt, rdiags := w.resourceType(ctx, addr, n.provider, n.cfg.TypeRange.Ptr())
		if rdiags.HasErrors() {
			return nil, append(diags, rdiags...)
		}
		for _, k := range r.SortedKeys() {
			obj := w.state.Object(addr.Instance(k))
			if obj == nil {
				continue
			}
			v, err := decodeObject(obj, rt)
			if err != nil {
				continue
			}
			values[k] = v
			x.keys = append(x.keys, k)
		}
		w.ev.setResource(addr, resourceValue(x, values))
	}
	// Variables, locals, module calls and their outputs, in dependency
	// order, so that module.NAME.OUTPUT works too.
	sub := cg.g.Clone()
	for _, n := range sub.Vertices() {
		switch n := n.(type) {
		case *varNode, *localNode, *moduleNode:
		case *outputNode:
			if n.path.IsRoot() {
				sub.Remove(n)
			}
		default:
			sub.Remove(n)
		}
	}
	pw := &planWalk{walker: w, opts: PlanOpts{Variables: vars}}
	diags = append(diags, sub.Walk(ctx, 1, w.withModuleOverrides(pw.visit))...)
	scope := w.ev.scope(addrs.RootModuleInstance)
	fns := scope.Functions()
	delete(fns, "plantimestamp")
	delete(fns, "core::plantimestamp")
	return &Console{scope: scope.WithFunction("type", typeFunction), ps: w.ps}, diags
}

// Eval evaluates one expression.
func (c *Console) Eval(src string) (cty.Value, hcl.Diagnostics) {
	expr, diags := hclsyntax.ParseExpression([]byte(src), "<console-input>", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	return c.scope.EvalExpr(expr, cty.DynamicPseudoType)
}

// NewPlanConsole plans as Plan does and prepares a console whose
// expressions see the planned values instead of the state's (console
// -plan): resources as they would be after applying the plan, unknown
// where only the apply can tell. A plan that fails returns its errors and
// no console.
func (e *Engine) NewPlanConsole(ctx context.Context, prevRun *states.State, opts PlanOpts) (*Console, hcl.Diagnostics) {
	_, c, diags := e.PlanWithConsole(ctx, prevRun, opts)
	if diags.HasErrors() {
		if c != nil {
			c.Close(context.WithoutCancel(ctx))
		}
		return nil, diags
	}
	return c, diags
}

// PlanWithConsole is Plan also returning a console over the planned values
// (nil when planning did not start), for strata test's assertions on plan
// runs. The caller closes the console.
func (e *Engine) PlanWithConsole(ctx context.Context, prevRun *states.State, opts PlanOpts) (*plans.Plan, *Console, hcl.Diagnostics) {
	// As terraform test validates each run's configuration before its
	// plan: an error anywhere fails the run (validation's warnings are
	// the plan's too, and are left to it).
	if vdiags := e.beforePlan(ctx, opts); vdiags.HasErrors() {
		return nil, nil, vdiags
	}
	plan, w, diags := e.plan(ctx, prevRun, opts)
	if w == nil {
		return plan, nil, diags
	}
	scope := w.ev.scope(addrs.RootModuleInstance)
	return plan, &Console{scope: scope.WithFunction("type", typeFunction), ps: w.ps}, diags
}

// EvalExprWith evaluates expr with extra top-level names, such as the run
// and output objects of a test file's assertions.
func (c *Console) EvalExprWith(expr hcl.Expression, wantType cty.Type, extra map[string]cty.Value) (cty.Value, hcl.Diagnostics) {
	return c.scope.EvalExprWith(expr, wantType, extra)
}

// StateOutputs evaluates the root module's outputs against state, as an
// import leaves them in the state (Terraform records them too): those
// whose value is known from the state and the variables. Outputs that
// cannot be evaluated that way (they refer to something not in the state)
// are left out; ephemeral ones are never recorded.
func (e *Engine) StateOutputs(ctx context.Context, state *states.State, vars map[string]InputValue) map[string]*states.OutputValue {
	c, diags := e.NewConsole(ctx, state, vars)
	if c == nil || diags.HasErrors() {
		return nil
	}
	defer c.Close(context.WithoutCancel(ctx))
	out := map[string]*states.OutputValue{}
	for name, o := range e.Config.Module.Outputs {
		if o.Ephemeral {
			continue
		}
		v, vdiags := c.scope.EvalExpr(o.Expr, cty.DynamicPseudoType)
		if vdiags.HasErrors() || v.IsNull() || !v.IsWhollyKnown() || marks.ContainsEphemeral(v) {
			continue
		}
		unmarked, paths := marks.Paths(v)
		out[name] = &states.OutputValue{Value: unmarked, Sensitive: o.Sensitive || len(paths) > 0}
	}
	return out
}

// EvalContextWith returns the context EvalExprWith evaluates expr in, for
// diagnostics that show the values an expression refers to.
func (c *Console) EvalContextWith(expr hcl.Expression, extra map[string]cty.Value) (*hcl.EvalContext, hcl.Diagnostics) {
	return c.scope.EvalContextWith(expr, extra)
}
