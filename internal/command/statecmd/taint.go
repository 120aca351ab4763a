package statecmd

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// taintOptions are the flags of `strata taint` and `strata untaint`.
type taintOptions struct {
	view         viewFlags
	state        stateFlags
	allowMissing bool
	untaint      bool
}

// newTaintCommand builds `strata taint`, or `strata untaint` when untaint
// is set.
func newTaintCommand(d *Env, runF func(*taintOptions, []string) error, untaint bool) *cobra.Command {
	opts := &taintOptions{untaint: untaint}
	cmd := &cobra.Command{
		Use:   "taint [options] <address>",
		Short: "Mark a resource instance as not fully functional",
		Long: `Usage: strata [global options] taint [options] <address>

  strata uses the term "tainted" to describe a resource instance
  which may not be fully functional, either because its creation
  partially failed or because you've manually marked it as such using
  this command.

  This will not modify your infrastructure directly, but subsequent
  strata plans will include actions to destroy the remote object
  and create a new object to replace it.

  You can remove the "taint" state from a resource instance using
  the "strata untaint" command.

  The address is in the usual resource address syntax, such as:
    aws_instance.foo
    aws_instance.bar[1]
    module.foo.module.bar.aws_instance.baz

  Use your shell's quoting or escaping syntax to ensure that the
  address will reach strata correctly, without any special
  interpretation.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError(d, cmd, fmt.Sprintf("The %s command expects exactly one argument.", cmd.Name()))
			}
			if runF != nil {
				return runF(opts, args)
			}
			return runTaint(cmd.Context(), d, opts, args[0])
		},
	}
	if untaint {
		cmd.Use, cmd.Short = "untaint [options] name", "Remove the 'tainted' state from a resource instance"
		cmd.Long = `Usage: strata [global options] untaint [options] name

  strata uses the term "tainted" to describe a resource instance
  which may not be fully functional, either because its creation
  partially failed or because you've manually marked it as such using
  the "strata taint" command.

  This command removes that state from a resource instance, causing
  strata to see it as fully-functional and not in need of
  replacement.

  This will not modify your infrastructure directly. It only avoids
  strata planning to replace a tainted instance in a future operation.`
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.allowMissing, "allow-missing", false, "If specified, the command will succeed (exit code 0)\neven if the resource is missing.")
	fs.StringVar(&opts.state.statePath, "state", "", "Path to read and save state (unless -state-out is specified).\nDefaults to \"terraform.tfstate\". Legacy option for the local\nbackend only.")
	fs.StringVar(&opts.state.stateOut, "state-out", "", "Path to write state to that is different than \"-state\". This\ncan be used to preserve the old state. Legacy option for the local\nbackend only.")
	fs.StringVar(&opts.state.backupPath, "backup", "", "Path to backup the existing state file before modifying.\nDefaults to the \"-state-out\" path with \".backup\" extension. Set\nto \"-\" to disable backup. Legacy option for the local backend only.")
	fs.BoolVar(&opts.state.lock, "lock", true, "Don't hold a state lock during the operation. This is\ndangerous if others might concurrently run commands against the\nsame workspace.")
	fs.DurationVar(&opts.state.lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
	registerIgnoreRemoteVersion(fs)
	opts.view.register(fs)
	return cmd
}

func runTaint(ctx context.Context, d *Env, opts *taintOptions, arg string) error {
	v := d.newView(opts.view)
	verb, operation := "tainted", "taint"
	if opts.untaint {
		verb, operation = "untainted", "untaint"
	}
	addr, diags := addrs.ParseAbsResourceInstanceStr(arg)
	if hasErrors(v, diags) {
		return d.Reported
	}
	if addr.Resource.Resource.Mode == addrs.DataResourceMode {
		v.Diagnostics(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Resource instance %s cannot be %s", addr, verb),
			Detail:   "Only managed resources can be tainted: strata reads a data source again on every plan, so there is nothing to replace.",
		}})
		return d.Reported
	}
	mgr, s, release, ok := d.open(ctx, v, &opts.state, openOptions{operation: operation, lock: true, configAbs: operation == "taint"})
	defer release()
	if !ok {
		return d.Reported
	}

	obj := s.Object(addr)
	if obj == nil {
		// "tainted" for untaint too: Terraform's words.
		detail := fmt.Sprintf("There is no resource instance in the state with the address %s. If the resource configuration has just been added, you must run \"strata apply\" once to create the corresponding instance(s) before they can be tainted.", addr)
		if len(s.Resources) == 0 {
			detail = "The state currently contains no resource instances whatsoever. This may occur if the configuration has never been applied or if it has recently been destroyed."
		}
		if opts.allowMissing {
			v.Diagnostics(hcl.Diagnostics{{
				Severity: hcl.DiagWarning,
				Summary:  "No such resource instance",
				Detail:   fmt.Sprintf("Resource instance %s was not found, but this is not an error because -allow-missing was set.", addr),
			}})
			return nil
		}
		v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No such resource instance", Detail: detail}})
		return d.Reported
	}
	if opts.untaint && obj.Status != states.ObjectTainted {
		v.Diagnostics(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Resource instance is not tainted",
			Detail:   fmt.Sprintf("Resource instance %s is not currently tainted, and so it cannot be untainted.", addr),
		}})
		return d.Reported
	}

	updated := *obj
	updated.Status = states.ObjectTainted
	if opts.untaint {
		updated.Status = states.ObjectReady
	}
	s.SetObject(addr, &updated, s.Resource(addr.ContainingResource()).ProviderConfig)
	if !write(v, mgr, s) {
		return d.Reported
	}
	if opts.untaint {
		v.Outputf("Resource instance %s has been successfully untainted.\n", addr)
	} else {
		v.Outputf("Resource instance %s has been marked as tainted.\n", addr)
	}
	return nil
}
