// Package providertest offers Provider, a fake providers.Interface for
// tests: each operation calls a function field when set and otherwise
// behaves like a simple, well-behaved provider. Calls are recorded.
package providertest

import (
	"context"
	"fmt"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/ctyjson"
	"github.com/strata-dev/strata/internal/providers"
)

// Provider is a configurable fake provider.
type Provider struct {
	Schema providers.GetProviderSchemaResponse

	ConfigureProviderFn   func(providers.ConfigureProviderRequest) providers.ConfigureProviderResponse
	ValidateResourceFn    func(providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse
	UpgradeResourceFn     func(providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse
	ReadResourceFn        func(providers.ReadResourceRequest) providers.ReadResourceResponse
	PlanResourceChangeFn  func(providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse
	ApplyResourceChangeFn func(providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse
	ImportResourceStateFn func(providers.ImportResourceStateRequest) providers.ImportResourceStateResponse
	ReadDataSourceFn      func(providers.ReadDataSourceRequest) providers.ReadDataSourceResponse
	// CallFunctionFn answers CallFunction for the functions declared in
	// Schema.Functions.
	CallFunctionFn func(providers.CallFunctionRequest) providers.CallFunctionResponse
	// The ephemeral resource calls (see ephemeral.go).
	ValidateEphemeralFn func(providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse
	OpenEphemeralFn     func(providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse
	RenewEphemeralFn    func(providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse
	CloseEphemeralFn    func(providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse
	// StopFn, when set, is called by Stop.
	StopFn func()

	mu     sync.Mutex
	calls  []string
	stops  int
	closed bool
}

var _ providers.Interface = (*Provider)(nil)

// Calls returns the names of the operations called so far, in order.
func (p *Provider) Calls() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.calls...)
}

// Stopped reports how many times Stop was called.
func (p *Provider) Stopped() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stops
}

// Closed reports whether Close was called.
func (p *Provider) Closed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

func (p *Provider) record(name string) {
	p.mu.Lock()
	p.calls = append(p.calls, name)
	p.mu.Unlock()
}

func (p *Provider) schemaFor(typeName string) *configschema.Block {
	if s, ok := p.Schema.ResourceTypes[typeName]; ok {
		return s.Block
	}
	if s, ok := p.Schema.DataSources[typeName]; ok {
		return s.Block
	}
	return &configschema.Block{}
}

// GetProviderSchema implements providers.Interface.
func (p *Provider) GetProviderSchema(context.Context) providers.GetProviderSchemaResponse {
	p.record("GetProviderSchema")
	resp := p.Schema
	if resp.Provider.Block == nil {
		resp.Provider.Block = &configschema.Block{}
	}
	return resp
}

// ValidateProviderConfig implements providers.Interface.
func (p *Provider) ValidateProviderConfig(_ context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	p.record("ValidateProviderConfig")
	return providers.ValidateProviderConfigResponse{PreparedConfig: req.Config}
}

// ValidateResourceConfig implements providers.Interface.
func (p *Provider) ValidateResourceConfig(_ context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	p.record("ValidateResourceConfig")
	if p.ValidateResourceFn != nil {
		return p.ValidateResourceFn(req)
	}
	return providers.ValidateResourceConfigResponse{}
}

// ValidateDataResourceConfig implements providers.Interface.
func (p *Provider) ValidateDataResourceConfig(context.Context, providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	p.record("ValidateDataResourceConfig")
	return providers.ValidateDataResourceConfigResponse{}
}

// UpgradeResourceState implements providers.Interface: by default it
// decodes the JSON with the current schema.
func (p *Provider) UpgradeResourceState(_ context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	p.record("UpgradeResourceState")
	if p.UpgradeResourceFn != nil {
		return p.UpgradeResourceFn(req)
	}
	v, err := ctyjson.Unmarshal(req.RawStateJSON, p.schemaFor(req.TypeName).ImpliedType())
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: providers.ErrorDiag("Invalid state", err)}
	}
	return providers.UpgradeResourceStateResponse{UpgradedState: v}
}

// ConfigureProvider implements providers.Interface.
func (p *Provider) ConfigureProvider(_ context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	p.record("ConfigureProvider")
	if p.ConfigureProviderFn != nil {
		return p.ConfigureProviderFn(req)
	}
	return providers.ConfigureProviderResponse{}
}

// ReadResource implements providers.Interface: by default the object is
// unchanged.
func (p *Provider) ReadResource(_ context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	p.record("ReadResource")
	if p.ReadResourceFn != nil {
		return p.ReadResourceFn(req)
	}
	return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private}
}

// PlanResourceChange implements providers.Interface: by default it plans
// the proposed new state, with computed attributes left null unknown on
// create.
func (p *Provider) PlanResourceChange(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	p.record("PlanResourceChange")
	if p.PlanResourceChangeFn != nil {
		return p.PlanResourceChangeFn(req)
	}
	if req.ProposedNewState.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}
	}
	if !req.PriorState.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}
	}
	schema := p.schemaFor(req.TypeName)
	vals := req.ProposedNewState.AsValueMap()
	for name, a := range schema.Attributes {
		if a.Computed && vals[name].IsNull() {
			vals[name] = cty.UnknownVal(a.ImpliedType())
		}
	}
	return providers.PlanResourceChangeResponse{PlannedState: cty.ObjectVal(vals)}
}

// ApplyResourceChange implements providers.Interface: by default it
// returns the planned state with unknown strings set to "applied".
func (p *Provider) ApplyResourceChange(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	p.record("ApplyResourceChange")
	if p.ApplyResourceChangeFn != nil {
		return p.ApplyResourceChangeFn(req)
	}
	if req.PlannedState.IsNull() {
		return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
	}
	v, _ := cty.Transform(req.PlannedState, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		if !v.IsKnown() {
			if v.Type() == cty.String {
				return cty.StringVal("applied"), nil
			}
			return cty.NullVal(v.Type()), nil
		}
		return v, nil
	})
	return providers.ApplyResourceChangeResponse{NewState: v}
}

// ImportResourceState implements providers.Interface.
func (p *Provider) ImportResourceState(_ context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	p.record("ImportResourceState")
	if p.ImportResourceStateFn != nil {
		return p.ImportResourceStateFn(req)
	}
	return providers.ImportResourceStateResponse{}
}

// ReadDataSource implements providers.Interface.
func (p *Provider) ReadDataSource(_ context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	p.record("ReadDataSource")
	if p.ReadDataSourceFn != nil {
		return p.ReadDataSourceFn(req)
	}
	return providers.ReadDataSourceResponse{State: req.Config}
}

// CallFunction implements providers.Interface. Without CallFunctionFn
// every call fails.
func (p *Provider) CallFunction(_ context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	p.record("CallFunction")
	if p.CallFunctionFn != nil {
		return p.CallFunctionFn(req)
	}
	return providers.CallFunctionResponse{Err: fmt.Errorf("providertest: no CallFunctionFn for function %q", req.FunctionName)}
}

// Stop implements providers.Interface.
func (p *Provider) Stop(context.Context) error {
	p.mu.Lock()
	p.stops++
	fn := p.StopFn
	p.mu.Unlock()
	if fn != nil {
		fn()
	}
	return nil
}

// Close implements providers.Interface.
func (p *Provider) Close(context.Context) error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	return nil
}
