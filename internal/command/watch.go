package command

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/runrecord"
	"github.com/strata-dev/strata/internal/runrecord/recorder"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
	"github.com/strata-dev/strata/internal/watch"
)

// watchOptions are the flags of `strata watch`.
type watchOptions struct {
	// workDir is the working directory, which a relative schedule file
	// is in (set by runWatch; empty: the process's).
	workDir          string
	view             viewFlags
	vars             varFlags
	state            stateFlags
	parallelism      int
	refreshConc      int
	restartProviders bool
	interval         time.Duration
	jitter           float64
	converge         bool
	allowDestroy     bool
	maxChanges       int
	convergedTimeout time.Duration
	debounce         time.Duration
	listen           string
	configFile       string
	// set are the flags given on the command line, which win over the
	// schedule file.
	set map[string]bool
}

func newWatchCommand(d *Deps, runF func(*watchOptions) error) *cobra.Command {
	opts := &watchOptions{}
	cmd := &cobra.Command{
		Use:   "watch [options]",
		Short: "Detect drift continuously and, with -converge, correct it",
		Long: `Usage: strata [global options] watch [options]

  Runs in the foreground and plans again and again: on a schedule that
  refreshes each resource when its turn comes, when configuration or
  variable files change, on SIGHUP, and on POST /trigger to the -listen
  endpoint. Drift and pending changes are reported as plan shows them, and
  each cycle is a run in the run record.

  By default nothing is changed (noop). With -converge, strata applies each
  plan, under the state lock, as apply -auto-approve would; destroys and
  replacements need -allow-destroy too.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.set = map[string]bool{}
			cmd.Flags().Visit(func(f *pflag.Flag) { opts.set[f.Name] = true })
			if runF != nil {
				return runF(opts)
			}
			return runWatch(cmd.Context(), d, opts)
		},
	}
	fs := cmd.Flags()
	fs.DurationVar(&opts.interval, "interval", 5*time.Minute, "How often each resource is refreshed.")
	fs.Float64Var(&opts.jitter, "jitter", 0.1, "Spread refreshes by up to this fraction of the interval.")
	fs.BoolVar(&opts.converge, "converge", false, "Apply the plans, correcting drift; without it the watch only\nreports.")
	fs.BoolVar(&opts.allowDestroy, "allow-destroy", false, "With -converge, also apply plans that destroy or replace\nobjects.")
	fs.IntVar(&opts.maxChanges, "max-changes", 0, "With -converge, do not apply a plan changing more resource\ninstances than this (0: no limit).")
	fs.DurationVar(&opts.convergedTimeout, "converged-timeout", 0, "Exit 0 once no cycle found drift or changes for this long.")
	fs.DurationVar(&opts.debounce, "debounce", 500*time.Millisecond, "How long file changes must settle before a cycle starts.")
	fs.StringVar(&opts.listen, "listen", "", "Serve health, drift and metrics on this address, such as\n127.0.0.1:9100.")
	fs.StringVar(&opts.configFile, "watch-config", "", "Schedule file with per-type and per-resource intervals.\nDefaults to "+watch.ConfigFile+" when it exists.")
	fs.IntVar(&opts.parallelism, "parallelism", engine.DefaultParallelism, "Limit the number of concurrent operations.")
	fs.BoolVar(&opts.restartProviders, "restart-providers", false, "Start the providers afresh each cycle instead of keeping them\nrunning between cycles.")
	fs.IntVar(&opts.refreshConc, "refresh-concurrency", watch.DefaultRefreshConcurrency, "Limit the number of concurrent refreshes of each provider.")
	fs.BoolVar(&opts.view.noColor, "no-color", false, "If specified, output won't contain any color.")
	fs.BoolVar(&opts.view.json, "json", false, "Write the watch's events as JSON lines.")
	opts.vars.register(fs)
	opts.state.register(fs, true)
	return cmd
}

func runWatch(ctx context.Context, d *Deps, opts *watchOptions) error {
	opts.vars.input = false // a service has no one to ask
	ev := watch.NewEvents(d.Stdout, opts.view.json)
	var v views.Operation
	if opts.view.json {
		v = views.NewOperation(&views.View{Stdout: io.Discard, Stderr: io.Discard, NoColor: true}, nil)
	} else {
		v = d.newOperationView(opts.view)
	}
	opts.workDir = d.Dir
	sched, limits, diags := watchSchedule(opts)
	if diags.HasErrors() {
		reportWatchDiags(ev, v, opts, diags)
		return errReported
	}
	release, err := watch.AcquireLease(watchLeasePath(d, opts), workspaceName(d))
	if err != nil {
		reportWatchDiags(ev, v, opts, errorDiag("Another watcher is running", err))
		return errReported
	}
	defer release()

	ctx, cancel := d.interruptContext(ctx, func() { v.Interrupted(false) }, func() {
		v.Interrupted(true)
		d.Exit(1)
	})
	defer cancel()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	triggers := make(chan struct{}, 1)
	go func() {
		for range hup {
			select {
			case triggers <- struct{}{}:
			default:
			}
		}
	}()

	r := &watchRunner{d: d, opts: opts, v: v}
	defer r.close()
	w := watch.New(r, ev, watch.Options{
		Schedule: sched, Converge: opts.converge, AllowDestroy: opts.allowDestroy, MaxChanges: opts.maxChanges,
		ConvergedTimeout: opts.convergedTimeout, Debounce: opts.debounce, WatchFiles: true, Triggers: triggers,
		RefreshLimits: limits, RestartProviders: opts.restartProviders, WorkDir: d.Dir,
	})
	if opts.listen != "" {
		addr, stop, err := w.Serve(opts.listen)
		if err != nil {
			reportWatchDiags(ev, v, opts, errorDiag("Cannot serve the status endpoint", err))
			return errReported
		}
		defer stop()
		ev.Emit(watch.Event{Type: "listening", Address: addr, Message: "status endpoint on http://" + addr})
	}
	res, err := w.Run(ctx)
	if err != nil {
		reportWatchDiags(ev, v, opts, errorDiag("The watch stopped", err))
		return errReported
	}
	if res.Interrupted || res.Failed {
		return errReported
	}
	return nil
}

// reportWatchDiags reports diagnostics outside a cycle.
func reportWatchDiags(ev *watch.Events, v views.Operation, opts *watchOptions, diags hcl.Diagnostics) {
	if !opts.view.json {
		v.Diagnostics(diags)
		return
	}
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			ev.Emit(watch.Event{Type: "error", Level: "error", Message: d.Summary + ": " + d.Detail})
		}
	}
}

// watchSchedule combines the flags and the schedule file; flags given on
// the command line win.
func watchSchedule(opts *watchOptions) (watch.Schedule, watch.RefreshLimits, hcl.Diagnostics) {
	s := watch.Schedule{Interval: opts.interval, Jitter: opts.jitter}
	limits := watch.RefreshLimits{Default: opts.refreshConc}
	path := opts.configFile
	if path == "" {
		if _, err := os.Stat(inWorkDir(opts.workDir, watch.ConfigFile)); err == nil {
			path = watch.ConfigFile
		}
	}
	var diags hcl.Diagnostics
	if path != "" {
		src, err := os.ReadFile(inWorkDir(opts.workDir, path))
		if pe := (*os.PathError)(nil); errors.As(err, &pe) {
			err = &os.PathError{Op: pe.Op, Path: path, Err: pe.Err}
		}
		if err != nil {
			return s, limits, errorDiag("Cannot read the watch schedule", err)
		}
		fc, fdiags := watch.ParseConfig(src, path)
		diags = append(diags, fdiags...)
		if fc != nil {
			if fc.Interval > 0 && !opts.set["interval"] {
				s.Interval = fc.Interval
			}
			if fc.Jitter != nil && !opts.set["jitter"] {
				s.Jitter = *fc.Jitter
			}
			s.BackoffMax = fc.BackoffMax
			s.Rules = fc.Rules
			limits.ByProvider = fc.RefreshLimits.ByProvider
			if fc.RefreshLimits.Default > 0 && !opts.set["refresh-concurrency"] {
				limits.Default = fc.RefreshLimits.Default
			}
		}
	}
	if s.Interval <= 0 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid interval", Detail: "The -interval must be a positive duration, such as 30s or 5m."})
	}
	if s.Jitter < 0 || s.Jitter >= 1 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid jitter", Detail: "The -jitter is a fraction of the interval from 0 to less than 1, such as 0.1."})
	}
	if opts.refreshConc < 1 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid -refresh-concurrency", Detail: "The -refresh-concurrency must be 1 or more."})
	}
	if opts.maxChanges < 0 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid -max-changes", Detail: "The -max-changes must be 0 (no limit) or more."})
	}
	if (opts.allowDestroy || opts.maxChanges > 0) && !opts.converge {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Converge options without -converge",
			Detail: "-allow-destroy and -max-changes only matter with -converge: this watch reports and changes nothing."})
	}
	// A failing resource waits one interval, then two, four...
	s.BackoffBase = s.Interval
	return s, limits, diags
}

// watchLeasePath is the watcher lock of the selected state: one per
// workspace, or per -state file.
func watchLeasePath(d *Deps, opts *watchOptions) string {
	name := "watch-" + workspaceName(d)
	if opts.state.statePath != "" {
		sum := sha256.Sum256([]byte(opts.state.statePath))
		name += "-" + hex.EncodeToString(sum[:6])
	}
	return d.dataDir(name + ".lock")
}

// watchRunner runs a watch's cycles with the code of plan and apply.
type watchRunner struct {
	d    *Deps
	opts *watchOptions
	v    views.Operation
	// leased is set once the backend's watch lease is held (or the
	// backend has none); releaseLease gives it back.
	leased       bool
	releaseLease func() error
}

// lease takes the watch lease of a backend that has leases (pg), so that
// a watcher in another working directory is refused too; the lock file
// in the data directory only keeps watchers of this directory apart.
func (r *watchRunner) lease(ctx context.Context, mgr statemgr.Manager) hcl.Diagnostics {
	if r.leased {
		return nil
	}
	l, ok := statemgr.LeaserOf(mgr)
	if !ok {
		r.leased = true
		return nil
	}
	release, err := l.Lease(ctx, "watch")
	if errors.Is(err, statemgr.ErrLeaseUnsupported) {
		r.leased = true
		return nil
	}
	if errors.Is(err, statemgr.ErrLeaseHeld) {
		return hcl.Diagnostics{watch.Fatal(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Another watcher is running",
			Detail: fmt.Sprintf("%s: %s. Only one strata watch may run on a state: stop the other one first.", watch.ErrLeaseHeld, err)})}
	}
	if err != nil {
		return errorDiag("Cannot take the watch lease", err)
	}
	r.leased, r.releaseLease = true, release
	return nil
}

// close gives back the backend's watch lease.
func (r *watchRunner) close() {
	if r.releaseLease != nil {
		if err := r.releaseLease(); err != nil {
			fmt.Fprintf(r.d.Stderr, "Error releasing the watch lease: %s\n", err)
		}
		r.releaseLease = nil
	}
}

// Diagnostics implements watch.Runner.
func (r *watchRunner) Diagnostics(diags hcl.Diagnostics) {
	if !r.opts.view.json {
		r.v.Diagnostics(diags)
	}
}

// DiscardRun implements watch.Runner.
func (r *watchRunner) DiscardRun(id string) {
	if !recorder.Enabled(r.d.Getenv) || id == "" {
		return
	}
	// The run may still be a log waiting for ingestion: remove it too, or
	// the next query would bring the run back.
	if err := runrecord.RemoveLog(r.d.dataDir(runsLogDir), id); err != nil {
		r.d.logger().Warn(fmt.Sprintf("run records: deleting the idle run %s: %s", id, err))
	}
	store, err := openRunStore(r.d)
	if err != nil {
		return
	}
	defer store.Close()
	if err := store.Delete(context.Background(), id); err != nil {
		r.d.logger().Warn(fmt.Sprintf("run records: deleting the idle run %s: %s", id, err))
	}
}

// captureView keeps the diagnostics it is given as well as showing them.
type captureView struct {
	views.Operation
	diags hcl.Diagnostics
}

func (c *captureView) Diagnostics(diags hcl.Diagnostics) {
	c.diags = append(c.diags, diags...)
	c.Operation.Diagnostics(diags)
}

// quietView shows nothing but keeps the diagnostics.
type quietView struct{ captureView }

func (q *quietView) Diagnostics(diags hcl.Diagnostics) { q.diags = append(q.diags, diags...) }

// stateManager returns the state manager of the configuration as it is
// now, for the lease; false when the configuration cannot say (the cycle
// then reports why).
func (r *watchRunner) stateManager() (statemgr.Manager, bool) {
	q := &quietView{captureView{Operation: r.v}}
	cfg, _, diags := loadConfigDirVars(r.d, q, ".", &r.opts.vars)
	if diags.HasErrors() || cfg == nil {
		return nil, false
	}
	mgr, diags := stateManager(r.d, cfg.Module, &r.opts.state)
	return mgr, !diags.HasErrors() && mgr != nil
}

// Begin implements watch.Runner: it prepares the operation as plan does
// and releases the state lock at once.
func (r *watchRunner) Begin(ctx context.Context) (watch.Session, hcl.Diagnostics) {
	cv := &quietView{captureView{Operation: r.v}}
	// The backend's lease is taken before the state lock: a second
	// watcher is refused at once, whether or not it could get the state
	// lock (which the first takes each cycle) at that moment.
	if !r.leased {
		if mgr, ok := r.stateManager(); ok {
			if diags := r.lease(ctx, mgr); diags.HasErrors() {
				return nil, diags
			}
		}
	}
	// The state lock is held only to read the state, and says so: a
	// command that finds it shows the operation of a plan, as Terraform's
	// plan records it, not an apply. Without -lock-timeout the read waits
	// up to an interval (at most a minute) for a lock held by someone
	// else for a moment, such as a plan or another watcher's read.
	sf := r.opts.state
	if !r.opts.set["lock-timeout"] {
		sf.lockTimeout = min(r.opts.interval, time.Minute)
	}
	op, err := prepareOperation(ctx, r.d, cv, &r.opts.vars, &sf, r.opts.parallelism, "OperationTypePlan", plans.NormalMode)
	if err != nil {
		if !cv.diags.HasErrors() {
			cv.diags = append(cv.diags, errorDiag("Cannot start the cycle", err)...)
		}
		return nil, cv.diags
	}
	op.release()
	op.release = func() {}
	if diags := r.lease(ctx, op.mgr); diags.HasErrors() {
		return nil, diags
	}
	// The cycle's plans and apply share provider processes; Finish or
	// Apply, which end every cycle, close them.
	op.engine.KeepProviders = true
	s := &watchSession{r: r, op: op, rec: startRunRecord(r.d, "watch", op), existed: op.mgr.Exists(), providers: op.engine.Providers}
	return s, nil
}

// watchSession is one cycle.
type watchSession struct {
	r        *watchRunner
	op       *operation
	rec      *recorder.Recorder
	plan     *plans.Plan
	targeted bool
	// existed: a snapshot was stored when the cycle began (without one,
	// each read makes up a new lineage).
	existed bool
	// providers are the engine's own provider factories, which each plan
	// wraps afresh.
	providers map[addrs.Provider]providers.Factory
}

// RunID implements watch.Session.
func (s *watchSession) RunID() string {
	if s.rec == nil {
		return ""
	}
	return s.rec.ID()
}

// State implements watch.Session.
func (s *watchSession) State() *states.State { return s.op.state }

// Files implements watch.Session.
func (s *watchSession) Files() []string {
	var out []string
	for name := range s.op.files {
		out = append(out, name)
	}
	for _, it := range *s.r.opts.vars.items {
		if it.file {
			out = append(out, it.value)
		}
	}
	// The lock file too: init -upgrade changes the providers, which the
	// watch then starts afresh.
	if _, err := s.r.d.stat(lockFileName); err == nil {
		out = append(out, lockFileName)
	}
	sort.Strings(out)
	return out
}

// Plan implements watch.Session.
func (s *watchSession) Plan(ctx context.Context, req watch.PlanRequest) (*plans.Plan, hcl.Diagnostics) {
	s.op.engine.Hooks = nil
	if req.Hook != nil {
		s.op.engine.Hooks = []hooks.Hook{req.Hook}
	}
	s.targeted = len(req.Exclude) > 0
	s.op.engine.Providers = s.providers
	if req.Providers != nil {
		s.op.engine.Providers = req.Providers(s.providers)
	}
	plan, diags := s.op.engine.Plan(ctx, s.op.state, engine.PlanOpts{Mode: plans.NormalMode, Variables: s.op.vars, RefreshOnly: req.Refresh, Excludes: req.Exclude})
	s.plan = plan
	return plan, diags
}

// Show implements watch.Session.
func (s *watchSession) Show() {
	if s.r.opts.view.json || s.plan == nil {
		return
	}
	ctx := context.Background()
	s.r.v.Plan(s.plan, schemaLookup(ctx, s.op.engine), relevantAttrs(ctx, s.op.engine, s.op.cfg, s.plan))
}

// Finish implements watch.Session.
func (s *watchSession) Finish(diags hcl.Diagnostics, interrupted bool) {
	defer s.op.engine.CloseProviders(context.Background())
	if s.plan != nil {
		s.rec.Planned(s.plan, schemaLookup(context.Background(), s.op.engine), true, s.targeted)
	}
	s.rec.Finish(nil, diags, interrupted)
}

// Apply implements watch.Session: as apply -auto-approve, under the state
// lock, provided the state has not moved since the cycle read it.
func (s *watchSession) Apply(ctx context.Context, hook hooks.Hook) watch.ApplyResult {
	op := s.op
	defer op.engine.CloseProviders(ctx)
	if s.r.opts.state.lock {
		if err := op.mgr.Lock(ctx, statemgr.NewLockInfo("OperationTypeApply", s.r.d.Version), s.r.opts.state.lockTimeout); err != nil {
			diags := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Error acquiring the state lock", Detail: err.Error()}}
			// Someone else is changing the state: the next cycle plans
			// again from what they leave.
			s.rec.Finish(nil, diags, false)
			return watch.ApplyResult{Diagnostics: diags}
		}
		defer func() {
			if err := op.mgr.Unlock(); err != nil {
				fmt.Fprintf(s.r.d.Stderr, "Error releasing the state lock: %s\n", err)
			}
		}()
	}
	cur, _, err := op.mgr.Read()
	if err != nil {
		diags := errorDiag("Failed to load state", err)
		s.rec.Finish(nil, diags, false)
		return watch.ApplyResult{Diagnostics: diags}
	}
	if op.mgr.Exists() != s.existed || s.existed && (cur.Lineage != op.state.Lineage || cur.Serial != op.state.Serial) {
		s.rec.Finish(nil, nil, true)
		return watch.ApplyResult{Stale: true}
	}
	s.rec.Planned(s.plan, schemaLookup(ctx, op.engine), false, s.targeted)
	var v views.Operation
	cv := &captureView{Operation: s.r.v}
	v = cv
	if s.r.opts.view.json {
		v = &quietView{captureView{Operation: s.r.v}}
	}
	op.engine.Hooks = []hooks.Hook{s.r.v.Hook(), hook}
	_ = applyPlan(ctx, s.r.d, v, op, s.plan, false, false, s.rec, nil, nil)
	diags := cv.diags
	if q, ok := v.(*quietView); ok {
		diags = q.diags
	}
	return watch.ApplyResult{Diagnostics: diags, Interrupted: ctx.Err() != nil}
}

// inWorkDir is p resolved against the working directory dir (the
// process's when empty).
func inWorkDir(dir, p string) string {
	if dir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}
