package statecmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/states/statefile"
)

// statePullOptions are the flags of `strata state pull`.
type statePullOptions struct {
	view viewFlags
}

func newStatePullCommand(d *Env, runF func(*statePullOptions) error) *cobra.Command {
	opts := &statePullOptions{}
	cmd := &cobra.Command{
		Use:   "pull [options]",
		Short: "Pull current state and output to stdout",
		Long: `Usage: strata [global options] state pull [options]

  Pull the state from its location, upgrade the local copy, and output it
  to stdout.

  This command "pulls" the current state and outputs it to stdout.
  As part of this process, strata will upgrade the state format of the
  local copy to the current version.

  The primary use of this is for state stored remotely. This command
  will still work with local state but is less useful for this.`,
		Args: cobra.ArbitraryArgs, // Terraform ignores arguments
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runStatePull(cmd.Context(), d, opts)
		},
	}
	fs := cmd.Flags()
	opts.view.register(fs)
	_ = fs.MarkHidden("no-color")
	hideHelpFlag(cmd)
	return cmd
}

func runStatePull(ctx context.Context, d *Env, opts *statePullOptions) error {
	v := d.newView(opts.view)
	dv := stderrView(d, opts.view)
	mgr, s, release, ok := d.open(ctx, dv, &stateFlags{}, openOptions{configAbs: true, operation: "state-pull"})
	release()
	if !ok {
		return d.Reported
	}
	if !mgr.Exists() {
		// No state: nothing to print, as with Terraform.
		return nil
	}
	data, err := statefile.Write(s)
	if err != nil {
		dv.Diagnostics(errorDiag("Failed to encode the state", err))
		return d.Reported
	}
	// Terraform prints the document and then a newline of its own.
	v.Raw(string(data) + "\n")
	return nil
}
