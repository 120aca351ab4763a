package watch

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
)

// Options are the choices of one watch.
type Options struct {
	Schedule Schedule
	// Converge applies the plans; without it the watch only reports.
	Converge bool
	// AllowDestroy lets a converge destroy or replace objects; without
	// it those changes are left out and reported.
	AllowDestroy bool
	// MaxChanges stops a converge whose plan changes more instances
	// (0: no limit).
	MaxChanges int
	// ConvergedTimeout ends the watch once no cycle found drift or
	// changes for that long (0: never).
	ConvergedTimeout time.Duration
	// Debounce is how long file changes must settle before a cycle.
	Debounce time.Duration
	// WatchFiles starts a cycle when configuration or variable files
	// change.
	WatchFiles bool
	// Triggers start a cycle that refreshes every instance (SIGHUP).
	Triggers <-chan struct{}
	// RefreshLimits bound each provider's concurrent refreshes.
	RefreshLimits RefreshLimits
	// RestartProviders starts the providers afresh each cycle instead of
	// keeping their processes from one cycle to the next.
	RestartProviders bool
	// Seed fixes the jitter (tests); 0 picks one.
	Seed int64
	// WorkDir is the absolute working directory, which the relative
	// paths of the files the runner reads are in; empty means the
	// process's.
	WorkDir string
}

// Result is how a watch ended.
type Result struct {
	// Converged is set when -converged-timeout ended it.
	Converged bool
	// Interrupted is set when an apply was stopped part way.
	Interrupted bool
	// Failed is set when an error ended the watch (another watcher
	// holds the state's lease), or when, with -converged-timeout, every
	// cycle failed for that long.
	Failed bool
}

// Watcher runs the cycles.
type Watcher struct {
	opts   Options
	runner Runner
	events *Events
	sched  *Scheduler
	status *Status
	gate   *refreshGate
	pool   *providerPool
	// trigger starts a full cycle (the status endpoint's POST /trigger).
	trigger chan struct{}
	now     func() time.Time

	// drift is the drift each instance's last refresh found.
	mu    sync.Mutex
	drift map[string]ResourceDrift
	// shown identifies the last plan shown.
	shown string
	// idleRun is the run of the last cycle, when it was idle.
	idleRun string
}

// New returns a watcher.
func New(r Runner, ev *Events, opts Options) *Watcher {
	// The back-off of failed cycles is the scheduler's: one interval,
	// doubling, at most 32 intervals unless the schedule says otherwise.
	if opts.Schedule.BackoffBase <= 0 {
		opts.Schedule.BackoffBase = opts.Schedule.Interval
	}
	if opts.Schedule.BackoffMax <= 0 {
		opts.Schedule.BackoffMax = 32 * opts.Schedule.BackoffBase
	}
	w := &Watcher{
		opts: opts, runner: r, events: ev, sched: NewScheduler(opts.Schedule, opts.Seed),
		trigger: make(chan struct{}, 1), now: time.Now, drift: map[string]ResourceDrift{},
		gate: newRefreshGate(opts.RefreshLimits),
	}
	w.pool = newProviderPool(!opts.RestartProviders)
	w.status = newStatus(w)
	return w
}

// Trigger asks for a cycle that refreshes everything, as soon as the
// current one ends.
func (w *Watcher) Trigger() {
	select {
	case w.trigger <- struct{}{}:
	default:
	}
}

// cycleOutcome is what one cycle found.
type cycleOutcome struct {
	// active: drift, changes or an apply; failed: the cycle could not
	// plan; retry: plan again at once (the state moved under the plan).
	active, failed, retry, interrupted, fatal bool
	files                                     []string
}

// Run runs cycles until ctx is cancelled or -converged-timeout ends the
// watch.
func (w *Watcher) Run(ctx context.Context) (Result, error) {
	var res Result
	fsEvents := make(chan struct{}, 1)
	var files *fileWatcher
	if w.opts.WatchFiles {
		var err error
		files, err = newFileWatcher(w.opts.WorkDir, w.opts.Debounce, fsEvents)
		if err != nil {
			return res, err
		}
		defer files.Close()
	}
	defer w.pool.close()
	w.events.Emit(Event{Type: EventStart, Message: w.startMessage()})
	lastActive := w.now()
	// failingSince is when the cycles began to fail one after the other
	// (zero while they do not).
	var failingSince time.Time
	full := true
	failedRuns, retries := 0, 0
	filesStamp := ""
	var lastFiles []string
	for cycle := 1; ; cycle++ {
		// The providers are started afresh when the configuration or the
		// lock file changed, whether or not a notification said so (a
		// ConfigMap volume swaps a symbolic link).
		if lastFiles != nil {
			if st := stampFiles(w.opts.WorkDir, lastFiles); st != filesStamp {
				w.pool.reset()
				filesStamp = st
			}
		}
		out := w.cycle(ctx, cycle, full)
		full = false
		if files != nil && out.files != nil {
			files.Sync(out.files)
		}
		if out.files != nil && !slices.Equal(out.files, lastFiles) {
			if lastFiles != nil {
				w.pool.reset()
			}
			lastFiles, filesStamp = out.files, stampFiles(w.opts.WorkDir, out.files)
		}
		if out.fatal {
			res.Failed = true
			w.events.Emit(Event{Type: EventStop, Level: "error", Cycle: cycle, Reason: "failed", Message: "stopped by an error"})
			return res, nil
		}
		if out.interrupted || ctx.Err() != nil {
			res.Interrupted = out.interrupted
			w.events.Emit(Event{Type: EventStop, Cycle: cycle, Message: "stopped"})
			return res, nil
		}
		now := w.now()
		if out.active || out.failed {
			lastActive = now
		}
		switch {
		case !out.failed:
			failingSince = time.Time{}
		case failingSince.IsZero():
			failingSince = now
		}
		// A watch asked to stop once converged does not wait forever for
		// cycles that cannot plan (a state lock left behind, a backend
		// that is down): after failing for -converged-timeout it stops,
		// and says so with a failure.
		if w.opts.ConvergedTimeout > 0 && !failingSince.IsZero() && now.Sub(failingSince) >= w.opts.ConvergedTimeout {
			res.Failed = true
			w.events.Emit(Event{Type: EventStop, Level: "error", Cycle: cycle, Reason: "failing",
				Message: fmt.Sprintf("every cycle has failed for %s (-converged-timeout): stopping", now.Sub(failingSince).Round(time.Millisecond))})
			return res, nil
		}
		if w.opts.ConvergedTimeout > 0 && now.Sub(lastActive) >= w.opts.ConvergedTimeout {
			res.Converged = true
			w.events.Emit(Event{Type: EventStop, Cycle: cycle, Reason: "converged",
				Message: fmt.Sprintf("nothing changed for %s: stopping", w.opts.ConvergedTimeout)})
			return res, nil
		}
		wake, ok := w.sched.Next()
		if !ok || wake.Sub(now) > w.opts.Schedule.Interval {
			wake = now.Add(w.opts.Schedule.Interval)
		}
		if out.retry {
			retries++
		} else {
			retries = 0
		}
		switch {
		case out.retry && retries <= 3:
			wake = now
		case out.failed:
			// A cycle that could not plan is retried with back-off, not
			// in a hot loop; a file change retries it at once.
			failedRuns++
			wake = now.Add(backoff(w.opts.Schedule.BackoffBase, w.opts.Schedule.BackoffMax, failedRuns))
		default:
			failedRuns = 0
		}
		if w.opts.ConvergedTimeout > 0 {
			if deadline := lastActive.Add(w.opts.ConvergedTimeout); deadline.Before(wake) {
				wake = deadline
			}
			if !failingSince.IsZero() {
				if deadline := failingSince.Add(w.opts.ConvergedTimeout); deadline.Before(wake) && deadline.After(now) {
					wake = deadline
				}
			}
		}
		timer := time.NewTimer(time.Until(wake))
		select {
		case <-ctx.Done():
			timer.Stop()
			w.events.Emit(Event{Type: EventStop, Cycle: cycle, Message: "stopped"})
			return res, nil
		case <-timer.C:
		case <-fsEvents:
		case <-w.trigger:
			full = true
		case <-w.opts.Triggers:
			full = true
		}
		timer.Stop()
	}
}

func (w *Watcher) startMessage() string {
	mode := "noop: drift is reported, not corrected"
	if w.opts.Converge {
		mode = "converge"
		if !w.opts.AllowDestroy {
			mode += ", destroys held back"
		}
	}
	return fmt.Sprintf("watching every %s (%s)", w.opts.Schedule.Interval, mode)
}

// stampFiles identifies the versions of files by size and modification
// time; relative paths are in workDir.
func stampFiles(workDir string, files []string) string {
	var b strings.Builder
	for _, f := range files {
		if st, err := os.Stat(inDir(workDir, f)); err == nil {
			fmt.Fprintf(&b, "%s %d %d\n", f, st.Size(), st.ModTime().UnixNano())
		} else {
			fmt.Fprintf(&b, "%s -\n", f)
		}
	}
	return b.String()
}

// backoff is base doubled n-1 times, at most max.
func backoff(base, max time.Duration, n int) time.Duration {
	d := base
	for i := 1; i < n && d < max; i++ {
		d *= 2
	}
	if max > 0 && d > max {
		d = max
	}
	return d
}

// cycle plans once and, converging, applies.
func (w *Watcher) cycle(ctx context.Context, cycle int, full bool) cycleOutcome {
	start := w.now()
	var out cycleOutcome
	idle := false
	defer func() {
		w.status.cycleDone(start, w.now().Sub(start), out.failed)
		if !idle {
			w.idleRun = ""
		}
	}()
	sess, diags := w.runner.Begin(ctx)
	if diags.HasErrors() {
		w.runner.Diagnostics(diags)
		w.events.Emit(Event{Type: EventCycleFailed, Level: "error", Cycle: cycle, Diagnostics: diagMessages(diags)})
		out.failed = true
		out.fatal = isFatal(diags)
		return out
	}
	out.files = sess.Files()
	now := w.now()
	w.sched.Sync(managedInstances(sess.State()), now)
	w.sched.SetProviders(instanceProviders(sess.State()))
	var refresh []string
	if full {
		refresh = w.sched.All(now)
	} else {
		refresh = w.sched.Due(now, w.window())
	}
	refreshSet := map[string]bool{}
	for _, a := range refresh {
		refreshSet[a] = true
	}
	var exclude []addrs.Target
	for _, a := range w.sched.Quarantined(now) {
		if t, ok := instanceTarget(a); ok {
			exclude = append(exclude, t)
		}
	}
	rh := &refreshHook{started: map[string]bool{}, done: map[string]bool{}}
	req := PlanRequest{Refresh: func(a addrs.AbsResourceInstance) bool { return refreshSet[a.String()] }, Exclude: exclude, Providers: w.wrapProviders}
	w.gate.begin()
	plan, pdiags := sess.Plan(ctx, withHook(req, rh))
	pdiags = dropTargetingWarnings(pdiags)
	for _, p := range w.gate.refreshedOK() {
		w.sched.ProviderSucceeded(p.String())
	}
	if pdiags.HasErrors() || plan == nil {
		interrupted := ctx.Err() != nil
		sess.Finish(pdiags, interrupted)
		if interrupted {
			return out
		}
		w.runner.Diagnostics(pdiags)
		// The back-off counts from the failure, not from the start of a
		// cycle that may have taken long to fail.
		backedOff := w.backOffProviders(cycle, w.now())
		failed := w.blame(pdiags, rh, now, backedOff)
		w.events.Emit(Event{Type: EventCycleFailed, Level: "error", Cycle: cycle, RunID: sess.RunID(), Failed: failed, Diagnostics: diagMessages(pdiags)})
		// When instances or providers are to blame they are held back
		// now, and the others can be planned again at once.
		out.retry = len(failed) > 0 || len(backedOff) > 0
		out.failed = !out.retry
		return out
	}
	w.sched.Refreshed(refresh, now)
	drift, chs := summarise(plan)
	w.updateDrift(refresh, drift, chs)
	n := len(refresh)
	if len(drift) == 0 && len(chs) == 0 {
		sess.Finish(pdiags, false)
		for _, a := range refresh {
			w.sched.Succeeded(a)
		}
		if !w.anyDrift() {
			w.shown = ""
			w.events.Emit(Event{Type: EventIdle, Cycle: cycle, RunID: sess.RunID(), Refreshed: &n})
			idle = true
			if w.idleRun != "" {
				w.runner.DiscardRun(w.idleRun)
			}
			w.idleRun = sess.RunID()
		}
		out.active = w.anyDrift()
		return out
	}
	out.active = true
	w.events.Emit(Event{Type: EventDriftDetected, Level: "warn", Cycle: cycle, RunID: sess.RunID(), Refreshed: &n, Drift: drift, Changes: chs})
	// The plan is shown when it differs from the last one shown, not
	// every cycle that finds the same drift again.
	if fp := fingerprint(drift, chs); fp != w.shown {
		w.shown = fp
		sess.Show()
		w.runner.Diagnostics(pdiags)
	}
	if !w.opts.Converge {
		sess.Finish(pdiags, false)
		return out
	}
	// Converging with drift and no change still applies: as apply does,
	// that records the refreshed objects, so the drift is not found again.
	if !w.opts.AllowDestroy {
		var held []string
		for _, c := range changes(plan) {
			if destroys(c.Action) {
				held = append(held, instanceKey(c.Addr, c.DeposedKey))
				exclude = append(exclude, addrs.Target{Resource: c.Addr.ContainingResource(), Key: c.Addr.Resource.Key, Instance: true})
			}
		}
		if len(held) > 0 {
			w.events.Emit(Event{Type: EventConvergeSkipped, Level: "warn", Cycle: cycle, RunID: sess.RunID(), Skipped: held,
				Reason: "the plan destroys or replaces them; run with -allow-destroy to let the watch do that"})
			// Plan again without them, refreshing the same instances, so
			// that the apply records what their refresh found.
			req.Exclude = exclude
			plan, pdiags = sess.Plan(ctx, req)
			pdiags = dropTargetingWarnings(pdiags)
			if pdiags.HasErrors() || plan == nil {
				sess.Finish(pdiags, ctx.Err() != nil)
				w.runner.Diagnostics(pdiags)
				w.events.Emit(Event{Type: EventCycleFailed, Level: "error", Cycle: cycle, RunID: sess.RunID(), Diagnostics: diagMessages(pdiags)})
				out.failed = true
				return out
			}
			_, chs = summarise(plan)
		}
	}
	if n := instanceChanges(chs); w.opts.MaxChanges > 0 && n > w.opts.MaxChanges {
		var names []string
		for _, c := range chs {
			names = append(names, c.Address)
		}
		w.events.Emit(Event{Type: EventConvergeSkipped, Level: "warn", Cycle: cycle, RunID: sess.RunID(), Skipped: names, Changes: chs,
			Reason: fmt.Sprintf("the plan changes %d resource instances, more than -max-changes=%d", n, w.opts.MaxChanges)})
		sess.Finish(pdiags, false)
		return out
	}
	w.events.Emit(Event{Type: EventConvergeStart, Cycle: cycle, RunID: sess.RunID(), Changes: chs})
	fh := &applyHook{failed: map[string]string{}}
	res := sess.Apply(ctx, fh)
	w.status.converged(res.Diagnostics.HasErrors())
	if res.Stale {
		w.events.Emit(Event{Type: EventConvergeSkipped, Cycle: cycle, RunID: sess.RunID(), Reason: "the state changed since this cycle planned; planning again"})
		out.retry = true
		return out
	}
	failedAddrs := fh.failures()
	for a, msg := range diagObjects(res.Diagnostics) {
		if _, ok := failedAddrs[a]; !ok {
			failedAddrs[a] = msg
		}
	}
	if res.Interrupted {
		w.runner.Diagnostics(res.Diagnostics)
		w.events.Emit(Event{Type: EventConvergeFailed, Level: "error", Cycle: cycle, RunID: sess.RunID(), Reason: "interrupted", Diagnostics: diagMessages(res.Diagnostics)})
		out.interrupted = true
		return out
	}
	var failed []Failure
	for _, c := range chs {
		if msg, ok := failedAddrs[c.Address]; ok {
			failed = append(failed, w.fail(c.Address, msg, now))
		} else {
			w.sched.Succeeded(c.Address)
		}
	}
	for a, msg := range failedAddrs {
		if !containsChange(chs, a) {
			failed = append(failed, w.fail(a, msg, now))
		}
	}
	sort.Slice(failed, func(i, j int) bool { return failed[i].Address < failed[j].Address })
	if res.Diagnostics.HasErrors() || len(failed) > 0 {
		w.runner.Diagnostics(res.Diagnostics)
		w.events.Emit(Event{Type: EventConvergeFailed, Level: "error", Cycle: cycle, RunID: sess.RunID(), Changes: chs, Failed: failed, Diagnostics: diagMessages(res.Diagnostics)})
	} else {
		w.runner.Diagnostics(res.Diagnostics)
		w.events.Emit(Event{Type: EventConvergeComplete, Cycle: cycle, RunID: sess.RunID(), Changes: chs})
	}
	// What was applied is planned again next cycle, from the new state.
	w.clearDrift(chs)
	return out
}

// fingerprint identifies a cycle's findings.
func fingerprint(drift []ResourceDrift, chs []ResourceChange) string {
	b, _ := json.Marshal(struct {
		D []ResourceDrift
		C []ResourceChange
	}{drift, chs})
	return string(b)
}

func containsChange(cs []ResourceChange, addr string) bool {
	for _, c := range cs {
		if c.Address == addr {
			return true
		}
	}
	return false
}

// window batches refreshes: instances due within it are refreshed with
// those due now, so that jittered due times do not make a cycle each.
func (w *Watcher) window() time.Duration {
	j := w.opts.Schedule.Jitter
	if j <= 0 {
		j = 0.1
	}
	return time.Duration(float64(w.opts.Schedule.Interval) * j)
}

// fail quarantines an instance and describes the failure.
func (w *Watcher) fail(addr, msg string, now time.Time) Failure {
	typ := ""
	if a, diags := addrs.ParseAbsResourceInstanceStr(addr); !diags.HasErrors() {
		typ = a.Resource.Resource.Type
	}
	d := w.sched.Failed(addr, typ, msg, now)
	w.status.resourceFailed()
	return Failure{Address: addr, Error: msg, Failures: w.sched.Failures(addr), Backoff: d.Seconds()}
}

// wrapProviders puts the pool and the refresh
// gate between the engine and the providers.
func (w *Watcher) wrapProviders(fs map[addrs.Provider]providers.Factory) map[addrs.Provider]providers.Factory {
	return w.gate.Wrap(w.pool.Wrap(fs))
}

// backOffProviders backs off the refreshes of the providers whose
// refreshes failed in the last plan for more than one resource, or with
// an error that says the API throttles or is down, and reports them. It
// returns them by address.
func (w *Watcher) backOffProviders(cycle int, now time.Time) map[string]bool {
	wide := w.gate.providerWide()
	out := map[string]bool{}
	var names []addrs.Provider
	for p := range wide {
		names = append(names, p)
	}
	sort.Slice(names, func(i, j int) bool { return names[i].String() < names[j].String() })
	for _, p := range names {
		d, n := w.sched.ProviderFailed(p.String(), wide[p], now)
		out[p.String()] = true
		w.status.providerFailed()
		w.events.Emit(Event{Type: EventProviderBackoff, Level: "warn", Cycle: cycle, Provider: p.ForDisplay(), Failures: n, Backoff: d.Seconds(), Reason: wide[p]})
	}
	return out
}

// blame quarantines the instances a failed plan's errors name, or whose
// refresh started and did not finish, unless their provider was backed
// off for it.
func (w *Watcher) blame(diags hcl.Diagnostics, rh *refreshHook, now time.Time, backedOff map[string]bool) []Failure {
	named := diagObjects(diags)
	for _, a := range rh.unfinished() {
		if _, ok := named[a]; !ok {
			named[a] = firstError(diags)
		}
	}
	var out []Failure
	for a, msg := range named {
		if backedOff[w.sched.ProviderOf(a)] {
			continue
		}
		out = append(out, w.fail(a, msg, now))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Address < out[j].Address })
	return out
}

func firstError(diags hcl.Diagnostics) string {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			return diagMessage(d)
		}
	}
	return "failed"
}

// updateDrift replaces the drift of the refreshed instances with what
// their refresh found, and the pending changes with the plan's.
func (w *Watcher) updateDrift(refreshed []string, drift []ResourceDrift, chs []ResourceChange) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, a := range refreshed {
		delete(w.drift, a)
	}
	for _, d := range drift {
		w.drift[d.Address] = d
	}
	w.status.setPlan(chs)
}

func (w *Watcher) clearDrift(chs []ResourceChange) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range chs {
		delete(w.drift, c.Address)
	}
}

func (w *Watcher) anyDrift() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.drift) > 0
}

// currentDrift is the drift known now, sorted.
func (w *Watcher) currentDrift() []ResourceDrift {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]ResourceDrift, 0, len(w.drift))
	for _, d := range w.drift {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Address < out[j].Address })
	return out
}

// refreshHook sees which refreshes started and which finished.
type refreshHook struct {
	hooks.Nil
	mu            sync.Mutex
	started, done map[string]bool
}

func (h *refreshHook) PreRefresh(addr addrs.AbsResourceInstance, _, _ string) {
	h.mu.Lock()
	h.started[addr.String()] = true
	h.mu.Unlock()
}

func (h *refreshHook) PostRefresh(addr addrs.AbsResourceInstance, _, _ string) {
	h.mu.Lock()
	h.done[addr.String()] = true
	h.mu.Unlock()
}

func (h *refreshHook) unfinished() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for a := range h.started {
		if !h.done[a] {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

// applyHook collects the operations that failed.
type applyHook struct {
	hooks.Nil
	mu     sync.Mutex
	failed map[string]string
}

func (h *applyHook) PostApply(addr addrs.AbsResourceInstance, deposed string, _ plans.Action, _ string, _ time.Duration, err error) {
	if err == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	key := instanceKey(addr, deposed)
	if _, ok := h.failed[key]; !ok {
		h.failed[key] = strings.TrimSpace(err.Error())
	}
}

func (h *applyHook) failures() map[string]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]string, len(h.failed))
	for k, v := range h.failed {
		out[k] = v
	}
	return out
}

// withHook adds a hook to a plan request.
func withHook(req PlanRequest, h hooks.Hook) PlanRequest {
	req.Hook = h
	return req
}
