package command

import (
	"runtime"

	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/depsfile"

	"github.com/spf13/cobra"
)

type versionOptions struct {
	json bool
}

func newVersionCommand(d *Deps, runF func(*versionOptions) error) *cobra.Command {
	opts := &versionOptions{}
	cmd := &cobra.Command{
		Use:   "version [options]",
		Short: "Show the current strata version",
		Long: `Usage: strata [global options] version [options]

  Displays the version of strata, the Terraform language version it
  implements, and the platform it runs on.`,
		Args: cobra.ArbitraryArgs, // Terraform ignores arguments
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			// Providers in use are those the dependency lock file selects.
			locks, _ := depsfile.LoadIn(d.Dir, depsfile.FileName)
			selections := map[string]string{}
			for p, l := range locks {
				selections[p.String()] = l.Version
			}
			return views.NewVersion(opts.json, d.newView(viewFlags{})).Show(views.VersionInfo{
				Strata: d.Version, Terraform: TerraformCompatVersion,
				Platform: runtime.GOOS + "_" + runtime.GOARCH, Providers: selections,
			})
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "Output the version information as a JSON object.")
	return cmd
}
