package moduletest

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/lang/funcs"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/states"
)

// Reporter is told about progress as the runner goes: the command's view.
type Reporter interface {
	FileStart(f *File)
	RunStart(f *File, r *Run)
	// RunDone reports a finished (or skipped) run with its diagnostics.
	RunDone(f *File, r *Run)
	// RunProgress reports, every ProgressInterval, a run still running
	// (or, with teardown, the state it left still being destroyed), and
	// for how long.
	RunProgress(f *File, r *Run, teardown bool, elapsed time.Duration)
	// Teardown starts a file's cleanup; TeardownRun reports the state of
	// run r being destroyed.
	Teardown(f *File)
	TeardownRun(f *File, r *Run)
	// CleanupFailed reports a state that could not be destroyed.
	CleanupFailed(f *File, c *Cleanup)
	// FileDone reports a finished file.
	FileDone(f *File)
}

// Runner runs test files against the module in Dir.
type Runner struct {
	// Dir is the module under test, relative to WorkDir.
	Dir string
	// WorkDir is the absolute working directory, which relative paths
	// (Dir, Manifest, the module directories the manifest records, the
	// paths given to functions) are in; empty means the process's.
	WorkDir string
	// Manifest is the module manifest init wrote (with run blocks'
	// modules), relative to WorkDir unless absolute.
	Manifest string
	// LoadConfig loads the configuration in a directory.
	LoadConfig func(dir string) (*configs.Config, hcl.Diagnostics)
	// NewEngine returns an engine for a configuration.
	NewEngine func(cfg *configs.Config) *engine.Engine
	// Variables are the values from the command line and variable files,
	// which the files' variables override.
	Variables map[string]engine.InputValue
	// TestDirVars replace Variables for the files in TestDir (the test
	// directory, relative to Dir): they add the directory's own variable
	// files.
	TestDir     string
	TestDirVars map[string]engine.InputValue
	Reporter    Reporter
	// RunParallelism bounds how many run blocks of a file run at the
	// same time (DefaultRunParallelism when not positive).
	RunParallelism int
	// Stop, once closed, skips the runs not yet started and the files
	// after (the running operations finish); nil never stops.
	Stop <-chan struct{}
	// ProgressInterval is how often a long run or destroy is reported
	// (RunProgress); 2 seconds, as in terraform test, when zero.
	ProgressInterval time.Duration
	// SaveRecovery keeps a state that cleanup could not destroy, so that
	// nothing is lost; it returns where it wrote it.
	SaveRecovery func(f *File, s *states.State) (string, error)

	// schemas caches the real schemas of mocked providers.
	schemas schemaCache
	loadMu  sync.Mutex
}

// Run runs every file in order.
func (rn *Runner) Run(ctx context.Context, files []*File) {
	for _, f := range files {
		if f.Config == nil {
			continue
		}
		rn.runFile(ctx, f)
	}
}

// ticker calls report with the time since start every ProgressInterval
// until the returned function is called.
func (rn *Runner) ticker(start time.Time, report func(time.Duration)) (stop func()) {
	interval := rn.ProgressInterval
	if interval <= 0 {
		interval = 2 * time.Second
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				report(time.Since(start))
			case <-done:
				return
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// stopped reports whether Stop is closed.
func (rn *Runner) stopped() bool {
	select {
	case <-rn.Stop:
		return true
	default:
		return false
	}
}

// loadConfig loads a configuration; one at a time, since the parser
// caches files.
func (rn *Runner) loadConfig(dir string) (*configs.Config, hcl.Diagnostics) {
	rn.loadMu.Lock()
	defer rn.loadMu.Unlock()
	return rn.LoadConfig(dir)
}

// fileState is what the runs of one file share: its states and its
// finished runs' outputs. Parallel runs reach it at the same time.
type fileState struct {
	mu     sync.Mutex
	states map[string]*stateEntry
	// order lists state keys in the order they were first applied to.
	order []string
	// outputs are the finished runs' outputs, by run name.
	outputs map[string]cty.Value
	// overridesFound records the file's override blocks (by
	// overrideKey) whose target a run's configuration has.
	overridesFound map[string]bool
}

// fileRun is the working set of one run of a file.
type fileRun struct {
	rn *Runner
	f  *File
	sh *fileState
	// outputs are the outputs of the earlier runs that have finished
	// when this one starts: what run.NAME refers to.
	outputs map[string]cty.Value
}

// stateEntry is one state of a file: what the last run that applied to
// it used, for the destroy at the end.
type stateEntry struct {
	state *states.State
	cfg   *configs.Config
	vars  map[string]engine.InputValue
	run   *Run
	// providers and overrides are the engine's, mocks included, so that
	// mocked objects are destroyed by their mocks.
	providers map[string]providers.Factory
	overrides map[string]engine.Override
	modules   map[string]cty.Value
}

func (rn *Runner) runFile(ctx context.Context, f *File) {
	rn.Reporter.FileStart(f)
	sh := &fileState{states: map[string]*stateEntry{}, outputs: map[string]cty.Value{}}
	fr := &fileRun{rn: rn, f: f, sh: sh}
	fr.schedule(ctx, rn.RunParallelism, func(i int, r *Run, progress func(time.Duration)) {
		sub := &fileRun{rn: rn, f: f, sh: sh, outputs: sh.outputsBefore(f, i)}
		r.Start = time.Now()
		stop := rn.ticker(r.Start, progress)
		sub.run(ctx, r)
		stop()
		r.Elapsed = time.Since(r.Start)
	})
	rn.Reporter.Teardown(f)
	if fr.cleanup(context.WithoutCancel(ctx)) {
		f.Status = f.Status.merge(Error)
	}
	f.Diagnostics = fr.missingFileOverrides()
	if f.Status == Pending {
		f.Status = Pass
		if rn.stopped() {
			// Stopped before any run: the file was skipped.
			f.Status = Skip
		}
	}
	rn.Reporter.FileDone(f)
}

// outputsBefore returns the outputs of the finished runs that come before
// run i in f: a run sees only those, however the runs were scheduled.
func (sh *fileState) outputsBefore(f *File, i int) map[string]cty.Value {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	out := map[string]cty.Value{}
	for _, r := range f.Runs[:i] {
		if v, ok := sh.outputs[r.Config.Name]; ok {
			out[r.Config.Name] = v
		}
	}
	return out
}

func (sh *fileState) setOutputs(run string, v cty.Value) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.outputs[run] = v
}

func (sh *fileState) state(key string) *stateEntry {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.states[key]
}

// run executes one run block and sets its status.
func (fr *fileRun) run(ctx context.Context, r *Run) {
	rc := r.Config
	dir, key := fr.rn.Dir, stateKey(rc)
	if rc.Module != nil {
		var ok bool
		if dir, ok = fr.moduleDir(rc); !ok {
			r.fail(Error, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Module not installed",
				Detail:   "This module is not yet installed. Run \"strata init\" to install all modules required by this configuration.",
				Subject:  rc.Module.DeclRange.Ptr(),
			})
			return
		}
	}
	cfg, diags := fr.rn.loadConfig(dir)
	diags = append(diags, invalidExpectations(rc)...)
	if diags.HasErrors() {
		r.fail(Error, diags...)
		return
	}
	vars, undeclared, providerCtx, vdiags := fr.variables(cfg, rc)
	diags = append(diags, vdiags...)
	diags = append(diags, fr.configureProviders(cfg, rc, providerCtx)...)
	opts, odiags := planOpts(rc, vars)
	diags = append(diags, odiags...)
	if diags.HasErrors() {
		r.fail(Error, diags...)
		return
	}
	entry := fr.sh.state(key)
	var prior *states.State
	if entry != nil {
		prior = entry.state
	}
	eng := fr.rn.NewEngine(cfg)
	// The run's plan, apply and assertions share provider processes.
	eng.KeepProviders = true
	defer eng.CloseProviders(ctx)
	diags = append(diags, fr.applyMocks(ctx, eng, cfg, rc)...)
	if diags.HasErrors() {
		r.fail(Error, diags...)
		return
	}
	plan, console, pdiags := eng.PlanWithConsole(ctx, prior, opts)
	pdiags = requiredVariables(pdiags, rc.Name)
	if console != nil {
		defer func() { console.Close(context.WithoutCancel(ctx)) }()
	}
	r.Plan = plan
	hit := map[string]bool{}
	if rc.Command == configs.TestCommandApply {
		pdiags = dropCheckWarnings(rc, pdiags)
	}
	kept, expected := sortFailures(rc, pdiags, hit)
	diags = append(diags, kept...)
	switch {
	case diags.HasErrors() || plan == nil || console == nil:
		if plan == nil {
			// The module did not validate: as in terraform test, its
			// errors come without the warnings about the run's values.
			diags = dropUndeclaredWarnings(diags)
		}
		r.fail(Error, diags...)
		return
	case expected.HasErrors() && rc.Command == configs.TestCommandApply:
		// The plan stopped on an expected failure, so the apply the run
		// asks for cannot happen: as in terraform test, that is an error.
		r.fail(Error, expectedWhilePlanning(expected, rc)...)
		r.fail(Error, append(diags, expected...)...)
		return
	case expected.HasErrors():
		// An expected failure stops the plan: the assertions cannot be
		// evaluated, and the run passes if nothing else went wrong.
		r.Diagnostics = append(diags, missingFailures(rc, hit)...)
		r.Status = statusOf(r.Diagnostics)
		return
	}
	outputs := planOutputs(plan)
	if rc.Command == configs.TestCommandApply {
		newState, adiags := eng.Apply(ctx, plan)
		if newState != nil {
			fr.sh.keep(key, &stateEntry{state: newState, cfg: cfg, vars: vars, run: r, providers: eng.ConfigProviders, overrides: eng.Overrides, modules: eng.ModuleOverrides})
			r.State = newState
		}
		kept, expected = sortFailures(rc, adiags, hit)
		diags = append(diags, kept...)
		if len(rc.Target) > 0 {
			diags = append(diags, incompleteApplyWarning)
		}
		if diags.HasErrors() || newState == nil {
			r.fail(Error, diags...)
			return
		}
		if expected.HasErrors() {
			r.Diagnostics = append(diags, missingFailures(rc, hit)...)
			r.Status = statusOf(r.Diagnostics)
			return
		}
		console.Close(context.WithoutCancel(ctx))
		var cdiags hcl.Diagnostics
		console, cdiags = eng.NewConsoleAfterApply(ctx, newState, vars, plan)
		diags = append(diags, cdiags...)
		if console == nil || cdiags.HasErrors() {
			r.fail(Error, diags...)
			return
		}
		outputs = stateOutputs(newState)
	}
	outputs = withNullOutputs(outputs, cfg)
	fr.sh.setOutputs(rc.Name, untypedUnknowns(outputs))
	diags = append(diags, missingFailures(rc, hit)...)
	diags = append(diags, fr.asserts(r, console, outputs, cfg, undeclared)...)
	r.Diagnostics = diags
	r.Status = statusOf(diags)
	if r.Status == Error && r.failedAssert && onlyAssertionErrors(diags) {
		r.Status = Fail
	}
}

// onlyAssertionErrors reports whether every error in diags is a failed
// assertion: such a run failed; any other error makes it errored.
func onlyAssertionErrors(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Summary != "Test assertion failed" {
			return false
		}
	}
	return true
}

// moduleDir returns the directory of a run block's module: a local path
// is read in place, as strata reads local modules without init; other
// sources where init installed them.
func (fr *fileRun) moduleDir(rc *configs.TestRun) (string, bool) {
	src := rc.Module.Source
	if configs.IsLocalModuleSource(src) {
		return filepath.Join(fr.rn.Dir, filepath.FromSlash(src)), true
	}
	// The manifest and its directories are relative to the working
	// directory, which is the module under test.
	mf, err := configs.ReadModuleManifest(fr.rn.abs(fr.rn.Manifest))
	if err != nil {
		return "", false
	}
	rec, ok := mf.Record(configs.TestModuleKey(fr.f.Path, rc.Name))
	if !ok || rec.Source != configs.NormalizeModuleSource(src) {
		return "", false
	}
	return rec.Dir, true
}

// abs is p resolved against the working directory.
func (rn *Runner) abs(p string) string {
	if rn.WorkDir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(rn.WorkDir, p)
}

// functions is the function library for expressions of test files
// outside run blocks' modules: relative paths start from base, in the
// working directory.
func (rn *Runner) functions(base string) map[string]function.Function {
	return funcs.FunctionsAt(funcs.Dir{Work: rn.WorkDir, Base: base}, false, time.Time{})
}

// keep records the state an apply run left. The states are destroyed in
// the reverse order of the runs that last applied to them (in the file,
// whatever order parallel runs finished in).
func (sh *fileState) keep(key string, e *stateEntry) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	for i, k := range sh.order {
		if k == key {
			sh.order = append(sh.order[:i], sh.order[i+1:]...)
			break
		}
	}
	at := len(sh.order)
	for at > 0 && sh.states[sh.order[at-1]].run.index > e.run.index {
		at--
	}
	sh.order = append(sh.order[:at], append([]string{key}, sh.order[at:]...)...)
	sh.states[key] = e
}

// fail ends a run with status s and diags.
func (r *Run) fail(s Status, diags ...*hcl.Diagnostic) {
	r.Status = s
	r.Diagnostics = append(r.Diagnostics, diags...)
}

// statusOf is Error when diags hold an error, else Pass.
func statusOf(diags hcl.Diagnostics) Status {
	if diags.HasErrors() {
		return Error
	}
	return Pass
}

// configureProviders puts the file's provider blocks in the place of the
// module's own, as terraform test does, and applies the run's providers
// argument.
func (fr *fileRun) configureProviders(cfg *configs.Config, rc *configs.TestRun, vars map[string]engine.InputValue) hcl.Diagnostics {
	ctx := fr.evalContext(vars)
	var diags hcl.Diagnostics
	provs := map[string]*configs.Provider{}
	for key, p := range fr.f.Config.Providers {
		c := *p
		c.Config = testBody{body: p.Config, ctx: ctx}
		provs[key] = &c
	}
	// check reports what a provider block refers to that it cannot.
	check := func(p *configs.Provider) {
		b, ok := p.Config.(testBody).body.(*hclsyntax.Body)
		if !ok {
			return
		}
		var walk func(b *hclsyntax.Body)
		walk = func(b *hclsyntax.Body) {
			for _, name := range sortedNames(b.Attributes) {
				diags = append(diags, fr.checkRefs(b.Attributes[name].Expr, vars,
					"provider configuration. You can only reference variables defined at the file or global levels.",
					"the provider is required")...)
			}
			for _, blk := range b.Blocks {
				walk(blk.Body)
			}
		}
		walk(b)
	}
	if len(rc.Providers) == 0 {
		for _, key := range sortedNames(provs) {
			check(provs[key])
			cfg.Module.ProviderConfigs[key] = provs[key]
		}
		return diags
	}
	for _, pp := range rc.Providers {
		p, ok := provs[pp.InParent.String()]
		if !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing provider definition",
				Detail:   fmt.Sprintf("This test file has no provider block for %s, which the run block's providers argument passes.", pp.InParent),
				Subject:  rc.DeclRange.Ptr(),
			})
			continue
		}
		check(p)
		c := *p
		c.Name, c.Alias = pp.InChild.Name, pp.InChild.Alias
		cfg.Module.ProviderConfigs[pp.InChild.String()] = &c
	}
	return diags
}

// planOpts turns the run's command and plan_options into plan options.
func planOpts(rc *configs.TestRun, vars map[string]engine.InputValue) (engine.PlanOpts, hcl.Diagnostics) {
	opts := engine.PlanOpts{Mode: plans.NormalMode, Variables: vars, SkipRefresh: !rc.Refresh}
	if rc.Mode == "refresh-only" {
		opts.Mode = plans.RefreshOnlyMode
	}
	var diags hcl.Diagnostics
	for _, set := range []struct {
		travs []hcl.Traversal
		dst   *[]addrs.Target
	}{{rc.Target, &opts.Targets}, {rc.Replace, &opts.ForceReplace}} {
		for _, t := range set.travs {
			target, tdiags := addrs.ParseTarget(addrs.TraversalString(t))
			if tdiags.HasErrors() {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid target address",
					Detail:   "plan_options target and replace take resource or module addresses.",
					Subject:  t.SourceRange().Ptr(),
				})
				continue
			}
			*set.dst = append(*set.dst, target)
		}
	}
	return opts, diags
}

// dropUndeclaredWarnings leaves out the warnings about run values for
// variables the module does not declare.
func dropUndeclaredWarnings(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning && d.Summary == "Value for undeclared variable" {
			continue
		}
		out = append(out, d)
	}
	return out
}

// incompleteApplyWarning follows an apply run with plan_options' target,
// as it follows strata apply -target.
var incompleteApplyWarning = &hcl.Diagnostic{
	Severity: hcl.DiagWarning,
	Summary:  "Applied changes may be incomplete",
	Detail: `The plan was created with the -target option in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:
    strata plan

Note that the -target option is not suitable for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when strata specifically suggests to use it as part of an error message.`,
}
