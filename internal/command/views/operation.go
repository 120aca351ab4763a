package views

import (
	"fmt"
	"github.com/strata-dev/strata/internal/addrs"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/contract"

	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// Operation is what plan, apply and destroy show, in human form
// (OperationHuman) or as the -json stream (OperationJSON).
type Operation interface {
	// Hook reports progress of refreshes and applies.
	Hook() hooks.Hook
	Diagnostics(hcl.Diagnostics)
	SetFiles(map[string]*hcl.File)
	// Plan shows a plan; relevant lists the attributes its changes
	// depend on, which decide the drift a normal plan shows.
	Plan(p *plans.Plan, schema SchemaFunc, relevant []plans.RelevantAttr)
	// SavedPlan starts the apply of a saved plan: with -json, a
	// planned_change message per change (not for a move or an import
	// that changes nothing), as Terraform's stream has.
	SavedPlan(p *plans.Plan)
	// PlanSaved ends a plan saved with -out; PlanNotSaved one without.
	PlanSaved(path string, automation bool)
	PlanNotSaved()
	// ConfigGenerated says where -generate-config-out wrote configuration.
	ConfigGenerated(path string)
	// Applied reports what an apply ("apply") or destroy ("destroy") did
	// and the outputs.
	Applied(operation string, imported, add, change, destroy int, outputs map[string]*states.OutputValue)
	// Interrupted reports a first (graceful) or second (hard) Ctrl-C.
	Interrupted(hard bool)
	// ContractViolations summarises the provider contract violations
	// tolerated in the run (never called with none).
	ContractViolations(vs []contract.Violation)
	// ResourceOutcomes reports what became of each resource instance an
	// apply considered (see website/docs/runs.md).
	ResourceOutcomes(os []ResourceOutcome)
}

// ResourceOutcome is what became of one resource instance (or deposed
// object) in an apply: its planned action (create, update, replace,
// delete, read, no-op...) and its outcome (up_to_date, skipped, updated,
// failed, unprocessed, unknown) with why.
type ResourceOutcome struct {
	Addr    addrs.AbsResourceInstance
	Deposed string
	Action  string
	Outcome string
	// Reason says why it was skipped or not reached; Error why it failed.
	Reason string
	Error  string
}

// NewOperation returns the human view, or the JSON stream when json is
// set.
func NewOperation(v *View, json *JSON) Operation {
	if json != nil {
		return &OperationJSON{JSON: json}
	}
	return &OperationHuman{View: v}
}

// OperationHuman is the human-readable Operation view.
type OperationHuman struct{ *View }

var _ Operation = (*OperationHuman)(nil)

// Hook implements Operation.
func (o *OperationHuman) Hook() hooks.Hook { return &UIHook{View: o.View} }

// SavedPlan implements Operation: the human apply of a saved plan does
// not show it again.
func (o *OperationHuman) SavedPlan(*plans.Plan) {}

// PlanNotSaved implements Operation.
func (o *OperationHuman) PlanNotSaved() { o.PlanNoSavedPlanNote() }

// Applied implements Operation. As Terraform, the colour codes of the
// closing lines come before their blank line.
func (o *OperationHuman) Applied(operation string, imported, add, change, destroy int, outputs map[string]*states.OutputValue) {
	if operation == "refresh" {
		o.Outputs(outputs)
		return
	}
	if operation == "destroy" {
		o.Outputf("[reset][bold][green]\nDestroy complete! Resources: %d destroyed.\n", destroy)
		return
	}
	if imported > 0 {
		o.Outputf("[reset][bold][green]\nApply complete! Resources: %d imported, %d added, %d changed, %d destroyed.\n", imported, add, change, destroy)
	} else {
		o.Outputf("[reset][bold][green]\nApply complete! Resources: %d added, %d changed, %d destroyed.\n", add, change, destroy)
	}
	o.Outputs(outputs)
}

// Interrupted implements Operation.
func (o *OperationHuman) Interrupted(hard bool) {
	if hard {
		o.Output("\n[bold][red]Two interrupts received. Exiting immediately.[reset] Every change a provider finished is in the state journal and will be recovered by the next command.\n")
		return
	}
	o.Output("\n[bold][red]Interrupt received.[reset]\nPlease wait for strata to exit or data loss may occur.\nGracefully shutting down...\n\n")
}

// OperationJSON is the -json Operation view.
type OperationJSON struct{ *JSON }

var _ Operation = (*OperationJSON)(nil)

// Hook implements Operation.
func (o *OperationJSON) Hook() hooks.Hook { return &JSONHook{JSON: o.JSON} }

// Plan implements Operation.
func (o *OperationJSON) Plan(p *plans.Plan, _ SchemaFunc, _ []plans.RelevantAttr) { o.JSON.Plan(p) }

// PlanSaved implements Operation: as Terraform's, the stream says
// nothing about the file.
func (o *OperationJSON) PlanSaved(string, bool) {}

// SavedPlan implements Operation.
func (o *OperationJSON) SavedPlan(p *plans.Plan) { o.JSON.PlannedChanges(p, false) }

// ConfigGenerated implements Operation.
func (o *OperationJSON) ConfigGenerated(path string) {
	o.Log("strata has generated configuration and written it to " + path + ".")
}

// PlanNotSaved implements Operation.
func (o *OperationJSON) PlanNotSaved() {}

// Applied implements Operation. As Terraform, the colour codes of the
// closing lines come before their blank line.
func (o *OperationJSON) Applied(operation string, imported, add, change, destroy int, outputs map[string]*states.OutputValue) {
	if operation == "refresh" {
		o.Outputs(outputs)
		return
	}
	o.ChangeSummary(operation, imported, add, change, destroy)
	if operation != "destroy" {
		o.Outputs(outputs)
	}
}

// Interrupted implements Operation.
func (o *OperationJSON) Interrupted(hard bool) {
	if hard {
		o.Log("Two interrupts received. Exiting immediately.")
		return
	}
	o.Log("Interrupt received. Please wait for strata to exit or data loss may occur. Gracefully shutting down...")
}

// contractSummary is the summary of the warning about tolerated
// violations.
const contractSummary = "Provider contract violations tolerated"

// contractLines is how many violations the human warning lists.
const contractLines = 20

// contractAdvice ends the warning.
const contractAdvice = "Like Terraform, strata does not stop for these (the provider declared the legacy SDK's type system, or read back other values than it applied), but the next plan may show them as changes. Run with -strict (or STRATA_STRICT=1) to make them errors."

// ContractViolations implements Operation: one warning.
func (o *OperationHuman) ContractViolations(vs []contract.Violation) {
	o.Diagnostics(hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  contractSummary,
		Detail:   contract.Summary(vs, contractLines) + "\n" + contractAdvice,
	}})
}

// ResourceOutcomes implements Operation: the human output shows the
// outcomes through the hooks' lines and the diagnostics already.
func (o *OperationHuman) ResourceOutcomes([]ResourceOutcome) {}

// ResourceOutcomes implements Operation: a resource_outcome message
// each, at the error level for a failure and the warn level for what was
// not reached or may have changed.
func (o *OperationJSON) ResourceOutcomes(os []ResourceOutcome) {
	for _, r := range os {
		level := "info"
		switch r.Outcome {
		case "failed":
			level = "error"
		case "unprocessed", "unknown":
			level = "warn"
		}
		msg := r.Addr.String()
		if r.Deposed != "" {
			msg += " (deposed object " + r.Deposed + ")"
		}
		msg += ": " + r.Outcome
		ro := map[string]any{"resource": jsonResource(r.Addr), "action": r.Action, "outcome": r.Outcome}
		if r.Deposed != "" {
			ro["deposed_key"] = r.Deposed
		}
		if r.Reason != "" {
			ro["reason"] = r.Reason
			msg += " (" + r.Reason + ")"
		}
		if r.Error != "" {
			ro["error"] = r.Error
		}
		o.emit(level, msg, "resource_outcome", map[string]any{"resource_outcome": ro})
	}
}

// ContractViolations implements Operation: a contract_violations message.
func (o *OperationJSON) ContractViolations(vs []contract.Violation) {
	o.emit("warn", fmt.Sprintf("%s: %d", contractSummary, len(vs)), "contract_violations", map[string]any{"violations": vs})
}
