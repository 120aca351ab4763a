package engine

import (
	"context"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
)

func TestRefreshOnlyRecordsDrift(t *testing.T) {
	p := &providertest.Provider{Schema: testSchema()}
	e := testEngine(t, p, `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b" }
output "size" { value = test_thing.a.size }
`)
	_, state := planApply(t, e, nil, PlanOpts{})
	// Outside strata, a's size changed and b was deleted.
	p.ReadResourceFn = func(req providers.ReadResourceRequest) providers.ReadResourceResponse {
		if req.PriorState.GetAttr("name").AsString() == "b" {
			return providers.ReadResourceResponse{NewState: cty.NullVal(req.PriorState.Type())}
		}
		v := req.PriorState.AsValueMap()
		v["size"] = cty.NumberIntVal(42)
		return providers.ReadResourceResponse{NewState: cty.ObjectVal(v)}
	}
	plan, diags := e.Plan(context.Background(), state, PlanOpts{Mode: plans.RefreshOnlyMode})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if len(plan.Changes.Resources) != 0 {
		t.Fatalf("a refresh-only plan changes nothing, got %v", actions(plan))
	}
	drift := map[string]plans.Action{}
	for _, c := range plan.DriftedResources {
		drift[c.Addr.String()] = c.Action
	}
	if drift["test_thing.a"] != plans.Update || drift["test_thing.b"] != plans.Delete || len(drift) != 2 {
		t.Fatalf("wrong drift %v", drift)
	}
	applies := func() int {
		n := 0
		for _, c := range p.Calls() {
			if c == "ApplyResourceChange" {
				n++
			}
		}
		return n
	}
	before := applies()
	newState, diags := e.Apply(context.Background(), plan)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if newState.Object(mustInstance(t, "test_thing.b")) != nil {
		t.Fatal("b deleted outside strata is still in the state")
	}
	if got := newState.Outputs["size"].Value; !got.RawEquals(cty.NumberIntVal(42)) {
		t.Fatalf("output size = %#v, want the refreshed 42", got)
	}
	if applies() != before {
		t.Fatal("a refresh-only apply must not change remote objects")
	}
}
