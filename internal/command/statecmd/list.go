package statecmd

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// stateListOptions are the flags of `strata state list`.
type stateListOptions struct {
	view  viewFlags
	state stateFlags
	id    string
}

func newStateListCommand(d *Env, runF func(*stateListOptions, []string) error) *cobra.Command {
	opts := &stateListOptions{}
	cmd := &cobra.Command{
		Use:   "list [options] [address...]",
		Short: "List resources in the state",
		Long: `Usage: strata [global options] state list [options] [address...]

  List resources in the strata state.

  This command lists resource instances in the strata state. The address
  argument can be used to filter the instances by resource or module. If
  no pattern is given, all resource instances are listed.

  The addresses must either be module addresses or absolute resource
  addresses, such as:
      aws_instance.example
      module.example
      module.example.module.child
      module.example.aws_instance.example

  An error will be returned if any of the resources or modules given as
  filter addresses do not exist in the state.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts, args)
			}
			return runStateList(cmd.Context(), d, opts, args)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.state.statePath, "state", "", "Path to a strata state file to use to look up\nstrata-managed resources. By default, strata will\nconsult the state of the currently-selected workspace.")
	fs.StringVar(&opts.id, "id", "", "Filters the results to include only instances whose\nresource types have an attribute named \"id\" whose value\nequals the given id string.")
	opts.view.register(fs)
	return cmd
}

func runStateList(ctx context.Context, d *Env, opts *stateListOptions, args []string) error {
	v := d.newView(opts.view)
	dv := stderrView(d, opts.view)
	// As Terraform: the state is read before the addresses are parsed.
	_, s, release, ok := d.open(ctx, dv, &opts.state, openOptions{operation: "state-list", requireFile: true})
	release()
	if !ok {
		return d.Reported
	}
	// As Terraform, every address's errors are reported.
	var targets []stateTarget
	var parseDiags hcl.Diagnostics
	for _, a := range args {
		t, diags := parseStateTarget(a)
		parseDiags = append(parseDiags, diags...)
		targets = append(targets, t)
	}
	if hasErrors(dv, parseDiags) {
		return d.Reported
	}
	if diags := checkTargetsExist(s, targets); hasErrors(dv, diags) {
		return d.Reported
	}
	// As Terraform does, each filter prints its matches in turn, so an
	// instance two filters match is printed twice.
	var groups [][]addrs.AbsResourceInstance
	if len(targets) == 0 {
		groups = append(groups, listOrder(s))
	}
	for _, t := range targets {
		groups = append(groups, matchingInstances(s, t))
	}
	var b strings.Builder
	for _, g := range groups {
		for _, addr := range g {
			if opts.id == "" || objectID(s, addr) == opts.id {
				b.WriteString(addr.String() + "\n")
			}
		}
	}
	v.Raw(b.String())
	return nil
}

// checkTargetsExist reports each filter address that selects nothing in
// the state, in Terraform's words.
func checkTargetsExist(s *states.State, targets []stateTarget) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range targets {
		if len(matchingInstances(s, t)) > 0 {
			continue
		}
		var summary, detail string
		switch {
		case t.isModule():
			summary = "Unknown module"
			detail = fmt.Sprintf("The current state contains no module at %s. If you've just added this module to the configuration, you must run \"strata apply\" first to create the module's entry in the state.", t)
		case t.isInstance():
			summary = "Unknown resource instance"
			detail = fmt.Sprintf("The current state contains no resource instance %s. If you've just added its resource to the configuration or have changed the count or for_each arguments, you must run \"strata apply\" first to update the resource's entry in the state.", t)
		default:
			summary = "Unknown resource"
			detail = fmt.Sprintf("The current state contains no resource %s. If you've just added this resource to the configuration, you must run \"strata apply\" first to create the resource's entry in the state.", t)
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail})
	}
	return diags
}

// objectID returns the "id" attribute of an instance's current object, or
// "" when it has none.
func objectID(s *states.State, addr addrs.AbsResourceInstance) string {
	obj := s.Object(addr)
	if obj == nil {
		return ""
	}
	if obj.AttrsJSON == nil {
		return obj.AttrsFlat["id"]
	}
	var attrs struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(obj.AttrsJSON, &attrs) != nil {
		return ""
	}
	if id, ok := attrs.ID.(string); ok {
		return id
	}
	return ""
}
