package engine

import (
	"context"
	"fmt"
	"os"
	"sort"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/states"
)

// DefaultParallelism is the number of provider operations run at once when
// the user does not say otherwise.
const DefaultParallelism = 10

// Engine plans and applies one configuration with a set of providers.
type Engine struct {
	Config *configs.Module
	// Providers has a factory for every provider the configuration and
	// state use.
	Providers map[addrs.Provider]providers.Factory
	// Parallelism bounds concurrent provider operations (default 10).
	Parallelism int
	Hooks       []hooks.Hook
	// Workspace is the value of terraform.workspace.
	Workspace string
	// Version is reported to providers and written into state.
	Version string
	// Recorder, when set, is told about every state change during apply as
	// it happens (the state journal).
	Recorder states.Recorder
}

// InputValue is a root module variable value supplied by the user.
type InputValue struct {
	Value cty.Value
	// Source says where it came from, for messages.
	Source hcl.Range
}

// providerSet holds the provider instances of one operation, one per
// provider configuration, and their schemas.
type providerSet struct {
	mu        sync.Mutex
	factories map[addrs.Provider]providers.Factory
	instances map[string]providers.Interface
	schemas   map[addrs.Provider]*providers.GetProviderSchemaResponse
}

func newProviderSet(f map[addrs.Provider]providers.Factory) *providerSet {
	return &providerSet{factories: f, instances: map[string]providers.Interface{}, schemas: map[addrs.Provider]*providers.GetProviderSchemaResponse{}}
}

// get returns the started instance for a provider configuration.
func (ps *providerSet) get(ctx context.Context, addr addrs.AbsProviderConfig) (providers.Interface, error) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	key := addr.String()
	if p, ok := ps.instances[key]; ok {
		return p, nil
	}
	f, ok := ps.factories[addr.Provider]
	if !ok {
		return nil, fmt.Errorf("provider %s is not available; run \"strata init\" to install the providers this configuration uses", addr.Provider.ForDisplay())
	}
	p, err := f()
	if err != nil {
		return nil, fmt.Errorf("failed to start provider %s: %w", addr.Provider.ForDisplay(), err)
	}
	ps.instances[key] = p
	return p, nil
}

// schema returns the provider's schemas, fetched once per operation.
func (ps *providerSet) schema(ctx context.Context, addr addrs.AbsProviderConfig) (*providers.GetProviderSchemaResponse, error) {
	p, err := ps.get(ctx, addr)
	if err != nil {
		return nil, err
	}
	ps.mu.Lock()
	s, ok := ps.schemas[addr.Provider]
	ps.mu.Unlock()
	if ok {
		return s, nil
	}
	resp := p.GetProviderSchema(ctx)
	if resp.Diagnostics.HasErrors() {
		return nil, fmt.Errorf("failed to load schema of provider %s: %s", addr.Provider.ForDisplay(), diagText(resp.Diagnostics))
	}
	ps.mu.Lock()
	ps.schemas[addr.Provider] = &resp
	ps.mu.Unlock()
	return &resp, nil
}

// stopAll asks every started provider to stop its operations.
func (ps *providerSet) stopAll(ctx context.Context) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, p := range ps.instances {
		_ = p.Stop(ctx)
	}
}

// closeAll closes every started provider.
func (ps *providerSet) closeAll(ctx context.Context) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	keys := make([]string, 0, len(ps.instances))
	for k := range ps.instances {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		_ = ps.instances[k].Close(ctx)
	}
	ps.instances = map[string]providers.Interface{}
}

func diagText(diags providers.Diagnostics) string {
	var s string
	for i, d := range diags {
		if i > 0 {
			s += "; "
		}
		s += d.Summary
		if d.Detail != "" {
			s += ": " + d.Detail
		}
	}
	return s
}

func (e *Engine) parallelism() int {
	if e.Parallelism < 1 {
		return DefaultParallelism
	}
	return e.Parallelism
}

func (e *Engine) workspace() string {
	if e.Workspace == "" {
		return "default"
	}
	return e.Workspace
}

func (e *Engine) cwd() string {
	wd, _ := os.Getwd()
	return wd
}
