package engine

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/plans"
)

// evalCheck evaluates a check block's assertions in every instance of its
// module. A failed assertion is a warning, never an error. During plan an
// assertion that cannot be decided yet is reported as known after apply;
// after apply it is left out. A check whose nested data source failed is
// not evaluated: that failure was its warning.
func (w *walker) evalCheck(n *checkNode, planning bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	obj := checkObject{kind: plans.CheckKindCheck, module: n.path, name: n.cfg.Name}
	for _, mi := range w.ev.moduleInstances(n.path) {
		if msg := w.checkDataFailed(mi, n.cfg.Name); msg != "" {
			w.checks.report(obj, mi, addrs.NoKey, plans.CheckFail, msg)
			continue
		}
		scope := w.ev.scope(mi)
		for _, rule := range n.cfg.Asserts {
			status, problem, d := checkAssert(scope, rule.Condition, rule.ErrorMessage, planning)
			for _, diag := range d {
				if cd, ok := diag.Extra.(checkDiag); ok && (diag.Summary == "Check block assertion failed" || diag.Summary == "Check block assertion known after apply") {
					cd.result = true
					diag.Extra = cd
				}
			}
			w.checks.report(obj, mi, addrs.NoKey, status, problem)
			if status == plans.CheckFail {
				markCondition(d, obj)
			}
			diags = append(diags, d...)
		}
	}
	return diags
}

// checkAssert evaluates one assertion. As for other conditions, the
// error message is evaluated whatever the result; what is wrong with it
// is an error, as in Terraform, apart from a sensitive message (a
// warning).
func checkAssert(scope *lang.Scope, condition, message hcl.Expression, planning bool) (plans.CheckStatus, string, hcl.Diagnostics) {
	result, diags := scope.EvalExpr(condition, cty.Bool)
	msg := evalFailureMessage(scope, message, false)
	if msg.diags.HasErrors() {
		return plans.CheckError, "", append(asWarnings(diags), msg.diags...)
	}
	if diags.HasErrors() {
		return plans.CheckError, "", asWarnings(append(diags, msg.diags...))
	}
	result, _ = result.Unmark()
	refs, _ := lang.ReferencesInExpr(condition)
	evalCtx, _ := scope.EvalContext(refs)
	switch {
	case !result.IsKnown():
		if !planning {
			return plans.CheckUnknown, "", asWarnings(append(diags, msg.diags...))
		}
		return plans.CheckUnknown, "", asWarnings(append(append(diags, &hcl.Diagnostic{
			Severity:    hcl.DiagWarning,
			Summary:     "Check block assertion known after apply",
			Detail:      "The condition could not be evaluated at this time, a result will be known when this plan is applied.",
			Subject:     condition.Range().Ptr(),
			Expression:  condition,
			EvalContext: evalCtx,
		}), msg.diags...))
	case result.IsNull():
		return plans.CheckError, "", asWarnings(append(append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Invalid condition result",
			Detail:   "The condition expression must produce true or false, not null.",
			Subject:  condition.Range().Ptr(),
		}), msg.diags...))
	case result.True():
		return plans.CheckPass, "", asWarnings(append(diags, msg.diags...))
	}
	return plans.CheckFail, msg.text, asWarnings(append(append(diags, &hcl.Diagnostic{
		Severity:    hcl.DiagWarning,
		Summary:     "Check block assertion failed",
		Detail:      msg.detail,
		Subject:     condition.Range().Ptr(),
		Expression:  condition,
		EvalContext: evalCtx,
	}), msg.diags...))
}

// asWarnings downgrades errors to warnings, and marks every diagnostic as
// coming from a check block: problems inside check blocks never stop a
// plan or apply.
func asWarnings(diags hcl.Diagnostics) hcl.Diagnostics {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			d.Severity = hcl.DiagWarning
		}
		obj, _ := d.Extra.(diagObject)
		d.Extra = checkDiag{object: obj}
	}
	return diags
}

// checkDiag marks a diagnostic a check block produced, keeping the object
// it is about, if any, and for a failed assertion the check block itself
// (checkable). An assertion's result (result) is shown however many
// others share its summary.
type checkDiag struct {
	object    diagObject
	checkable string
	result    bool
}

// DoNotConsolidate reports whether the diagnostic is an assertion's
// result, which Terraform never folds into a similar one.
func (c checkDiag) DoNotConsolidate() bool { return c.result }

// DiagnosticObject returns the object's address, or "".
func (c checkDiag) DiagnosticObject() string { return string(c.object) }

// IsCheckDiagnostic reports whether a diagnostic comes from a check block.
// apply leaves out those of its plan, as Terraform does: the checks run
// again once the changes are made.
func IsCheckDiagnostic(d *hcl.Diagnostic) bool {
	_, ok := d.Extra.(checkDiag)
	return ok
}

// checkKey identifies a check block in one module instance.
func checkKey(mi addrs.ModuleInstance, name string) string {
	return inModuleInstance(mi, "check."+name)
}

// setCheckDataFailed records that a check's nested data source failed,
// with the failure as the check's problem.
func (w *walker) setCheckDataFailed(mi addrs.ModuleInstance, name, problem string) {
	w.mu.Lock()
	if w.checkFailed == nil {
		w.checkFailed = map[string]string{}
	}
	w.checkFailed[checkKey(mi, name)] = problem
	w.mu.Unlock()
}

// checkDataFailed returns the failure of a check's nested data source, or
// "" when it did not fail.
func (w *walker) checkDataFailed(mi addrs.ModuleInstance, name string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.checkFailed[checkKey(mi, name)]
}

// checkNested finishes a data source nested in a check block: its errors
// become warnings and fail only the check.
func (w *walker) checkNested(n *resourceNode, mi addrs.ModuleInstance, diags hcl.Diagnostics) hcl.Diagnostics {
	if n.cfg.Check == "" {
		return diags
	}
	// The check's problem is the error, or, as Terraform words it,
	// "N problems:" followed by a list of them.
	var problems []string
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			problems = append(problems, d.Summary+": "+d.Detail)
		}
	}
	switch len(problems) {
	case 0:
	case 1:
		w.setCheckDataFailed(mi, n.cfg.Check, problems[0])
	default:
		w.setCheckDataFailed(mi, n.cfg.Check, fmt.Sprintf("%d problems:\n\n- %s", len(problems), strings.Join(problems, "\n- ")))
	}
	return asWarnings(diags)
}

func (n *checkNode) String() string { return inModule(n.path, fmt.Sprintf("check.%s", n.cfg.Name)) }
