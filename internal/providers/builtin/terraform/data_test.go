package terraform

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty-debug/ctydebug"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/providers"
)

func obj(id, input, output, trigger cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"id": id, "input": input, "output": output, "triggers_replace": trigger})
}

var (
	nullStr = cty.NullVal(cty.String)
	nullDyn = cty.NullVal(cty.DynamicPseudoType)
	unkStr  = cty.UnknownVal(cty.String)
	unkDyn  = cty.DynamicVal
)

func TestPlanData(t *testing.T) {
	tests := map[string]struct {
		prior, proposed cty.Value
		want            cty.Value
		wantReplace     bool
	}{
		"create with input": {
			prior:    cty.NullVal(dataSchema().ImpliedType()),
			proposed: obj(nullStr, cty.StringVal("x"), nullDyn, nullDyn),
			want:     obj(unkStr, cty.StringVal("x"), unkStr, nullDyn),
		},
		"create without input": {
			prior:    cty.NullVal(dataSchema().ImpliedType()),
			proposed: obj(nullStr, nullDyn, nullDyn, cty.StringVal("t")),
			want:     obj(unkStr, nullDyn, nullDyn, cty.StringVal("t")),
		},
		"no change": {
			prior:    obj(cty.StringVal("id"), cty.StringVal("x"), cty.StringVal("x"), nullDyn),
			proposed: obj(cty.StringVal("id"), cty.StringVal("x"), cty.StringVal("x"), nullDyn),
			want:     obj(cty.StringVal("id"), cty.StringVal("x"), cty.StringVal("x"), nullDyn),
		},
		"input changed": {
			prior:    obj(cty.StringVal("id"), cty.StringVal("x"), cty.StringVal("x"), nullDyn),
			proposed: obj(cty.StringVal("id"), cty.StringVal("y"), cty.StringVal("x"), nullDyn),
			want:     obj(cty.StringVal("id"), cty.StringVal("y"), unkStr, nullDyn),
		},
		"input type changed": {
			prior:    obj(cty.StringVal("id"), cty.StringVal("1"), cty.StringVal("1"), nullDyn),
			proposed: obj(cty.StringVal("id"), cty.NumberIntVal(1), cty.StringVal("1"), nullDyn),
			want:     obj(cty.StringVal("id"), cty.NumberIntVal(1), cty.UnknownVal(cty.Number), nullDyn),
		},
		"input removed": {
			prior:    obj(cty.StringVal("id"), cty.StringVal("x"), cty.StringVal("x"), nullDyn),
			proposed: obj(cty.StringVal("id"), nullDyn, cty.StringVal("x"), nullDyn),
			want:     obj(cty.StringVal("id"), nullDyn, unkDyn, nullDyn),
		},
		"trigger changed": {
			prior:       obj(cty.StringVal("id"), nullDyn, nullDyn, cty.StringVal("a")),
			proposed:    obj(cty.StringVal("id"), nullDyn, nullDyn, cty.StringVal("b")),
			want:        obj(cty.StringVal("id"), nullDyn, nullDyn, cty.StringVal("b")),
			wantReplace: true,
		},
		"destroy": {
			prior:    obj(cty.StringVal("id"), nullDyn, nullDyn, nullDyn),
			proposed: cty.NullVal(dataSchema().ImpliedType()),
			want:     cty.NullVal(dataSchema().ImpliedType()),
		},
	}
	p := &Provider{}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			resp := p.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{
				TypeName: "terraform_data", PriorState: tc.prior, ProposedNewState: tc.proposed, Config: tc.proposed,
			})
			if resp.Diagnostics.HasErrors() {
				t.Fatal(resp.Diagnostics)
			}
			if diff := cmp.Diff(tc.want, resp.PlannedState, ctydebug.CmpOptions); diff != "" {
				t.Errorf("wrong result (-want +got):\n%s", diff)
			}
			if got := len(resp.RequiresReplace) > 0; got != tc.wantReplace {
				t.Errorf("requires replace = %v, want %v", got, tc.wantReplace)
			}
		})
	}
}

func TestApplyData(t *testing.T) {
	p := &Provider{}
	resp := p.ApplyResourceChange(context.Background(), providers.ApplyResourceChangeRequest{
		TypeName:     "terraform_data",
		PriorState:   cty.NullVal(dataSchema().ImpliedType()),
		PlannedState: obj(unkStr, cty.StringVal("x"), unkDyn, nullDyn),
	})
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics)
	}
	v := resp.NewState
	if !v.IsWhollyKnown() || v.GetAttr("id").AsString() == "" || !v.GetAttr("output").RawEquals(cty.StringVal("x")) {
		t.Fatalf("wrong new state %#v", v)
	}
	// An update keeps the id.
	resp = p.ApplyResourceChange(context.Background(), providers.ApplyResourceChangeRequest{
		TypeName: "terraform_data", PriorState: v,
		PlannedState: obj(v.GetAttr("id"), cty.StringVal("y"), unkDyn, nullDyn),
	})
	if got := resp.NewState.GetAttr("id"); !got.RawEquals(v.GetAttr("id")) {
		t.Fatalf("update changed the id to %#v", got)
	}
}

func TestUpgradeAndImport(t *testing.T) {
	p := &Provider{}
	raw := []byte(`{"id":"abc","input":{"value":{"a":[1,2]},"type":["object",{"a":["tuple",["number","number"]]}]},"output":null,"triggers_replace":null}`)
	resp := p.UpgradeResourceState(context.Background(), providers.UpgradeResourceStateRequest{TypeName: "terraform_data", RawStateJSON: raw})
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics)
	}
	want := cty.ObjectVal(map[string]cty.Value{"a": cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)})})
	if got := resp.UpgradedState.GetAttr("input"); !got.RawEquals(want) {
		t.Errorf("input = %#v", got)
	}
	if r := p.UpgradeResourceState(context.Background(), providers.UpgradeResourceStateRequest{TypeName: "terraform_data", Version: 1, RawStateJSON: raw}); !r.Diagnostics.HasErrors() {
		t.Error("a newer schema version should be refused")
	}
	if r := p.UpgradeResourceState(context.Background(), providers.UpgradeResourceStateRequest{TypeName: "terraform_data", RawStateJSON: []byte(`{`)}); !r.Diagnostics.HasErrors() {
		t.Error("garbled state should be refused")
	}
	imp := p.ImportResourceState(context.Background(), providers.ImportResourceStateRequest{TypeName: "terraform_data", ID: "xyz"})
	if len(imp.ImportedResources) != 1 || imp.ImportedResources[0].State.GetAttr("id").AsString() != "xyz" {
		t.Errorf("import: %+v", imp)
	}
	if r := p.ValidateResourceConfig(context.Background(), providers.ValidateResourceConfigRequest{TypeName: "nope"}); !r.Diagnostics.HasErrors() {
		t.Error("unknown type should be refused")
	}
}
