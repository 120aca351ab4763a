package command

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// planOptions are the flags of `strata plan`.
type planOptions struct {
	view             viewFlags
	vars             varFlags
	state            stateFlags
	destroy          bool
	refreshOnly      bool
	refresh          bool
	parallelism      int
	detailedExitCode bool
	out              string
	generateConfig   string
	targets          targetFlags
	strict           bool
	allowProvider    bool
}

func newPlanCommand(d *Deps, runF func(*planOptions) error) *cobra.Command {
	opts := &planOptions{}
	cmd := &cobra.Command{
		Use:   "plan [options]",
		Short: "Show changes required by the current configuration",
		Long: `Usage: strata [global options] plan [options]

  Generates a speculative execution plan, showing what actions strata
  would take to apply the current configuration. This command will not
  actually perform the planned actions.

  You can optionally save the plan to a file with -out, which you can then
  pass to the "apply" command to perform exactly the actions described in
  the plan. With -detailed-exitcode, the exit code tells whether there are
  changes, which is how CI pipelines usually use it.`,
		Args: maxArgs(0, "Too many command line arguments", "To specify a working directory for the plan, use the global -chdir flag."),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runPlan(cmd.Context(), d, opts)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.destroy, "destroy", false, "Select the \"destroy\" planning mode, which creates a plan\nto destroy all objects currently managed by this configuration.")
	fs.BoolVar(&opts.refreshOnly, "refresh-only", false, "Select the \"refresh only\" planning mode, which checks whether\nremote objects still match the outcome of the most recent\nstrata apply but does not propose any actions to undo any\nchanges made outside of strata.")
	fs.BoolVar(&opts.refresh, "refresh", true, "Skip checking for changes to remote objects while creating\nthe plan. This can potentially make planning faster, but at\nthe expense of possibly planning against a stale record of\nthe remote system state.")
	fs.BoolVar(&opts.detailedExitCode, "detailed-exitcode", false, "Return detailed exit codes when the command exits. This\nwill change the meaning of exit codes to:\n0 - Succeeded, diff is empty (no changes)\n1 - Errored\n2 - Succeeded, there is a diff")
	fs.IntVar(&opts.parallelism, "parallelism", engine.DefaultParallelism, "Limit the number of concurrent operations. Defaults to 10.")
	fs.StringVar(&opts.out, "out", "", "Write a plan file to the given path. This can be used as\ninput to the \"apply\" command, which then does exactly what\nthe plan shows, or to \"show\".")
	fs.StringVar(&opts.generateConfig, "generate-config-out", "", "If import blocks are present in configuration, instructs\nstrata to generate HCL for any imported resources not already\npresent. The configuration is written to a new file at PATH,\nwhich must not already exist. strata may still attempt to\nwrite configuration if the plan errors.")
	opts.view.register(fs)
	fs.BoolVar(&opts.view.compactWarnings, "compact-warnings", false, "If strata produces any warnings that are not accompanied\nby errors, show them in a more compact form that includes\nonly the summary messages.")
	fs.BoolVar(&opts.view.json, "json", false, "Produce output in a machine-readable JSON format, one message\nper line, as Terraform's -json does. Implies -input=false.")
	fs.BoolVar(&opts.strict, "strict", false, strictHelp)
	fs.BoolVar(&opts.allowProvider, "allow-provider-change", false, allowProviderChangeHelp)
	opts.vars.register(fs)
	opts.state.register(fs, false)
	opts.targets.register(fs)
	return cmd
}

func runPlan(ctx context.Context, d *Deps, opts *planOptions) error {
	v := d.newOperationView(opts.view)
	targets, replaces, tdiags := opts.targets.parse()
	excludes, xdiags := opts.targets.parseExcludes()
	mode, mdiags := planMode(opts.destroy, opts.refreshOnly, opts.refresh)
	if argumentErrors(d, v, opts.view.json, "plan", append(append(tdiags, xdiags...), mdiags...)) {
		return errReported
	}
	if opts.view.json {
		opts.vars.input = false // prompts would corrupt the JSON stream
	}
	tdiags = nil
	if len(replaces) > 0 && mode != plans.NormalMode {
		tdiags = append(tdiags, replaceModeDiag)
	}
	tdiags = append(tdiags, parallelismDiags(opts.parallelism)...)
	tdiags = append(tdiags, deprecatedStateFlag(opts.state.statePath)...)
	if hasErrors(v, tdiags) {
		return errReported
	}
	if hasErrors(v, checkGenerateTarget(d, opts.generateConfig)) {
		return errReported
	}
	opts.vars.deferWarnings = true
	op, perr := prepareOperation(ctx, d, v, &opts.vars, &opts.state, opts.parallelism, "OperationTypePlan", mode)
	if perr != nil {
		return perr
	}
	defer op.release()
	defer op.keepProviders(ctx)()
	statemgr.ForgetRead(op.mgr) // a plan does not write the state
	setContractChecks(d, op.engine, opts.strict)
	ctx, cancel := d.interruptContext(ctx, func() { v.Interrupted(false) }, nil)
	defer cancel()
	rec := startRunRecord(d, "plan", op)
	plan, diags := op.engine.Plan(ctx, op.state, engine.PlanOpts{Mode: mode, Variables: op.vars, SkipRefresh: !opts.refresh, Targets: targets, Excludes: excludes, ForceReplace: replaces, AllowProviderChange: opts.allowProvider, GenerateConfigOut: opts.generateConfig})
	// As Terraform, the warnings about variable values come with the
	// plan's, after it.
	diags = append(append(hcl.Diagnostics(nil), op.varWarnings...), diags...)
	generated, gdiags := writeGeneratedConfig(op, plan, opts.generateConfig)
	diags = append(diags, gdiags...)
	if opts.out != "" {
		rec.SetPlanFile(opts.out)
	}
	rec.Planned(plan, schemaLookup(ctx, op.engine), true, len(targets) > 0 || len(excludes) > 0)
	rec.ContractViolations(op.engine.Contract.Violations())
	defer func() { rec.Finish(nil, diags, ctx.Err() != nil) }()
	if diags.HasErrors() {
		if partialPlan(plan) {
			v.Plan(plan, schemaLookup(ctx, op.engine), relevantAttrs(ctx, op.engine, op.cfg, plan))
			if opts.out != "" {
				// As Terraform: the plan is saved, marked errored, for
				// show to inspect; apply refuses it.
				plan.Errored = true
				diags = append(diags, savePlan(d, op.cfg, op.files, plan, opts.out)...)
			}
		}
		v.Diagnostics(diags)
		reportContract(v, op.engine)
		return errReported
	}
	v.Plan(plan, schemaLookup(ctx, op.engine), relevantAttrs(ctx, op.engine, op.cfg, plan))
	v.Diagnostics(diags)
	reportContract(v, op.engine)
	if generated && !inAutomation(d) {
		v.ConfigGenerated(opts.generateConfig)
	}
	if opts.out != "" {
		if sdiags := savePlan(d, op.cfg, op.files, plan, opts.out); hasErrors(v, sdiags) {
			return errReported
		}
		if plan.Applyable() {
			// As Terraform: the next steps only for a plan with
			// something to apply; the file is written either way.
			v.PlanSaved(opts.out, inAutomation(d))
		}
	} else if plan.Applyable() && !inAutomation(d) {
		// TF_IN_AUTOMATION drops advice about commands to run next, as
		// in Terraform.
		v.PlanNotSaved()
	}
	if opts.detailedExitCode && plan.HasChanges() {
		return &ExitError{Code: 2}
	}
	return nil
}

// planMode chooses the planning mode from -destroy and -refresh-only,
// which exclude each other; -refresh-only also needs refreshing.
func planMode(destroy, refreshOnly, refresh bool) (plans.Mode, hcl.Diagnostics) {
	switch {
	case destroy && refreshOnly:
		return plans.NormalMode, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Incompatible plan mode options",
			Detail: "The -destroy and -refresh-only options are mutually-exclusive."}}
	case refreshOnly && !refresh:
		return plans.NormalMode, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Incompatible refresh options",
			Detail: "It doesn't make sense to use -refresh-only at the same time as -refresh=false, because strata would have nothing to do."}}
	case destroy:
		return plans.DestroyMode, nil
	case refreshOnly:
		return plans.RefreshOnlyMode, nil
	}
	return plans.NormalMode, nil
}

// partialPlan reports whether a plan that failed is to be shown: the
// engine returns one when planning started, as Terraform does. The view
// then shows what was planned, or says that planning failed.
func partialPlan(p *plans.Plan) bool {
	return p != nil
}

// relevantAttrs returns the attributes a normal plan's changes depend on,
// which the engine recorded and which decide the drift it shows; nil when
// there is no drift to filter.
func relevantAttrs(_ context.Context, _ *engine.Engine, _ *configs.Config, p *plans.Plan) []plans.RelevantAttr {
	if p == nil || p.Mode != plans.NormalMode || len(p.DriftedResources) == 0 {
		return nil
	}
	return p.Relevant()
}
