package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/providercache"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/jsonprovider"
)

type providersOptions struct {
	json bool
}

func newProvidersCommand(d *Deps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "providers",
		Short: "Show the providers required for this configuration",
		Long: `
Usage: strata [global options] providers [options]

  Prints the providers used in the current configuration and state.

  Subcommands:
    lock      Write out dependency locks for the configured providers
    mirror    Save local copies of all required provider plugins
    schema    Prints the providers' schemas (-json).`,
		Args: noArgs(d),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runProviders(d)
		},
	}
	opts := &providersOptions{}
	schema := &cobra.Command{
		Use:   "schema -json",
		Short: "Show schemas for the providers used in the configuration",
		Long: `
Usage: strata [global options] providers schema -json

  Prints out a JSON representation of the schemas for all providers used
  in the current configuration, in Terraform's format.`,
		Args: cobra.ArbitraryArgs, // Terraform ignores arguments
		RunE: func(cmd *cobra.Command, args []string) error {
			return runProvidersSchema(cmd.Context(), d, opts)
		},
	}
	schema.Flags().BoolVar(&opts.json, "json", false, "Print the schemas as JSON (required).")
	// -no-color is accepted, as Terraform accepts it (terraform-exec
	// passes it to every command).
	var ignored viewFlags
	ignored.register(schema.Flags())
	ignored.register(cmd.Flags())
	cmd.AddCommand(schema, newProvidersLockCommand(d), newProvidersMirrorCommand(d))
	return cmd
}

// runProviders prints the providers the configuration and the state need,
// as a tree like terraform providers prints.
func runProviders(d *Deps) error {
	v := d.newView(viewFlags{})
	v.Legacy = true // as Terraform's older UI layer: a blank line after each diagnostic
	cfg, _, diags := loadConfig(d, v)
	for i, diag := range diags {
		if diag.Summary == noConfigFiles {
			// Terraform's words, naming the directory.
			c := *diag
			c.Detail = fmt.Sprintf("The directory %s contains no strata configuration files.", d.Dir)
			diags[i] = &c
		}
	}
	if hasErrors(v, diags) || hasErrors(v, backendPlugins(d, rootOf(cfg))) {
		return errReported
	}
	var b strings.Builder
	b.WriteString("\nProviders required by configuration:\n.\n")
	writeProviderTree(&b, cfg, "")
	stateShown := false
	if mgr, mdiags := backendState(d, cfg.Module, nil, false); !mdiags.HasErrors() {
		if s, release, sdiags := openState(context.Background(), d, mgr, &stateFlags{}, "providers"); !sdiags.HasErrors() {
			release()
			v.Diagnostics(sdiags) // e.g. operations a crash left pending
			seen := map[string]bool{}
			var inState []string
			for _, r := range s.SortedResources() {
				if p := r.ProviderConfig.Provider.String(); !seen[p] {
					seen[p] = true
					inState = append(inState, p)
				}
			}
			if len(inState) > 0 {
				stateShown = true
				b.WriteString("\nProviders required by state:\n\n")
				for _, p := range inState {
					b.WriteString("    provider[" + p + "]\n\n")
				}
			}
		}
	}
	if !stateShown {
		b.WriteString("\n") // as terraform providers ends
	}
	v.Raw(b.String())
	return nil
}

// runProvidersSchema prints provider schemas in Terraform's JSON format.
func runProvidersSchema(ctx context.Context, d *Deps, opts *providersOptions) error {
	v := d.newView(viewFlags{})
	v.Legacy = true // as Terraform's older UI layer: a blank line after each diagnostic
	if !opts.json {
		v.LegacyError("The `strata providers schema` command requires the `-json` flag.\n")
		v.LegacyError("\nUsage: strata [global options] providers schema -json\n\n" +
			"  Prints out a json representation of the schemas for all providers used \n" +
			"  in the current configuration.\n")
		return errReported
	}
	cfg, _, diags := loadConfig(d, v)
	diags = dropNoConfigFiles(diags) // as Terraform: no providers
	if hasErrors(v, diags) || hasErrors(v, backendPlugins(d, rootOf(cfg))) {
		return errReported
	}
	factories := d.Providers(".")
	out := map[addrs.Provider]providers.GetProviderSchemaResponse{}
	for _, p := range providercache.NeededProviders(cfg) {
		f, ok := factories[p]
		if !ok {
			v.Diagnostics(errorDiag("Provider not available", errorf("provider %s is not available; run \"strata init\"", p.ForDisplay())))
			return errReported
		}
		inst, err := f()
		if err != nil {
			v.Diagnostics(errorDiag("Failed to start provider", err))
			return errReported
		}
		resp := inst.GetProviderSchema(ctx)
		_ = inst.Close(ctx)
		if b := resp.Provider.Block; p.IsBuiltIn() && b != nil && len(b.Attributes) == 0 && len(b.BlockTypes) == 0 {
			// Terraform's built-in provider has no configuration
			// schema at all, where a plugin's is an empty block.
			resp.Provider.Block = nil
		}
		out[p] = resp
	}
	data, err := jsonprovider.Marshal(out)
	if err != nil {
		v.Diagnostics(errorDiag("Failed to encode schemas", err))
		return errReported
	}
	v.Raw(string(data) + "\n")
	return nil
}

// writeProviderTree writes a module's providers, then its child modules,
// as the branches of terraform providers' tree.
func writeProviderTree(b *strings.Builder, c *configs.Config, indent string) {
	provs := providercache.ModuleProviders(c.Module)
	children := sortedNames(c.Children)
	n := len(provs) + len(children)
	branch := func(i int) (string, string) {
		if i == n-1 {
			return "└── ", "    "
		}
		// Terraform pads the bar with two no-break spaces.
		return "├── ", "│\u00a0\u00a0 "
	}
	for i, p := range provs {
		head, _ := branch(i)
		b.WriteString(indent + head + "provider[" + p.String() + "]")
		var constraints []string
		for _, name := range sortedNames(c.Module.RequiredProviders) {
			if rp := c.Module.RequiredProviders[name]; rp.Source == p && rp.Requirement.Required != nil {
				constraints = append(constraints, rp.Requirement.Required.String())
			}
		}
		// As Terraform: in the normalized form (">= 1.0.0, < 2.0.0").
		if s, err := configs.NormalizeVersionConstraints(constraints); err == nil && s != "" {
			b.WriteString(" " + s)
		} else if err != nil {
			b.WriteString(" " + strings.Join(constraints, ", "))
		}
		b.WriteString("\n")
	}
	for j, name := range children {
		head, more := branch(len(provs) + j)
		b.WriteString(indent + head + "module." + name + "\n")
		writeProviderTree(b, c.Children[name], indent+more)
	}
}
