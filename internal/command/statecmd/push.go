package statecmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// statePushOptions are the flags of `strata state push`.
type statePushOptions struct {
	view  viewFlags
	state stateFlags
	force bool
}

func newStatePushCommand(d *Env, runF func(*statePushOptions, []string) error) *cobra.Command {
	opts := &statePushOptions{}
	cmd := &cobra.Command{
		Use:   "push [options] PATH",
		Short: "Update remote state from a local state file",
		Long: `Usage: strata [global options] state push [options] PATH

  Update remote state from a local state file at PATH.

  This command "pushes" a local state and overwrites remote state
  with a local state file. The command will protect you against writing
  an older serial or a different state file lineage unless you specify the
  "-force" flag.

  This command works with local state (it will overwrite the local
  state), but is less useful for this use case.

  If PATH is "-", then this command will read the state to push from stdin.
  Data from stdin is not streamed to the backend: it is loaded completely
  (until pipe close), verified, and then pushed.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError(d, cmd, "Exactly one argument expected.\n")
			}
			if runF != nil {
				return runF(opts, args)
			}
			return runStatePush(cmd.Context(), d, opts, args[0])
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.force, "force", false, "Write the state even if lineages don't match or the\nremote serial is higher.")
	registerLockFlags(fs, &opts.state)
	registerIgnoreRemoteVersion(fs)
	opts.view.register(fs)
	return cmd
}

func runStatePush(ctx context.Context, d *Env, opts *statePushOptions, path string) error {
	v := d.newView(opts.view)
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(d.Stdin)
	} else if data, err = d.readFile(path); err != nil {
		// As Terraform: the file error alone, naming the file as given.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Path = path
		}
		v.LegacyError(err.Error())
		return d.Reported
	}
	var pushed *states.State
	if err == nil && d.DecryptState != nil {
		data, err = d.DecryptState(data)
	}
	if err == nil {
		pushed, err = statefile.Read(data)
	}
	if err != nil {
		v.LegacyError(fmt.Sprintf("Error reading source state %q: %s", path, err))
		return d.Reported
	}

	// Only the lock options apply: push always writes to the selected
	// workspace, with a timestamped backup.
	mgr, cur, release, ok := d.open(ctx, v, &stateFlags{lock: opts.state.lock, lockTimeout: opts.state.lockTimeout},
		openOptions{configAbs: true, operation: "state-push", lock: true, timestampedBackup: true})
	defer release()
	if !ok {
		return d.Reported
	}
	exists := mgr.Exists()
	if exists && !opts.force {
		if diags := checkPush(pushed, cur); hasErrors(v, diags) {
			return d.Reported
		}
	}
	// The pushed snapshot keeps its serial when it is the newer one, as
	// with Terraform (Write adds one to whatever it is given). Forced over
	// a newer state, it gets the next serial instead: serials never go
	// backwards.
	if exists && pushed.Serial > cur.Serial {
		pushed.Serial--
	}
	if !write(v, mgr, pushed) {
		return d.Reported
	}
	return nil
}

// checkPush refuses to replace the current state by an unrelated or older
// one, in Terraform's words.
func checkPush(pushed, cur *states.State) hcl.Diagnostics {
	var detail string
	switch {
	case pushed.Lineage != cur.Lineage:
		detail = fmt.Sprintf("Cannot import state with lineage %q over unrelated state with lineage %q.", pushed.Lineage, cur.Lineage)
	case pushed.Serial < cur.Serial:
		detail = fmt.Sprintf("Cannot import state with serial %d over newer state with serial %d.", pushed.Serial, cur.Serial)
	case pushed.Serial == cur.Serial && !statefile.SameData(pushed, cur):
		detail = fmt.Sprintf("Cannot overwrite existing state with serial %d with a different state that has the same serial.", cur.Serial)
	default:
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Failed to write state",
		Detail:   detail + " Check that you are pushing the state you mean to, or use -force to overwrite the current state anyway.",
	}}
}
