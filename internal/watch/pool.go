package watch

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/providers"
)

// providerPool keeps provider processes from one cycle to the next, so
// that a watch does not start every provider again each cycle. The
// engine closes the providers at the end of each plan and apply as
// usual; a pooled instance's Close puts it back instead, and the next
// factory call of the same provider takes it (each instance serves one
// provider configuration at a time, and is configured again by each
// operation, as the engine does for a new one).
//
// An instance is closed for good, not pooled, once it has been told to
// stop or any call on it has failed (a crash, or a provider in a bad
// state: the next cycle starts a fresh one). reset closes the idle ones:
// the watch calls it when the configuration or the dependency lock file
// changes, since the installed providers may have changed with them.
type providerPool struct {
	// keep is false with -restart-providers: instances are closed, not
	// pooled.
	keep   bool
	mu     sync.Mutex
	idle   map[addrs.Provider][]providers.Interface
	closed bool
	// started counts the instances started (tests, and the measure of
	// what pooling saves).
	started int
}

func newProviderPool(keep bool) *providerPool {
	return &providerPool{keep: keep, idle: map[addrs.Provider][]providers.Interface{}}
}

// starts returns how many instances the pool has started.
func (pp *providerPool) starts() int {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	return pp.started
}

// Wrap returns factories that take idle instances before starting new
// ones, and whose instances go back to the pool when closed.
func (pp *providerPool) Wrap(fs map[addrs.Provider]providers.Factory) map[addrs.Provider]providers.Factory {
	out := make(map[addrs.Provider]providers.Factory, len(fs))
	for addr, f := range fs {
		addr, f := addr, f
		out[addr] = func() (providers.Interface, error) {
			p := pp.take(addr)
			if p == nil {
				var err error
				if p, err = f(); err != nil {
					return nil, err
				}
				pp.mu.Lock()
				pp.started++
				pp.mu.Unlock()
			}
			return withCapabilities(&pooledProvider{Interface: p, pool: pp, addr: addr}, p), nil
		}
	}
	return out
}

func (pp *providerPool) take(addr addrs.Provider) providers.Interface {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	idle := pp.idle[addr]
	if len(idle) == 0 {
		return nil
	}
	p := idle[len(idle)-1]
	pp.idle[addr] = idle[:len(idle)-1]
	return p
}

// put pools p, or closes it when the pool is closed.
func (pp *providerPool) put(ctx context.Context, addr addrs.Provider, p providers.Interface) error {
	pp.mu.Lock()
	if pp.keep && !pp.closed {
		pp.idle[addr] = append(pp.idle[addr], p)
		pp.mu.Unlock()
		return nil
	}
	pp.mu.Unlock()
	return p.Close(ctx)
}

// reset closes the idle instances; the next cycle starts new ones.
func (pp *providerPool) reset() {
	pp.mu.Lock()
	idle := pp.idle
	pp.idle = map[addrs.Provider][]providers.Interface{}
	pp.mu.Unlock()
	for _, ps := range idle {
		for _, p := range ps {
			_ = p.Close(context.Background())
		}
	}
}

// close closes the idle instances and makes Close close the others.
func (pp *providerPool) close() {
	pp.mu.Lock()
	pp.closed = true
	pp.mu.Unlock()
	pp.reset()
}

// pooledProvider is an instance on loan from the pool.
type pooledProvider struct {
	providers.Interface
	pool   *providerPool
	addr   addrs.Provider
	broken atomic.Bool
	done   atomic.Bool
}

func (p *pooledProvider) check(diags providers.Diagnostics) {
	if diags.HasErrors() {
		p.broken.Store(true)
	}
}

// Close implements providers.Interface: back to the pool, unless the
// instance is broken.
func (p *pooledProvider) Close(ctx context.Context) error {
	if !p.done.CompareAndSwap(false, true) {
		return nil
	}
	if p.broken.Load() {
		return p.Interface.Close(ctx)
	}
	return p.pool.put(ctx, p.addr, p.Interface)
}

// Stop implements providers.Interface; a stopped provider is not reused.
func (p *pooledProvider) Stop(ctx context.Context) error {
	p.broken.Store(true)
	return p.Interface.Stop(ctx)
}

// GetProviderSchema implements providers.Interface.
func (p *pooledProvider) GetProviderSchema(ctx context.Context) providers.GetProviderSchemaResponse {
	r := p.Interface.GetProviderSchema(ctx)
	p.check(r.Diagnostics)
	return r
}

// ConfigureProvider implements providers.Interface.
func (p *pooledProvider) ConfigureProvider(ctx context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	r := p.Interface.ConfigureProvider(ctx, req)
	p.check(r.Diagnostics)
	return r
}

// UpgradeResourceState implements providers.Interface.
func (p *pooledProvider) UpgradeResourceState(ctx context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	r := p.Interface.UpgradeResourceState(ctx, req)
	p.check(r.Diagnostics)
	return r
}

// ReadResource implements providers.Interface.
func (p *pooledProvider) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	r := p.Interface.ReadResource(ctx, req)
	p.check(r.Diagnostics)
	return r
}

// PlanResourceChange implements providers.Interface.
func (p *pooledProvider) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	r := p.Interface.PlanResourceChange(ctx, req)
	p.check(r.Diagnostics)
	return r
}

// ApplyResourceChange implements providers.Interface.
func (p *pooledProvider) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	r := p.Interface.ApplyResourceChange(ctx, req)
	p.check(r.Diagnostics)
	return r
}

// ReadDataSource implements providers.Interface.
func (p *pooledProvider) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	r := p.Interface.ReadDataSource(ctx, req)
	p.check(r.Diagnostics)
	return r
}
