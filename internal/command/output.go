package command

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/command/views"
)

type outputOptions struct {
	view  viewFlags
	state stateFlags
	json  bool
	raw   bool
}

func newOutputCommand(d *Deps, runF func(*outputOptions, []string) error) *cobra.Command {
	opts := &outputOptions{}
	cmd := &cobra.Command{
		Use:   "output [options] [NAME]",
		Short: "Show output values from your root module",
		Long: `Usage: strata [global options] output [options] [NAME]

  Reads an output variable from a strata state file and prints
  the value. With no additional arguments, output will display all
  the outputs for the root module. If NAME is not specified, all
  outputs are printed.`,
		Args: maxArgs(1, "Unexpected argument", "The output command expects exactly one argument with the name of an output variable or no arguments to show all outputs."),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts, args)
			}
			return runOutput(cmd.Context(), d, opts, args)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.state.statePath, "state", "", "Path to the state file to read. Defaults to \"terraform.tfstate\".\nLegacy option for the local backend only.")
	opts.view.register(fs)
	fs.BoolVar(&opts.json, "json", false, "If specified, machine readable output will be printed in\nJSON format.")
	fs.BoolVar(&opts.raw, "raw", false, "For value types that can be automatically converted to a\nstring, will print the raw string directly, rather than a\nhuman-oriented representation of the value.")
	return cmd
}

func runOutput(ctx context.Context, d *Deps, opts *outputOptions, args []string) error {
	v := d.newView(opts.view)
	if opts.json && opts.raw {
		argumentErrors(d, v, false, "output", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid output format", Detail: "The -raw and -json options are mutually-exclusive."}})
		return errReported
	}
	cfg, _, _ := loadConfig(d, &views.View{})
	mgr, diags := stateManager(d, rootOf(cfg), &opts.state)
	if hasErrors(v, diags) {
		return errReported
	}
	s, release, sdiags := openState(ctx, d, mgr, &stateFlags{lock: false}, "output")
	release()
	if hasErrors(v, sdiags) {
		return errReported
	}
	view := views.NewOutput(opts.json, opts.raw, v)
	if len(args) == 0 {
		if !view.All(s.Outputs) {
			if opts.raw && !opts.json {
				// -raw without a name: an error in the arguments,
				// followed by Terraform's pointer to the help.
				helpPrompt(d, "output")
			}
			return errReported
		}
		return nil
	}
	name := args[0]
	if len(s.Outputs) == 0 && !opts.json {
		// As Terraform: a state with no outputs at all is a warning, even
		// for a named output.
		v.Diagnostics(views.NoOutputsWarning())
		return nil
	}
	o, ok := s.Outputs[name]
	if !ok {
		v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: fmt.Sprintf("Output %q not found", name),
			Detail: "The output variable requested could not be found in the state file. If you recently added this to your configuration, be sure to run `strata apply`, since the state won't be updated with new output variables until that command is run."}})
		return errReported
	}
	if !view.One(name, o) {
		return errReported
	}
	return nil
}
