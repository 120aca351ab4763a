package watch

import (
	"bytes"
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
	"github.com/strata-dev/strata/internal/states"
)

var (
	awsAddr   = addrs.NewDefaultProvider("aws")
	localAddr = addrs.NewDefaultProvider("local")
)

// TestRefreshGateLimits: each provider's concurrent refreshes stay within
// its limit, with other providers and other calls unaffected.
func TestRefreshGateLimits(t *testing.T) {
	tests := map[string]struct {
		limits    RefreshLimits
		wantAWS   int
		wantLocal int
	}{
		"default":      {RefreshLimits{}, DefaultRefreshConcurrency, DefaultRefreshConcurrency},
		"file default": {RefreshLimits{Default: 2}, 2, 2},
		"per provider": {RefreshLimits{Default: 3, ByProvider: map[string]int{awsAddr.String(): 1}}, 1, 3},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			g := newRefreshGate(tc.limits)
			g.begin()
			var running, peak atomic.Int32
			slow := func() providers.Factory {
				return func() (providers.Interface, error) {
					return &providertest.Provider{ReadResourceFn: func(req providers.ReadResourceRequest) providers.ReadResourceResponse {
						n := running.Add(1)
						for {
							p := peak.Load()
							if n <= p || peak.CompareAndSwap(p, n) {
								break
							}
						}
						time.Sleep(5 * time.Millisecond)
						running.Add(-1)
						return providers.ReadResourceResponse{NewState: req.PriorState}
					}}, nil
				}
			}
			fs := g.Wrap(map[addrs.Provider]providers.Factory{awsAddr: slow(), localAddr: slow()})
			// Two instances of each provider (two configurations, as
			// aliases make), ten refreshes each.
			var wg sync.WaitGroup
			for _, pa := range []addrs.Provider{awsAddr, localAddr} {
				for inst := 0; inst < 2; inst++ {
					p, err := fs[pa]()
					if err != nil {
						t.Fatal(err)
					}
					if _, ok := p.(providers.EphemeralResources); !ok {
						t.Fatal("the gate hid the provider's ephemeral resources")
					}
					for i := 0; i < 10; i++ {
						wg.Add(1)
						go func() {
							defer wg.Done()
							p.ReadResource(context.Background(), providers.ReadResourceRequest{TypeName: "x"})
						}()
					}
				}
			}
			wg.Wait()
			if got := g.peak[awsAddr]; got != tc.wantAWS {
				t.Errorf("aws: %d refreshes at once, want %d", got, tc.wantAWS)
			}
			if got := g.peak[localAddr]; got != tc.wantLocal {
				t.Errorf("local: %d refreshes at once, want %d", got, tc.wantLocal)
			}
			if got, max := int(peak.Load()), tc.wantAWS+tc.wantLocal; got > max {
				t.Errorf("%d refreshes at once in all, more than %d", got, max)
			}
			if diff := cmp.Diff([]addrs.Provider{awsAddr, localAddr}, g.refreshedOK()); diff != "" {
				t.Errorf("wrong providers refreshed (-want +got)\n%s", diff)
			}
		})
	}
}

// TestRefreshGateProviderWide tells a provider's failure (more than one
// refresh failing, or a throttling error) from one resource's.
func TestRefreshGateProviderWide(t *testing.T) {
	tests := map[string]struct {
		errs []string // the errors of the refreshes; "" succeeds
		want bool
	}{
		"one resource fails":      {[]string{"permission denied on bucket x", ""}, false},
		"two resources fail":      {[]string{"connection reset", "connection reset"}, true},
		"throttled once":          {[]string{"Throttling: Rate exceeded", ""}, true},
		"too many requests":       {[]string{"unexpected status 429 Too Many Requests"}, true},
		"service unavailable":     {[]string{"503 Service Unavailable"}, true},
		"all fine":                {[]string{"", ""}, false},
		"a number is not a limit": {[]string{"instance i-4290 not found"}, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			g := newRefreshGate(RefreshLimits{})
			g.begin()
			i := 0
			fs := g.Wrap(map[addrs.Provider]providers.Factory{awsAddr: func() (providers.Interface, error) {
				return &providertest.Provider{ReadResourceFn: func(req providers.ReadResourceRequest) providers.ReadResourceResponse {
					msg := tc.errs[i]
					i++
					if msg == "" {
						return providers.ReadResourceResponse{NewState: req.PriorState}
					}
					return providers.ReadResourceResponse{Diagnostics: providers.Diagnostics{{Severity: providers.Error, Summary: "Read failed", Detail: msg}}}
				}}, nil
			}})
			p, _ := fs[awsAddr]()
			for range tc.errs {
				p.ReadResource(context.Background(), providers.ReadResourceRequest{})
			}
			_, got := g.providerWide()[awsAddr]
			if got != tc.want {
				t.Errorf("provider-wide = %v, want %v", got, tc.want)
			}
		})
	}
}

// stateWith returns a state with managed instances of the given
// providers, by address.
func stateWith(t *testing.T, of map[string]addrs.Provider) *states.State {
	t.Helper()
	s := states.New()
	for a, p := range of {
		s.SetObject(mustAddr(t, a), &states.ObjectSrc{AttrsJSON: []byte(`{}`)}, addrs.AbsProviderConfig{Provider: p})
	}
	return s
}

// engineSession plans as the engine would for the watch: it starts the
// providers through the request's wrapper and refreshes the instances the
// request selects, each with its provider; a failed refresh fails the plan.
type engineSession struct {
	fakeSession
	state *states.State
	fail  func(addr string) string // the refresh error of addr, "" for none
	// refreshed lists what each plan refreshed.
	refreshed *[][]string
}

func (s *engineSession) State() *states.State { return s.state }

func (s *engineSession) Plan(ctx context.Context, req PlanRequest) (*plans.Plan, hcl.Diagnostics) {
	fs := map[addrs.Provider]providers.Factory{}
	for _, p := range []addrs.Provider{awsAddr, localAddr} {
		fs[p] = func() (providers.Interface, error) {
			return &providertest.Provider{ReadResourceFn: func(r providers.ReadResourceRequest) providers.ReadResourceResponse {
				if msg := s.fail(r.TypeName); msg != "" {
					return providers.ReadResourceResponse{Diagnostics: providers.Diagnostics{{Severity: providers.Error, Summary: msg}}}
				}
				return providers.ReadResourceResponse{NewState: r.PriorState}
			}}, nil
		}
	}
	fs = req.Providers(fs)
	var diags hcl.Diagnostics
	var did []string
	for _, a := range s.state.AllInstances() {
		if !req.Refresh(a) {
			continue
		}
		did = append(did, a.String())
		p, _ := fs[s.state.Resource(a.ContainingResource()).ProviderConfig.Provider]()
		// The fake passes the address as the type name, to fail by
		// address.
		resp := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: a.String()})
		if resp.Diagnostics.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: resp.Diagnostics[0].Summary, Extra: diagObject(a.String())})
		}
	}
	*s.refreshed = append(*s.refreshed, did)
	if diags.HasErrors() {
		return nil, diags
	}
	return planOf(req), nil
}

type diagObject string

func (d diagObject) DiagnosticObject() string { return string(d) }

type engineRunner struct {
	*fakeRunner
	sess *engineSession
}

func (r *engineRunner) Begin(context.Context) (Session, hcl.Diagnostics) { return r.sess, nil }

// TestCycleProviderBackoff: when a provider's refreshes fail for every
// resource, the watch backs the provider off (its resources are not
// refreshed, nor quarantined) and plans the rest at once; the other
// provider's resources are refreshed all along; once the back-off is
// over and its refreshes work again, the provider's failures are
// forgotten. One resource failing alone is quarantined as before.
func TestCycleProviderBackoff(t *testing.T) {
	throttled := true
	var refreshed [][]string
	sess := &engineSession{
		state: stateWith(t, map[string]addrs.Provider{"aws_x.a": awsAddr, "aws_x.b": awsAddr, "local_file.c": localAddr, "local_file.d": localAddr}),
		fail: func(addr string) string {
			switch {
			case throttled && addr[:3] == "aws":
				return "Throttling: Rate exceeded"
			case addr == "local_file.d":
				return "permission denied"
			}
			return ""
		},
		refreshed: &refreshed,
	}
	var buf bytes.Buffer
	w := New(&engineRunner{fakeRunner: &fakeRunner{}, sess: sess}, NewEvents(&buf, true), Options{Schedule: Schedule{Interval: time.Minute}})
	now := t0
	w.now = func() time.Time { return now }

	out := w.cycle(context.Background(), 1, true)
	if !out.retry {
		t.Fatalf("outcome %+v: want an immediate retry without the failing provider", out)
	}
	evs := eventsOf(&buf)
	if diff := cmp.Diff([]string{EventProviderBackoff, EventCycleFailed}, types(evs)); diff != "" {
		t.Fatalf("wrong events (-want +got)\n%s\n%s", diff, buf.String())
	}
	if e := evs[0]; e.Provider != "hashicorp/aws" || e.Failures != 1 || e.Backoff != 60 || e.Reason != "Throttling: Rate exceeded" {
		t.Fatalf("wrong provider_backoff %+v", e)
	}
	// aws's instances are not quarantined; local_file.d, failing alone,
	// is.
	var failed []string
	for _, f := range evs[1].Failed {
		failed = append(failed, f.Address)
	}
	if diff := cmp.Diff([]string{"local_file.d"}, failed); diff != "" {
		t.Fatalf("wrong instances quarantined (-want +got)\n%s", diff)
	}

	// The retry refreshes local_file.c only, and succeeds.
	buf.Reset()
	w.cycle(context.Background(), 2, false)
	if diff := cmp.Diff([]string{"local_file.c"}, refreshed[len(refreshed)-1]); diff != "" {
		t.Fatalf("the retry refreshed the wrong instances (-want +got)\n%s", diff)
	}
	if rep := w.Report(); len(rep.BackedOff) != 1 || rep.BackedOff[0].Provider != awsAddr.String() {
		t.Fatalf("the report does not show the back-off: %+v", rep.BackedOff)
	}

	// Still throttled after the back-off: it doubles.
	now = now.Add(61 * time.Second)
	buf.Reset()
	w.cycle(context.Background(), 3, false)
	evs = eventsOf(&buf)
	if len(evs) == 0 || evs[0].Type != EventProviderBackoff || evs[0].Failures != 2 || evs[0].Backoff != 120 {
		t.Fatalf("wrong events after the first back-off: %s", buf.String())
	}
	w.cycle(context.Background(), 4, false)

	// The API recovers: after the back-off aws is refreshed again, and
	// its failures are forgotten.
	throttled = false
	now = now.Add(121 * time.Second)
	buf.Reset()
	w.cycle(context.Background(), 5, false)
	last := refreshed[len(refreshed)-1]
	if len(last) < 2 || last[0] != "aws_x.a" || last[1] != "aws_x.b" {
		t.Fatalf("aws not refreshed after its back-off: %v", last)
	}
	if rep := w.Report(); len(rep.BackedOff) != 0 {
		t.Fatalf("still backed off: %+v", rep.BackedOff)
	}
	if _, n := w.sched.ProviderFailed(awsAddr.String(), "x", now); n != 1 {
		t.Fatalf("the provider's failures were not forgotten: %d in a row", n)
	}
}
