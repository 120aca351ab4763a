package main

import (
	"context"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

type srv struct {
	tfprotov6.ProviderServer
}

func str(name string, opt, comp, sens bool) *tfprotov6.SchemaAttribute {
	return &tfprotov6.SchemaAttribute{Name: name, Type: tftypes.String, Optional: opt, Computed: comp, Sensitive: sens}
}

func attr(name string, ty tftypes.Type) *tfprotov6.SchemaAttribute {
	return &tfprotov6.SchemaAttribute{Name: name, Type: ty, Optional: true}
}

func nested(name string, mode tfprotov6.SchemaObjectNestingMode, attrs ...*tfprotov6.SchemaAttribute) *tfprotov6.SchemaAttribute {
	return &tfprotov6.SchemaAttribute{Name: name, Optional: true, NestedType: &tfprotov6.SchemaObject{Nesting: mode, Attributes: attrs}}
}

func block(name string, mode tfprotov6.SchemaNestedBlockNestingMode, attrs ...*tfprotov6.SchemaAttribute) *tfprotov6.SchemaNestedBlock {
	return &tfprotov6.SchemaNestedBlock{TypeName: name, Nesting: mode, Block: &tfprotov6.SchemaBlock{Attributes: attrs}}
}

var thingSchema = &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{
	Attributes: []*tfprotov6.SchemaAttribute{
		str("id", false, true, false),
		str("name", true, false, false),
		attr("size", tftypes.Number),
		attr("enabled", tftypes.Bool),
		attr("tags", tftypes.Map{ElementType: tftypes.String}),
		attr("list", tftypes.List{ElementType: tftypes.String}),
		attr("set", tftypes.Set{ElementType: tftypes.String}),
		str("secret", true, false, true),
		str("replace_me", true, false, false),
		attr("obj", tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.String, "b": tftypes.Number}}),
		attr("lobj", tftypes.List{ElementType: tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.String, "b": tftypes.Number}}}),
		str("computed_val", false, true, false),
		str("description", true, false, false),
		str("secret2", true, false, false),
		attr("dyn", tftypes.DynamicPseudoType),
		nested("nsingle", tfprotov6.SchemaObjectNestingModeSingle, str("x", true, false, false), attr("y", tftypes.Number)),
		nested("nlist", tfprotov6.SchemaObjectNestingModeList, str("x", true, false, false), str("y", true, false, false)),
		nested("nset", tfprotov6.SchemaObjectNestingModeSet, str("x", true, false, false)),
		nested("nmap", tfprotov6.SchemaObjectNestingModeMap, str("x", true, false, false)),
	},
	BlockTypes: []*tfprotov6.SchemaNestedBlock{
		block("single", tfprotov6.SchemaNestedBlockNestingModeSingle, str("a", true, false, false), str("b", true, false, false)),
		block("item", tfprotov6.SchemaNestedBlockNestingModeList, str("k", true, false, false), str("v", true, false, false)),
		block("tag", tfprotov6.SchemaNestedBlockNestingModeSet, str("k", true, false, false), str("v", true, false, false)),
		block("named", tfprotov6.SchemaNestedBlockNestingModeMap, str("v", true, false, false)),
		{TypeName: "outer", Nesting: tfprotov6.SchemaNestedBlockNestingModeList, Block: &tfprotov6.SchemaBlock{
			BlockTypes: []*tfprotov6.SchemaNestedBlock{
				block("inner", tfprotov6.SchemaNestedBlockNestingModeList, str("v", true, false, false)),
				block("other", tfprotov6.SchemaNestedBlockNestingModeSingle, str("name", true, false, false), str("w", true, false, false)),
			},
		}},
	},
}}

var readSchema = &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{
	Attributes: []*tfprotov6.SchemaAttribute{
		str("id", false, true, false),
		str("input", true, false, false),
		str("output", false, true, false),
	},
}}

func (s *srv) GetMetadata(ctx context.Context, r *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	return &tfprotov6.GetMetadataResponse{
		Resources:   []tfprotov6.ResourceMetadata{{TypeName: "tp_thing"}},
		DataSources: []tfprotov6.DataSourceMetadata{{TypeName: "tp_read"}},
	}, nil
}

func (s *srv) GetProviderSchema(ctx context.Context, r *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return &tfprotov6.GetProviderSchemaResponse{
		Provider:          &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{}},
		ResourceSchemas:   map[string]*tfprotov6.Schema{"tp_thing": thingSchema},
		DataSourceSchemas: map[string]*tfprotov6.Schema{"tp_read": readSchema},
	}, nil
}

func (s *srv) GetResourceIdentitySchemas(ctx context.Context, r *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{}, nil
}
func (s *srv) ValidateProviderConfig(ctx context.Context, r *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: r.Config}, nil
}
func (s *srv) ConfigureProvider(ctx context.Context, r *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return &tfprotov6.ConfigureProviderResponse{}, nil
}
func (s *srv) StopProvider(ctx context.Context, r *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}
func (s *srv) ValidateResourceConfig(ctx context.Context, r *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}
func (s *srv) ValidateDataResourceConfig(ctx context.Context, r *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return &tfprotov6.ValidateDataResourceConfigResponse{}, nil
}
func (s *srv) UpgradeResourceState(ctx context.Context, r *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	ty := thingSchema.ValueType()
	v, err := r.RawState.UnmarshalWithOpts(ty, tfprotov6.UnmarshalOpts{})
	if err != nil {
		return nil, err
	}
	dv, err := tfprotov6.NewDynamicValue(ty, v)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &dv}, nil
}
func (s *srv) ReadResource(ctx context.Context, r *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return &tfprotov6.ReadResourceResponse{NewState: r.CurrentState, Private: r.Private}, nil
}

func fill(v tftypes.Value, unknown bool) (tftypes.Value, error) {
	return tftypes.Transform(v, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if len(p.Steps()) != 1 {
			return v, nil
		}
		name, ok := p.Steps()[0].(tftypes.AttributeName)
		if !ok || (name != "id" && name != "computed_val" && name != "output") {
			return v, nil
		}
		if unknown && v.IsNull() {
			return tftypes.NewValue(tftypes.String, tftypes.UnknownValue), nil
		}
		if !unknown && !v.IsKnown() {
			return tftypes.NewValue(tftypes.String, "val-"+string(name)), nil
		}
		return v, nil
	})
}

func (s *srv) PlanResourceChange(ctx context.Context, r *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	ty := thingSchema.ValueType()
	prop, err := r.ProposedNewState.Unmarshal(ty)
	if err != nil {
		return nil, err
	}
	if prop.IsNull() {
		return &tfprotov6.PlanResourceChangeResponse{PlannedState: r.ProposedNewState}, nil
	}
	prior, err := r.PriorState.Unmarshal(ty)
	if err != nil {
		return nil, err
	}
	planned, err := fill(prop, true)
	if err != nil {
		return nil, err
	}
	if prior.IsNull() || os.Getenv("TP_UNKNOWN_CV") != "" {
		planned, err = tftypes.Transform(planned, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
			if p.Equal(tftypes.NewAttributePath().WithAttributeName("computed_val")) {
				return tftypes.NewValue(tftypes.String, tftypes.UnknownValue), nil
			}
			return v, nil
		})
		if err != nil {
			return nil, err
		}
	}
	dv, err := tfprotov6.NewDynamicValue(ty, planned)
	if err != nil {
		return nil, err
	}
	var rr []*tftypes.AttributePath
	for _, p := range strings.Split(os.Getenv("TP_REPLACE"), ",") {
		if p == "" {
			continue
		}
		ap := tftypes.NewAttributePath()
		for _, part := range strings.Split(p, ".") {
			ap = ap.WithAttributeName(part)
		}
		rr = append(rr, ap)
	}
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: &dv, RequiresReplace: rr}, nil
}

func (s *srv) ApplyResourceChange(ctx context.Context, r *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	ty := thingSchema.ValueType()
	pl, err := r.PlannedState.Unmarshal(ty)
	if err != nil {
		return nil, err
	}
	if pl.IsNull() {
		return &tfprotov6.ApplyResourceChangeResponse{NewState: r.PlannedState}, nil
	}
	nv, err := fill(pl, false)
	if err != nil {
		return nil, err
	}
	dv, err := tfprotov6.NewDynamicValue(ty, nv)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ApplyResourceChangeResponse{NewState: &dv}, nil
}

func (s *srv) ReadDataSource(ctx context.Context, r *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	ty := readSchema.ValueType()
	v, err := r.Config.Unmarshal(ty)
	if err != nil {
		return nil, err
	}
	nv, err := fill(v, false)
	if err != nil {
		return nil, err
	}
	nv, _ = tftypes.Transform(nv, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsNull() && len(p.Steps()) == 1 {
			return tftypes.NewValue(tftypes.String, "val"), nil
		}
		return v, nil
	})
	dv, err := tfprotov6.NewDynamicValue(ty, nv)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ReadDataSourceResponse{State: &dv}, nil
}

func (s *srv) GetFunctions(ctx context.Context, r *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return &tfprotov6.GetFunctionsResponse{}, nil
}

func main() {
	tf6server.Serve("registry.terraform.io/example/tp", func() tfprotov6.ProviderServer { return &srv{} })
}
