package engine

import (
	"context"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/providers"
)

// A command such as apply walks the configuration two or three times
// (validate, plan, apply; destroy plans twice first). Terraform starts
// every provider afresh for each walk, and a large provider takes seconds
// of CPU and hundreds of megabytes to start. With Engine.KeepProviders,
// the instances a walk started wait in the engine's pool when it ends,
// and the next walk takes them: an instance configured with the same
// configuration is not configured again, one configured otherwise is
// replaced by a new process, since a provider is configured once in its
// life.

// providerPool holds the provider instances an engine's finished walks
// left for the next one, by instance key (providerSet.instances).
type providerPool struct {
	mu   sync.Mutex
	idle map[string]pooledProvider
}

// pooledProvider is an instance waiting in the pool, with its
// configuration when it was configured.
type pooledProvider struct {
	p          providers.Interface
	configured *providerConfiguration
}

// providerConfiguration is how an instance was configured: the
// configuration sent to ConfigureProvider, without marks (as the
// provider received it), and the diagnostics the provider answered,
// which a walk reusing the instance reports again as its own.
type providerConfiguration struct {
	config cty.Value
	diags  providers.Diagnostics
	// ephemeral is set when the configuration held ephemeral values,
	// which may be worth nothing once the walk that opened them closed
	// them (a token revoked): such an instance is never kept.
	ephemeral bool
}

// same reports whether config is the configuration c was made with.
func (c *providerConfiguration) same(config cty.Value) bool {
	return c.config.RawEquals(config)
}

// take removes and returns the instance waiting under key.
func (pp *providerPool) take(key string) (pooledProvider, bool) {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	e, ok := pp.idle[key]
	if ok {
		delete(pp.idle, key)
	}
	return e, ok
}

// put leaves an instance in the pool. An instance already waiting under
// key (left by a walk that ran beside this one) is closed.
func (pp *providerPool) put(ctx context.Context, key string, e pooledProvider) {
	pp.mu.Lock()
	old, ok := pp.idle[key]
	if pp.idle == nil {
		pp.idle = map[string]pooledProvider{}
	}
	pp.idle[key] = e
	pp.mu.Unlock()
	if ok {
		_ = old.p.Close(ctx)
	}
}

// closeAll closes every waiting instance, in key order.
func (pp *providerPool) closeAll(ctx context.Context) {
	pp.mu.Lock()
	idle := pp.idle
	pp.idle = nil
	pp.mu.Unlock()
	for _, k := range sortedKeys(idle) {
		_ = idle[k].p.Close(ctx)
	}
}

// CloseProviders ends the provider instances that Engine.KeepProviders
// kept after the engine's operations. The engine stays usable: the next
// operation starts its providers again.
func (e *Engine) CloseProviders(ctx context.Context) {
	e.pool.closeAll(context.WithoutCancel(ctx))
}
