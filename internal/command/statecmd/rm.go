package statecmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// stateRmOptions are the flags of `strata state rm`.
type stateRmOptions struct {
	view   viewFlags
	state  stateFlags
	dryRun bool
}

func newStateRmCommand(d *Env, runF func(*stateRmOptions, []string) error) *cobra.Command {
	opts := &stateRmOptions{}
	cmd := &cobra.Command{
		Use:   "rm [options] ADDRESS...",
		Short: "Remove instances from the state",
		Long: `Usage: strata [global options] state rm [options] ADDRESS...

  Remove one or more items from the strata state, causing strata to
  "forget" those items without first destroying them in the remote system.

  This command removes one or more resource instances from the strata state
  based on the addresses given. You can view and list the available instances
  with "strata state list".

  If you give the address of an entire module then all of the instances in
  that module and any of its child modules will be removed from the state.

  If you give the address of a resource that has "count" or "for_each" set,
  all of the instances of that resource will be removed from the state.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError(d, cmd, "At least one address is required.\n")
			}
			if runF != nil {
				return runF(opts, args)
			}
			return runStateRm(cmd.Context(), d, opts, args)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.dryRun, "dry-run", false, "If set, prints out what would've been removed but\ndoesn't actually remove anything.")
	fs.StringVar(&opts.state.backupPath, "backup", "", "Path where strata should write the backup state.\nDefaults to the state path with a timestamp and\n\".backup\" appended. \"-\" disables the backup.")
	registerLockFlags(fs, &opts.state)
	fs.StringVar(&opts.state.statePath, "state", "", "Path to the state file to update. Defaults to the\ncurrent workspace state.")
	registerIgnoreRemoteVersion(fs)
	opts.view.register(fs)
	return cmd
}

func runStateRm(ctx context.Context, d *Env, opts *stateRmOptions, args []string) error {
	v := d.newView(opts.view)
	// As Terraform, every address's errors are reported.
	var targets []stateTarget
	var parseDiags hcl.Diagnostics
	for _, a := range args {
		t, diags := parseStateTarget(a)
		parseDiags = append(parseDiags, diags...)
		targets = append(targets, t)
	}
	if hasErrors(v, parseDiags) {
		return d.Reported
	}
	mgr, s, release, ok := d.open(ctx, v, &opts.state, openOptions{configAbs: true, operation: "state-rm", lock: true, timestampedBackup: true, requireFile: true, direct: true})
	defer release()
	if !ok {
		return d.Reported
	}

	// Like Terraform, remove what the addresses match, and fail only when
	// they match nothing at all; an address that matches nothing beside
	// others that do gets a warning.
	var remove []addrs.AbsResourceInstance
	seen := map[string]bool{}
	var warnings hcl.Diagnostics
	for i, t := range targets {
		matched := matchingInstances(s, t)
		if len(matched) == 0 {
			warnings = append(warnings, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "No matching objects",
				Detail:   fmt.Sprintf("The address %s matches nothing in the current state, so nothing was removed for it.", args[i]),
			})
		}
		for _, addr := range matched {
			if !seen[addr.String()] {
				seen[addr.String()] = true
				remove = append(remove, addr)
			}
		}
	}
	if len(remove) == 0 {
		v.Diagnostics(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid target address",
			Detail:   "No matching objects found. To view the available instances, use \"strata state list\". Please modify the address to reference a specific instance.",
		}})
		return d.Reported
	}

	var b strings.Builder
	verb := "Removed"
	if opts.dryRun {
		verb = "Would remove"
	}
	for _, addr := range remove {
		fmt.Fprintf(&b, "%s %s\n", verb, addr)
		removeInstance(s, addr)
	}
	if opts.dryRun {
		v.Raw(b.String())
		v.Diagnostics(warnings)
		return nil
	}
	if !d.packagesBeforeWrite(v, &opts.state, b.String()) || !write(v, mgr, s) {
		return d.Reported
	}
	fmt.Fprintf(&b, "Successfully removed %d resource instance(s).\n", len(remove))
	v.Raw(b.String())
	v.Diagnostics(warnings)
	return nil
}

// removeInstance removes an instance, current and deposed objects alike,
// and its resource once no instance is left.
func removeInstance(s *states.State, addr addrs.AbsResourceInstance) {
	key := addr.ContainingResource().String()
	r := s.Resources[key]
	if r == nil {
		return
	}
	delete(r.Instances, addr.Resource.Key)
	if len(r.Instances) == 0 {
		delete(s.Resources, key)
	}
}
