package command

import (
	"context"
	"os"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/moduletest"

	"github.com/spf13/cobra"
)

type initOptions struct {
	view      viewFlags
	input     bool
	pluginDir []string
	upgrade   bool
	// withBackend is false for -backend=false: the backend is left as
	// it is.
	withBackend bool
	backend     backendInitFlags
	// get is false for -get=false: modules are not installed.
	get bool
	// lockfile is the -lockfile mode: "readonly" or "".
	lockfile string
	// fromModule is the -from-module source to copy into the empty
	// working directory first.
	fromModule string
	// testDirectory is where the test files whose run blocks' modules
	// init installs are, besides the working directory.
	testDirectory string
	// ignoreRemoteVersion is accepted as Terraform accepts it; strata has
	// no remote backends that use it.
	ignoreRemoteVersion bool
	// vars are -var and -var-file: values of root module variables for
	// early evaluation of module sources and versions and of the backend
	// block (OpenTofu), which Terraform accepts here and ignores.
	vars varFlags
}

func newInitCommand(d *Deps, runF func(*initOptions) error) *cobra.Command {
	opts := &initOptions{}
	cmd := &cobra.Command{
		Use:   "init [options]",
		Short: "Prepare your working directory for other commands",
		Long: `Usage: strata [global options] init [options]

  Initialize a new or existing strata working directory by creating
  initial files, loading any remote state, downloading modules, etc.

  This is the first command that should be run for any new or existing
  configuration on a given machine. It is always safe to run it multiple
  times.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return &argsError{cmd: cmd, summary: "Too many command line arguments. Did you mean to use -chdir?"}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runInit(cmd.Context(), d, opts)
		},
	}
	opts.view.register(cmd.Flags())
	cmd.Flags().BoolVar(&opts.view.json, "json", false, "Produce output in a machine-readable JSON format, one message\nper line, as Terraform's -json does. Implies -input=false.")
	cmd.Flags().BoolVar(&opts.input, "input", true, "Ask for input if necessary. If false, will error if\ninput was required.")
	cmd.Flags().StringArrayVar(&opts.pluginDir, "plugin-dir", nil, "Directory containing plugin binaries, laid out as\nHOST/NAMESPACE/TYPE/VERSION/OS_ARCH/. This overrides all\ndefault search paths for plugins. May be given more than once.")
	cmd.Flags().BoolVar(&opts.upgrade, "upgrade", false, "Install the latest provider versions allowed by the\nconfiguration, ignoring the versions in the dependency lock\nfile.")
	cmd.Flags().BoolVar(&opts.withBackend, "backend", true, "Disable backend or HCP Terraform initialization\nfor this configuration and use what was previously\ninitialized instead.")
	cmd.Flags().BoolVar(&opts.get, "get", true, "Disable downloading modules for this configuration.")
	cmd.Flags().StringVar(&opts.lockfile, "lockfile", "", "Set a dependency lockfile mode. Currently only \"readonly\" is valid.")
	cmd.Flags().StringVar(&opts.fromModule, "from-module", "", "Copy the contents of the given module into the target\ndirectory before initialization.")
	cmd.Flags().StringVar(&opts.testDirectory, "test-directory", "tests", "Set the test directory, defaults to \"tests\".")
	cmd.Flags().BoolVar(&opts.ignoreRemoteVersion, "ignore-remote-version", false, "Accepted for compatibility; strata has no remote backend\nwhose version it checks.")
	opts.backend.register(cmd.Flags())
	opts.vars.registerValues(cmd.Flags())
	return cmd
}

func runInit(ctx context.Context, d *Deps, opts *initOptions) error {
	v := d.newView(opts.view)
	if opts.view.json {
		// As in Terraform, nothing can be asked on a machine's stream.
		v.Stream = views.NewJSON(d.Stdout, nil)
		v.Stream.Version(TerraformCompatVersion, d.Version)
		opts.input = false
		if opts.backend.migrateState {
			v.Diagnostics(hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "The -migrate-state and -json options are mutually-exclusive",
				Detail:   "strata cannot ask for interactive approval when -json is set. To use the -migrate-state option, disable the -json option.",
			}})
			return errReported
		}
	}
	if opts.fromModule != "" {
		if hasErrors(v, copyFromModule(ctx, d, v, opts.fromModule)) {
			return errReported
		}
	}
	mod, diags := loadRootModule(d, v, &opts.vars)
	if len(v.Files) == 0 {
		v.InitEmpty()
		return nil
	}
	if diags.HasErrors() {
		// As in Terraform: the backend header, then a note before the
		// configuration's errors.
		if opts.withBackend {
			v.InitHeading("initializing_backend_message", "Initializing the backend...")
		}
		v.Diagnostics(append(hcl.Diagnostics{initConfigProblems()}, diags...))
		return errReported
	}
	// -backend=false skips the backend entirely, as in Terraform: its
	// block is not even decoded, and .terraform/terraform.tfstate stays
	// as it is, so later commands use what was initialized before.
	if opts.withBackend {
		v.InitHeading("initializing_backend_message", "Initializing the backend...")
		if hasErrors(v, initBackend(ctx, d, v, mod, &opts.backend, inputAllowed(d, opts.input))) {
			return errReported
		}
	}
	if opts.get {
		if hasErrors(v, installModules(ctx, d, v, mod, opts.upgrade, opts.testDirectory)) {
			return errReported
		}
	}
	// With the modules in place, the whole configuration can be loaded.
	cfg, cdiags := loadConfigForInit(d, v, &opts.vars)
	var versions hcl.Diagnostics
	for _, d := range cdiags {
		if isVersionDiag(d) {
			versions = append(versions, d)
		}
	}
	if len(versions) > 0 {
		// As in Terraform: the modules are installed, then the
		// failed version constraints are reported, on their own.
		v.Diagnostics(versions)
		return errReported
	}
	if cdiags.HasErrors() {
		v.Diagnostics(append(hcl.Diagnostics{initConfigProblems()}, cdiags...))
		return errReported
	}
	v.Diagnostics(cdiags)
	v.InitHeading("initializing_provider_plugin_message", "Initializing provider plugins...")
	pdiags := installProviders(ctx, d, v, moduletest.WithRunModules(d.newParser(), cfg, ".", opts.testDirectory), opts)
	if !pdiags.HasErrors() && v.Stream == nil {
		// As in Terraform, a blank line ends the providers' section,
		// before its warnings and the success message.
		v.Raw("\n")
	}
	if hasErrors(v, pdiags) {
		return errReported
	}
	// With -backend=false Terraform creates no .terraform directory of
	// its own.
	if opts.withBackend {
		if err := os.MkdirAll(d.dataDir(), 0o755); err != nil {
			v.Diagnostics(errorDiag("Failed to create .terraform directory", err))
			return errReported
		}
	}
	v.InitSuccess(inAutomation(d))
	return nil
}

// initConfigProblems is the note Terraform's init puts before the errors
// of a configuration it cannot initialize.
func initConfigProblems() *hcl.Diagnostic {
	// Terraform writes it all as the summary, with its own line breaks.
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary: "strata encountered problems during initialisation, including problems\nwith the configuration, described below.\n\n" +
			"The strata configuration must be valid before initialization so that\nstrata can determine which modules and providers need to be installed.",
	}
}
