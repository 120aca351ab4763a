package moduletest

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/lang/funcs"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// variables returns the input values of a run for the module cfg: the
// command line's, overridden by the file's variables block, overridden by
// the run's. The blocks' expressions may refer to var (the values below
// them) and to run.NAME (earlier runs' outputs). Only the variables the
// module declares are passed.
func (fr *fileRun) variables(cfg *configs.Config, rc *configs.TestRun) (map[string]engine.InputValue, hcl.Diagnostics) {
	all := map[string]engine.InputValue{}
	for name, v := range fr.rn.Variables {
		all[name] = v
	}
	var diags hcl.Diagnostics
	for _, exprs := range []map[string]hcl.Expression{fr.f.Config.Variables, rc.Variables} {
		ctx := &hcl.EvalContext{
			Variables: map[string]cty.Value{"var": inputObject(all), "run": fr.runObject()},
			Functions: funcs.Functions(fr.rn.Dir, false),
		}
		evaluated := map[string]engine.InputValue{}
		for _, name := range sortedNames(exprs) {
			expr := exprs[name]
			v, vdiags := expr.Value(ctx)
			diags = append(diags, vdiags...)
			if !vdiags.HasErrors() {
				evaluated[name] = engine.InputValue{Value: v, Source: expr.Range()}
			}
		}
		for name, v := range evaluated {
			all[name] = v
		}
	}
	out := map[string]engine.InputValue{}
	for name, v := range all {
		if _, ok := cfg.Module.Variables[name]; ok {
			out[name] = v
		}
	}
	return out, diags
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// inputObject is the var object of a variables block's expressions.
func inputObject(vars map[string]engine.InputValue) cty.Value {
	m := make(map[string]cty.Value, len(vars))
	for name, v := range vars {
		m[name] = v.Value
	}
	return cty.ObjectVal(m)
}

// runObject is the run object: each finished run's outputs.
func (fr *fileRun) runObject() cty.Value {
	return cty.ObjectVal(fr.outputs)
}

// planOutputs is the output object of a plan run: the planned values.
func planOutputs(p *plans.Plan) cty.Value {
	m := map[string]cty.Value{}
	for _, o := range p.Changes.Outputs {
		if o.Action == plans.Delete {
			continue
		}
		v := o.After
		if o.Sensitive {
			v = v.Mark(marks.Sensitive)
		}
		m[o.Name] = v
	}
	return cty.ObjectVal(m)
}

// stateOutputs is the output object of an apply run.
func stateOutputs(s *states.State) cty.Value {
	m := map[string]cty.Value{}
	for name, o := range s.Outputs {
		v := o.Value
		if o.Sensitive {
			v = v.Mark(marks.Sensitive)
		}
		m[name] = v
	}
	return cty.ObjectVal(m)
}

// asserts evaluates the run's assert blocks: a false condition is a
// failed assertion (status Fail), one that cannot be evaluated an error.
func (fr *fileRun) asserts(r *Run, console *engine.Console, outputs cty.Value) hcl.Diagnostics {
	extra := map[string]cty.Value{"output": outputs, "run": fr.runObject()}
	var diags hcl.Diagnostics
	for _, a := range r.Config.Asserts {
		v, vdiags := console.EvalExprWith(a.Condition, cty.Bool, extra)
		if vdiags.HasErrors() {
			diags = append(diags, vdiags...)
			continue
		}
		v, _ = v.UnmarkDeep()
		switch {
		case !v.IsKnown():
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unknown condition value",
				Detail:   "The condition could not be evaluated at this time: it depends on values known only after apply. Use command = apply in this run block, or assert on values known during the plan.",
				Subject:  a.Condition.Range().Ptr(),
			})
			continue
		case v.IsNull():
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid condition value",
				Detail:   "The condition value is null. Conditions must either be true or false.",
				Subject:  a.Condition.Range().Ptr(),
			})
			continue
		case v.True():
			continue
		}
		r.failedAssert = true
		ctx, _ := console.EvalContextWith(a.Condition, extra)
		diags = append(diags, &hcl.Diagnostic{
			Severity:    hcl.DiagError,
			Summary:     "Test assertion failed",
			Detail:      errorMessage(console, a.ErrorMessage, extra),
			Subject:     a.Condition.Range().Ptr(),
			Expression:  a.Condition,
			EvalContext: ctx,
		})
	}
	return diags
}

// errorMessage evaluates an assertion's error message.
func errorMessage(console *engine.Console, expr hcl.Expression, extra map[string]cty.Value) string {
	v, diags := console.EvalExprWith(expr, cty.String, extra)
	if diags.HasErrors() || !v.IsWhollyKnown() || v.IsNull() {
		return "(error message could not be evaluated)"
	}
	if marks.Contains(v) {
		return "(error message refers to sensitive values)"
	}
	return v.AsString()
}

// failingChecks returns the root module's checkable objects (var.x,
// output.y, check.z, resource addresses) whose checks failed in a plan or
// in the check results an apply recorded in the state.
func failingChecks(p *plans.Plan, s *states.State) map[string]bool {
	var results []*plans.CheckResult
	if p != nil {
		results = p.Checks
	}
	if s != nil {
		results, _ = plans.DecodeStateChecks(s.CheckResults)
	}
	out := map[string]bool{}
	for _, c := range results {
		if len(c.Module) == 0 && c.Status == plans.CheckFail {
			out[c.LocalAddr()] = true
		}
	}
	return out
}

// checkFailures are the summaries of the diagnostics failed checks
// report; expect_failures silences them.
var checkFailures = map[string]bool{
	"Invalid value for variable":              true,
	"Resource precondition failed":            true,
	"Resource postcondition failed":           true,
	"Module output value precondition failed": true,
	"Check block assertion failed":            true,
}

// expectFailures applies the run's expect_failures to what a plan or an
// apply reported: when every failing check is expected, the diagnostics
// of those failures are dropped (the run passes); a failing check that is
// not expected keeps them all.
func expectFailures(rc *configs.TestRun, diags hcl.Diagnostics, failing map[string]bool) hcl.Diagnostics {
	if len(rc.ExpectFailures) == 0 || len(failing) == 0 {
		return diags
	}
	expected := expectedAddrs(rc)
	for addr := range failing {
		if !expected[addr] {
			return diags
		}
	}
	var out hcl.Diagnostics
	for _, d := range diags {
		if !checkFailures[d.Summary] {
			out = append(out, d)
		}
	}
	return out
}

func expectedAddrs(rc *configs.TestRun) map[string]bool {
	out := map[string]bool{}
	for _, t := range rc.ExpectFailures {
		out[traversalString(t)] = true
	}
	return out
}

// missingFailures reports the expected failures that did not happen.
func missingFailures(rc *configs.TestRun, failing map[string]bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range rc.ExpectFailures {
		addr := traversalString(t)
		if failing[addr] {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing expected failure",
			Detail:   fmt.Sprintf("The checkable object, %s, was expected to report an error but did not.", addr),
			Subject:  t.SourceRange().Ptr(),
		})
	}
	return diags
}
