package command

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/command/views/render"
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
		Args: cobra.MaximumNArgs(1),
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
		v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid output format", Detail: "The -raw and -json options are mutually-exclusive."}})
		return errReported
	}
	cfg, _, _ := loadConfig(&views.View{})
	mgr, diags := stateManager(d, rootOf(cfg), &opts.state)
	if hasErrors(v, diags) {
		return errReported
	}
	s, release, sdiags := openState(ctx, d, mgr, &stateFlags{lock: false}, "output")
	release()
	if hasErrors(v, sdiags) {
		return errReported
	}
	if len(args) == 0 {
		if opts.raw {
			v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Output name required", Detail: "You must give the name of a single output value when using the -raw option."}})
			return errReported
		}
		if opts.json {
			out := map[string]any{}
			for name, o := range s.Outputs {
				val, _ := ctyjson.Marshal(o.Value, o.Value.Type())
				ty, _ := ctyjson.MarshalType(o.Value.Type())
				out[name] = struct {
					Sensitive bool            `json:"sensitive"`
					Type      json.RawMessage `json:"type"`
					Value     json.RawMessage `json:"value"`
				}{o.Sensitive, ty, val}
			}
			data, _ := json.MarshalIndent(out, "", "  ")
			v.Raw(string(data) + "\n")
			return nil
		}
		if len(s.Outputs) == 0 {
			v.Diagnostics(noOutputsWarning())
			return nil
		}
		v.Raw(views.FormatOutputs(s.Outputs))
		return nil
	}
	name := args[0]
	if len(s.Outputs) == 0 && !opts.json {
		// As Terraform: a state with no outputs at all is a warning, even
		// for a named output.
		v.Diagnostics(noOutputsWarning())
		return nil
	}
	o, ok := s.Outputs[name]
	if !ok {
		v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: fmt.Sprintf("Output %q not found", name),
			Detail: "The output variable requested could not be found in the state file. If you recently added this to your configuration, be sure to run `strata apply`, since the state won't be updated with new output variables until that command is run."}})
		return errReported
	}
	switch {
	case opts.json:
		data, _ := ctyjson.Marshal(o.Value, o.Value.Type())
		v.Raw(string(data) + "\n")
	case opts.raw:
		val := o.Value
		if val.IsNull() {
			v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unsupported value for raw output",
				Detail: fmt.Sprintf("The -raw option only supports strings, numbers, and boolean values, but output value %q is null.\n\nUse the -json option for machine-readable representations of output values that have complex types.", name)}})
			return errReported
		}
		str, err := convertToString(val)
		if err != nil {
			v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unsupported value for raw output",
				Detail: fmt.Sprintf("The -raw option only supports strings, numbers, and boolean values, but output value %q is %s.\n\nUse the -json option for machine-readable representations of output values that have complex types.", name, val.Type().FriendlyName())}})
			return errReported
		}
		v.Raw(str)
	default:
		v.Raw(render.Value(o.Value, 0) + "\n")
	}
	return nil
}

func convertToString(v cty.Value) (string, error) {
	switch v.Type() {
	case cty.String:
		return v.AsString(), nil
	case cty.Number:
		return v.AsBigFloat().Text('f', -1), nil
	case cty.Bool:
		if v.True() {
			return "true", nil
		}
		return "false", nil
	}
	return "", fmt.Errorf("not a primitive")
}

// noOutputsWarning is Terraform's warning for a state without outputs.
func noOutputsWarning() hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "No outputs found",
		Detail: "The state file either has no outputs defined, or all the defined outputs are empty. Please define an output in your configuration with the `output` keyword and run `strata refresh` for it to become available. If you are using interpolation, please verify the interpolated value is not empty. You can use the `strata console` command to assist."}}
}
