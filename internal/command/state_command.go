package command

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// newStateCommand builds `strata state` and its subcommands.
func newStateCommand(d *Deps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "state <subcommand> [options] [args]",
		Short: "Advanced state management",
		Long: `Usage: strata [global options] state <subcommand> [options] [args]

  This command has subcommands for advanced state management.

  These subcommands can be used to slice and dice the strata state.
  This is sometimes necessary in advanced cases. For your safety, all
  state management commands that modify the state create a timestamped
  backup of the state prior to making modifications.

  The structure and output of the commands is specifically tailored to work
  well with the common Unix utilities such as grep, awk, etc. We recommend
  using those tools to perform more advanced state tasks.

Subcommands:
    list                List resources in the state
    mv                  Move an item in the state
    pull                Pull current state and output to stdout
    push                Update remote state from a local state file
    replace-provider    Replace provider in the state
    rm                  Remove instances from the state
    show                Show a resource in the state`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError(d, cmd, fmt.Sprintf("unknown subcommand %q", args[0]))
			}
			// As Terraform: the help, and exit status 1.
			fmt.Fprintln(d.Stdout, helpText(cmd))
			return errReported
		},
	}
	hideHelpFlag(cmd)
	// Name the subcommand in flag errors ("strata state mv -help").
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError(d, c, flagErrorText(err))
	})
	cmd.AddCommand(
		newStateListCommand(d, nil),
		newStateShowCommand(d, nil),
		newStateRmCommand(d, nil),
		newStateMvCommand(d, nil),
		newStatePullCommand(d, nil),
		newStatePushCommand(d, nil),
		newStateReplaceProviderCommand(d, nil),
	)
	return cmd
}

// hideHelpFlag defines -help as a hidden flag, so that a command with no
// other options shows no empty "Options:" heading.
func hideHelpFlag(cmd *cobra.Command) {
	cmd.Flags().BoolP("help", "h", false, "Show this help output.")
	_ = cmd.Flags().MarkHidden("help")
}

// usageError reports wrong arguments the way strata reports flag errors.
func usageError(d *Deps, cmd *cobra.Command, msg string) error {
	fmt.Fprintf(d.Stderr, "Error: %s\n\nFor more help, run: %s -help\n", msg, cmd.CommandPath())
	return errReported
}

// registerLockFlags adds -lock and -lock-timeout.
func registerLockFlags(fs *pflag.FlagSet, f *stateFlags) {
	fs.BoolVar(&f.lock, "lock", true, "Don't hold a state lock during the operation. This is\ndangerous if others might concurrently run commands\nagainst the same workspace.")
	fs.DurationVar(&f.lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
}

// registerIgnoreRemoteVersion accepts Terraform's -ignore-remote-version,
// which has no meaning without a remote backend.
func registerIgnoreRemoteVersion(fs *pflag.FlagSet) {
	var ignored bool
	fs.BoolVar(&ignored, "ignore-remote-version", false, "Accepted for compatibility with Terraform. strata has no remote\nbackend whose version could differ, so it has no effect.")
}

// stateCommandManager returns the manager of the state a state command
// works on: -state when given, else the backend's and workspace's state.
// Errors in the configuration do not matter here; only its backend does.
func stateCommandManager(d *Deps, v *views.View, f *stateFlags) statemgr.Manager {
	cfg, _, _ := loadConfig(&views.View{})
	mgr, diags := stateManager(d, rootOf(cfg), f)
	if hasErrors(v, diags) {
		return nil
	}
	return mgr
}

// timestampedBackup is the backup path state commands use by default, as
// Terraform's do: PATH.<unix time>.backup.
func timestampedBackup(path string) string {
	return fmt.Sprintf("%s.%d.backup", path, time.Now().Unix())
}

// openStateCommand locks the state when f asks for it (f == nil: never)
// and reads it. With requireFile, a missing state file is an error, as it
// is for Terraform's state commands. The release function unlocks.
func openStateCommand(ctx context.Context, d *Deps, v *views.View, mgr statemgr.Manager, f *stateFlags, operation string, requireFile bool) (*states.State, func(), bool) {
	lf := f
	if lf == nil {
		lf = &stateFlags{lock: false}
	}
	s, release, diags := openState(ctx, d, mgr, lf, operation)
	if hasErrors(v, diags) {
		release()
		return nil, func() {}, false
	}
	if requireFile {
		if !mgr.Exists() {
			release()
			v.Diagnostics(noStateFileDiags())
			return nil, func() {}, false
		}
	}
	return s, release, true
}

func noStateFileDiags() hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "No state file was found",
		Detail:   "State management commands require a state file. Run this command in a directory where strata has been run or use the -state flag to point the command to a specific state location.",
	}}
}

// writeStateCommand saves s through mgr, which writes the backup and
// increases the serial.
func writeStateCommand(v *views.View, mgr statemgr.Manager, s *states.State) bool {
	if err := mgr.Write(s); err != nil {
		v.Diagnostics(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to write state",
			Detail:   fmt.Sprintf("Error writing the state to %s: %s. The state file is unchanged.", mgr, err),
		}})
		return false
	}
	return true
}

// stderrView returns a view that sends every diagnostic, warnings too, to
// stderr: for commands whose stdout is data for other programs.
func stderrView(d *Deps, f viewFlags) *views.View {
	return &views.View{Stdout: d.Stderr, Stderr: d.Stderr, NoColor: f.noColor || d.noColor}
}

// readAnswer reads one line of input for a prompt. ok is false when the
// input ended before anything was typed.
func readAnswer(r io.Reader) (answer string, ok bool) {
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && line == "" {
		return "", false
	}
	return strings.TrimSpace(line), true
}
