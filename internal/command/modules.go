package command

import (
	"encoding/json"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/configs"
)

type modulesOptions struct {
	view viewFlags
}

func newModulesCommand(d *Deps, runF func(*modulesOptions) error) *cobra.Command {
	opts := &modulesOptions{}
	cmd := &cobra.Command{
		Use:   "modules [options]",
		Short: "Show all declared modules in a working directory",
		Long: `
Usage: strata [global options] modules [options]

  Prints out a list of all declared modules and their resolved versions
  in a working directory.`,
		Args: maxArgs(0, "Too many command line arguments", "Expected no positional arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runModules(d, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.view.json, "json", false, "If specified, output declared modules and\ntheir resolved versions in a machine-readable format.")
	opts.view.register(cmd.Flags())
	return cmd
}

// moduleEntry is one declared module call in modules -json.
type moduleEntry struct {
	Key     string `json:"key"`
	Source  string `json:"source"`
	Version string `json:"version"`
}

// runModules lists the module calls of the configuration, depth first with
// siblings by name, as a tree or as Terraform's JSON document.
func runModules(d *Deps, opts *modulesOptions) error {
	v := d.newView(viewFlags{noColor: opts.view.noColor})
	cfg, diags := loadConfigForInit(d, v, nil)
	diags = dropNoConfigFiles(diags)
	if hasErrors(v, diags) {
		return errReported
	}
	mf, _ := configs.ReadModuleManifest(d.dataDir("modules", "modules.json"))
	var entries []moduleEntry
	var tree strings.Builder
	var walk func(c *configs.Config, indent string)
	walk = func(c *configs.Config, indent string) {
		names := sortedNames(c.Module.ModuleCalls)
		for i, name := range names {
			call := c.Module.ModuleCalls[name]
			version := ""
			if child := c.Children[name]; child != nil {
				if rec, ok := mf.Record(configs.ManifestKey(child.Path)); ok {
					version = rec.Version
				}
			}
			// Sources as init recorded them (registry.terraform.io/...,
			// git::https://github.com/...), as Terraform lists them.
			source := configs.NormalizeModuleSource(call.Source)
			entries = append(entries, moduleEntry{Key: name, Source: source, Version: version})
			head, more := "├── ", "│\u00a0\u00a0 "
			if i == len(names)-1 {
				head, more = "└── ", "    "
			}
			tree.WriteString(indent + head + `"` + name + `"[` + source + "]")
			if version != "" {
				tree.WriteString(" " + version)
				// The constraint, when it allows more than the version.
				if call.Version != "" && call.Version != version {
					tree.WriteString(" (" + call.Version + ")")
				}
			}
			tree.WriteString("\n")
			if child := c.Children[name]; child != nil {
				walk(child, indent+more)
			}
		}
	}
	if cfg != nil {
		walk(cfg, "")
	}
	if opts.view.json {
		data, err := json.Marshal(struct {
			FormatVersion string        `json:"format_version"`
			Modules       []moduleEntry `json:"modules"`
		}{"1.0", entries})
		if err != nil {
			v.Diagnostics(errorDiag("Failed to encode the modules", err))
			return errReported
		}
		v.Raw(string(data) + "\n")
		return nil
	}
	if len(entries) == 0 {
		v.Raw("No modules found in configuration.\n")
		return nil
	}
	v.Raw("\nModules declared by configuration:\n.\n" + tree.String() + "\n")
	return nil
}
