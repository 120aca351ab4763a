package command

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/moduletest"
)

type validateOptions struct {
	view    viewFlags
	json    bool
	noTests bool
	testDir string
	// dir is the configuration directory: "." unless given, as
	// Terraform still accepts (validate [options] [DIR]).
	dir string
}

func newValidateCommand(d *Deps, runF func(*validateOptions) error) *cobra.Command {
	opts := &validateOptions{}
	cmd := &cobra.Command{
		Use:   "validate [options]",
		Short: "Check whether the configuration is valid",
		Long: `Usage: strata [global options] validate [options]

  Validate the configuration files in a directory, referring only to the
  configuration and not accessing any remote services such as remote state,
  provider APIs, etc.

  Validate runs checks that verify whether a configuration is syntactically
  valid and internally consistent, regardless of any provided variables or
  existing state.`,
		Args: maxArgs(1, "Too many command line arguments", "Expected at most one positional argument."),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.dir = "."
			if len(args) == 1 {
				opts.dir = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return runValidate(cmd.Context(), d, opts)
		},
	}
	opts.view.register(cmd.Flags())
	cmd.Flags().BoolVar(&opts.noTests, "no-tests", false, "If specified, strata will not validate test files.")
	cmd.Flags().StringVar(&opts.testDir, "test-directory", "tests", "Set the test directory, relative to the configuration\ndirectory, in which test files are validated.")
	cmd.Flags().BoolVar(&opts.json, "json", false, "Produce output in a machine-readable JSON format, suitable for\nuse in text editor integrations and other automated systems.\nAlways disables color.")
	return cmd
}

func runValidate(ctx context.Context, d *Deps, opts *validateOptions) error {
	v := d.newView(opts.view)
	if fi, err := os.Stat(d.abs(opts.dir)); err != nil || !fi.IsDir() {
		views.NewValidate(opts.json, v).Results(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to read module directory",
			Detail: fmt.Sprintf("Module directory %s does not exist or cannot be read.", opts.dir)}}, nil)
		return errReported
	}
	cfg, parser, diags := loadConfigDir(d, v, opts.dir)
	// As Terraform's, validate finds an empty directory valid.
	diags = dropNoConfigFiles(diags)
	if !diags.HasErrors() {
		// As Terraform's, a provider the lock file selects and that is
		// not installed stops validate, each reported on its own.
		diags = append(diags, eachUninstalled(d)...)
	}
	if !diags.HasErrors() {
		diags = append(diags, missingProviders(d, cfg)...)
	}
	if !diags.HasErrors() {
		diags = append(diags, newEngine(d, cfg, hooks.Nil{}, 0).Validate(ctx)...)
	}
	if !opts.noTests && cfg != nil {
		// Test files are decoded as strata test decodes them.
		paths, err := moduletest.Discover(d.abs(opts.dir), opts.testDir, nil)
		if err != nil {
			diags = append(diags, errorDiag("Failed to find test files", err)...)
		}
		tests, tdiags := moduletest.Load(parser, opts.dir, paths)
		diags = append(diags, tdiags...)
		files := parser.Files()
		if !tdiags.HasErrors() {
			var mdiags hcl.Diagnostics
			files, mdiags = validateRunModules(ctx, d, tests, files)
			diags = append(diags, mdiags...)
		}
		v.SetFiles(files)
	}
	// As Terraform's, the warning about development overrides comes last.
	diags = append(diags, devOverrideWarnings(d)...)
	views.NewValidate(opts.json, v).Results(diags, v.Files)
	if diags.HasErrors() {
		return errReported
	}
	return nil
}

// validateRunModules validates, as Terraform's validate does, each local
// module that run blocks of the test files load (once per source, "./"
// included, so that the configuration's own errors are reported again).
// It returns files with the modules' sources added, for snippets.
func validateRunModules(ctx context.Context, d *Deps, tests []*moduletest.File, files map[string]*hcl.File) (map[string]*hcl.File, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	seen := map[string]bool{}
	merged := map[string]*hcl.File{}
	for name, f := range files {
		merged[name] = f
	}
	for _, tf := range tests {
		for _, run := range tf.Runs {
			m := run.Config.Module
			if m == nil || !configs.IsLocalModuleSource(m.Source) || seen[m.Source] {
				continue
			}
			seen[m.Source] = true
			p := d.newParser()
			cfg, cdiags := p.LoadConfig(filepath.Clean(filepath.FromSlash(m.Source)))
			for name, f := range p.Files() {
				if _, ok := merged[name]; !ok {
					merged[name] = f
				}
			}
			diags = append(diags, cdiags...)
			if cfg == nil || cdiags.HasErrors() {
				continue
			}
			diags = append(diags, newEngine(d, cfg, hooks.Nil{}, 0).Validate(ctx)...)
		}
	}
	return merged, diags
}
