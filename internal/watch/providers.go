package watch

import (
	"context"
	"regexp"
	"sort"
	"sync"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/providers"
)

// DefaultRefreshConcurrency is how many refreshes of one provider a
// watch runs at once unless told otherwise: enough to keep a cycle short,
// few enough that polling every resource does not trip an API's rate
// limits.
const DefaultRefreshConcurrency = 4

// RefreshLimits bound the concurrent refreshes (ReadResource calls) of
// each provider, across all its configurations.
type RefreshLimits struct {
	// Default applies to providers without their own limit;
	// 0 means DefaultRefreshConcurrency.
	Default int
	// ByProvider is keyed by provider address (addrs.Provider.String()).
	ByProvider map[string]int
}

// For returns the limit of provider p.
func (l RefreshLimits) For(p addrs.Provider) int {
	if n, ok := l.ByProvider[p.String()]; ok && n > 0 {
		return n
	}
	if l.Default > 0 {
		return l.Default
	}
	return DefaultRefreshConcurrency
}

// refreshGate sits between the engine and the providers of a watch's
// plans: it bounds each provider's concurrent refreshes and notes, for
// the plan under way, which providers' refreshes failed and which
// succeeded. The engine's -parallelism still bounds all operations
// together.
type refreshGate struct {
	limits RefreshLimits
	mu     sync.Mutex
	sems   map[addrs.Provider]chan struct{}
	// Of the plan under way:
	failed map[addrs.Provider]*providerFailure
	ok     map[addrs.Provider]bool
	// inFlight and peak count refreshes running at once (tests, and the
	// proof that the limit holds).
	inFlight, peak map[addrs.Provider]int
}

// providerFailure is what a plan's failed refreshes of one provider said.
type providerFailure struct {
	count int
	first string
}

func newRefreshGate(l RefreshLimits) *refreshGate {
	return &refreshGate{limits: l, sems: map[addrs.Provider]chan struct{}{}, peak: map[addrs.Provider]int{}, inFlight: map[addrs.Provider]int{}}
}

// begin forgets what the last plan's refreshes did.
func (g *refreshGate) begin() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.failed = map[addrs.Provider]*providerFailure{}
	g.ok = map[addrs.Provider]bool{}
}

// Wrap returns factories whose instances pass their refreshes through
// the gate.
func (g *refreshGate) Wrap(fs map[addrs.Provider]providers.Factory) map[addrs.Provider]providers.Factory {
	out := make(map[addrs.Provider]providers.Factory, len(fs))
	for addr, f := range fs {
		addr, f := addr, f
		out[addr] = func() (providers.Interface, error) {
			p, err := f()
			if err != nil {
				return nil, err
			}
			return withCapabilities(&gatedProvider{Interface: p, g: g, addr: addr}, p), nil
		}
	}
	return out
}

func (g *refreshGate) sem(p addrs.Provider) chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	s, ok := g.sems[p]
	if !ok {
		s = make(chan struct{}, g.limits.For(p))
		g.sems[p] = s
	}
	return s
}

// acquire waits for a refresh slot of p; false when ctx ended first.
func (g *refreshGate) acquire(ctx context.Context, p addrs.Provider) bool {
	select {
	case g.sem(p) <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	g.mu.Lock()
	g.inFlight[p]++
	if g.inFlight[p] > g.peak[p] {
		g.peak[p] = g.inFlight[p]
	}
	g.mu.Unlock()
	return true
}

func (g *refreshGate) release(p addrs.Provider, diags providers.Diagnostics) {
	g.mu.Lock()
	g.inFlight[p]--
	if g.failed == nil {
		g.failed, g.ok = map[addrs.Provider]*providerFailure{}, map[addrs.Provider]bool{}
	}
	if diags.HasErrors() {
		f := g.failed[p]
		if f == nil {
			f = &providerFailure{first: providerDiagText(diags)}
			g.failed[p] = f
		}
		f.count++
	} else {
		g.ok[p] = true
	}
	g.mu.Unlock()
	<-g.sem(p)
}

// throttled matches the errors APIs give when asked too much or when
// they are down for everyone, whatever the resource.
var throttled = regexp.MustCompile(`(?i)rate.?limit|rate exceeded|throttl|too many requests|\b429\b|\b503\b|service unavailable|request ?limit ?exceeded|quota exceeded|slow ?down`)

// providerWide returns the providers whose refreshes failed in the last
// plan in a way that is not one resource's problem: more than one
// refresh failed, or the error says the API is throttling or down. The
// watch backs off their refreshes instead of quarantining instances.
func (g *refreshGate) providerWide() map[addrs.Provider]string {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := map[addrs.Provider]string{}
	for p, f := range g.failed {
		if f.count > 1 || throttled.MatchString(f.first) {
			out[p] = f.first
		}
	}
	return out
}

// refreshedOK returns the providers at least one of whose refreshes in
// the last plan succeeded, sorted.
func (g *refreshGate) refreshedOK() []addrs.Provider {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []addrs.Provider
	for p := range g.ok {
		if g.failed[p] == nil {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func providerDiagText(diags providers.Diagnostics) string {
	for _, d := range diags {
		if d.Severity == providers.Error {
			if d.Detail == "" {
				return d.Summary
			}
			return d.Summary + ": " + d.Detail
		}
	}
	return "failed"
}

// gatedProvider is a provider instance whose ReadResource goes through
// the gate.
type gatedProvider struct {
	providers.Interface
	g    *refreshGate
	addr addrs.Provider
}

// ReadResource implements providers.Interface.
func (p *gatedProvider) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	if !p.g.acquire(ctx, p.addr) {
		return p.Interface.ReadResource(ctx, req) // cancelled: let the provider say so
	}
	resp := p.Interface.ReadResource(ctx, req)
	p.g.release(p.addr, resp.Diagnostics)
	return resp
}

// withCapabilities returns gp, a wrapper of inner, with the optional
// interfaces inner implements, so that the engine sees the same
// capabilities as without the wrapper.
func withCapabilities(gp providers.Interface, inner providers.Interface) providers.Interface {
	eph, isEph := inner.(providers.EphemeralResources)
	idu, isIdu := inner.(providers.IdentityUpgrader)
	switch {
	case isEph && isIdu:
		return struct {
			providers.Interface
			providers.EphemeralResources
			providers.IdentityUpgrader
		}{gp, eph, idu}
	case isEph:
		return struct {
			providers.Interface
			providers.EphemeralResources
		}{gp, eph}
	case isIdu:
		return struct {
			providers.Interface
			providers.IdentityUpgrader
		}{gp, idu}
	}
	return gp
}
