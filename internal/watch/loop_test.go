package watch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// fakeRunner plans with planFn and records what the watch asked.
type fakeRunner struct {
	mu      sync.Mutex
	planFn  func(req PlanRequest) *plans.Plan
	applied []*plans.Plan
	plans   []PlanRequest
	applyFn func(hooks.Hook) ApplyResult
	// runs numbers the sessions' runs; discarded are the runs dropped.
	runs      int
	discarded []string
	// beginDiags, when set, fail every Begin.
	beginDiags hcl.Diagnostics
}

func (r *fakeRunner) Begin(context.Context) (Session, hcl.Diagnostics) {
	r.mu.Lock()
	r.runs++
	id := fmt.Sprintf("run%d", r.runs)
	diags := r.beginDiags
	r.mu.Unlock()
	if diags != nil {
		return nil, diags
	}
	return &fakeSession{r: r, id: id}, nil
}

func (r *fakeRunner) Diagnostics(hcl.Diagnostics) {}

func (r *fakeRunner) DiscardRun(id string) {
	r.mu.Lock()
	r.discarded = append(r.discarded, id)
	r.mu.Unlock()
}

type fakeSession struct {
	r    *fakeRunner
	id   string
	plan *plans.Plan
}

func (s *fakeSession) RunID() string                { return s.id }
func (s *fakeSession) State() *states.State         { return states.New() }
func (s *fakeSession) Files() []string              { return nil }
func (s *fakeSession) Show()                        {}
func (s *fakeSession) Finish(hcl.Diagnostics, bool) {}

func (s *fakeSession) Plan(_ context.Context, req PlanRequest) (*plans.Plan, hcl.Diagnostics) {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	s.r.plans = append(s.r.plans, req)
	s.plan = s.r.planFn(req)
	return s.plan, nil
}

func (s *fakeSession) Apply(_ context.Context, h hooks.Hook) ApplyResult {
	s.r.mu.Lock()
	s.r.applied = append(s.r.applied, s.plan)
	fn := s.r.applyFn
	s.r.mu.Unlock()
	if fn != nil {
		return fn(h)
	}
	return ApplyResult{}
}

var objTy = cty.Object(map[string]cty.Type{"name": cty.String})

func obj(name string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name)})
}

func change(t *testing.T, addr string, action plans.Action) *plans.ResourceInstanceChange {
	t.Helper()
	a, diags := addrs.ParseAbsResourceInstanceStr(addr)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	c := &plans.ResourceInstanceChange{Addr: a, Action: action, Before: obj("old"), After: obj("new")}
	switch action {
	case plans.Create:
		c.Before = cty.NullVal(objTy)
	case plans.Delete:
		c.After = cty.NullVal(objTy)
	}
	return c
}

// planOf builds a plan of the changes the request does not exclude.
func planOf(req PlanRequest, cs ...*plans.ResourceInstanceChange) *plans.Plan {
	p := &plans.Plan{Changes: &plans.Changes{}}
	for _, c := range cs {
		excluded := false
		for _, x := range req.Exclude {
			if x.ContainsInstance(c.Addr) {
				excluded = true
			}
		}
		if !excluded {
			p.Changes.Resources = append(p.Changes.Resources, c)
		}
	}
	return p
}

func eventsOf(buf *bytes.Buffer) []Event {
	var out []Event
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var e Event
		if line != "" && json.Unmarshal([]byte(line), &e) == nil {
			out = append(out, e)
		}
	}
	return out
}

func types(evs []Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

func TestCycleModes(t *testing.T) {
	tests := map[string]struct {
		opts        Options
		changes     []plans.Action
		wantEvents  []string
		wantApplied []string
		wantSkipped []string
	}{
		"noop reports only": {
			changes:    []plans.Action{plans.Update},
			wantEvents: []string{EventDriftDetected},
		},
		"converge applies": {
			opts:        Options{Converge: true},
			changes:     []plans.Action{plans.Update, plans.Create},
			wantEvents:  []string{EventDriftDetected, EventConvergeStart, EventConvergeComplete},
			wantApplied: []string{"t.r0", "t.r1"},
		},
		"destroys held back": {
			opts:        Options{Converge: true},
			changes:     []plans.Action{plans.Update, plans.Delete, plans.DeleteThenCreate},
			wantEvents:  []string{EventDriftDetected, EventConvergeSkipped, EventConvergeStart, EventConvergeComplete},
			wantApplied: []string{"t.r0"},
			wantSkipped: []string{"t.r1", "t.r2"},
		},
		"destroys allowed": {
			opts:        Options{Converge: true, AllowDestroy: true},
			changes:     []plans.Action{plans.Update, plans.Delete},
			wantEvents:  []string{EventDriftDetected, EventConvergeStart, EventConvergeComplete},
			wantApplied: []string{"t.r0", "t.r1"},
		},
		"over max-changes": {
			opts:        Options{Converge: true, MaxChanges: 2},
			changes:     []plans.Action{plans.Update, plans.Update, plans.Create},
			wantEvents:  []string{EventDriftDetected, EventConvergeSkipped},
			wantSkipped: []string{"t.r0", "t.r1", "t.r2"},
		},
		"at max-changes": {
			opts:        Options{Converge: true, MaxChanges: 2},
			changes:     []plans.Action{plans.Update, plans.Update},
			wantEvents:  []string{EventDriftDetected, EventConvergeStart, EventConvergeComplete},
			wantApplied: []string{"t.r0", "t.r1"},
		},
		"nothing to do": {
			opts:       Options{Converge: true},
			wantEvents: []string{EventIdle},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var cs []*plans.ResourceInstanceChange
			for i, a := range tc.changes {
				cs = append(cs, change(t, "t.r"+string(rune('0'+i)), a))
			}
			r := &fakeRunner{planFn: func(req PlanRequest) *plans.Plan { return planOf(req, cs...) }}
			var buf bytes.Buffer
			tc.opts.Schedule = Schedule{Interval: time.Minute}
			w := New(r, NewEvents(&buf, true), tc.opts)
			w.cycle(context.Background(), 1, true)
			evs := eventsOf(&buf)
			if diff := cmp.Diff(tc.wantEvents, types(evs)); diff != "" {
				t.Fatalf("wrong events (-want +got)\n%s\n%s", diff, buf.String())
			}
			var applied []string
			for _, p := range r.applied {
				for _, c := range p.Changes.Resources {
					applied = append(applied, c.Addr.String())
				}
			}
			if diff := cmp.Diff(tc.wantApplied, applied); diff != "" {
				t.Errorf("wrong changes applied (-want +got)\n%s", diff)
			}
			var skipped []string
			for _, e := range evs {
				if e.Type == EventConvergeSkipped {
					skipped = e.Skipped
				}
			}
			if diff := cmp.Diff(tc.wantSkipped, skipped); diff != "" {
				t.Errorf("wrong instances skipped (-want +got)\n%s", diff)
			}
		})
	}
}

// failHook makes the apply fail for addr.
func failApply(t *testing.T, addr string) func(hooks.Hook) ApplyResult {
	a, _ := addrs.ParseAbsResourceInstanceStr(addr)
	return func(h hooks.Hook) ApplyResult {
		h.PostApply(a, "", plans.Create, "", 0, context.DeadlineExceeded)
		return ApplyResult{Diagnostics: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "boom"}}}
	}
}

// TestCycleQuarantine: a failed apply quarantines the instance, which the
// next plans leave out until its back-off has passed.
func TestCycleQuarantine(t *testing.T) {
	bad := change(t, "t.bad", plans.Create)
	r := &fakeRunner{planFn: func(req PlanRequest) *plans.Plan { return planOf(req, bad) }, applyFn: failApply(t, "t.bad")}
	var buf bytes.Buffer
	w := New(r, NewEvents(&buf, true), Options{Converge: true, Schedule: Schedule{Interval: time.Minute}})
	now := t0
	w.now = func() time.Time { return now }
	w.cycle(context.Background(), 1, true)
	if got := w.sched.Failures("t.bad"); got != 1 {
		t.Fatalf("failures = %d after a failed apply", got)
	}
	evs := eventsOf(&buf)
	last := evs[len(evs)-1]
	if last.Type != EventConvergeFailed || len(last.Failed) != 1 || last.Failed[0].Address != "t.bad" || last.Failed[0].Backoff != 60 {
		t.Fatalf("wrong event %+v", last)
	}
	// Within the back-off the instance is left out: nothing to apply.
	now = now.Add(30 * time.Second)
	w.cycle(context.Background(), 2, false)
	if len(r.applied) != 1 {
		t.Fatalf("retried during its back-off: %d applies", len(r.applied))
	}
	if req := r.plans[len(r.plans)-1]; len(req.Exclude) != 1 || req.Exclude[0].String() != "t.bad" {
		t.Fatalf("the plan did not leave t.bad out: %+v", req.Exclude)
	}
	// After it, tried again, and the back-off doubles.
	now = now.Add(31 * time.Second)
	buf.Reset()
	w.cycle(context.Background(), 3, false)
	if len(r.applied) != 2 {
		t.Fatalf("not retried after its back-off")
	}
	evs = eventsOf(&buf)
	if last := evs[len(evs)-1]; last.Type != EventConvergeFailed || last.Failed[0].Failures != 2 || last.Failed[0].Backoff != 120 {
		t.Fatalf("wrong event %+v", last)
	}
}

// TestRunConvergedTimeout: with nothing to do, -converged-timeout ends the
// watch.
func TestRunConvergedTimeout(t *testing.T) {
	r := &fakeRunner{planFn: func(req PlanRequest) *plans.Plan { return planOf(req) }}
	var buf bytes.Buffer
	w := New(r, NewEvents(&buf, true), Options{Converge: true, ConvergedTimeout: 50 * time.Millisecond, Schedule: Schedule{Interval: 10 * time.Millisecond}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := w.Run(ctx)
	if err != nil || !res.Converged {
		t.Fatalf("Run() = %+v, %v; want converged", res, err)
	}
	evs := eventsOf(&buf)
	if last := evs[len(evs)-1]; last.Type != EventStop || last.Reason != "converged" {
		t.Fatalf("last event %+v", last)
	}
}

// TestRunConvergedTimeoutFailing: a watch whose cycles cannot even start
// (a state lock nobody releases) backs off and, with -converged-timeout,
// stops with a failure once they have failed for that long, rather than
// retrying for ever (the s3 e2e test hung so).
func TestRunConvergedTimeoutFailing(t *testing.T) {
	r := &fakeRunner{beginDiags: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Error acquiring the state lock"}}}
	var buf bytes.Buffer
	const interval, timeout = 40 * time.Millisecond, 600 * time.Millisecond
	w := New(r, NewEvents(&buf, true), Options{ConvergedTimeout: timeout, Schedule: Schedule{Interval: interval}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	res, err := w.Run(ctx)
	if ctx.Err() != nil {
		t.Fatalf("the watch ran until the test's deadline: %d cycles", r.runs)
	}
	if err != nil || !res.Failed || res.Converged {
		t.Fatalf("Run() = %+v, %v; want failed", res, err)
	}
	if took := time.Since(start); took < timeout {
		t.Errorf("stopped after %s, before -converged-timeout", took)
	}
	evs := eventsOf(&buf)
	if last := evs[len(evs)-1]; last.Type != EventStop || last.Reason != "failing" || !strings.Contains(last.Message, "-converged-timeout") {
		t.Fatalf("last event %+v", last)
	}
	// Backed off: 40, 80, 160, 320ms waits fit 5 cycles in 600ms (with
	// the last one at the deadline), where a fixed interval fits 16.
	if r.runs > 6 {
		t.Errorf("%d cycles in %s: failed cycles are not backed off", r.runs, timeout)
	}
}

// TestStatusEndpoint serves the drift, metrics and trigger.
func TestStatusEndpoint(t *testing.T) {
	drifted := change(t, "t.a", plans.Update)
	r := &fakeRunner{planFn: func(req PlanRequest) *plans.Plan {
		p := planOf(req, drifted)
		p.DriftedResources = []*plans.ResourceInstanceChange{drifted}
		return p
	}}
	w := New(r, NewEvents(&bytes.Buffer{}, true), Options{Schedule: Schedule{Interval: time.Minute}})
	w.cycle(context.Background(), 1, true)
	srv := httptest.NewServer(w.Handler())
	defer srv.Close()

	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s", path, resp.Status)
		}
		return b.String()
	}
	var rep DriftReport
	if err := json.Unmarshal([]byte(get("/drift")), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Drift) != 1 || rep.Drift[0].Address != "t.a" || len(rep.Drift[0].Attributes) != 1 || rep.Drift[0].Attributes[0].Path != "name" {
		t.Fatalf("wrong drift %+v", rep.Drift)
	}
	if len(rep.Changes) != 1 || rep.Cycles != 1 {
		t.Fatalf("wrong report %+v", rep)
	}
	metrics := get("/metrics")
	for _, want := range []string{"strata_watch_drifted_resources 1\n", "strata_watch_pending_changes 1\n", "strata_watch_cycles_total 1\n", "# TYPE strata_watch_cycles_total counter\n"} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %q:\n%s", want, metrics)
		}
	}
	if !strings.Contains(get("/healthz"), `"status":"ok"`) {
		t.Error("not healthy")
	}
	resp, err := http.Post(srv.URL+"/trigger", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("POST /trigger: %s", resp.Status)
	}
	select {
	case <-w.trigger:
	default:
		t.Fatal("POST /trigger did not trigger a cycle")
	}
}

// TestIdleRunsCollapse: of a streak of idle cycles only the last keeps
// its run record; cycles with something to report keep theirs.
func TestIdleRunsCollapse(t *testing.T) {
	drifting := false
	r := &fakeRunner{planFn: func(req PlanRequest) *plans.Plan {
		if drifting {
			return planOf(req, change(t, "t.a", plans.Update))
		}
		return planOf(req)
	}}
	w := New(r, NewEvents(&bytes.Buffer{}, true), Options{Schedule: Schedule{Interval: time.Minute}})
	ctx := context.Background()
	w.cycle(ctx, 1, true)  // run1 idle
	w.cycle(ctx, 2, false) // run2 idle: run1 goes
	w.cycle(ctx, 3, false) // run3 idle: run2 goes
	drifting = true
	w.cycle(ctx, 4, false) // run4 drift: kept
	drifting = false
	w.cycle(ctx, 5, false) // run5 idle: run3 stays, the streak was broken
	w.cycle(ctx, 6, false) // run6 idle: run5 goes
	if diff := cmp.Diff([]string{"run1", "run2", "run5"}, r.discarded); diff != "" {
		t.Fatalf("wrong runs discarded (-want +got)\n%s", diff)
	}
}

// TestCycleRefreshFailureQuarantines: a plan that fails in an instance's
// refresh quarantines that instance, and the next plan, at once, leaves it
// out.
func TestCycleRefreshFailureQuarantines(t *testing.T) {
	a, _ := addrs.ParseAbsResourceInstanceStr("t.flaky")
	r := &fakeRunner{}
	sess := func(req PlanRequest) (*plans.Plan, hcl.Diagnostics) {
		// The refresh fails until the instance is left out.
		if len(req.Exclude) == 0 {
			req.Hook.PreRefresh(a, "", "")
			return &plans.Plan{Changes: &plans.Changes{}}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Rate exceeded"}}
		}
		return planOf(req), nil
	}
	var buf bytes.Buffer
	w := New(&planFnRunner{fakeRunner: r, plan: sess}, NewEvents(&buf, true), Options{Schedule: Schedule{Interval: time.Minute}})
	out := w.cycle(context.Background(), 1, true)
	if !out.retry || out.failed {
		t.Fatalf("outcome %+v: want an immediate retry without the instance", out)
	}
	evs := eventsOf(&buf)
	if len(evs) != 1 || evs[0].Type != EventCycleFailed || len(evs[0].Failed) != 1 || evs[0].Failed[0].Address != "t.flaky" || evs[0].Failed[0].Error != "Rate exceeded" {
		t.Fatalf("wrong events %+v", evs)
	}
	buf.Reset()
	w.cycle(context.Background(), 2, false)
	if evs := eventsOf(&buf); len(evs) != 1 || evs[0].Type != EventIdle {
		t.Fatalf("the cycle after the failure: %+v", evs)
	}
}

// planFnRunner is a fakeRunner whose sessions plan with plan.
type planFnRunner struct {
	*fakeRunner
	plan func(PlanRequest) (*plans.Plan, hcl.Diagnostics)
}

func (r *planFnRunner) Begin(context.Context) (Session, hcl.Diagnostics) {
	return &planFnSession{fakeSession: fakeSession{r: r.fakeRunner, id: "run"}, plan: r.plan}, nil
}

type planFnSession struct {
	fakeSession
	plan func(PlanRequest) (*plans.Plan, hcl.Diagnostics)
}

func (s *planFnSession) Plan(_ context.Context, req PlanRequest) (*plans.Plan, hcl.Diagnostics) {
	return s.plan(req)
}

// TestCycleOutputAndMoveChanges: a plan whose only changes are an output
// value and a moved instance still converges; -max-changes counts the
// instance, not the output.
func TestCycleOutputAndMoveChanges(t *testing.T) {
	moved := change(t, "t.new", plans.NoOp)
	prev := mustAddr(t, "t.old")
	moved.PrevRunAddr = &prev
	r := &fakeRunner{planFn: func(req PlanRequest) *plans.Plan {
		p := planOf(req, moved)
		p.Changes.Outputs = []*plans.OutputChange{{Name: "x", Action: plans.Create, Before: cty.NullVal(cty.String), After: cty.StringVal("v")}}
		return p
	}}
	var buf bytes.Buffer
	w := New(r, NewEvents(&buf, true), Options{Converge: true, MaxChanges: 1, Schedule: Schedule{Interval: time.Minute}})
	w.cycle(context.Background(), 1, true)
	evs := eventsOf(&buf)
	if diff := cmp.Diff([]string{EventDriftDetected, EventConvergeStart, EventConvergeComplete}, types(evs)); diff != "" {
		t.Fatalf("wrong events (-want +got)\n%s\n%s", diff, buf.String())
	}
	var got []string
	for _, c := range evs[1].Changes {
		got = append(got, c.Action+" "+c.Address)
	}
	if diff := cmp.Diff([]string{"create output.x", "move t.new"}, got); diff != "" {
		t.Fatalf("wrong changes (-want +got)\n%s", diff)
	}
	if len(r.applied) != 1 {
		t.Fatalf("%d applies, want 1", len(r.applied))
	}
}

func mustAddr(t *testing.T, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, diags := addrs.ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return a
}
