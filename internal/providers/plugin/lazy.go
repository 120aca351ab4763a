package plugin

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/strata-dev/strata/internal/providers"
)

// A command that only reads schemas (show, state show, the schemas a run
// record or a saved plan's apply looks up first) needs no provider process
// when the schema cache has them: a lazyClient answers GetProviderSchema
// from the cache and starts the process on the first call that needs one.
// Terraform starts every provider to read its schemas.

// lazyClient is a provider whose process starts on first use.
type lazyClient struct {
	path   string
	name   string
	opts   []Option
	schema *schemaSet

	mu     sync.Mutex
	client providers.Interface
	err    error
	closed bool
}

var (
	_ providers.Interface          = (*lazyClient)(nil)
	_ providers.IdentityUpgrader   = (*lazyClient)(nil)
	_ providers.EphemeralResources = (*lazyClient)(nil)
)

// newLazyClient returns a lazyClient for the binary at path when the
// schema cache of opts holds its schemas, or nil. The cache is read for
// the newest protocol version offered that it holds: the one the binary
// negotiated when its schemas were kept.
func newLazyClient(path string, opts []Option) *lazyClient {
	o := options{versions: ProtocolVersions}
	for _, opt := range opts {
		opt(&o)
	}
	if o.name == "" {
		o.name = filepath.Base(path)
	}
	key := binaryKey(path)
	if o.schemaCacheDir == "" || key == "" {
		return nil
	}
	versions := slices.Clone(o.versions)
	slices.Sort(versions)
	slices.Reverse(versions)
	for _, v := range versions {
		probe := &Client{name: o.name, version: v, binary: fmt.Sprintf("%s\x00v%d", key, v), schemaCacheDir: o.schemaCacheDir}
		switch v {
		case 5:
			probe.wire = &wire5{}
		case 6:
			probe.wire = &wire6{}
		default:
			return nil
		}
		if set := probe.keptSchema(context.Background(), false); set != nil {
			return &lazyClient{path: path, name: o.name, opts: opts, schema: set}
		}
	}
	return nil
}

// started returns the provider's process, starting it on first use. An
// error to start it is returned as diagnostics, to every call.
func (l *lazyClient) started(method string) (providers.Interface, providers.Diagnostics) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var diags providers.Diagnostics
	switch {
	case l.closed:
		return nil, diags.Errorf("Provider is closed", "strata called %s on the provider %s after closing it. This is a bug in strata.", method, l.name)
	case l.client == nil && l.err == nil:
		l.client, l.err = NewClient(l.path, l.opts...)
	}
	if l.err != nil {
		return nil, diags.Errorf("Failed to start provider", "failed to start provider %s: %s", l.name, l.err)
	}
	return l.client, nil
}

// GetProviderSchema returns the kept schemas; no process starts.
func (l *lazyClient) GetProviderSchema(context.Context) providers.GetProviderSchemaResponse {
	return l.schema.resp
}

// ValidateProviderConfig implements providers.Interface.
func (l *lazyClient) ValidateProviderConfig(ctx context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	c, diags := l.started("ValidateProviderConfig")
	if c == nil {
		return providers.ValidateProviderConfigResponse{Diagnostics: diags}
	}
	return c.ValidateProviderConfig(ctx, req)
}

// ValidateResourceConfig implements providers.Interface.
func (l *lazyClient) ValidateResourceConfig(ctx context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	c, diags := l.started("ValidateResourceConfig")
	if c == nil {
		return providers.ValidateResourceConfigResponse{Diagnostics: diags}
	}
	return c.ValidateResourceConfig(ctx, req)
}

// ValidateDataResourceConfig implements providers.Interface.
func (l *lazyClient) ValidateDataResourceConfig(ctx context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	c, diags := l.started("ValidateDataResourceConfig")
	if c == nil {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: diags}
	}
	return c.ValidateDataResourceConfig(ctx, req)
}

// UpgradeResourceState implements providers.Interface.
func (l *lazyClient) UpgradeResourceState(ctx context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	c, diags := l.started("UpgradeResourceState")
	if c == nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags}
	}
	return c.UpgradeResourceState(ctx, req)
}

// ConfigureProvider implements providers.Interface.
func (l *lazyClient) ConfigureProvider(ctx context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	c, diags := l.started("ConfigureProvider")
	if c == nil {
		return providers.ConfigureProviderResponse{Diagnostics: diags}
	}
	return c.ConfigureProvider(ctx, req)
}

// ReadResource implements providers.Interface.
func (l *lazyClient) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	c, diags := l.started("ReadResource")
	if c == nil {
		return providers.ReadResourceResponse{Diagnostics: diags}
	}
	return c.ReadResource(ctx, req)
}

// PlanResourceChange implements providers.Interface.
func (l *lazyClient) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	c, diags := l.started("PlanResourceChange")
	if c == nil {
		return providers.PlanResourceChangeResponse{Diagnostics: diags}
	}
	return c.PlanResourceChange(ctx, req)
}

// ApplyResourceChange implements providers.Interface.
func (l *lazyClient) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	c, diags := l.started("ApplyResourceChange")
	if c == nil {
		return providers.ApplyResourceChangeResponse{Diagnostics: diags}
	}
	return c.ApplyResourceChange(ctx, req)
}

// ImportResourceState implements providers.Interface.
func (l *lazyClient) ImportResourceState(ctx context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	c, diags := l.started("ImportResourceState")
	if c == nil {
		return providers.ImportResourceStateResponse{Diagnostics: diags}
	}
	return c.ImportResourceState(ctx, req)
}

// ReadDataSource implements providers.Interface.
func (l *lazyClient) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	c, diags := l.started("ReadDataSource")
	if c == nil {
		return providers.ReadDataSourceResponse{Diagnostics: diags}
	}
	return c.ReadDataSource(ctx, req)
}

// CallFunction implements providers.Interface.
func (l *lazyClient) CallFunction(ctx context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	c, diags := l.started("CallFunction")
	if c == nil {
		return providers.CallFunctionResponse{Err: fmt.Errorf("%s", diags[0].Detail)}
	}
	return c.CallFunction(ctx, req)
}

// UpgradeResourceIdentity implements providers.IdentityUpgrader.
func (l *lazyClient) UpgradeResourceIdentity(ctx context.Context, req providers.UpgradeResourceIdentityRequest) providers.UpgradeResourceIdentityResponse {
	c, diags := l.started("UpgradeResourceIdentity")
	if c == nil {
		return providers.UpgradeResourceIdentityResponse{Diagnostics: diags}
	}
	return c.(providers.IdentityUpgrader).UpgradeResourceIdentity(ctx, req)
}

// ValidateEphemeralResourceConfig implements providers.EphemeralResources.
func (l *lazyClient) ValidateEphemeralResourceConfig(ctx context.Context, req providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	c, diags := l.started("ValidateEphemeralResourceConfig")
	if c == nil {
		return providers.ValidateEphemeralResourceConfigResponse{Diagnostics: diags}
	}
	return c.(providers.EphemeralResources).ValidateEphemeralResourceConfig(ctx, req)
}

// OpenEphemeralResource implements providers.EphemeralResources.
func (l *lazyClient) OpenEphemeralResource(ctx context.Context, req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	c, diags := l.started("OpenEphemeralResource")
	if c == nil {
		return providers.OpenEphemeralResourceResponse{Diagnostics: diags}
	}
	return c.(providers.EphemeralResources).OpenEphemeralResource(ctx, req)
}

// RenewEphemeralResource implements providers.EphemeralResources.
func (l *lazyClient) RenewEphemeralResource(ctx context.Context, req providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	c, diags := l.started("RenewEphemeralResource")
	if c == nil {
		return providers.RenewEphemeralResourceResponse{Diagnostics: diags}
	}
	return c.(providers.EphemeralResources).RenewEphemeralResource(ctx, req)
}

// CloseEphemeralResource implements providers.EphemeralResources.
func (l *lazyClient) CloseEphemeralResource(ctx context.Context, req providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	c, diags := l.started("CloseEphemeralResource")
	if c == nil {
		return providers.CloseEphemeralResourceResponse{Diagnostics: diags}
	}
	return c.(providers.EphemeralResources).CloseEphemeralResource(ctx, req)
}

// Stop asks a started process to stop its operations; with none started,
// there is nothing to stop.
func (l *lazyClient) Stop(ctx context.Context) error {
	l.mu.Lock()
	c := l.client
	l.mu.Unlock()
	if c == nil {
		return nil
	}
	return c.Stop(ctx)
}

// Close ends the process if one started; no process starts afterwards.
func (l *lazyClient) Close(ctx context.Context) error {
	l.mu.Lock()
	c := l.client
	l.closed = true
	l.mu.Unlock()
	if c == nil {
		return nil
	}
	return c.Close(ctx)
}
