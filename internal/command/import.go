package command

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/plans"
)

type importOptions struct {
	view        viewFlags
	vars        varFlags
	state       stateFlags
	parallelism int
	configDir   string
}

func newImportCommand(d *Deps, runF func(*importOptions, []string) error) *cobra.Command {
	opts := &importOptions{}
	cmd := &cobra.Command{
		Use:   "import [options] ADDR ID",
		Short: "Associate existing infrastructure with a strata resource",
		Long: `Usage: strata [global options] import [options] ADDR ID

  Import existing infrastructure into your strata state.

  This will find and import the specified resource into your state,
  allowing existing infrastructure to come under strata management
  without having to be initially created by strata.

  The ADDR specified is the address to import the resource to. Please
  see the documentation online for resource addresses. The ID is a
  resource-specific ID to identify that resource being imported. Please
  reference the documentation for the resource type you're importing to
  determine the ID syntax to use. It typically matches directly to the ID
  that the provider uses.

  The current implementation of strata import can only import resources
  into the state. It does not generate configuration: the resource must
  already be in the configuration.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usageError(d, cmd, "The import command expects two arguments.")
			}
			if runF != nil {
				return runF(opts, args)
			}
			return runImport(cmd.Context(), d, opts, args[0], args[1])
		},
	}
	fs := cmd.Flags()
	opts.view.register(fs)
	fs.StringVar(&opts.configDir, "config", ".", "Path to a directory of strata configuration files to use to\nconfigure the provider. Defaults to pwd. If no config files are\npresent, they must be provided via the input prompts or env vars.")
	fs.IntVar(&opts.parallelism, "parallelism", engine.DefaultParallelism, "Limit the number of concurrent operations. Defaults to 10.")
	opts.vars.register(fs)
	opts.state.register(fs, true)
	return cmd
}

func runImport(ctx context.Context, d *Deps, opts *importOptions, addrStr, id string) error {
	v := d.newView(opts.view)
	v.Legacy = true // as Terraform's older UI layer: a blank line after each diagnostic
	addr, diags := parseImportAddress(v, addrStr)
	if hasErrors(v, diags) {
		if diags[0].Subject != nil {
			// As Terraform: after a syntax error, plain text on stdout.
			fmt.Fprint(d.Stdout, "For information on valid syntax, see:\nhttps://developer.hashicorp.com/terraform/cli/state/resource-addressing\n")
		}
		return errReported
	}
	op, err := prepareOperationIn(ctx, d, views.NewOperation(v, nil), opts.configDir, &opts.vars, &opts.state, opts.parallelism, "OperationTypeImport", plans.NormalMode)
	if err != nil {
		return err
	}
	defer op.release()
	rec := startRunRecord(d, "import", op)
	iv := views.NewImport(v)
	if op.engine.Config.Descendant(addr.Module.Module()) == nil {
		diags := hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Import to non-existent module",
			Detail:   fmt.Sprintf("%s is not defined in the configuration. Please add configuration for this module before importing into it.", addr.Module),
		}}
		v.Diagnostics(diags)
		rec.Imported(addr, id, nil, addrs.AbsProviderConfig{}, diags)
		rec.Finish(nil, diags, false)
		return errReported
	}
	if op.engine.Config.Resource(addr.Module.Module(), addr.Resource.Resource) == nil {
		iv.TargetNotConfigured(addr)
		msg := views.ImportTargetNotConfigured(addr)
		diags := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Import target not configured", Detail: sentence(errors.New(msg))}}
		rec.Imported(addr, id, nil, addrs.AbsProviderConfig{}, diags)
		rec.Finish(nil, diags, false)
		return errReported
	}
	newState, idiags := op.engine.Import(ctx, op.state, addr, id, op.vars, iv)
	if hasErrors(v, idiags) {
		rec.Imported(addr, id, nil, addrs.AbsProviderConfig{}, idiags)
		rec.Finish(nil, idiags, ctx.Err() != nil)
		return errReported
	}
	// As Terraform, the state records the root outputs the import lets it
	// evaluate.
	for name, o := range op.engine.StateOutputs(ctx, newState, op.vars) {
		newState.Outputs[name] = o
	}
	var provider addrs.AbsProviderConfig
	if rs := newState.Resource(addr.ContainingResource()); rs != nil {
		provider = rs.ProviderConfig
	}
	rec.Imported(addr, id, newState.Object(addr), provider, nil)
	if err := op.mgr.Write(newState); err != nil {
		v.Diagnostics(errorDiag("Failed to save state", err))
		rec.Finish(nil, errorDiag("Failed to save state", err), false)
		return errReported
	}
	rec.Finish(newState, nil, false)
	views.NewImport(v).Imported()
	return nil
}

// importAddressFile is the name diagnostics give import's ADDR argument,
// as Terraform's.
const importAddressFile = "<import-address>"

// parseImportAddress parses import's ADDR argument as Terraform does: its
// syntax errors show the argument as their snippet, and a data resource
// is refused (an error without a place).
func parseImportAddress(v *views.View, s string) (addrs.AbsResourceInstance, hcl.Diagnostics) {
	v.AddSource(importAddressFile, []byte(s))
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), importAddressFile, hcl.InitialPos)
	var addr addrs.AbsResourceInstance
	if !diags.HasErrors() {
		addr, diags = addrs.ParseAbsResourceInstance(trav)
	}
	if diags.HasErrors() {
		return addr, diags
	}
	if addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
		return addr, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "A managed resource address is required. Importing into a data resource is not allowed.",
		}}
	}
	return addr, nil
}
