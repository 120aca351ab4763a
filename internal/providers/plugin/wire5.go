package plugin

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/plugin/convert"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin5"
)

// wire5 speaks protocol version 5.
type wire5 struct {
	client tfplugin5.ProviderClient
}

var capabilities5 = &tfplugin5.ClientCapabilities{DeferralAllowed: false, WriteOnlyAttributesAllowed: true}

func dv5(v dynVal) *tfplugin5.DynamicValue {
	return &tfplugin5.DynamicValue{Msgpack: v.msgpack, Json: v.json}
}

func dv5p(v *dynVal) *tfplugin5.DynamicValue {
	if v == nil {
		return nil
	}
	return dv5(*v)
}

func fromDV5(v *tfplugin5.DynamicValue) dynVal {
	return dynVal{msgpack: v.GetMsgpack(), json: v.GetJson()}
}

// identity5 wraps an encoded identity, nil for none.
func identity5(v *dynVal) *tfplugin5.ResourceIdentityData {
	if v == nil {
		return nil
	}
	return &tfplugin5.ResourceIdentityData{IdentityData: dv5(*v)}
}

// fromIdentity5 unwraps an identity, nil when the provider sent none.
func fromIdentity5(d *tfplugin5.ResourceIdentityData) *dynVal {
	if d == nil || d.GetIdentityData() == nil {
		return nil
	}
	v := fromDV5(d.GetIdentityData())
	return &v
}

func deferred5(d *tfplugin5.Deferred) string {
	if d == nil {
		return ""
	}
	return d.GetReason().String()
}

func (w *wire5) getProviderSchema(ctx context.Context) (*schemaSet, error) {
	resp, err := w.client.GetSchema(ctx, &tfplugin5.GetProviderSchema_Request{})
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
func (w *wire5) decodeSchema(raw []byte) (*schemaSet, error) {
	resp := &tfplugin5.GetProviderSchema_Response{}
	if err := proto.Unmarshal(raw, resp); err != nil {
		return nil, err
	}
	set, err := w.convertSchema(resp)
	set.raw = raw
	return set, err
}

func (w *wire5) convertSchema(resp *tfplugin5.GetProviderSchema_Response) (*schemaSet, error) {
	var err error
	set := &schemaSet{
		resp: providers.GetProviderSchemaResponse{
			ResourceTypes:          map[string]providers.Schema{},
			DataSources:            map[string]providers.Schema{},
			EphemeralResourceTypes: map[string]providers.Schema{},
			Diagnostics:            convert.Diagnostics5(resp.GetDiagnostics()),
		},
		planDestroy: resp.GetServerCapabilities().GetPlanDestroy(),
		optional:    resp.GetServerCapabilities().GetGetProviderSchemaOptional(),
	}
	var errs []error
	set.resp.Provider, err = convert.ProviderSchema5(resp.GetProvider())
	if err != nil {
		errs = append(errs, fmt.Errorf("provider configuration: %w", err))
	}
	for name, s := range resp.GetResourceSchemas() {
		set.resp.ResourceTypes[name], err = convert.ProviderSchema5(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("resource type %s: %w", name, err))
		}
	}
	for name, s := range resp.GetDataSourceSchemas() {
		set.resp.DataSources[name], err = convert.ProviderSchema5(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("data source %s: %w", name, err))
		}
	}
	for name, s := range resp.GetEphemeralResourceSchemas() {
		set.resp.EphemeralResourceTypes[name], err = convert.ProviderSchema5(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("ephemeral resource type %s: %w", name, err))
		}
	}
	var ferrs []error
	set.resp.Functions, ferrs = convert.Functions5(resp.GetFunctions())
	errs = append(errs, ferrs...)
	if pm := resp.GetProviderMeta(); pm.GetBlock() != nil {
		set.providerMeta, err = convert.Block5(pm.GetBlock())
		if err != nil {
			errs = append(errs, fmt.Errorf("provider_meta: %w", err))
		}
	}
	return set, errors.Join(errs...)
}

func (w *wire5) validateProviderConfig(ctx context.Context, config dynVal) (*dynVal, providers.Diagnostics, error) {
	resp, err := w.client.PrepareProviderConfig(ctx, &tfplugin5.PrepareProviderConfig_Request{Config: dv5(config)})
	if err != nil {
		return nil, nil, err
	}
	var prepared *dynVal
	if pc := resp.GetPreparedConfig(); pc != nil {
		v := fromDV5(pc)
		prepared = &v
	}
	return prepared, convert.Diagnostics5(resp.GetDiagnostics()), nil
}

func (w *wire5) validateResourceConfig(ctx context.Context, typeName string, config dynVal) (providers.Diagnostics, error) {
	resp, err := w.client.ValidateResourceTypeConfig(ctx, &tfplugin5.ValidateResourceTypeConfig_Request{
		TypeName: typeName, Config: dv5(config), ClientCapabilities: capabilities5,
	})
	if err != nil {
		return nil, err
	}
	return convert.Diagnostics5(resp.GetDiagnostics()), nil
}

func (w *wire5) validateDataResourceConfig(ctx context.Context, typeName string, config dynVal) (providers.Diagnostics, error) {
	resp, err := w.client.ValidateDataSourceConfig(ctx, &tfplugin5.ValidateDataSourceConfig_Request{
		TypeName: typeName, Config: dv5(config),
	})
	if err != nil {
		return nil, err
	}
	return convert.Diagnostics5(resp.GetDiagnostics()), nil
}

func (w *wire5) upgradeResourceState(ctx context.Context, req upgradeRequest) (dynVal, providers.Diagnostics, error) {
	resp, err := w.client.UpgradeResourceState(ctx, &tfplugin5.UpgradeResourceState_Request{
		TypeName: req.typeName, Version: req.version,
		RawState: &tfplugin5.RawState{Json: req.json, Flatmap: req.flatmap},
	})
	if err != nil {
		return dynVal{}, nil, err
	}
	return fromDV5(resp.GetUpgradedState()), convert.Diagnostics5(resp.GetDiagnostics()), nil
}

func (w *wire5) configureProvider(ctx context.Context, terraformVersion string, config dynVal) (providers.Diagnostics, error) {
	resp, err := w.client.Configure(ctx, &tfplugin5.Configure_Request{
		TerraformVersion: terraformVersion, Config: dv5(config), ClientCapabilities: capabilities5,
	})
	if err != nil {
		return nil, err
	}
	return convert.Diagnostics5(resp.GetDiagnostics()), nil
}

func (w *wire5) readResource(ctx context.Context, req readRequest) (readResponse, error) {
	resp, err := w.client.ReadResource(ctx, &tfplugin5.ReadResource_Request{
		TypeName: req.typeName, CurrentState: dv5(req.currentState), Private: req.private,
		ProviderMeta: dv5p(req.providerMeta), ClientCapabilities: capabilities5,
		CurrentIdentity: identity5(req.identity),
	})
	if err != nil {
		return readResponse{}, err
	}
	return readResponse{
		newState:    fromDV5(resp.GetNewState()),
		identity:    fromIdentity5(resp.GetNewIdentity()),
		private:     resp.GetPrivate(),
		deferred:    deferred5(resp.GetDeferred()),
		diagnostics: convert.Diagnostics5(resp.GetDiagnostics()),
	}, nil
}

func (w *wire5) planResourceChange(ctx context.Context, req planRequest) (planResponse, error) {
	resp, err := w.client.PlanResourceChange(ctx, &tfplugin5.PlanResourceChange_Request{
		TypeName: req.typeName, PriorState: dv5(req.priorState), ProposedNewState: dv5(req.proposedNewState),
		Config: dv5(req.config), PriorPrivate: req.priorPrivate, ProviderMeta: dv5p(req.providerMeta),
		ClientCapabilities: capabilities5, PriorIdentity: identity5(req.priorIdentity),
	})
	if err != nil {
		return planResponse{}, err
	}
	return planResponse{
		plannedState:     fromDV5(resp.GetPlannedState()),
		plannedIdentity:  fromIdentity5(resp.GetPlannedIdentity()),
		requiresReplace:  convert.Paths5(resp.GetRequiresReplace()),
		plannedPrivate:   resp.GetPlannedPrivate(),
		legacyTypeSystem: resp.GetLegacyTypeSystem(),
		deferred:         deferred5(resp.GetDeferred()),
		diagnostics:      convert.Diagnostics5(resp.GetDiagnostics()),
	}, nil
}

func (w *wire5) applyResourceChange(ctx context.Context, req applyRequest) (applyResponse, error) {
	resp, err := w.client.ApplyResourceChange(ctx, &tfplugin5.ApplyResourceChange_Request{
		TypeName: req.typeName, PriorState: dv5(req.priorState), PlannedState: dv5(req.plannedState),
		Config: dv5(req.config), PlannedPrivate: req.plannedPrivate, ProviderMeta: dv5p(req.providerMeta),
		PlannedIdentity: identity5(req.plannedIdentity),
	})
	if err != nil {
		return applyResponse{}, err
	}
	return applyResponse{
		newState:         fromDV5(resp.GetNewState()),
		newIdentity:      fromIdentity5(resp.GetNewIdentity()),
		private:          resp.GetPrivate(),
		legacyTypeSystem: resp.GetLegacyTypeSystem(),
		diagnostics:      convert.Diagnostics5(resp.GetDiagnostics()),
	}, nil
}

func (w *wire5) importResourceState(ctx context.Context, typeName, id string, identity *dynVal) (importResponse, error) {
	resp, err := w.client.ImportResourceState(ctx, &tfplugin5.ImportResourceState_Request{
		TypeName: typeName, Id: id, ClientCapabilities: capabilities5, Identity: identity5(identity),
	})
	if err != nil {
		return importResponse{}, err
	}
	out := importResponse{
		deferred:    deferred5(resp.GetDeferred()),
		diagnostics: convert.Diagnostics5(resp.GetDiagnostics()),
	}
	for _, r := range resp.GetImportedResources() {
		out.resources = append(out.resources, importedResource{
			typeName: r.GetTypeName(), state: fromDV5(r.GetState()), private: r.GetPrivate(),
			identity: fromIdentity5(r.GetIdentity()),
		})
	}
	return out, nil
}

func (w *wire5) readDataSource(ctx context.Context, typeName string, config dynVal, meta *dynVal) (readDataResponse, error) {
	resp, err := w.client.ReadDataSource(ctx, &tfplugin5.ReadDataSource_Request{
		TypeName: typeName, Config: dv5(config), ProviderMeta: dv5p(meta), ClientCapabilities: capabilities5,
	})
	if err != nil {
		return readDataResponse{}, err
	}
	return readDataResponse{
		state:       fromDV5(resp.GetState()),
		deferred:    deferred5(resp.GetDeferred()),
		diagnostics: convert.Diagnostics5(resp.GetDiagnostics()),
	}, nil
}

func (w *wire5) stop(ctx context.Context) error {
	resp, err := w.client.Stop(ctx, &tfplugin5.Stop_Request{})
	if err != nil {
		return err
	}
	if msg := resp.GetError(); msg != "" {
		return errors.New(msg)
	}
	return nil
}

func (w *wire5) getFunctions(ctx context.Context) (map[string]providers.FunctionDecl, providers.Diagnostics, error) {
	resp, err := w.client.GetFunctions(ctx, &tfplugin5.GetFunctions_Request{})
	if err != nil {
		return nil, nil, err
	}
	fns, errs := convert.Functions5(resp.GetFunctions())
	return fns, convert.Diagnostics5(resp.GetDiagnostics()), errors.Join(errs...)
}

func (w *wire5) callFunction(ctx context.Context, name string, args []dynVal) (callFunctionResponse, error) {
	req := &tfplugin5.CallFunction_Request{Name: name, Arguments: make([]*tfplugin5.DynamicValue, len(args))}
	for i, a := range args {
		req.Arguments[i] = dv5(a)
	}
	resp, err := w.client.CallFunction(ctx, req)
	if err != nil {
		return callFunctionResponse{}, err
	}
	out := callFunctionResponse{result: fromDV5(resp.GetResult())}
	if fe := resp.GetError(); fe != nil {
		out.err = &providers.FunctionError{Text: fe.GetText()}
		if fe.FunctionArgument != nil {
			i := int(fe.GetFunctionArgument())
			out.err.Argument = &i
		}
	}
	return out, nil
}

func (w *wire5) getResourceIdentitySchemas(ctx context.Context) (identitySchemas, []byte, error) {
	resp, err := w.client.GetResourceIdentitySchemas(ctx, &tfplugin5.GetResourceIdentitySchemas_Request{})
	if err != nil {
		return identitySchemas{}, nil, err
	}
	raw, _ := proto.Marshal(resp)
	out, err := w.convertIdentitySchemas(resp)
	return out, raw, err
}

func (w *wire5) decodeIdentitySchemas(raw []byte) (identitySchemas, error) {
	resp := &tfplugin5.GetResourceIdentitySchemas_Response{}
	if err := proto.Unmarshal(raw, resp); err != nil {
		return identitySchemas{}, err
	}
	return w.convertIdentitySchemas(resp)
}

func (w *wire5) convertIdentitySchemas(resp *tfplugin5.GetResourceIdentitySchemas_Response) (identitySchemas, error) {
	out := identitySchemas{schemas: map[string]identitySchema{}, diagnostics: convert.Diagnostics5(resp.GetDiagnostics())}
	var errs []error
	for name, s := range resp.GetIdentitySchemas() {
		block, version, err := convert.IdentitySchema5(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("identity of resource type %s: %w", name, err))
			continue
		}
		out.schemas[name] = identitySchema{block: block, version: version}
	}
	return out, errors.Join(errs...)
}

func (w *wire5) upgradeResourceIdentity(ctx context.Context, typeName string, version int64, raw []byte) (*dynVal, providers.Diagnostics, error) {
	resp, err := w.client.UpgradeResourceIdentity(ctx, &tfplugin5.UpgradeResourceIdentity_Request{
		TypeName: typeName, Version: version, RawIdentity: &tfplugin5.RawState{Json: raw},
	})
	if err != nil {
		return nil, nil, err
	}
	return fromIdentity5(resp.GetUpgradedIdentity()), convert.Diagnostics5(resp.GetDiagnostics()), nil
}
