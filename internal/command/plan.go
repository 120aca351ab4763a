package command

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/plans"
)

// planOptions are the flags of `strata plan`.
type planOptions struct {
	view             viewFlags
	vars             varFlags
	state            stateFlags
	destroy          bool
	refresh          bool
	parallelism      int
	detailedExitCode bool
	out              string
	targets          targetFlags
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
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runPlan(cmd.Context(), d, opts)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.destroy, "destroy", false, "Select the \"destroy\" planning mode, which creates a plan\nto destroy all objects currently managed by this configuration.")
	fs.BoolVar(&opts.refresh, "refresh", true, "Skip checking for changes to remote objects while creating\nthe plan. This can potentially make planning faster, but at\nthe expense of possibly planning against a stale record of\nthe remote system state.")
	fs.BoolVar(&opts.detailedExitCode, "detailed-exitcode", false, "Return detailed exit codes when the command exits. This\nwill change the meaning of exit codes to:\n0 - Succeeded, diff is empty (no changes)\n1 - Errored\n2 - Succeeded, there is a diff")
	fs.IntVar(&opts.parallelism, "parallelism", engine.DefaultParallelism, "Limit the number of concurrent operations. Defaults to 10.")
	fs.StringVar(&opts.out, "out", "", "Write a plan file to the given path. This can be used as\ninput to the \"apply\" command, which then does exactly what\nthe plan shows, or to \"show\".")
	fs.BoolVar(&opts.view.noColor, "no-color", false, "If specified, output won't contain any color.")
	fs.BoolVar(&opts.view.json, "json", false, "Produce output in a machine-readable JSON format, one message\nper line, as Terraform's -json does. Implies -input=false.")
	opts.vars.register(fs)
	opts.state.register(fs, false)
	opts.targets.register(fs)
	return cmd
}

func runPlan(ctx context.Context, d *Deps, opts *planOptions) error {
	v := d.newOperationView(opts.view)
	mode := plans.NormalMode
	if opts.destroy {
		mode = plans.DestroyMode
	}
	targets, replaces, tdiags := opts.targets.parse()
	if hasErrors(v, tdiags) {
		return errReported
	}
	op, err := prepareOperation(ctx, d, v, &opts.vars, &opts.state, opts.parallelism, "OperationTypePlan")
	if err != nil {
		return err
	}
	defer op.release()
	ctx, cancel := d.interruptContext(ctx, func() { v.Interrupted(false) }, nil)
	defer cancel()
	plan, diags := op.engine.Plan(ctx, op.state, engine.PlanOpts{Mode: mode, Variables: op.vars, SkipRefresh: !opts.refresh, Targets: targets, ForceReplace: replaces})
	if diags.HasErrors() {
		v.Diagnostics(diags)
		return errReported
	}
	v.Plan(plan, schemaLookup(ctx, op.engine))
	v.Diagnostics(diags)
	if opts.out != "" {
		if sdiags := savePlan(d, op.files, plan, opts.out); hasErrors(v, sdiags) {
			return errReported
		}
		v.PlanSaved(opts.out)
	} else if plan.Changes.HasChanges() && d.Getenv("TF_IN_AUTOMATION") == "" {
		// TF_IN_AUTOMATION drops advice about commands to run next, as
		// in Terraform.
		v.PlanNotSaved()
	}
	if opts.detailedExitCode && plan.Changes.HasChanges() {
		return &ExitError{Code: 2}
	}
	return nil
}
