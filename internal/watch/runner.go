package watch

import (
	"context"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/states"
)

// Runner starts the cycles of a watch. The command layer implements it
// with the code plan and apply run, so that a cycle behaves as they do.
type Runner interface {
	// Begin loads the configuration, the variables and the state for one
	// cycle. The state is read under the state lock, which is released
	// at once: a watch holds it only while it applies.
	Begin(ctx context.Context) (Session, hcl.Diagnostics)
	// Diagnostics reports diagnostics in the human output; the JSON
	// stream carries them in its events instead.
	Diagnostics(diags hcl.Diagnostics)
	// DiscardRun deletes the run record of an idle cycle that a later
	// idle cycle supersedes, so that a watch finding nothing for days
	// keeps one record of the streak and does not push the records of
	// real changes out of the retention.
	DiscardRun(id string)
}

// Fatal marks a diagnostic of Runner.Begin as one that ends the watch
// rather than failing one cycle (another watcher holds the state's
// lease), and returns it.
func Fatal(d *hcl.Diagnostic) *hcl.Diagnostic {
	d.Extra = fatalDiag{}
	return d
}

type fatalDiag struct{}

func isFatal(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if _, ok := d.Extra.(fatalDiag); ok {
			return true
		}
	}
	return false
}

// Session is one cycle: one run in the run record.
type Session interface {
	// RunID is the cycle's run in the run record, "" when runs are not
	// recorded.
	RunID() string
	// State is the state as stored when the cycle began.
	State() *states.State
	// Files are the configuration and variable files the cycle read.
	Files() []string
	// Plan plans. It may be called again, with more left out; the last
	// plan is the one Apply applies or Finish records.
	Plan(ctx context.Context, req PlanRequest) (*plans.Plan, hcl.Diagnostics)
	// Show renders the last plan as plan does (human output only).
	Show()
	// Apply applies the last plan as apply does: under the state lock,
	// with the journal, saving the state and recording the run. hook
	// hears about each operation.
	Apply(ctx context.Context, hook hooks.Hook) ApplyResult
	// Finish records a cycle that applies nothing.
	Finish(diags hcl.Diagnostics, interrupted bool)
}

// PlanRequest is what the watch asks of one plan.
type PlanRequest struct {
	// Refresh selects the instances to refresh; the others are planned
	// from the stored state.
	Refresh func(addrs.AbsResourceInstance) bool
	// Exclude leaves instances out of the plan (with what depends on
	// them): the quarantined ones, and destroys not allowed.
	Exclude []addrs.Target
	// Hook, when not nil, hears about the plan's refreshes.
	Hook hooks.Hook
	// Providers, when not nil, wraps the engine's provider factories:
	// the watch bounds each provider's concurrent refreshes and watches
	// their errors through it.
	Providers func(map[addrs.Provider]providers.Factory) map[addrs.Provider]providers.Factory
}

// ApplyResult is the outcome of Session.Apply.
type ApplyResult struct {
	Diagnostics hcl.Diagnostics
	// Stale is set when the state changed between the plan and the
	// apply: nothing was applied, and the next cycle plans again.
	Stale bool
	// Interrupted is set when the apply was stopped (SIGINT, SIGTERM).
	Interrupted bool
}
