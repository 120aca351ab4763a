package command

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sort"

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
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			platform := runtime.GOOS + "_" + runtime.GOARCH
			// Providers in use are those the dependency lock file selects.
			locks, _ := depsfile.Load(depsfile.FileName)
			selections := map[string]string{}
			var lines []string
			for p, l := range locks {
				selections[p.String()] = l.Version
				lines = append(lines, fmt.Sprintf("+ provider %s v%s", p, l.Version))
			}
			sort.Strings(lines)
			if opts.json {
				enc := json.NewEncoder(d.Stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(map[string]any{
					"strata_version":      d.Version,
					"terraform_version":   TerraformCompatVersion,
					"platform":            platform,
					"provider_selections": selections,
					"terraform_outdated":  false,
				})
			}
			fmt.Fprintf(d.Stdout, "strata v%s\n(implements Terraform v%s)\non %s\n", d.Version, TerraformCompatVersion, platform)
			for _, l := range lines {
				fmt.Fprintln(d.Stdout, l)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "Output the version information as a JSON object.")
	return cmd
}
