package command

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/runrecord/recorder"
)

// applyOptions are the flags of `strata apply` and `strata destroy`.
type applyOptions struct {
	view        viewFlags
	vars        varFlags
	state       stateFlags
	autoApprove bool
	destroy     bool
	// destroyCommand is set for "strata destroy", which ends with
	// "Destroy complete!"; apply -destroy ends as any apply does.
	destroyCommand bool
	refreshOnly    bool
	// refreshCommand is set for "strata refresh": outputs only at the end.
	refreshCommand bool
	refresh        bool
	parallelism    int
	targets        targetFlags
	strict         bool
	allowProvider  bool
}

func newApplyCommand(d *Deps, runF func(*applyOptions) error, destroy bool) *cobra.Command {
	opts := &applyOptions{destroy: destroy, destroyCommand: destroy}
	cmd := &cobra.Command{
		Use:   "apply [options] [PLAN]",
		Short: "Create or update infrastructure",
		Long: `Usage: strata [global options] apply [options] [PLAN]

  Creates or updates infrastructure according to the configuration files
  in the current directory.

  By default, strata first makes a plan, shows it, and asks for approval
  before making any changes. Given a plan file saved by "strata plan
  -out", it applies exactly that plan, without asking.

  Every change is recorded in the state as soon as the provider finishes
  it, so an interrupted apply loses nothing.`,
		Args: maxArgs(1, "Too many command line arguments", "Expected at most one positional argument."),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			if len(args) == 1 {
				return runApplySaved(cmd.Context(), d, opts, args[0])
			}
			return runApply(cmd.Context(), d, opts)
		},
	}
	if destroy {
		cmd.Use, cmd.Short = "destroy [options]", "Destroy previously-created infrastructure"
		// As Terraform's, destroy takes a plan file too, and refuses it
		// once it has read it (runApplySaved).
		cmd.Long = `Usage: strata [global options] destroy [options]

  Destroy strata-managed infrastructure.

  This command is a convenience alias for:
      strata apply -destroy

  This command also accepts many of the plan-customization options
  accepted by the strata plan command.`
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.autoApprove, "auto-approve", false, "Skip interactive approval of plan before applying.")
	if !destroy {
		fs.BoolVar(&opts.destroy, "destroy", false, "Destroy strata-managed infrastructure; the same as\n\"strata destroy\".")
	}
	fs.BoolVar(&opts.refresh, "refresh", true, "Skip checking for changes to remote objects while creating\nthe plan.")
	if !destroy {
		fs.BoolVar(&opts.refreshOnly, "refresh-only", false, "Only update the state and outputs to match remote objects,\nwithout proposing any other changes.")
	}
	fs.IntVar(&opts.parallelism, "parallelism", engine.DefaultParallelism, "Limit the number of parallel resource operations.\nDefaults to 10.")
	opts.view.register(fs)
	fs.BoolVar(&opts.view.compactWarnings, "compact-warnings", false, "If strata produces any warnings that are not accompanied\nby errors, show them in a more compact form that includes\nonly the summary messages.")
	fs.BoolVar(&opts.view.json, "json", false, "Produce output in a machine-readable JSON format, one message\nper line, as Terraform's -json does. Requires -auto-approve or\na plan file.")
	fs.BoolVar(&opts.strict, "strict", false, strictHelp)
	fs.BoolVar(&opts.allowProvider, "allow-provider-change", false, allowProviderChangeHelp)
	opts.vars.register(fs)
	opts.state.register(fs, true)
	opts.targets.register(fs)
	return cmd
}

func runApply(ctx context.Context, d *Deps, opts *applyOptions) error {
	v := d.newOperationView(opts.view)
	if opts.view.json && !opts.autoApprove {
		v.Diagnostics(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Plan file or auto-approve required",
			Detail:   "strata cannot ask for approval of the plan when -json is set. To approve it anyway, add -auto-approve; or apply a plan file saved by \"strata plan -out\".",
		}})
		return errReported
	}
	if opts.view.json {
		opts.vars.input = false // prompts would corrupt the JSON stream
	}
	opName := "OperationTypeApply"
	if opts.refreshCommand {
		// As Terraform's lock information says.
		opName = "OperationTypeRefresh"
	}
	targets, replaces, tdiags := opts.targets.parse()
	excludes, xdiags := opts.targets.parseExcludes()
	mode, mdiags := planMode(opts.destroy, opts.refreshOnly, opts.refresh)
	if argumentErrors(d, v, opts.view.json, opts.commandName(), append(append(tdiags, xdiags...), mdiags...)) {
		return errReported
	}
	tdiags = nil
	if opts.refreshCommand {
		// As Terraform's refresh: -replace is checked, then ignored.
		replaces = nil
	}
	if len(replaces) > 0 && mode != plans.NormalMode {
		tdiags = append(tdiags, replaceModeDiag)
	}
	tdiags = append(tdiags, parallelismDiags(opts.parallelism)...)
	tdiags = append(tdiags, deprecatedStateFlag(opts.state.statePath)...)
	if hasErrors(v, tdiags) {
		return errReported
	}
	opts.vars.deferWarnings = true
	op, err := prepareOperation(ctx, d, v, &opts.vars, &opts.state, opts.parallelism, opName, mode)
	if err != nil {
		return err
	}
	defer op.release()
	defer op.keepProviders(ctx)()
	setContractChecks(d, op.engine, opts.strict)
	ctx, cancel := applyInterrupts(ctx, d, v)
	defer cancel()
	rec := startApplyRecord(d, applyCommandName(opts), op, opts.view.json)

	plan, diags := op.engine.Plan(ctx, op.state, engine.PlanOpts{Mode: mode, Variables: op.vars, SkipRefresh: !opts.refresh, Targets: targets, Excludes: excludes, ForceReplace: replaces, AllowProviderChange: opts.allowProvider, ConditionErrors: opts.refreshCommand})
	// As Terraform, the warnings about variable values come with the
	// plan's.
	diags = append(append(hcl.Diagnostics(nil), op.varWarnings...), diags...)
	if opts.refreshCommand && len(op.state.Resources) == 0 {
		diags = append(hcl.Diagnostics{emptyRefreshWarning}, diags...)
	}
	if diags.HasErrors() {
		// As Terraform: refresh never shows the plan, and apply shows a
		// failed one only when it has changes, no-ops included.
		if partialPlan(plan) && !opts.refreshCommand && (opts.view.json || views.FailedPlanShown(plan)) {
			v.Plan(plan, schemaLookup(ctx, op.engine), relevantAttrs(ctx, op.engine, op.cfg, plan))
		}
		v.Diagnostics(diags)
		reportContract(v, op.engine)
		rec.Finish(nil, diags, ctx.Err() != nil)
		return errReported
	}
	rec.Planned(plan, schemaLookup(ctx, op.engine), false, len(targets) > 0 || len(excludes) > 0)
	if !opts.refreshCommand {
		v.Plan(plan, schemaLookup(ctx, op.engine), relevantAttrs(ctx, op.engine, op.cfg, plan))
	}
	// Check blocks run again after the changes; their plan-time warnings
	// would only repeat or contradict what apply reports. As Terraform,
	// the plan's diagnostics come before the question when there is one,
	// and otherwise with the apply's, at the end.
	planDiags := dropCheckDiags(diags)
	if plan.HasChanges() && !opts.autoApprove {
		v.Diagnostics(planDiags)
		planDiags = nil
		// The answer may take long: the apply configures its providers
		// afresh, as Terraform does, rather than with credentials that
		// may have expired meanwhile.
		op.engine.CloseProviders(ctx)
		kind := confirmApply
		switch {
		case opts.destroy:
			kind = confirmDestroy
		case opts.refreshOnly:
			kind = confirmRefreshOnly
		}
		if !confirm(d, d.newView(opts.view), kind) {
			rec.Finish(nil, nil, true)
			return errReported
		}
	}
	if ctx.Err() != nil {
		v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Apply cancelled", Detail: "The run was interrupted before any change was made."}})
		rec.Finish(nil, nil, true)
		return errReported
	}
	if opts.refreshCommand {
		plan.Mode = plans.RefreshOnlyMode
		// Terraform's refresh applies nothing, so an output not known
		// yet is neither an error nor recorded.
		plan.Changes.DropUnknownOutputs()
	}
	// Nothing reads the plan's values once it is applied.
	op.engine.ReleasePlanned = true
	return applyPlan(ctx, d, v, op, plan, opts.destroyCommand, opts.refreshCommand, rec, planDiags, incompleteWarning(plan))
}

// incompleteWarning is the warning that follows an apply made with
// -target or -exclude, saved plan or not, as in Terraform.
func incompleteWarning(plan *plans.Plan) hcl.Diagnostics {
	switch {
	case len(plan.Targets) > 0:
		return hcl.Diagnostics{incompleteApplyWarning}
	case len(plan.Excludes) > 0:
		return hcl.Diagnostics{incompleteExcludeWarning}
	}
	return nil
}

// applyInterrupts handles Ctrl-C during apply: the first stops starting
// operations and saves what finished; the second exits at once, leaving the
// journal to the next command.
func applyInterrupts(ctx context.Context, d *Deps, v views.Operation) (context.Context, func()) {
	return d.interruptContext(ctx,
		func() { v.Interrupted(false) },
		func() {
			v.Interrupted(true)
			d.Exit(1)
		})
}

// applyPlan applies a plan with the state journal running, saves the new
// state and reports what was done. destroyCommand is set for "strata
// destroy" (its summary is "Destroy complete!"), outputsOnly for "strata
// refresh"; planDiags are the plan's diagnostics not shown yet, which
// come before the apply's own, and after the diagnostics that follow them.
func applyPlan(ctx context.Context, d *Deps, v views.Operation, op *operation, plan *plans.Plan, destroyCommand, outputsOnly bool, rec *recorder.Recorder, planDiags, after hcl.Diagnostics) error {
	counter := &countHook{}
	op.engine.Hooks = append(op.engine.Hooks, counter, rec.Hook())
	journal, err := op.mgr.BeginJournal(op.state)
	if err != nil {
		v.Diagnostics(errorDiag("Failed to start the state journal", err))
		rec.Finish(nil, errorDiag("Failed to start the state journal", err), false)
		return errReported
	}
	op.engine.Recorder = rec.Tee(journal)
	newState, adiags := op.engine.Apply(ctx, plan)
	newState.Lineage, newState.Serial = op.state.Lineage, op.state.Serial
	if outputsOnly {
		// Terraform's refresh command reports the checks' failures but
		// records no check results (check_results is null afterwards),
		// and strata's state must change exactly when Terraform's does.
		newState.CheckResults = nil
	}
	sdiags := saveState(d, op.mgr, newState)
	rec.ContractViolations(op.engine.Contract.Violations())
	rec.Finish(newState, append(append(hcl.Diagnostics{}, adiags...), sdiags...), ctx.Err() != nil)
	if outs := resourceOutcomes(rec); len(outs) > 0 {
		v.ResourceOutcomes(outs)
	}
	v.Diagnostics(append(append(append(append(hcl.Diagnostics{}, planDiags...), adiags...), sdiags...), after...))
	if adiags.HasErrors() || sdiags.HasErrors() || ctx.Err() != nil {
		reportContract(v, op.engine)
		return errReported
	}
	add, change, destroyed := counter.counts()
	counter.mu.Lock()
	imported := counter.imported
	counter.mu.Unlock()
	operation := "apply"
	switch {
	case destroyCommand:
		operation = "destroy"
	case outputsOnly:
		operation = "refresh"
	}
	v.Applied(operation, imported, add, change, destroyed, newState.Outputs)
	reportContract(v, op.engine)
	return nil
}

// applyCommandName names an apply-like run in its record.
func applyCommandName(opts *applyOptions) string {
	switch {
	case opts.refreshCommand:
		return "refresh"
	case opts.destroy:
		return "destroy"
	}
	return "apply"
}

// countHook counts the operations that completed, for the summary line.
type countHook struct {
	hooks.Nil
	mu                                 sync.Mutex
	added, changed, destroyd, imported int
}

func (h *countHook) PostImport(addrs.AbsResourceInstance, string) {
	h.mu.Lock()
	h.imported++
	h.mu.Unlock()
}

func (h *countHook) PostApply(_ addrs.AbsResourceInstance, _ string, action plans.Action, _ string, _ time.Duration, err error) {
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	switch action {
	case plans.Create:
		h.added++
	case plans.Update:
		h.changed++
	case plans.Delete:
		h.destroyd++
	}
}

func (h *countHook) counts() (int, int, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.added, h.changed, h.destroyd
}

func dropCheckDiags(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if !engine.IsCheckDiagnostic(d) {
			out = append(out, d)
		}
	}
	return out
}

// commandName is the command these options were given to: apply,
// destroy or refresh.
func (o *applyOptions) commandName() string {
	switch {
	case o.destroyCommand:
		return "destroy"
	case o.refreshCommand:
		return "refresh"
	}
	return "apply"
}

// emptyRefreshWarning is what refresh says, as Terraform does, when the
// state it starts from has nothing in it.
var emptyRefreshWarning = &hcl.Diagnostic{
	Severity: hcl.DiagWarning,
	Summary:  "Empty or non-existent state",
	Detail:   "There are currently no remote objects tracked in the state, so there is nothing to refresh.",
}
