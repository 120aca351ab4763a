package command

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/lang/funcs"
	"github.com/strata-dev/strata/internal/providers/jsonfunction"
)

type metadataFunctionsOptions struct {
	view viewFlags
}

func newMetadataCommand(d *Deps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "metadata",
		Short: "Metadata related commands",
		Long: `Usage: strata [global options] metadata <subcommand> [options] [args]

  This command has subcommands for metadata related purposes.

Subcommands:
    functions    Show signatures and descriptions for the available functions`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// As Terraform: the usage, and exit status 1.
			fmt.Fprintln(d.Stdout, helpText(cmd))
			return errReported
		},
	}
	opts := &metadataFunctionsOptions{}
	fns := &cobra.Command{
		Use:   "functions -json",
		Short: "Show signatures and descriptions for the available functions",
		Long: `
Usage: strata [global options] metadata functions -json

  Prints out a json representation of the available function signatures.`,
		Args: cobra.ArbitraryArgs, // Terraform ignores arguments
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMetadataFunctions(d, opts)
		},
	}
	fns.Flags().BoolVar(&opts.view.json, "json", false, "Print the signatures as JSON (required).")
	opts.view.register(fns.Flags())
	cmd.AddCommand(fns)
	return cmd
}

// runMetadataFunctions prints the signatures of the built-in functions in
// Terraform's format.
func runMetadataFunctions(d *Deps, opts *metadataFunctionsOptions) error {
	v := d.newView(viewFlags{noColor: opts.view.noColor})
	if !opts.view.json {
		v.LegacyError("The `strata metadata functions` command requires the `-json` flag.\n")
		v.LegacyError("\nUsage: strata [global options] metadata functions -json\n\n" +
			"  Prints out a json representation of the available function signatures.\n")
		return errReported
	}
	data, err := jsonfunction.Marshal(funcs.Functions(".", false))
	if err != nil {
		v.Diagnostics(errorDiag("Failed to encode the function signatures", err))
		return errReported
	}
	v.Raw(string(data) + "\n")
	return nil
}
