package statecmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/command/views/render"
	"github.com/strata-dev/strata/internal/ctyjson"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/states"
)

// stateShowOptions are the flags of `strata state show`.
type stateShowOptions struct {
	view  viewFlags
	state stateFlags
}

func newStateShowCommand(d *Env, runF func(*stateShowOptions, []string) error) *cobra.Command {
	opts := &stateShowOptions{}
	cmd := &cobra.Command{
		Use:   "show [options] ADDRESS",
		Short: "Show a resource in the state",
		Long: `Usage: strata [global options] state show [options] ADDRESS

  Shows the attributes of a resource in the strata state.

  This command shows the attributes of a single resource in the strata
  state. The address argument must be used to specify a single resource.
  You can view the list of available resources with "strata state list".`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError(d, cmd, "Exactly one argument expected.")
			}
			if runF != nil {
				return runF(opts, args)
			}
			return runStateShow(cmd.Context(), d, opts, args[0])
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.state.statePath, "state", "", "Path to a strata state file to use to look up\nstrata-managed resources. By default it will\nuse the state \"terraform.tfstate\" if it exists.")
	opts.view.register(fs)
	return cmd
}

// stateShowAdvice follows state show's errors about the address, plain
// text wrapped as Terraform wraps it (a space ends its third line).
const stateShowAdvice = "This command requires that the address references one specific instance.\n" +
	"To view the available instances, use \"strata state list\". Please modify \n" +
	"the address to reference a specific instance.\n"

func runStateShow(ctx context.Context, d *Env, opts *stateShowOptions, arg string) error {
	v := d.newView(opts.view)
	dv := stderrView(d, opts.view)
	addr, diags := addrs.ParseAbsResourceInstanceStr(arg)
	if diags.HasErrors() {
		// As Terraform: plain text, not a diagnostic.
		fmt.Fprintf(d.Stderr, "Error parsing instance address: %s\n\n%s", arg, stateShowAdvice)
		return d.Reported
	}
	// Errors in the configuration are diagnostics as usual...
	if d.CheckConfig != nil && hasErrors(dv, d.CheckConfig(dv, false)) {
		return d.Reported
	}
	// ...but, as Terraform's, state show's errors opening the state are
	// plain text.
	plain := &views.View{Stdout: d.Stderr, Stderr: d.Stderr, NoColor: true, Legacy: true}
	_, s, release, ok := d.open(ctx, plain, &opts.state, openOptions{operation: "state-show", requireFile: true})
	release()
	if !ok {
		return d.Reported
	}
	obj := s.Object(addr)
	if obj == nil {
		// As Terraform: plain text, not a diagnostic, wrapped as it is.
		fmt.Fprint(d.Stderr, "No instance found for the given address!\n\n"+stateShowAdvice)
		return d.Reported
	}
	provider := s.Resource(addr.ContainingResource()).ProviderConfig
	schema := d.ResourceSchema(ctx, provider, addr)
	if schema == nil {
		dv.Diagnostics(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to load plugin schemas",
			Detail:   fmt.Sprintf("strata has no schema for the resource type %q of provider %s, so it cannot show %s. Run \"strata init\" to install the provider, or use \"strata state pull\" to see the stored object as JSON.", addr.Resource.Resource.Type, provider.Provider.ForDisplay(), addr),
		}})
		return d.Reported
	}
	val, err := ctyjson.Unmarshal(obj.AttrsJSON, schema.ImpliedType())
	if err != nil {
		dv.Diagnostics(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Stored object does not match the schema",
			Detail:   fmt.Sprintf("The object stored for %s does not conform to the current schema of %q: %s. Run \"strata plan\" or \"strata apply\" so that the provider upgrades it.", addr, addr.Resource.Resource.Type, err),
		}})
		return d.Reported
	}
	val = marks.Apply(val, obj.SensitivePaths)
	text := render.StateResource(addr.String(), val, schema)
	if obj.Status == states.ObjectTainted {
		text = strings.Replace(text, ":\n", ": (tainted)\n", 1)
	}
	v.Output(text)
	return nil
}
