package command

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// forceUnlockOptions are the flags of `strata force-unlock`.
type forceUnlockOptions struct {
	view  viewFlags
	force bool
}

func newForceUnlockCommand(d *Deps, runF func(*forceUnlockOptions, []string) error) *cobra.Command {
	opts := &forceUnlockOptions{}
	cmd := &cobra.Command{
		Use:   "force-unlock [options] LOCK_ID",
		Short: "Release a stuck lock on the current workspace",
		Long: `Usage: strata [global options] force-unlock [options] LOCK_ID

  Manually unlock the state for the defined configuration.

  This will not modify your infrastructure. This command removes the lock on the
  state for the current workspace. For local state, a lock whose holder is
  still running cannot be removed: only the information left behind by a
  command that died holding the lock, whose ID must match LOCK_ID.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError(d, cmd, "Expected a single argument: LOCK_ID")
			}
			if runF != nil {
				return runF(opts, args)
			}
			return runForceUnlock(cmd.Context(), d, opts, args[0])
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.force, "force", false, "Don't ask for input for unlock confirmation.")
	opts.view.register(fs)
	return cmd
}

func runForceUnlock(_ context.Context, d *Deps, opts *forceUnlockOptions, id string) error {
	v := d.newView(opts.view)
	v.Legacy = true // as Terraform's older UI layer: a blank line after each diagnostic
	view := views.NewForceUnlock(v)
	if hasErrors(v, d.stateEnv().CheckConfig(v, false)) {
		return errReported
	}
	mgr, diags := stateCommandManager(d, &stateFlags{}, true)
	if hasErrors(v, diags) {
		return errReported
	}
	cancelled := false
	confirm := func(*statemgr.LockInfo) bool {
		if opts.force {
			return true
		}
		view.Confirm()
		answer, _ := readAnswer(d.Stdin)
		v.Output("\n")
		cancelled = answer != "yes"
		return !cancelled
	}
	_, err := mgr.ForceUnlock(id, confirm)
	if cancelled {
		view.Cancelled()
		return errReported
	}
	if err != nil {
		v.LegacyError(forceUnlockMessage(mgr.String(), err))
		return errReported
	}
	view.Unlocked()
	return nil
}

// forceUnlockMessage is the one-line error force-unlock prints, as
// Terraform's: "Failed to unlock state: " and the reason.
func forceUnlockMessage(statePath string, err error) string {
	var le *statemgr.LockError
	if errors.As(err, &le) {
		msg := "Failed to unlock state: the lock on " + statePath + " is held by a command that is still running"
		if le.Info != nil {
			msg += fmt.Sprintf(" (ID %s, operation %s, by %s, since %s)", le.Info.ID, le.Info.Operation, le.Info.Who, le.Info.Created)
		}
		return msg + ". Local state cannot be unlocked by another process: the lock is released when that command exits. Wait for it to finish, or stop it."
	}
	// For local state, statemgr.ErrNotLocked: "LocalState not locked".
	return "Failed to unlock state: " + err.Error()
}
