package statecmd

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/states"
)

// stateReplaceProviderOptions are the flags of `strata state
// replace-provider`.
type stateReplaceProviderOptions struct {
	view        viewFlags
	state       stateFlags
	autoApprove bool
}

func newStateReplaceProviderCommand(d *Env, runF func(*stateReplaceProviderOptions, []string) error) *cobra.Command {
	opts := &stateReplaceProviderOptions{}
	cmd := &cobra.Command{
		Use:   "replace-provider [options] FROM_PROVIDER_FQN TO_PROVIDER_FQN",
		Short: "Replace provider in the state",
		Long: `Usage: strata [global options] state replace-provider [options] FROM_PROVIDER_FQN TO_PROVIDER_FQN

  Replace provider for resources in the strata state.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usageError(d, cmd, "Exactly two arguments expected.\n")
			}
			if runF != nil {
				return runF(opts, args)
			}
			return runStateReplaceProvider(cmd.Context(), d, opts, args[0], args[1])
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.autoApprove, "auto-approve", false, "Skip interactive approval.")
	registerLockFlags(fs, &opts.state)
	fs.StringVar(&opts.state.statePath, "state", "", "Path to the state file to update. Defaults to the\ncurrent workspace state. Legacy option for the local\nbackend only.")
	fs.StringVar(&opts.state.backupPath, "backup", "", "Path where strata should write the backup state.\nDefaults to the state path with a timestamp and\n\".backup\" appended. \"-\" disables the backup.")
	registerIgnoreRemoteVersion(fs)
	opts.view.register(fs)
	return cmd
}

func runStateReplaceProvider(ctx context.Context, d *Env, opts *stateReplaceProviderOptions, fromArg, toArg string) error {
	v := d.newView(opts.view)
	from, err := addrs.ParseProviderSource(fromArg)
	if err != nil {
		v.Diagnostics(invalidProviderDiags("from", fromArg, err))
		return d.Reported
	}
	to, err := addrs.ParseProviderSource(toArg)
	if err != nil {
		v.Diagnostics(invalidProviderDiags("to", toArg, err))
		return d.Reported
	}
	mgr, s, release, ok := d.open(ctx, v, &opts.state, openOptions{configAbs: true, operation: "state-replace-provider", lock: true, timestampedBackup: true, requireFile: true, direct: true})
	defer release()
	if !ok {
		return d.Reported
	}

	var matched []*states.Resource
	for _, r := range s.SortedResources() {
		if r.ProviderConfig.Provider == from {
			matched = append(matched, r)
		}
	}
	view := views.NewStateReplaceProvider(v)
	if len(matched) == 0 {
		view.NoMatches()
		return nil
	}
	names := make([]string, len(matched))
	for i, r := range matched {
		names[i] = r.Addr.String()
	}
	view.Planned(from.String(), to.String(), names)
	if !opts.autoApprove {
		view.Confirm()
		answer, ok := d.ReadAnswer()
		if !ok {
			v.Output("\n")
			v.Diagnostics(hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Error asking for approval",
				Detail:   "The input ended before an answer was given. Answer \"yes\" to approve, or use -auto-approve.",
			}})
			return d.Reported
		}
		if answer != "yes" {
			view.Cancelled()
			return nil
		}
	}
	for _, r := range matched {
		r.ProviderConfig.Provider = to
	}
	if !d.packagesBeforeWrite(v, &opts.state, "") || !write(v, mgr, s) {
		return d.Reported
	}
	view.Replaced(len(matched))
	return nil
}

func invalidProviderDiags(which, arg string, err error) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid %q provider %q", which, arg),
		Detail:   fmt.Sprintf("Invalid provider source string: %s. The source must be in the format \"[hostname/][namespace/]name\".", err),
	}}
}
