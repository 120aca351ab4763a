package command

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
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
	view := views.NewForceUnlock(v)
	mgr := stateCommandManager(d, v, &stateFlags{})
	if mgr == nil {
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
		view.Diagnostics(forceUnlockDiags(mgr.String(), err))
		return errReported
	}
	view.Unlocked()
	return nil
}

func forceUnlockDiags(statePath string, err error) hcl.Diagnostics {
	var detail string
	var le *statemgr.LockError
	switch {
	case errors.Is(err, statemgr.ErrNotLocked):
		detail = fmt.Sprintf("LocalState not locked: there is no lock on %s, so there is nothing to unlock.", statePath)
	case errors.As(err, &le):
		detail = "The lock on " + statePath + " is held by a command that is still running"
		if le.Info != nil {
			detail += fmt.Sprintf(" (ID %s, operation %s, by %s, since %s)", le.Info.ID, le.Info.Operation, le.Info.Who, le.Info.Created)
		}
		detail += ". Local state cannot be unlocked by another process: the lock is released when that command exits. Wait for it to finish, or stop it."
	default:
		msg := err.Error()
		detail = strings.ToUpper(msg[:1]) + msg[1:] + "."
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to unlock state", Detail: detail}}
}
