package command

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/go-uuid"
	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/moduletest"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// testOptions are the flags of `strata test`.
type testOptions struct {
	view        viewFlags
	vars        varFlags
	filter      []string
	testDir     string
	verbose     bool
	parallelism int
	// runParallelism bounds the run blocks of a file running at once.
	runParallelism int
	junitXML       string
}

func newTestCommand(d *Deps, runF func(*testOptions) error) *cobra.Command {
	opts := &testOptions{}
	cmd := &cobra.Command{
		Use:   "test [options]",
		Short: "Execute integration tests for strata modules",
		Long: `Usage: strata [global options] test [options]

  Executes automated integration tests against the current strata
  configuration.

  strata searches the current directory and the specified testing
  directory (tests by default) for files ending in .tftest.hcl or
  .tftest.json, and runs their run blocks in order: each plans or applies
  the configuration and checks its assert blocks. Everything the tests
  create is destroyed at the end of each file.`,
		Args: cobra.ArbitraryArgs, // Terraform ignores arguments
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runTest(cmd.Context(), d, opts)
		},
	}
	fs := cmd.Flags()
	fs.StringArrayVar(&opts.filter, "filter", nil, "Restrict the test files to run to those named. Use this option\nmore than once to run more than one file.")
	fs.BoolVar(&opts.view.json, "json", false, "Produce output in a machine-readable JSON format, one message\nper line, as Terraform's -json does.")
	opts.view.register(fs)
	fs.StringVar(&opts.testDir, "test-directory", "tests", "Set the test directory, relative to the configuration\ndirectory.")
	fs.StringVar(&opts.junitXML, "junit-xml", "", "Also write the results to the given file as a JUnit XML report,\nfor CI systems that read one.")
	fs.BoolVar(&opts.verbose, "verbose", false, "Print the plan or state of each run block as it runs.")
	fs.IntVar(&opts.parallelism, "parallelism", engine.DefaultParallelism, "Limit the number of concurrent operations within each\nplan and apply. Defaults to 10.")
	fs.IntVar(&opts.runParallelism, "run-parallelism", moduletest.DefaultRunParallelism, "Limit the number of run blocks of a file that run at the same\ntime (those with parallel = true). Defaults to 10.")
	opts.vars.register(fs)
	_ = fs.MarkHidden("input")
	return cmd
}

func runTest(ctx context.Context, d *Deps, opts *testOptions) error {
	v := d.newView(opts.view)
	var j *views.JSON
	if opts.view.json {
		j = views.NewJSON(d.Stdout, nil)
		j.Version(TerraformCompatVersion, d.Version)
		v.Stream = j
	}
	var view views.Test
	verbose := func(r *moduletest.Run) { showTestRun(ctx, d, v, r) }
	if !opts.verbose || opts.view.json {
		verbose = nil
	}
	view = views.NewTestView(v, j, verbose)

	cfg, parser, diags := loadConfig(d, v)
	// As terraform test, a directory without configuration files runs
	// its test files against an empty module.
	diags = dropNoConfigFiles(diags)
	if diags.HasErrors() {
		view.Diagnostics(diags)
		return errReported
	}
	opts.vars.input = false
	opts.vars.undeclared = true
	vars, vdiags := collectVariables(d, cfg.Module, parser, &opts.vars, false)
	diags = append(diags, vdiags...)
	// The variable files of the test directory override all the others,
	// for the test files in that directory, as in terraform test.
	testDirVars := map[string]engine.InputValue{}
	for name, v := range vars {
		testDirVars[name] = v
	}
	for _, name := range autoVarFiles(d.abs, opts.testDir) {
		diags = append(diags, loadVarFile(parser, cfg.Module, name, testDirVars, true)...)
	}
	paths, err := moduletest.Discover(d.Dir, opts.testDir, opts.filter)
	if err != nil {
		diags = append(diags, errorDiag("Failed to find test files", err)...)
	}
	files, fdiags := moduletest.Load(parser, ".", paths)
	diags = append(diags, fdiags...)
	v.SetFiles(parser.Files())
	if j != nil {
		j.SetFiles(parser.Files())
	}
	// As Terraform, the tests start only with the provider packages in
	// place, each missing or altered one an error.
	diags = append(diags, eachUninstalled(d)...)
	view.Diagnostics(diags)
	if diags.HasErrors() {
		return errReported
	}

	view.Abstract(files)
	runner := &moduletest.Runner{
		Dir:      ".",
		WorkDir:  d.Dir,
		Manifest: parser.ManifestPath(),
		LoadConfig: func(dir string) (*configs.Config, hcl.Diagnostics) {
			c, cdiags := parser.LoadConfig(dir)
			if c != nil && !cdiags.HasErrors() {
				cdiags = append(cdiags, checkRequiredVersions(c)...)
			}
			return c, cdiags
		},
		NewEngine: func(c *configs.Config) *engine.Engine {
			return newEngine(d, c, hooks.Nil{}, opts.parallelism)
		},
		Variables:      vars,
		TestDir:        filepath.ToSlash(filepath.Clean(opts.testDir)),
		TestDirVars:    testDirVars,
		Reporter:       view,
		RunParallelism: opts.runParallelism,
		SaveRecovery: func(f *moduletest.File, s *states.State) (string, error) {
			return saveTestRecovery(d, f, s)
		},
	}
	// As in terraform test, a first interrupt lets the running
	// operations finish and skips the runs and files still to come; a
	// second stops the operations. The cleanup happens either way.
	stop := make(chan struct{})
	runner.Stop = stop
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if d.Interrupts != nil {
		done := make(chan struct{})
		defer close(done)
		go func() {
			for n := 0; n < 2; n++ {
				select {
				case <-d.Interrupts:
				case <-done:
					return
				}
				view.Interrupted(n == 1)
				if n == 0 {
					close(stop)
				} else {
					cancel()
				}
			}
		}()
	}
	runner.Run(ctx, files)
	view.Summary(files)
	if opts.junitXML != "" {
		if err := writeJUnit(d.abs(opts.junitXML), files, parser.Files()); err != nil {
			view.Diagnostics(errorDiag("Failed to write the JUnit XML report", err))
			return errReported
		}
	}
	if moduletest.SuiteStatus(files) > moduletest.Pass {
		return errReported
	}
	return nil
}

// showTestRun prints what a run produced, for -verbose: its plan, or the
// state its apply left.
func showTestRun(ctx context.Context, d *Deps, v *views.View, r *moduletest.Run) {
	switch {
	case r.State != nil:
		v.Output("\n" + views.FormatState(r.State, schemaLookup(ctx, &engine.Engine{Providers: d.Providers(".")})) + "\n")
	case r.Plan != nil:
		v.Plan(r.Plan, schemaLookup(ctx, &engine.Engine{Providers: d.Providers(".")}), nil)
		v.Output("\n")
	}
}

// saveTestRecovery writes a state that a test file's cleanup could not
// destroy to errored_test.tfstate (or the first free errored_test.N.tfstate)
// in the working directory, and returns its name.
func saveTestRecovery(d *Deps, f *moduletest.File, s *states.State) (string, error) {
	s = s.DeepCopy()
	if s.Lineage == "" {
		s.Lineage, _ = uuid.GenerateUUID()
	}
	s.Serial++
	s.TerraformVersion = TerraformCompatVersion
	data, err := statefile.Write(s)
	if err != nil {
		return "", err
	}
	name := "errored_test.tfstate"
	for i := 1; ; i++ {
		fh, err := os.OpenFile(d.abs(name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if os.IsExist(err) {
			name = fmt.Sprintf("errored_test.%d.tfstate", i)
			continue
		}
		if err != nil {
			return "", err
		}
		if _, err := fh.Write(data); err != nil {
			fh.Close()
			return "", err
		}
		return name, fh.Close()
	}
}

// writeJUnit writes the JUnit XML report to path.
func writeJUnit(path string, files []*moduletest.File, sources map[string]*hcl.File) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := views.WriteTestJUnit(fh, files, sources); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}
