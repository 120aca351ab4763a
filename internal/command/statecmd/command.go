package statecmd

import (
	"fmt"

	"github.com/spf13/cobra"
)

// New builds `strata state` and its subcommands.
func New(d *Env) *cobra.Command {
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
			// As Terraform, without a subcommand or with one it does not
			// have: the help, and exit status 1.
			fmt.Fprintln(d.Stdout, d.Help(cmd))
			return d.Reported
		},
	}
	hideHelpFlag(cmd)
	// As Terraform's state commands: one red line; state list and
	// replace-provider print their usage on stdout too, state show a
	// plain line.
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		msg := "Error parsing command-line flags: " + d.FlagError(err)
		switch c.Name() {
		case "show":
			fmt.Fprintln(d.Stderr, msg)
		case "list", "replace-provider":
			d.newView(viewFlags{}).LegacyErrorText(msg + "\n")
			fmt.Fprintln(d.Stdout, d.Help(c))
		default:
			d.newView(viewFlags{}).LegacyErrorText(msg + "\n")
		}
		return d.Reported
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

// NewTaint builds `strata taint`, or `strata untaint` when untaint is
// set.
func NewTaint(d *Env, untaint bool) *cobra.Command {
	return newTaintCommand(d, nil, untaint)
}
