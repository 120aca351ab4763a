// Package mock provides the providers of strata test's mock_provider
// blocks and overrides: they answer with a real provider's schemas but
// never call it, making up the values of computed attributes as terraform
// test does.
package mock

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/ctyjson"
	"github.com/strata-dev/strata/internal/providers"
)

// Provider is a mock provider. Resources and DataSources hold, by type
// name, the values to give computed attributes (mock_resource and
// mock_data defaults, or an override's values); other computed attributes
// get generated values: 8 random alphanumeric characters for strings,
// zero, false, and empty collections.
type Provider struct {
	Schema      providers.GetProviderSchemaResponse
	Resources   map[string]cty.Value
	DataSources map[string]cty.Value
	// DuringPlan makes up the computed values of resources when planning
	// (override_during = plan) instead of leaving them unknown until
	// apply.
	DuringPlan bool
	// ResourceDuringPlan overrides DuringPlan for the resource types it
	// names (a mock_resource block's override_during).
	ResourceDuringPlan map[string]bool
}

// duringPlan reports whether resources of the type get their made-up
// values when planning.
func (p *Provider) duringPlan(typeName string) bool {
	if v, ok := p.ResourceDuringPlan[typeName]; ok {
		return v
	}
	return p.DuringPlan
}

var _ providers.Interface = (*Provider)(nil)

// GetProviderSchema returns the real provider's schemas.
func (p *Provider) GetProviderSchema(context.Context) providers.GetProviderSchemaResponse {
	return p.Schema
}

// ValidateProviderConfig accepts any configuration.
func (p *Provider) ValidateProviderConfig(_ context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	return providers.ValidateProviderConfigResponse{PreparedConfig: req.Config}
}

// ValidateResourceConfig accepts any configuration the schema accepts.
func (p *Provider) ValidateResourceConfig(context.Context, providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	return providers.ValidateResourceConfigResponse{}
}

// ValidateDataResourceConfig accepts any configuration the schema accepts.
func (p *Provider) ValidateDataResourceConfig(context.Context, providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	return providers.ValidateDataResourceConfigResponse{}
}

// UpgradeResourceState decodes the stored object as it is.
func (p *Provider) UpgradeResourceState(_ context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	schema := p.Schema.ResourceTypes[req.TypeName].Block
	v, err := ctyjson.Unmarshal(req.RawStateJSON, schema.ImpliedType())
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: errorDiag("Invalid mocked state", err.Error())}
	}
	return providers.UpgradeResourceStateResponse{UpgradedState: v}
}

// ConfigureProvider does nothing: a mock needs no credentials.
func (p *Provider) ConfigureProvider(context.Context, providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	return providers.ConfigureProviderResponse{}
}

// ReadResource finds every object as it was left.
func (p *Provider) ReadResource(_ context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private}
}

// PlanResourceChange plans the configuration, with computed attributes the
// configuration leaves unset unknown until apply.
func (p *Provider) PlanResourceChange(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	if req.ProposedNewState.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}
	}
	schema := p.Schema.ResourceTypes[req.TypeName].Block
	isNull := func(v cty.Value) bool { return v.IsKnown() && v.IsNull() }
	if p.duringPlan(req.TypeName) && req.PriorState.IsNull() {
		planned := withDefaults(schema, req.ProposedNewState, p.Resources[req.TypeName], isNull)
		return providers.PlanResourceChangeResponse{PlannedState: planned, PlannedPrivate: req.PriorPrivate}
	}
	unknown := func(ty cty.Type, _ cty.Value) cty.Value { return cty.UnknownVal(ty) }
	planned := fillBlock(schema, req.ProposedNewState, unknown, isNull, true)
	return providers.PlanResourceChangeResponse{PlannedState: planned, PlannedPrivate: req.PriorPrivate}
}

// ApplyResourceChange returns the planned object with its unknown values
// made up.
func (p *Provider) ApplyResourceChange(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	if req.PlannedState.IsNull() {
		return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
	}
	schema := p.Schema.ResourceTypes[req.TypeName].Block
	v := withDefaults(schema, req.PlannedState, p.Resources[req.TypeName], func(v cty.Value) bool { return !v.IsKnown() })
	return providers.ApplyResourceChangeResponse{NewState: v, Private: req.PlannedPrivate}
}

// ImportResourceState is not possible: there is nothing to import from.
func (p *Provider) ImportResourceState(_ context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	return providers.ImportResourceStateResponse{Diagnostics: errorDiag("Cannot import into a mocked provider", fmt.Sprintf("%s cannot be imported: its provider is mocked.", req.TypeName))}
}

// ReadDataSource returns the configuration with the computed attributes it
// leaves unset made up.
func (p *Provider) ReadDataSource(_ context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	schema := p.Schema.DataSources[req.TypeName].Block
	v := withDefaults(schema, req.Config, p.DataSources[req.TypeName], func(v cty.Value) bool { return v.IsNull() })
	return providers.ReadDataSourceResponse{State: v}
}

// CallFunction is not mocked.
func (p *Provider) CallFunction(_ context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	return providers.CallFunctionResponse{Err: fmt.Errorf("function %s cannot be called: its provider is mocked", req.FunctionName)}
}

// Stop does nothing.
func (p *Provider) Stop(context.Context) error { return nil }

// Close does nothing.
func (p *Provider) Close(context.Context) error { return nil }

// withDefaults fills the computed attributes of v for which missing is
// true with the defaults' values, or generated ones.
func withDefaults(schema *configschema.Block, v, defaults cty.Value, missing func(cty.Value) bool) cty.Value {
	return fillBlock(schema, v, func(ty cty.Type, name cty.Value) cty.Value {
		if !name.IsNull() && defaults != cty.NilVal && !defaults.IsNull() && defaults.Type().IsObjectType() && defaults.Type().HasAttribute(name.AsString()) {
			if d, err := convert.Convert(defaults.GetAttr(name.AsString()), ty); err == nil {
				return d
			}
		}
		return Generate(ty)
	}, missing, true)
}

// fillBlock rebuilds v (an object of schema), replacing each computed
// attribute value for which missing reports true with make(type, name).
// At the top level (top) name is the attribute's name; nested attributes
// get a null name, so that defaults apply to top-level attributes only.
func fillBlock(schema *configschema.Block, v cty.Value, make func(cty.Type, cty.Value) cty.Value, missing func(cty.Value) bool, top bool) cty.Value {
	if schema == nil || v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return v
	}
	attrs := v.AsValueMap()
	if attrs == nil {
		attrs = map[string]cty.Value{}
	}
	for name, a := range schema.Attributes {
		cur, ok := attrs[name]
		if !ok || !a.Computed || !missing(cur) {
			continue
		}
		label := cty.NullVal(cty.String)
		if top {
			label = cty.StringVal(name)
		}
		attrs[name] = make(cur.Type(), label)
	}
	for name, nb := range schema.BlockTypes {
		cur, ok := attrs[name]
		if !ok || cur.IsNull() || !cur.IsKnown() {
			continue
		}
		inner := func(e cty.Value) cty.Value { return fillBlock(&nb.Block, e, make, missing, false) }
		switch {
		case nb.Nesting == configschema.NestingSingle || nb.Nesting == configschema.NestingGroup:
			attrs[name] = inner(cur)
		case cur.Type().IsListType() && cur.LengthInt() > 0:
			attrs[name] = cty.ListVal(mapElems(cur, inner))
		case cur.Type().IsSetType() && cur.LengthInt() > 0:
			attrs[name] = cty.SetVal(mapElems(cur, inner))
		case cur.Type().IsTupleType() && cur.LengthInt() > 0:
			attrs[name] = cty.TupleVal(mapElems(cur, inner))
		case cur.Type().IsMapType() && cur.LengthInt() > 0:
			m := map[string]cty.Value{}
			for it := cur.ElementIterator(); it.Next(); {
				k, e := it.Element()
				m[k.AsString()] = inner(e)
			}
			attrs[name] = cty.MapVal(m)
		}
	}
	return cty.ObjectVal(attrs)
}

func mapElems(v cty.Value, f func(cty.Value) cty.Value) []cty.Value {
	var out []cty.Value
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		out = append(out, f(e))
	}
	return out
}

const alphanumeric = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// Generate makes up a value of type ty, as terraform test's mocks do: 8
// random alphanumeric characters for a string, zero, false, empty
// collections, and objects of generated attributes.
func Generate(ty cty.Type) cty.Value {
	switch {
	case ty == cty.String:
		b := make([]byte, 8)
		for i := range b {
			n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(alphanumeric))))
			b[i] = alphanumeric[n.Int64()]
		}
		return cty.StringVal(string(b))
	case ty == cty.Number:
		return cty.Zero
	case ty == cty.Bool:
		return cty.False
	case ty.IsListType():
		return cty.ListValEmpty(ty.ElementType())
	case ty.IsSetType():
		return cty.SetValEmpty(ty.ElementType())
	case ty.IsMapType():
		return cty.MapValEmpty(ty.ElementType())
	case ty.IsObjectType():
		attrs := map[string]cty.Value{}
		for name, at := range ty.AttributeTypes() {
			attrs[name] = Generate(at)
		}
		return cty.ObjectVal(attrs)
	case ty.IsTupleType():
		var elems []cty.Value
		for _, et := range ty.TupleElementTypes() {
			elems = append(elems, Generate(et))
		}
		if len(elems) == 0 {
			return cty.EmptyTupleVal
		}
		return cty.TupleVal(elems)
	}
	return cty.NullVal(ty)
}

func errorDiag(summary, detail string) providers.Diagnostics {
	return providers.Diagnostics{{Severity: providers.Error, Summary: summary, Detail: detail}}
}
