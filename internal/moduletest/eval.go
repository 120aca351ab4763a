package moduletest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// variables returns the input values of a run for the module cfg: the
// command line's, overridden by the file's variables block, overridden by
// the run's. The file block's expressions may refer to the command line's
// values only; the run block's to those and the file's, and to run.NAME
// (earlier runs' outputs). As in terraform test, a file-level value is
// evaluated only when the run needs it: the module declares it and the run
// does not set it, or the run's variables or assertions refer to it. Only
// the variables the module declares are passed (vars); the others the run
// refers to come back in undeclared, for the assertions.
func (fr *fileRun) variables(cfg *configs.Config, rc *configs.TestRun) (vars, undeclared, provider map[string]engine.InputValue, diags hcl.Diagnostics) {
	global := map[string]engine.InputValue{}
	globals := fr.rn.Variables
	if fr.rn.TestDir != "" && strings.HasPrefix(fr.f.Path, fr.rn.TestDir+"/") {
		globals = fr.rn.TestDirVars
	}
	for name, v := range globals {
		global[name] = v
	}
	referenced := map[string]bool{}
	for _, expr := range rc.Variables {
		varRefs(expr, referenced)
	}
	for _, a := range rc.Asserts {
		varRefs(a.Condition, referenced)
		varRefs(a.ErrorMessage, referenced)
	}
	for _, p := range fr.f.Config.Providers {
		bodyVarRefs(p.Config, referenced)
	}
	fileExprs := map[string]hcl.Expression{}
	for name, expr := range fr.f.Config.Variables {
		_, declared := cfg.Module.Variables[name]
		_, overridden := rc.Variables[name]
		if referenced[name] || (declared && !overridden) {
			fileExprs[name] = expr
		}
	}
	fileLevel := fr.evalVariables(fileExprs, global, "context. You can only reference global variables.")
	diags = append(diags, fileLevel.diags...)
	all := map[string]engine.InputValue{}
	for _, m := range []map[string]engine.InputValue{global, fileLevel.values} {
		for name, v := range m {
			all[name] = v
		}
	}
	// The file's provider blocks see the global and file-level values
	// and the earlier runs' outputs.
	provider = map[string]engine.InputValue{}
	for name, v := range all {
		provider[name] = v
	}
	runLevel := fr.evalVariables(rc.Variables, all, "run block. You can only reference variables defined at the file or global levels.")
	diags = append(diags, runLevel.diags...)
	for name, v := range runLevel.values {
		all[name] = v
	}
	for _, name := range sortedNames(rc.Variables) {
		if _, ok := cfg.Module.Variables[name]; !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Value for undeclared variable",
				Detail:   fmt.Sprintf("The module under test does not declare a variable named %q, but it is declared in run block %q.", name, rc.Name),
				Subject:  rc.Variables[name].Range().Ptr(),
			})
		}
	}
	vars, undeclared = map[string]engine.InputValue{}, map[string]engine.InputValue{}
	for name, v := range all {
		if _, ok := cfg.Module.Variables[name]; ok {
			vars[name] = v
		} else if referenced[name] {
			undeclared[name] = v
		}
	}
	return vars, undeclared, provider, diags
}

type evaluated struct {
	values map[string]engine.InputValue
	diags  hcl.Diagnostics
}

// evalVariables evaluates a variables block's expressions with var bound
// to available; where is the end of the message for a reference to a
// variable that is not available.
func (fr *fileRun) evalVariables(exprs map[string]hcl.Expression, available map[string]engine.InputValue, where string) evaluated {
	ctx := fr.evalContext(available)
	out := evaluated{values: map[string]engine.InputValue{}}
	for _, name := range sortedNames(exprs) {
		expr := exprs[name]
		missing := fr.checkRefs(expr, available, where, "the current run block")
		if missing.HasErrors() {
			out.diags = append(out.diags, missing...)
			continue
		}
		v, vdiags := expr.Value(ctx)
		out.diags = append(out.diags, vdiags...)
		if !vdiags.HasErrors() && !v.IsWhollyKnown() {
			out.diags = append(out.diags, unknownRunValue(expr, ctx)...)
			continue
		}
		if !vdiags.HasErrors() {
			out.values[name] = engine.InputValue{Value: v, Source: expr.Range()}
		}
	}
	return out
}

// checkRefs reports the references of expr to variables not in available
// (varWhere ends the message: what may be referenced instead) and to run
// blocks that do not exist or have not run yet (before what they must
// run: runWhere).
func (fr *fileRun) checkRefs(expr hcl.Expression, available map[string]engine.InputValue, varWhere, runWhere string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range expr.Variables() {
		if len(t) < 2 {
			continue
		}
		attr, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			continue
		}
		switch t.RootName() {
		case "var":
			if _, found := available[attr.Name]; found {
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reference to unavailable variable",
				Detail:   fmt.Sprintf("The input variable %q is not available to the current %s", attr.Name, varWhere),
				Subject:  t.SourceRange().Ptr(),
			})
		case "run":
			if _, done := fr.outputs[attr.Name]; done {
				continue
			}
			exists := false
			for _, r := range fr.f.Runs {
				exists = exists || r.Config.Name == attr.Name
			}
			d := &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reference to unavailable run block",
				Detail:   fmt.Sprintf("The run block %q has not executed yet. You can only reference run blocks that are in the same test file and will execute before %s.", attr.Name, runWhere),
				Subject:  t.SourceRange().Ptr(),
			}
			if !exists {
				d.Summary = "Reference to unknown run block"
				d.Detail = fmt.Sprintf("The run block %q does not exist within this test file. You can only reference run blocks that are in the same test file and will execute before %s.", attr.Name, runWhere)
			}
			diags = append(diags, d)
		}
	}
	return diags
}

// unknownRunValue reports the references of expr to earlier runs' outputs
// that are not known: the outputs of plan runs that only an apply would
// tell.
func unknownRunValue(expr hcl.Expression, ctx *hcl.EvalContext) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range expr.Variables() {
		if t.RootName() != "run" || len(t) < 2 {
			continue
		}
		v, vdiags := t.TraverseAbs(ctx)
		if vdiags.HasErrors() || v.IsWhollyKnown() {
			continue
		}
		run := t[1].(hcl.TraverseAttr).Name
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Reference to unknown value",
			Detail:   fmt.Sprintf("The value for %s is unknown. Run block %q is executing a \"plan\" operation, and the specified output value is only known after apply.", addrs.TraversalString(t), run),
			Subject:  t.SourceRange().Ptr(),
		})
	}
	return diags
}

// evalContext is the context of a test file's expressions outside run
// blocks' assertions: var bound to vars, run to the finished runs' outputs.
func (fr *fileRun) evalContext(vars map[string]engine.InputValue) *hcl.EvalContext {
	fns := fr.rn.functions(fr.rn.Dir)
	// As in terraform test, these expressions are evaluated before any
	// plan: there is no plan timestamp.
	delete(fns, "plantimestamp")
	return &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": inputObject(vars), "run": fr.runObject()},
		Functions: fns,
	}
}

// bodyVarRefs adds the names of the variables the attributes of body and
// of its nested blocks refer to.
func bodyVarRefs(body hcl.Body, names map[string]bool) {
	b, ok := body.(*hclsyntax.Body)
	if !ok {
		return
	}
	for _, a := range b.Attributes {
		varRefs(a.Expr, names)
	}
	for _, blk := range b.Blocks {
		bodyVarRefs(blk.Body, names)
	}
}

// varRefs adds the names of the variables expr refers to (var.NAME).
func varRefs(expr hcl.Expression, names map[string]bool) {
	if expr == nil {
		return
	}
	for _, t := range expr.Variables() {
		if t.RootName() != "var" || len(t) < 2 {
			continue
		}
		if attr, ok := t[1].(hcl.TraverseAttr); ok {
			names[attr.Name] = true
		}
	}
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

// stateOutputs is the output object of an apply run: the state's values.
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

// withNullOutputs adds to outputs a null for each output of the module
// that has none: the state does not record null outputs, but assertions
// and later runs may still refer to them.
func withNullOutputs(outputs cty.Value, cfg *configs.Config) cty.Value {
	m := outputs.AsValueMap()
	if m == nil {
		m = map[string]cty.Value{}
	}
	for name := range cfg.Module.Outputs {
		if _, ok := m[name]; !ok {
			m[name] = cty.NullVal(cty.DynamicPseudoType)
		}
	}
	return cty.ObjectVal(m)
}

// asserts evaluates the run's assert blocks: a false condition is a
// failed assertion (status Fail), one that cannot be evaluated an error.
func (fr *fileRun) asserts(r *Run, console *engine.Console, outputs cty.Value, cfg *configs.Config, undeclared map[string]engine.InputValue) hcl.Diagnostics {
	extra := map[string]cty.Value{"output": outputs, "run": fr.runObject()}
	var diags hcl.Diagnostics
	if len(undeclared) > 0 {
		// The test file's variables the module does not declare are
		// visible to the assertions too, beside the module's own.
		all := map[string]cty.Value{}
		for name, v := range undeclared {
			all[name] = v.Value
		}
		for name := range cfg.Module.Variables {
			v, vdiags := console.Eval("var." + name)
			diags = append(diags, vdiags...)
			all[name] = v
		}
		extra["var"] = cty.ObjectVal(all)
	}
	for _, a := range r.Config.Asserts {
		if eph := ephemeralRefs(a.Condition); len(eph) > 0 {
			diags = append(diags, ephemeralAssert(a.Condition, eph)...)
			continue
		}
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
				Detail:      "Condition expression could not be evaluated at this time. This means you have executed a `run` block with `command = plan` and one of the values your condition depended on is not known until after the plan has been applied. Either remove this value from your condition, or execute an `apply` command from this `run` block. Alternatively, if there is an override for this value, you can make it available during the plan phase by setting `override_during = plan` in the `override_` block.",
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
		msg, mdiags := errorMessage(console, a.ErrorMessage, extra)
		diags = append(diags, mdiags...)
		diags = append(diags, &hcl.Diagnostic{
			Severity:    hcl.DiagError,
			Summary:     "Test assertion failed",
			Detail:      msg,
			Subject:     a.Condition.Range().Ptr(),
			Expression:  a.Condition,
			EvalContext: ctx,
			Extra:       assertionValues{},
		})
	}
	return diags
}

// assertionValues marks a failed assertion's diagnostic: as Terraform's
// test does, it names the sensitive and ephemeral values its condition
// refers to, which other diagnostics leave out.
type assertionValues struct{}

// DiagnosticCausedBySensitive reports true.
func (assertionValues) DiagnosticCausedBySensitive() bool { return true }

// errorMessage evaluates an assertion's error message. As in Terraform, a
// message that refers to ephemeral values is not shown: a warning says why.
func errorMessage(console *engine.Console, expr hcl.Expression, extra map[string]cty.Value) (string, hcl.Diagnostics) {
	v, diags := console.EvalExprWith(expr, cty.String, extra)
	switch {
	case diags.HasErrors() || !v.IsWhollyKnown() || v.IsNull():
		return "(error message could not be evaluated)", nil
	case marks.ContainsEphemeral(v):
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagWarning,
			Summary:  "Error message refers to ephemeral values",
			Detail:   "The error expression used to explain this condition refers to ephemeral values, so Terraform will not display the resulting message.\n\nYou can correct this by removing references to ephemeral values, or by using the ephemeralasnull() function on the references to not reveal ephemeral data.",
			Subject:  expr.Range().Ptr(),
		}}
	case marks.Contains(v):
		return "(error message refers to sensitive values)", nil
	}
	v, _ = v.UnmarkDeep()
	return v.AsString(), nil
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
		case d.Severity == hcl.DiagWarning && (strings.HasPrefix(obj, "check.") || d.Summary == "Check block assertion known after apply"):
			promoted := *d
			promoted.Severity = hcl.DiagError
			d = &promoted
		}
		kept = append(kept, d)
	}
	return kept, expected
}

// dropCheckWarnings leaves out of a plan's diagnostics the failed check
// block assertions the run does not expect: in an apply run they do not
// stop the apply, which evaluates the checks again and reports what still
// fails, as terraform test does. Neither do they say that a check is
// known only after the apply.
func dropCheckWarnings(rc *configs.TestRun, diags hcl.Diagnostics) hcl.Diagnostics {
	want := expectedAddrs(rc)
	var out hcl.Diagnostics
	for _, d := range diags {
		obj := engine.ConditionObject(d)
		if d.Severity == hcl.DiagWarning && strings.HasPrefix(obj, "check.") && !want[obj] {
			continue
		}
		if d.Summary == "Check block assertion known after apply" {
			continue
		}
		out = append(out, d)
	}
	return out
}

// invalidExpectations reports the expect_failures entries that name
// nothing checkable: locals, paths and the like.
func invalidExpectations(rc *configs.TestRun) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range rc.ExpectFailures {
		switch t.RootName() {
		case "local", "path", "terraform", "count", "each", "self", "run":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid `expect_failures` reference",
				Detail:   fmt.Sprintf("You cannot expect failures from %s. You can only expect failures from checkable objects such as input variables, output values, check blocks, managed resources and data sources.", addrs.TraversalString(t)),
				Subject:  t.SourceRange().Ptr(),
			})
		}
	}
	return diags
}

func expectedAddrs(rc *configs.TestRun) map[string]bool {
	out := map[string]bool{}
	for _, t := range rc.ExpectFailures {
		out[addrs.TraversalString(t)] = true
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
		addr := addrs.TraversalString(t)
		if !stopped[addr] {
			continue
		}
		stopped[addr] = false
		d := &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Expected failure while planning",
			Detail:   fmt.Sprintf("A custom condition within %s failed during the planning stage and prevented the requested apply operation. While this was an expected failure, the apply operation could not be executed and so the overall test case will be marked as a failure and the original diagnostic included in the test report.", addr),
		}
		// As in terraform test, the warning points at the expectation
		// for outputs only.
		if t.RootName() == "output" {
			d.Subject = t.SourceRange().Ptr()
		}
		diags = append(diags, d)
	}
	return diags
}

// missingFailures reports the expected failures that did not happen.
func missingFailures(rc *configs.TestRun, hit map[string]bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range rc.ExpectFailures {
		addr := addrs.TraversalString(t)
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

// requiredVariables rewords the engine's errors about required variables
// with no value as terraform test does: the value can come from the test
// file too.
func requiredVariables(diags hcl.Diagnostics, run string) hcl.Diagnostics {
	const prefix = "The root module input variable "
	for i, d := range diags {
		if d.Summary != "No value for required variable" || !strings.HasPrefix(d.Detail, prefix) {
			continue
		}
		name, _, ok := strings.Cut(strings.TrimPrefix(d.Detail, prefix+`"`), `"`)
		if !ok {
			continue
		}
		c := *d
		c.Detail = fmt.Sprintf("The module under test for run block %q has a required variable %q with no set value. Use a -var or -var-file command line argument or add this variable into a \"variables\" block within the test file or run block.", run, name)
		diags[i] = &c
	}
	return diags
}

// untypedUnknowns replaces the outputs of an object of outputs whose
// value is not known by an unknown of no particular type, as plan files
// record them: later runs' diagnostics do not describe them, as terraform
// test's do not.
func untypedUnknowns(outputs cty.Value) cty.Value {
	if !outputs.IsKnown() || outputs.IsNull() || !outputs.Type().IsObjectType() {
		return outputs
	}
	m := outputs.AsValueMap()
	for name, v := range m {
		if v.IsKnown() {
			continue
		}
		_, ms := v.Unmark()
		m[name] = cty.DynamicVal.WithMarks(ms)
	}
	if len(m) == 0 {
		return outputs
	}
	return cty.ObjectVal(m)
}

// ephemeralRefs returns the ephemeral resources expr refers to
// (ephemeral.TYPE.NAME, with an instance key when it gives one).
func ephemeralRefs(expr hcl.Expression) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range expr.Variables() {
		if t.RootName() != "ephemeral" || len(t) < 3 {
			continue
		}
		n := 3
		if len(t) > 3 {
			if _, ok := t[3].(hcl.TraverseIndex); ok {
				n = 4
			}
		}
		addr := addrs.TraversalString(t[:n])
		if !seen[addr] {
			seen[addr] = true
			out = append(out, addr)
		}
	}
	return out
}

// ephemeralAssert reports an assertion on ephemeral resources as
// terraform test does: they are closed before the assertions run.
func ephemeralAssert(cond hcl.Expression, refs []string) hcl.Diagnostics {
	diags := hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Ephemeral resources cannot be asserted",
		Detail:   "Ephemeral resources are closed when the test is finished, and are not available within the test context for assertions.",
		Subject:  cond.Range().Ptr(),
	}}
	for _, addr := range refs {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Ephemeral resource instance has expired",
			Detail:   fmt.Sprintf("The remote object for %s is no longer available due to a renewal error, so strata cannot evaluate this expression.", addr),
			Subject:  cond.Range().Ptr(),
		})
	}
	return diags
}
