package command

import (
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/engine"
)

// newRefreshCommand is "strata refresh": an alias for
// "strata apply -refresh-only -auto-approve".
func newRefreshCommand(d *Deps, runF func(*applyOptions) error) *cobra.Command {
	opts := &applyOptions{refreshOnly: true, autoApprove: true, refresh: true, refreshCommand: true}
	cmd := &cobra.Command{
		Use:   "refresh [options]",
		Short: "Update the state to match remote systems",
		Long: `Usage: strata [global options] refresh [options]

  Update the state file of your infrastructure with metadata that matches
  the physical resources they are tracking.

  This will not modify your infrastructure, but it can modify your
  state file to update metadata. This metadata might cause new changes
  to occur when you generate a plan or call apply next.

  This command is an alias for "strata apply -refresh-only -auto-approve",
  which shows what changed before saving it.`,
		Args: maxArgs(0, "Too many command line arguments", "Expected at most one positional argument."),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runApply(cmd.Context(), d, opts)
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&opts.parallelism, "parallelism", engine.DefaultParallelism, "Limit the number of concurrent operations. Defaults to 10.")
	opts.view.register(fs)
	fs.BoolVar(&opts.view.compactWarnings, "compact-warnings", false, "If strata produces any warnings that are not accompanied\nby errors, show them in a more compact form that includes\nonly the summary messages.")
	fs.BoolVar(&opts.view.json, "json", false, "Produce output in a machine-readable JSON format, one message\nper line, as Terraform's -json does.")
	opts.vars.register(fs)
	opts.state.register(fs, true)
	fs.StringArrayVar(&opts.targets.excludes, "exclude", nil, "Leave out of the refresh the given resource and what depends on\nit, as OpenTofu does. Use this option multiple times to\nexclude more than one resource. Cannot be combined with -target.")
	// Accepted and, once its addresses are checked, ignored, as Terraform's
	// refresh does.
	fs.StringArrayVar(&opts.targets.replaces, "replace", nil, "Force replacement of a particular resource instance using\nits resource address. If the plan would have normally\nproduced an update or no-op action for this instance,\nstrata will plan to replace it instead. Use this option\nmultiple times to replace more than one object.")
	fs.StringArrayVar(&opts.targets.targets, "target", nil, "Limit the refresh to only the given resource and its\ndependencies. Use this option multiple times to include more\nthan one resource.")
	return cmd
}
