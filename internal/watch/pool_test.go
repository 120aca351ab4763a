package watch

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
)

// countingFactory starts fake providers, counting the starts and closes.
type countingFactory struct {
	started, closed atomic.Int32
	fail            atomic.Bool // ReadResource fails
}

type closeCounting struct {
	*providertest.Provider
	f *countingFactory
}

func (c closeCounting) Close(context.Context) error {
	c.f.closed.Add(1)
	return nil
}

func (f *countingFactory) factory() providers.Factory {
	return func() (providers.Interface, error) {
		f.started.Add(1)
		return closeCounting{Provider: &providertest.Provider{ReadResourceFn: func(req providers.ReadResourceRequest) providers.ReadResourceResponse {
			if f.fail.Load() {
				return providers.ReadResourceResponse{Diagnostics: providers.Diagnostics{{Severity: providers.Error, Summary: "plugin crashed"}}}
			}
			return providers.ReadResourceResponse{NewState: req.PriorState}
		}}, f: f}, nil
	}
}

// TestProviderPool: instances closed by one operation serve the next
// (one per configuration in use at once); a failed call or Stop retires
// an instance; reset and close end the idle ones.
func TestProviderPool(t *testing.T) {
	ctx := context.Background()
	f := &countingFactory{}
	pp := newProviderPool(true)
	base := map[addrs.Provider]providers.Factory{awsAddr: f.factory()}
	// An operation with two configurations of the provider (aliases).
	op := func() []providers.Interface {
		fs := pp.Wrap(base)
		a, _ := fs[awsAddr]()
		b, _ := fs[awsAddr]()
		return []providers.Interface{a, b}
	}
	closeAll := func(ps []providers.Interface) {
		for _, p := range ps {
			_ = p.Close(ctx)
			_ = p.Close(ctx) // twice, as the engine may: pooled once
		}
	}
	for cycle := 0; cycle < 3; cycle++ {
		closeAll(op())
	}
	if s, c := f.started.Load(), f.closed.Load(); s != 2 || c != 0 {
		t.Fatalf("after three operations: %d started, %d closed; want 2 started and kept", s, c)
	}

	// A failed call retires its instance: the next operation starts one.
	ps := op()
	f.fail.Store(true)
	ps[0].ReadResource(ctx, providers.ReadResourceRequest{})
	f.fail.Store(false)
	closeAll(ps)
	if s, c := f.started.Load(), f.closed.Load(); s != 2 || c != 1 {
		t.Fatalf("after a failure: %d started, %d closed; want the failed one closed", s, c)
	}
	ps = op()
	if s := f.started.Load(); s != 3 {
		t.Fatalf("%d started, want a fresh instance for the failed one", s)
	}
	// Stop (an interrupt) retires the instance too.
	_ = ps[1].Stop(ctx)
	closeAll(ps)
	if c := f.closed.Load(); c != 2 {
		t.Fatalf("%d closed, want the stopped one closed", c)
	}

	// reset ends the idle instances (a configuration or lock file change).
	pp.reset()
	if c := f.closed.Load(); c != 3 {
		t.Fatalf("%d closed after reset, want 3", c)
	}
	ps = op()
	if s := f.started.Load(); s != 5 {
		t.Fatalf("%d started after reset, want two new", s)
	}
	// close: the instances on loan are closed when given back.
	pp.close()
	closeAll(ps)
	if c := f.closed.Load(); c != 5 {
		t.Fatalf("%d closed after close, want all 5", c)
	}
	// The capabilities of the provider survive the pool.
	p, _ := pp.Wrap(base)[awsAddr]()
	if _, ok := p.(providers.EphemeralResources); !ok {
		t.Error("the pool hid the provider's ephemeral resources")
	}
}

// TestProviderPoolRestart: without keep (-restart-providers) every
// operation starts its own instances, and closing them ends them.
func TestProviderPoolRestart(t *testing.T) {
	f := &countingFactory{}
	pp := newProviderPool(false)
	for i := 0; i < 3; i++ {
		p, _ := pp.Wrap(map[addrs.Provider]providers.Factory{awsAddr: f.factory()})[awsAddr]()
		_ = p.Close(context.Background())
	}
	if s, c := f.started.Load(), f.closed.Load(); s != 3 || c != 3 || pp.starts() != 3 {
		t.Fatalf("%d started, %d closed (pool counts %d); want 3 each", s, c, pp.starts())
	}
}
