package moduletest

import (
	"fmt"
	"sort"
	"strings"

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
			ctx, _ := console.EvalContextWith(a.Condition, extra)
			diags = append(diags, &hcl.Diagnostic{
				Severity:    hcl.DiagError,
				Summary:     "Unknown condition value",
				Detail:      "Condition expression could not be evaluated at this time: a value it depends on is known only after the plan is applied, and this run block has command = plan. Assert on values known during the plan, or use command = apply in this run block.",
				Subject:     a.Condition.Range().Ptr(),
				Expression:  a.Condition,
				EvalContext: ctx,
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

// sortFailures splits what a plan or an apply reported into the
// diagnostics of failures the run expects (expected) and the rest (kept),
// recording in hit every checkable object whose condition failed. As in
// terraform test, a failed check block assertion the run does not expect
// is an error, not a warning.
func sortFailures(rc *configs.TestRun, diags hcl.Diagnostics, hit map[string]bool) (kept, expected hcl.Diagnostics) {
	want := expectedAddrs(rc)
	for _, d := range diags {
		obj := engine.ConditionObject(d)
		if obj != "" {
			hit[obj] = true
		}
		switch {
		case obj != "" && want[obj]:
			expected = append(expected, d)
			continue
		case strings.HasPrefix(obj, "check.") && d.Severity == hcl.DiagWarning:
			promoted := *d
			promoted.Severity = hcl.DiagError
			d = &promoted
		}
		kept = append(kept, d)
	}
	return kept, expected
}

func expectedAddrs(rc *configs.TestRun) map[string]bool {
	out := map[string]bool{}
	for _, t := range rc.ExpectFailures {
		out[traversalString(t)] = true
	}
	return out
}

// expectedWhilePlanning explains why an apply run whose plan stopped on
// expected failures (the errors in expected) still fails.
func expectedWhilePlanning(expected hcl.Diagnostics, rc *configs.TestRun) hcl.Diagnostics {
	stopped := map[string]bool{}
	for _, d := range expected {
		if d.Severity == hcl.DiagError {
			stopped[engine.ConditionObject(d)] = true
		}
	}
	var diags hcl.Diagnostics
	for _, t := range rc.ExpectFailures {
		addr := traversalString(t)
		if !stopped[addr] {
			continue
		}
		stopped[addr] = false
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Expected failure while planning",
			Detail:   fmt.Sprintf("A custom condition within %s failed during the planning stage and prevented the requested apply operation. While this was an expected failure, the apply operation could not be executed and so the overall test case will be marked as a failure and the original diagnostic included in the test report.", addr),
			Subject:  t.SourceRange().Ptr(),
		})
	}
	return diags
}

// missingFailures reports the expected failures that did not happen.
func missingFailures(rc *configs.TestRun, hit map[string]bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range rc.ExpectFailures {
		addr := traversalString(t)
		if hit[addr] {
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
