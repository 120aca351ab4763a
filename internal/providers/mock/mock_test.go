package mock

import (
	"context"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
)

var thing = &configschema.Block{
	Attributes: map[string]*configschema.Attribute{
		"id":   {Type: cty.String, Computed: true},
		"name": {Type: cty.String, Required: true},
		"size": {Type: cty.Number, Optional: true, Computed: true},
		"tags": {Type: cty.Map(cty.String), Computed: true},
	},
	BlockTypes: map[string]*configschema.NestedBlock{
		"rule": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
			"port": {Type: cty.Number, Required: true},
			"uid":  {Type: cty.String, Computed: true},
		}}},
	},
}

func object(id, size cty.Value, uid cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id": id, "name": cty.StringVal("n"), "size": size, "tags": cty.NullVal(cty.Map(cty.String)),
		"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80), "uid": uid})}),
	})
}

func TestPlanAndApply(t *testing.T) {
	p := &Provider{
		Schema:    providers.GetProviderSchemaResponse{ResourceTypes: map[string]providers.Schema{"thing": {Block: thing}}},
		Resources: map[string]cty.Value{"thing": cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("fixed"), "size": cty.StringVal("3")})},
	}
	ctx := context.Background()
	proposed := object(cty.NullVal(cty.String), cty.NullVal(cty.Number), cty.NullVal(cty.String))
	plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "thing", ProposedNewState: proposed, Config: proposed})
	planned := plan.PlannedState
	for _, attr := range []string{"id", "size"} {
		if planned.GetAttr(attr).IsKnown() {
			t.Errorf("planned %s is known: %#v", attr, planned.GetAttr(attr))
		}
	}
	if uid := planned.GetAttr("rule").Index(cty.NumberIntVal(0)).GetAttr("uid"); uid.IsKnown() {
		t.Errorf("planned nested uid is known")
	}
	if !planned.GetAttr("name").RawEquals(cty.StringVal("n")) {
		t.Errorf("planned name changed: %#v", planned.GetAttr("name"))
	}
	applied := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "thing", PlannedState: planned}).NewState
	if !applied.IsWhollyKnown() {
		t.Fatalf("applied object has unknowns: %#v", applied)
	}
	if got := applied.GetAttr("id"); !got.RawEquals(cty.StringVal("fixed")) {
		t.Errorf("id %#v, want the default", got)
	}
	if got := applied.GetAttr("size"); !got.RawEquals(cty.NumberIntVal(3)) {
		t.Errorf("size %#v, want the default converted to a number", got)
	}
	if got := applied.GetAttr("tags"); !got.RawEquals(cty.MapValEmpty(cty.String)) {
		t.Errorf("tags %#v, want an empty map", got)
	}
	if uid := applied.GetAttr("rule").Index(cty.NumberIntVal(0)).GetAttr("uid").AsString(); len(uid) != 8 {
		t.Errorf("generated nested uid %q is not 8 characters", uid)
	}
	// An update keeps what the prior object had.
	prior := applied
	replan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "thing", PriorState: prior, ProposedNewState: prior, Config: proposed})
	if !replan.PlannedState.RawEquals(prior) {
		t.Errorf("a no-op plan changed the object:\n%#v\n%#v", replan.PlannedState, prior)
	}
	if r := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "thing", PriorState: prior}); !r.NewState.RawEquals(prior) {
		t.Errorf("read changed the object")
	}
	gone := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "thing", PriorState: prior, PlannedState: cty.NullVal(thing.ImpliedType())})
	if !gone.NewState.IsNull() {
		t.Errorf("delete returned %#v", gone.NewState)
	}
}

func TestReadDataSource(t *testing.T) {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"input":  {Type: cty.String, Required: true},
		"result": {Type: cty.String, Computed: true},
		"count":  {Type: cty.Number, Computed: true},
	}}
	p := &Provider{
		Schema:      providers.GetProviderSchemaResponse{DataSources: map[string]providers.Schema{"echo": {Block: schema}}},
		DataSources: map[string]cty.Value{"echo": cty.ObjectVal(map[string]cty.Value{"result": cty.StringVal("r")})},
	}
	config := cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("i"), "result": cty.NullVal(cty.String), "count": cty.NullVal(cty.Number)})
	got := p.ReadDataSource(context.Background(), providers.ReadDataSourceRequest{TypeName: "echo", Config: config}).State
	want := cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("i"), "result": cty.StringVal("r"), "count": cty.Zero})
	if !got.RawEquals(want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
}

func TestGenerate(t *testing.T) {
	tests := map[string]struct {
		ty   cty.Type
		want cty.Value
	}{
		"number": {cty.Number, cty.Zero},
		"bool":   {cty.Bool, cty.False},
		"list":   {cty.List(cty.String), cty.ListValEmpty(cty.String)},
		"set":    {cty.Set(cty.Number), cty.SetValEmpty(cty.Number)},
		"map":    {cty.Map(cty.Bool), cty.MapValEmpty(cty.Bool)},
		"object": {cty.Object(map[string]cty.Type{"n": cty.Number, "b": cty.Bool}), cty.ObjectVal(map[string]cty.Value{"n": cty.Zero, "b": cty.False})},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Generate(tc.ty); !got.RawEquals(tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
	s := Generate(cty.String).AsString()
	if len(s) != 8 {
		t.Errorf("generated string %q is not 8 characters", s)
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			t.Errorf("generated string %q is not alphanumeric", s)
		}
	}
}

func TestPlanDuringPlan(t *testing.T) {
	p := &Provider{
		Schema:     providers.GetProviderSchemaResponse{ResourceTypes: map[string]providers.Schema{"thing": {Block: thing}}},
		Resources:  map[string]cty.Value{"thing": cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("fixed")})},
		DuringPlan: true,
	}
	proposed := object(cty.NullVal(cty.String), cty.NullVal(cty.Number), cty.NullVal(cty.String))
	planned := p.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{TypeName: "thing", ProposedNewState: proposed, Config: proposed}).PlannedState
	if !planned.IsWhollyKnown() {
		t.Fatalf("planned object has unknowns: %#v", planned)
	}
	if got := planned.GetAttr("id"); !got.RawEquals(cty.StringVal("fixed")) {
		t.Errorf("id %#v, want the default", got)
	}
	applied := p.ApplyResourceChange(context.Background(), providers.ApplyResourceChangeRequest{TypeName: "thing", PlannedState: planned}).NewState
	if !applied.RawEquals(planned) {
		t.Errorf("apply changed the planned object")
	}
}

// TestResourceDuringPlan: a mock_resource block's override_during wins
// over the mock provider's, either way.
func TestResourceDuringPlan(t *testing.T) {
	tests := map[string]struct {
		provider  bool
		resource  map[string]bool
		wantKnown bool
	}{
		"provider plan":                {provider: true, wantKnown: true},
		"provider apply":               {wantKnown: false},
		"resource plan wins":           {resource: map[string]bool{"thing": true}, wantKnown: true},
		"resource apply wins":          {provider: true, resource: map[string]bool{"thing": false}, wantKnown: false},
		"other type keeps the default": {resource: map[string]bool{"other": true}, wantKnown: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Provider{
				Schema:             providers.GetProviderSchemaResponse{ResourceTypes: map[string]providers.Schema{"thing": {Block: thing}}},
				DuringPlan:         tc.provider,
				ResourceDuringPlan: tc.resource,
			}
			proposed := object(cty.NullVal(cty.String), cty.NullVal(cty.Number), cty.NullVal(cty.String))
			planned := p.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{TypeName: "thing", ProposedNewState: proposed, Config: proposed}).PlannedState
			if got := planned.GetAttr("id").IsKnown(); got != tc.wantKnown {
				t.Errorf("id known %v, want %v", got, tc.wantKnown)
			}
		})
	}
}
