package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/contract"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/provisioners"
	"github.com/strata-dev/strata/internal/states"
)

// DefaultParallelism is the number of provider operations run at once when
// the user does not say otherwise.
const DefaultParallelism = 10

// Engine plans and applies one configuration with a set of providers.
type Engine struct {
	// Config is the module tree: the root module and the modules it calls.
	Config *configs.Config
	// Providers has a factory for every provider the configuration and
	// state use.
	Providers map[addrs.Provider]providers.Factory
	// ConfigProviders, keyed by provider configuration
	// (AbsProviderConfig.String()), take the place of Providers for those
	// configurations only, as strata test's mock_provider blocks do.
	ConfigProviders map[string]providers.Factory
	// Provisioners are provisioner plugins by type, beside the built-in
	// local-exec, remote-exec and file (internal/provisioners/external).
	Provisioners map[string]provisioners.Provisioner
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
	// Overrides replace resources and data sources by made-up objects
	// whose provider is never called, for strata test's override_resource
	// and override_data. Keys are resource addresses, with module instance
	// keys (module.m["a"].aws_s3_bucket.b) or without (module.m.aws_s3_bucket.b).
	Overrides map[string]Override
	// ModuleOverrides replace module calls, for strata test's
	// override_module: nothing in the module at the key's path (such as
	// module.a.module.b), or in the one module instance the key names
	// (module.a[1]), is planned or applied, and its outputs are the
	// value's attributes.
	ModuleOverrides map[string]cty.Value
	// Strict turns the contract violations strata tolerates from
	// providers on the legacy type system into errors (-strict).
	Strict bool
	// VerifyReads reads every object right after creating or updating
	// it and checks that the provider returns what apply did.
	VerifyReads bool
	// ReleasePlanned lets Apply drop the planned values of each change
	// once it has made it (its After, and its Before but for a
	// replacement: cty.NilVal), for a caller that reads the plan's values
	// no more once it is applied. Those of a large plan would otherwise
	// stay in memory beside the new state until the walk ends.
	ReleasePlanned bool
	// Contract, when set, collects the violations tolerated.
	Contract *contract.Report
	// WorkDir is the absolute working directory: the directory local-exec
	// commands start from, and path.cwd unless OriginalDir is set. Empty
	// means the process's.
	WorkDir string
	// OriginalDir is path.cwd: as in Terraform, the directory the command
	// was run from, before -chdir.
	OriginalDir string
	// Environ is the environment local-exec commands inherit; nil means
	// the process's.
	Environ []string
	// KeepProviders keeps the providers each operation started for the
	// next operation of this engine (see provider_pool.go), which then
	// starts and configures only those whose configuration changed. The
	// caller must call CloseProviders when done.
	KeepProviders bool

	// pool holds the providers kept between operations.
	pool providerPool

	// schemas caches provider schemas across this engine's operations.
	schemas schemaCache
	// prepared caches each resource block prepared for evaluation with its
	// schema (preparedKey -> *lang.PreparedBlock), across operations: the
	// plan and the apply of one command evaluate the same blocks.
	prepared sync.Map
}

// preparedKey identifies a body prepared for evaluation with a schema.
type preparedKey struct {
	body   hcl.Body
	schema *configschema.Block
}

// schemaCache holds provider schemas, each fetched once.
type schemaCache struct {
	mu sync.Mutex
	m  map[addrs.Provider]*providers.GetProviderSchemaResponse
}

func (c *schemaCache) get(p addrs.Provider) (*providers.GetProviderSchemaResponse, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[p]
	return s, ok
}

func (c *schemaCache) put(p addrs.Provider, s *providers.GetProviderSchemaResponse) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[addrs.Provider]*providers.GetProviderSchemaResponse{}
	}
	c.m[p] = s
}

// ResourceSchema returns the schema of a resource type, using the schemas
// fetched by earlier operations or fetching them now. It returns nil when
// the provider or type is unknown.
func (e *Engine) ResourceSchema(ctx context.Context, provider addrs.Provider, mode addrs.ResourceMode, typeName string) *configschema.Block {
	s, _ := e.ResourceTypeSchema(ctx, provider, mode, typeName)
	return s.Block
}

// ResourceTypeSchema is ResourceSchema with the version of the schema; ok
// is false when the provider or type is unknown.
func (e *Engine) ResourceTypeSchema(ctx context.Context, provider addrs.Provider, mode addrs.ResourceMode, typeName string) (schema providers.Schema, ok bool) {
	s, ok := e.schemas.get(provider)
	if !ok {
		ps := e.newProviderSet()
		defer ps.release(ctx)
		var err error
		if s, err = ps.schema(ctx, addrs.AbsProviderConfig{Provider: provider}); err != nil {
			return providers.Schema{}, false
		}
	}
	types := s.ResourceTypes
	if mode == addrs.DataResourceMode {
		types = s.DataSources
	}
	schema, ok = types[typeName]
	return schema, ok
}

// Override is what an overridden resource or data source is made of.
type Override struct {
	// Values give computed attributes their values; the others are
	// generated.
	Values cty.Value
	// DuringPlan makes the values known when planning
	// (override_during = plan); otherwise they are unknown until apply.
	DuringPlan bool
}

// InputValue is a root module variable value supplied by the user.
type InputValue struct {
	Value cty.Value
	// Source says where it came from, for messages.
	Source hcl.Range
	// Via names how a value without a Source was set, as Terraform's
	// messages about an unsuitable value do: `-var="NAME=..."`, `the
	// TF_VAR_NAME environment variable`. Empty when unknown.
	Via string
}

// providerSet holds the provider instances of one operation, one per
// provider configuration (and per instance of a configuration with
// for_each), and their schemas.
type providerSet struct {
	mu        sync.Mutex
	factories map[addrs.Provider]providers.Factory
	// byConfig overrides factories for some provider configurations.
	byConfig  map[string]providers.Factory
	instances map[string]providers.Interface
	// configured holds how each instance was configured, in this
	// operation or (taken from the pool) an earlier one.
	configured map[string]*providerConfiguration
	schemas    *schemaCache
	// pool, when the engine keeps its providers, gives instances and
	// takes them back when the operation ends; nil otherwise.
	pool *providerPool
	// stopped is set once the instances were asked to stop: they are
	// closed, never kept.
	stopped bool
}

// newProviderSet returns the provider set of one operation of the engine.
func (e *Engine) newProviderSet() *providerSet {
	ps := &providerSet{factories: e.Providers, byConfig: e.ConfigProviders, instances: map[string]providers.Interface{}, configured: map[string]*providerConfiguration{}, schemas: &e.schemas}
	if e.KeepProviders {
		ps.pool = &e.pool
	}
	return ps
}

// get returns the started instance for a provider configuration.
func (ps *providerSet) get(ctx context.Context, addr addrs.AbsProviderConfig) (providers.Interface, error) {
	f, ok := ps.byConfig[addr.Config().String()]
	if !ok {
		f, ok = ps.factories[addr.Provider]
	}
	if !ok {
		return nil, missingProvider{addr.Provider}
	}
	return ps.instance(addr.String(), addr.Provider, f)
}

// instance returns the instance under key, started with f (for provider)
// unless this operation has it already or the pool gives it.
func (ps *providerSet) instance(key string, provider addrs.Provider, f providers.Factory) (providers.Interface, error) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if p, ok := ps.instances[key]; ok {
		return p, nil
	}
	if ps.pool != nil {
		if e, ok := ps.pool.take(key); ok {
			ps.instances[key] = e.p
			if e.configured != nil {
				ps.configured[key] = e.configured
			}
			return e.p, nil
		}
	}
	p, err := f()
	if err != nil {
		return nil, fmt.Errorf("failed to start provider %s: %w", provider.ForDisplay(), err)
	}
	ps.instances[key] = p
	return p, nil
}

// configuration returns how the instance for addr was configured, or nil.
func (ps *providerSet) configuration(addr addrs.AbsProviderConfig) *providerConfiguration {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.configured[addr.String()]
}

// setConfiguration records how the instance for addr was configured.
func (ps *providerSet) setConfiguration(addr addrs.AbsProviderConfig, c *providerConfiguration) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.configured[addr.String()] = c
}

// restart replaces the instance for addr, configured otherwise by an
// earlier operation, by a new one: a provider is configured only once.
func (ps *providerSet) restart(ctx context.Context, addr addrs.AbsProviderConfig) (providers.Interface, error) {
	key := addr.String()
	ps.mu.Lock()
	old := ps.instances[key]
	delete(ps.instances, key)
	delete(ps.configured, key)
	ps.mu.Unlock()
	if old != nil {
		_ = old.Close(context.WithoutCancel(ctx))
	}
	return ps.get(ctx, addr)
}

// schema returns the provider's schemas, fetched once per engine.
func (ps *providerSet) schema(ctx context.Context, addr addrs.AbsProviderConfig) (*providers.GetProviderSchemaResponse, error) {
	p, err := ps.get(ctx, addr)
	if err != nil {
		return nil, err
	}
	if s, ok := ps.schemas.get(addr.Provider); ok {
		return s, nil
	}
	resp := p.GetProviderSchema(ctx)
	if resp.Diagnostics.HasErrors() {
		return nil, fmt.Errorf("failed to load schema of provider %s: %s", addr.Provider.ForDisplay(), diagText(resp.Diagnostics))
	}
	ps.schemas.put(addr.Provider, &resp)
	return &resp, nil
}

// stopAll asks every started provider to stop its operations.
func (ps *providerSet) stopAll(ctx context.Context) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.stopped = true
	for _, p := range ps.instances {
		_ = p.Stop(ctx)
	}
}

// release ends the operation's use of its instances: the engine's pool
// keeps those it may reuse, when it keeps providers and the operation was
// neither stopped nor cancelled; the others are closed.
func (ps *providerSet) release(ctx context.Context) {
	ps.end(context.WithoutCancel(ctx), ctx.Err() == nil)
}

// closeAll closes every started provider.
func (ps *providerSet) closeAll(ctx context.Context) {
	ps.end(ctx, false)
}

// end hands the instances to the pool when keep allows and the engine
// keeps providers, and closes the others.
func (ps *providerSet) end(ctx context.Context, keep bool) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	keep = keep && ps.pool != nil && !ps.stopped
	for _, k := range sortedKeys(ps.instances) {
		c := ps.configured[k]
		// One whose configuration failed cannot serve; one configured
		// with ephemeral values may have expired with the walk's.
		if keep && (c == nil || !c.diags.HasErrors() && !c.ephemeral) {
			ps.pool.put(ctx, k, pooledProvider{p: ps.instances[k], configured: c})
			continue
		}
		_ = ps.instances[k].Close(ctx)
	}
	ps.instances = map[string]providers.Interface{}
	ps.configured = map[string]*providerConfiguration{}
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

// cwd is path.cwd: OriginalDir, WorkDir, or the process's directory for callers
// (tests, tools) that leave it empty.
func (e *Engine) cwd() string {
	if e.OriginalDir != "" {
		return e.OriginalDir
	}
	if e.WorkDir != "" {
		return e.WorkDir
	}
	wd, _ := filepath.Abs(".")
	return wd
}

// missingProvider is the error for a provider that is not installed.
type missingProvider struct{ provider addrs.Provider }

func (m missingProvider) Error() string {
	return fmt.Sprintf("provider %s is not available; run \"strata init\" to install the providers this configuration uses", m.provider.ForDisplay())
}

// missingProviderDiag reports a provider that is not installed as
// Terraform's validation does.
func missingProviderDiag(m missingProvider) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Missing required provider",
		Detail:   fmt.Sprintf("This configuration requires provider %s, but that provider isn't available. You may be able to install it automatically by running:\n  strata init", m.provider),
	}
}
