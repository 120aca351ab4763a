package command

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/datadir"
	"github.com/strata-dev/strata/internal/initwd"
)

type getOptions struct {
	view   viewFlags
	update bool
	// testDirectory is accepted as Terraform accepts it.
	testDirectory string
}

func newGetCommand(d *Deps, runF func(*getOptions) error) *cobra.Command {
	opts := &getOptions{}
	cmd := &cobra.Command{
		Use:   "get [options]",
		Short: "Install or upgrade remote strata modules",
		Long: `Usage: strata [global options] get [options]

  Downloads and installs modules needed for the configuration in the
  current working directory.

  This recursively downloads all modules needed, such as modules
  imported by modules imported by the root and so on. If a module is
  already downloaded, it will not be redownloaded or checked for updates
  unless the -update flag is specified.

  Module installation also happens automatically by default as part of
  the "strata init" command, so you should rarely need to run this
  command separately.`,
		Args: noArgs(d),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runGet(cmd.Context(), d, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.update, "update", false, "Check already-downloaded modules for available updates\nand install the newest versions available.")
	opts.view.register(cmd.Flags())
	cmd.Flags().Lookup("no-color").Usage = "Disable text coloring in the output." // get's help words it so
	cmd.Flags().StringVar(&opts.testDirectory, "test-directory", "tests", "Set the test directory, defaults to \"tests\".")
	return cmd
}

// runGet installs the modules of the configuration, as init does but
// without the backend or providers and without init's headers, then
// reports the configuration's warnings as Terraform's get does.
func runGet(ctx context.Context, d *Deps, opts *getOptions) error {
	v := d.newView(opts.view)
	mod, diags := loadRootModule(d, v, nil)
	if len(v.Files) == 0 {
		return nil // as Terraform: nothing to install
	}
	if hasErrors(v, diags) {
		return errReported
	}
	reg, client, rdiags := moduleSources(d)
	if hasErrors(v, rdiags) {
		return errReported
	}
	files, idiags := initwd.InstallModules(ctx, mod, initwd.Options{WorkDir: d.Dir, DataDir: datadir.PathEnv(d.Getenv), Environ: d.Environ, Upgrade: opts.update, Log: rawLogger(v), Registry: reg, HTTPClient: client})
	if len(files) > 0 {
		v.SetFiles(files)
	}
	if hasErrors(v, idiags) {
		return errReported
	}
	_, cdiags := loadConfigForInit(d, v, nil)
	if hasErrors(v, cdiags) {
		return errReported
	}
	return nil
}
