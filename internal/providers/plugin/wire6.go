package plugin

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/plugin/convert"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin6"
)

// wire6 speaks protocol version 6.
type wire6 struct {
	client tfplugin6.ProviderClient
}

var capabilities6 = &tfplugin6.ClientCapabilities{DeferralAllowed: false, WriteOnlyAttributesAllowed: true}

func dv6(v dynVal) *tfplugin6.DynamicValue {
	return &tfplugin6.DynamicValue{Msgpack: v.msgpack, Json: v.json}
}

func dv6p(v *dynVal) *tfplugin6.DynamicValue {
	if v == nil {
		return nil
	}
	return dv6(*v)
}

func fromDV6(v *tfplugin6.DynamicValue) dynVal {
	return dynVal{msgpack: v.GetMsgpack(), json: v.GetJson()}
}

// identity6 wraps an encoded identity, nil for none.
func identity6(v *dynVal) *tfplugin6.ResourceIdentityData {
	if v == nil {
		return nil
	}
	return &tfplugin6.ResourceIdentityData{IdentityData: dv6(*v)}
}

// fromIdentity6 unwraps an identity, nil when the provider sent none.
func fromIdentity6(d *tfplugin6.ResourceIdentityData) *dynVal {
	if d == nil || d.GetIdentityData() == nil {
		return nil
	}
	v := fromDV6(d.GetIdentityData())
	return &v
}

func deferred6(d *tfplugin6.Deferred) string {
	if d == nil {
		return ""
	}
	return d.GetReason().String()
}

func (w *wire6) getProviderSchema(ctx context.Context) (*schemaSet, error) {
	resp, err := w.client.GetProviderSchema(ctx, &tfplugin6.GetProviderSchema_Request{})
	if err != nil {
		return nil, err
	}
	set, err := w.convertSchema(resp)
	if set.optional {
		set.raw, _ = proto.Marshal(resp)
	}
	return set, err
}

// decodeSchema converts schemas kept from an earlier process (schemaSet.raw).
func (w *wire6) decodeSchema(raw []byte) (*schemaSet, error) {
	resp := &tfplugin6.GetProviderSchema_Response{}
	if err := proto.Unmarshal(raw, resp); err != nil {
		return nil, err
	}
	set, err := w.convertSchema(resp)
	set.raw = raw
	return set, err
}

func (w *wire6) convertSchema(resp *tfplugin6.GetProviderSchema_Response) (*schemaSet, error) {
	var err error
	set := &schemaSet{
		resp: providers.GetProviderSchemaResponse{
			ResourceTypes:          map[string]providers.Schema{},
			DataSources:            map[string]providers.Schema{},
			EphemeralResourceTypes: map[string]providers.Schema{},
			Diagnostics:            convert.Diagnostics6(resp.GetDiagnostics()),
		},
		planDestroy: resp.GetServerCapabilities().GetPlanDestroy(),
		optional:    resp.GetServerCapabilities().GetGetProviderSchemaOptional(),
	}
	var errs []error
	set.resp.Provider, err = convert.ProviderSchema6(resp.GetProvider())
	if err != nil {
		errs = append(errs, fmt.Errorf("provider configuration: %w", err))
	}
	for name, s := range resp.GetResourceSchemas() {
		set.resp.ResourceTypes[name], err = convert.ProviderSchema6(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("resource type %s: %w", name, err))
		}
	}
	for name, s := range resp.GetDataSourceSchemas() {
		set.resp.DataSources[name], err = convert.ProviderSchema6(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("data source %s: %w", name, err))
		}
	}
	for name, s := range resp.GetEphemeralResourceSchemas() {
		set.resp.EphemeralResourceTypes[name], err = convert.ProviderSchema6(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("ephemeral resource type %s: %w", name, err))
		}
	}
	var ferrs []error
	set.resp.Functions, ferrs = convert.Functions6(resp.GetFunctions())
	errs = append(errs, ferrs...)
	if pm := resp.GetProviderMeta(); pm.GetBlock() != nil {
		set.providerMeta, err = convert.Block6(pm.GetBlock())
		if err != nil {
			errs = append(errs, fmt.Errorf("provider_meta: %w", err))
		}
	}
	return set, errors.Join(errs...)
}

func (w *wire6) validateProviderConfig(ctx context.Context, config dynVal) (*dynVal, providers.Diagnostics, error) {
	resp, err := w.client.ValidateProviderConfig(ctx, &tfplugin6.ValidateProviderConfig_Request{Config: dv6(config)})
	if err != nil {
		return nil, nil, err
	}
	return nil, convert.Diagnostics6(resp.GetDiagnostics()), nil
}

func (w *wire6) validateResourceConfig(ctx context.Context, typeName string, config dynVal) (providers.Diagnostics, error) {
	resp, err := w.client.ValidateResourceConfig(ctx, &tfplugin6.ValidateResourceConfig_Request{
		TypeName: typeName, Config: dv6(config), ClientCapabilities: capabilities6,
	})
	if err != nil {
		return nil, err
	}
	return convert.Diagnostics6(resp.GetDiagnostics()), nil
}

func (w *wire6) validateDataResourceConfig(ctx context.Context, typeName string, config dynVal) (providers.Diagnostics, error) {
	resp, err := w.client.ValidateDataResourceConfig(ctx, &tfplugin6.ValidateDataResourceConfig_Request{
		TypeName: typeName, Config: dv6(config),
	})
	if err != nil {
		return nil, err
	}
	return convert.Diagnostics6(resp.GetDiagnostics()), nil
}

func (w *wire6) upgradeResourceState(ctx context.Context, req upgradeRequest) (dynVal, providers.Diagnostics, error) {
	resp, err := w.client.UpgradeResourceState(ctx, &tfplugin6.UpgradeResourceState_Request{
		TypeName: req.typeName, Version: req.version,
		RawState: &tfplugin6.RawState{Json: req.json, Flatmap: req.flatmap},
	})
	if err != nil {
		return dynVal{}, nil, err
	}
	return fromDV6(resp.GetUpgradedState()), convert.Diagnostics6(resp.GetDiagnostics()), nil
}

func (w *wire6) configureProvider(ctx context.Context, terraformVersion string, config dynVal) (providers.Diagnostics, error) {
	resp, err := w.client.ConfigureProvider(ctx, &tfplugin6.ConfigureProvider_Request{
		TerraformVersion: terraformVersion, Config: dv6(config), ClientCapabilities: capabilities6,
	})
	if err != nil {
		return nil, err
	}
	return convert.Diagnostics6(resp.GetDiagnostics()), nil
}

func (w *wire6) readResource(ctx context.Context, req readRequest) (readResponse, error) {
	resp, err := w.client.ReadResource(ctx, &tfplugin6.ReadResource_Request{
		TypeName: req.typeName, CurrentState: dv6(req.currentState), Private: req.private,
		ProviderMeta: dv6p(req.providerMeta), ClientCapabilities: capabilities6,
		CurrentIdentity: identity6(req.identity),
	})
	if err != nil {
		return readResponse{}, err
	}
	return readResponse{
		newState:    fromDV6(resp.GetNewState()),
		identity:    fromIdentity6(resp.GetNewIdentity()),
		private:     resp.GetPrivate(),
		deferred:    deferred6(resp.GetDeferred()),
		diagnostics: convert.Diagnostics6(resp.GetDiagnostics()),
	}, nil
}

func (w *wire6) planResourceChange(ctx context.Context, req planRequest) (planResponse, error) {
	resp, err := w.client.PlanResourceChange(ctx, &tfplugin6.PlanResourceChange_Request{
		TypeName: req.typeName, PriorState: dv6(req.priorState), ProposedNewState: dv6(req.proposedNewState),
		Config: dv6(req.config), PriorPrivate: req.priorPrivate, ProviderMeta: dv6p(req.providerMeta),
		ClientCapabilities: capabilities6, PriorIdentity: identity6(req.priorIdentity),
	})
	if err != nil {
		return planResponse{}, err
	}
	return planResponse{
		plannedState:     fromDV6(resp.GetPlannedState()),
		plannedIdentity:  fromIdentity6(resp.GetPlannedIdentity()),
		requiresReplace:  convert.Paths6(resp.GetRequiresReplace()),
		plannedPrivate:   resp.GetPlannedPrivate(),
		legacyTypeSystem: resp.GetLegacyTypeSystem(),
		deferred:         deferred6(resp.GetDeferred()),
		diagnostics:      convert.Diagnostics6(resp.GetDiagnostics()),
	}, nil
}

func (w *wire6) applyResourceChange(ctx context.Context, req applyRequest) (applyResponse, error) {
	resp, err := w.client.ApplyResourceChange(ctx, &tfplugin6.ApplyResourceChange_Request{
		TypeName: req.typeName, PriorState: dv6(req.priorState), PlannedState: dv6(req.plannedState),
		Config: dv6(req.config), PlannedPrivate: req.plannedPrivate, ProviderMeta: dv6p(req.providerMeta),
		PlannedIdentity: identity6(req.plannedIdentity),
	})
	if err != nil {
		return applyResponse{}, err
	}
	return applyResponse{
		newState:         fromDV6(resp.GetNewState()),
		newIdentity:      fromIdentity6(resp.GetNewIdentity()),
		private:          resp.GetPrivate(),
		legacyTypeSystem: resp.GetLegacyTypeSystem(),
		diagnostics:      convert.Diagnostics6(resp.GetDiagnostics()),
	}, nil
}

func (w *wire6) importResourceState(ctx context.Context, typeName, id string, identity *dynVal) (importResponse, error) {
	resp, err := w.client.ImportResourceState(ctx, &tfplugin6.ImportResourceState_Request{
		TypeName: typeName, Id: id, ClientCapabilities: capabilities6, Identity: identity6(identity),
	})
	if err != nil {
		return importResponse{}, err
	}
	out := importResponse{
		deferred:    deferred6(resp.GetDeferred()),
		diagnostics: convert.Diagnostics6(resp.GetDiagnostics()),
	}
	for _, r := range resp.GetImportedResources() {
		out.resources = append(out.resources, importedResource{
			typeName: r.GetTypeName(), state: fromDV6(r.GetState()), private: r.GetPrivate(),
			identity: fromIdentity6(r.GetIdentity()),
		})
	}
	return out, nil
}

func (w *wire6) readDataSource(ctx context.Context, typeName string, config dynVal, meta *dynVal) (readDataResponse, error) {
	resp, err := w.client.ReadDataSource(ctx, &tfplugin6.ReadDataSource_Request{
		TypeName: typeName, Config: dv6(config), ProviderMeta: dv6p(meta), ClientCapabilities: capabilities6,
	})
	if err != nil {
		return readDataResponse{}, err
	}
	return readDataResponse{
		state:       fromDV6(resp.GetState()),
		deferred:    deferred6(resp.GetDeferred()),
		diagnostics: convert.Diagnostics6(resp.GetDiagnostics()),
	}, nil
}

func (w *wire6) stop(ctx context.Context) error {
	resp, err := w.client.StopProvider(ctx, &tfplugin6.StopProvider_Request{})
	if err != nil {
		return err
	}
	if msg := resp.GetError(); msg != "" {
		return errors.New(msg)
	}
	return nil
}

func (w *wire6) getFunctions(ctx context.Context) (map[string]providers.FunctionDecl, providers.Diagnostics, error) {
	resp, err := w.client.GetFunctions(ctx, &tfplugin6.GetFunctions_Request{})
	if err != nil {
		return nil, nil, err
	}
	fns, errs := convert.Functions6(resp.GetFunctions())
	return fns, convert.Diagnostics6(resp.GetDiagnostics()), errors.Join(errs...)
}

func (w *wire6) callFunction(ctx context.Context, name string, args []dynVal) (callFunctionResponse, error) {
	req := &tfplugin6.CallFunction_Request{Name: name, Arguments: make([]*tfplugin6.DynamicValue, len(args))}
	for i, a := range args {
		req.Arguments[i] = dv6(a)
	}
	resp, err := w.client.CallFunction(ctx, req)
	if err != nil {
		return callFunctionResponse{}, err
	}
	out := callFunctionResponse{result: fromDV6(resp.GetResult())}
	if fe := resp.GetError(); fe != nil {
		out.err = &providers.FunctionError{Text: fe.GetText()}
		if fe.FunctionArgument != nil {
			i := int(fe.GetFunctionArgument())
			out.err.Argument = &i
		}
	}
	return out, nil
}

func (w *wire6) getResourceIdentitySchemas(ctx context.Context) (identitySchemas, []byte, error) {
	resp, err := w.client.GetResourceIdentitySchemas(ctx, &tfplugin6.GetResourceIdentitySchemas_Request{})
	if err != nil {
		return identitySchemas{}, nil, err
	}
	raw, _ := proto.Marshal(resp)
	out, err := w.convertIdentitySchemas(resp)
	return out, raw, err
}

func (w *wire6) decodeIdentitySchemas(raw []byte) (identitySchemas, error) {
	resp := &tfplugin6.GetResourceIdentitySchemas_Response{}
	if err := proto.Unmarshal(raw, resp); err != nil {
		return identitySchemas{}, err
	}
	return w.convertIdentitySchemas(resp)
}

func (w *wire6) convertIdentitySchemas(resp *tfplugin6.GetResourceIdentitySchemas_Response) (identitySchemas, error) {
	out := identitySchemas{schemas: map[string]identitySchema{}, diagnostics: convert.Diagnostics6(resp.GetDiagnostics())}
	var errs []error
	for name, s := range resp.GetIdentitySchemas() {
		block, version, err := convert.IdentitySchema6(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("identity of resource type %s: %w", name, err))
			continue
		}
		out.schemas[name] = identitySchema{block: block, version: version}
	}
	return out, errors.Join(errs...)
}

func (w *wire6) upgradeResourceIdentity(ctx context.Context, typeName string, version int64, raw []byte) (*dynVal, providers.Diagnostics, error) {
	resp, err := w.client.UpgradeResourceIdentity(ctx, &tfplugin6.UpgradeResourceIdentity_Request{
		TypeName: typeName, Version: version, RawIdentity: &tfplugin6.RawState{Json: raw},
	})
	if err != nil {
		return nil, nil, err
	}
	return fromIdentity6(resp.GetUpgradedIdentity()), convert.Diagnostics6(resp.GetDiagnostics()), nil
}
