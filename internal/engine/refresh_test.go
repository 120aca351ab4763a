package engine

import (
	"context"
	"sort"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
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

// TestPlanRefreshOnlySubset refreshes only the instances RefreshOnly
// selects: the others are planned from their stored prior state, so drift
// in them is neither seen nor planned away.
func TestPlanRefreshOnlySubset(t *testing.T) {
	tests := map[string]struct {
		refresh   func(addrs.AbsResourceInstance) bool
		skip      bool
		wantReads []string
		wantDrift map[string]plans.Action
		wantPlan  map[string]plans.Action
	}{
		"all (nil)": {
			wantReads: []string{"a", "b", "c"},
			wantDrift: map[string]plans.Action{"test_thing.a": plans.Update, "test_thing.b": plans.Update, "test_thing.c": plans.Delete},
			wantPlan:  map[string]plans.Action{"test_thing.a": plans.Update, "test_thing.b": plans.Update, "test_thing.c": plans.Create},
		},
		"only b and c": {
			refresh:   func(a addrs.AbsResourceInstance) bool { return a.String() != "test_thing.a" },
			wantReads: []string{"b", "c"},
			wantDrift: map[string]plans.Action{"test_thing.b": plans.Update, "test_thing.c": plans.Delete},
			wantPlan:  map[string]plans.Action{"test_thing.a": plans.NoOp, "test_thing.b": plans.Update, "test_thing.c": plans.Create},
		},
		"none": {
			refresh:   func(addrs.AbsResourceInstance) bool { return false },
			wantDrift: map[string]plans.Action{},
			wantPlan:  map[string]plans.Action{"test_thing.a": plans.NoOp, "test_thing.b": plans.NoOp, "test_thing.c": plans.NoOp},
		},
		"skip refresh wins": {
			refresh:   func(addrs.AbsResourceInstance) bool { return true },
			skip:      true,
			wantDrift: map[string]plans.Action{},
			wantPlan:  map[string]plans.Action{"test_thing.a": plans.NoOp, "test_thing.b": plans.NoOp, "test_thing.c": plans.NoOp},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &providertest.Provider{Schema: testSchema()}
			e := testEngine(t, p, `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b" }
resource "test_thing" "c" { name = "c" }
`)
			_, state := planApply(t, e, nil, PlanOpts{})
			var mu sync.Mutex
			var reads []string
			// Outside strata, every object's name changed and c was deleted.
			p.ReadResourceFn = func(req providers.ReadResourceRequest) providers.ReadResourceResponse {
				name := req.PriorState.GetAttr("name").AsString()
				mu.Lock()
				reads = append(reads, name)
				mu.Unlock()
				if name == "c" {
					return providers.ReadResourceResponse{NewState: cty.NullVal(req.PriorState.Type())}
				}
				v := req.PriorState.AsValueMap()
				v["name"] = cty.StringVal(name + "-changed")
				return providers.ReadResourceResponse{NewState: cty.ObjectVal(v)}
			}
			plan, diags := e.Plan(context.Background(), state, PlanOpts{RefreshOnly: tc.refresh, SkipRefresh: tc.skip})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			sort.Strings(reads)
			if diff := cmp.Diff(tc.wantReads, reads); diff != "" {
				t.Errorf("wrong instances refreshed (-want +got)\n%s", diff)
			}
			drift := map[string]plans.Action{}
			for _, c := range plan.DriftedResources {
				drift[c.Addr.String()] = c.Action
			}
			if diff := cmp.Diff(tc.wantDrift, drift); diff != "" {
				t.Errorf("wrong drift (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantPlan, actions(plan)); diff != "" {
				t.Errorf("wrong plan (-want +got)\n%s", diff)
			}
			// An instance left alone keeps its stored object in the
			// plan's prior state.
			if tc.refresh != nil && !tc.refresh(mustInstance(t, "test_thing.a")) {
				if got := objectAttr(t, plan.PriorState, "test_thing.a", "name"); got != `"a"` {
					t.Errorf("prior state of test_thing.a: name = %s, want the stored \"a\"", got)
				}
			}
		})
	}
}

// TestDriftOfSensitivePaths: an object that refreshes to the same value
// but whose stored sensitive paths lack one the schema declares (a state
// written before the provider marked the attribute sensitive, as in
// Terraform's equivalence test local_provider_delete) has drifted, as in
// Terraform; with the paths stored, it has not.
func TestDriftOfSensitivePaths(t *testing.T) {
	schema := testSchema()
	schema.ResourceTypes["test_thing"].Block.Attributes["secret"] = &configschema.Attribute{Type: cty.String, Optional: true, Sensitive: true}
	p := &providertest.Provider{Schema: schema}
	e := testEngine(t, p, `resource "test_thing" "a" { name = "a" }`)
	_, state := planApply(t, e, nil, PlanOpts{})
	addr := mustInstance(t, "test_thing.a")
	if got := state.Object(addr).SensitivePaths; len(got) != 1 || !got[0].Equals(cty.GetAttrPath("secret")) {
		t.Fatalf("stored sensitive paths %#v, want secret", got)
	}
	drift := func(t *testing.T, mode plans.Mode) []plans.Action {
		t.Helper()
		plan, diags := e.Plan(context.Background(), state, PlanOpts{Mode: mode})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		var out []plans.Action
		for _, c := range plan.DriftedResources {
			out = append(out, c.Action)
		}
		for _, c := range plan.Changes.Resources {
			if c.Action != plans.NoOp {
				t.Fatalf("planned %s for %s: only the sensitive paths differ", c.Action, c.Addr)
			}
		}
		return out
	}
	if got := drift(t, plans.NormalMode); len(got) != 0 {
		t.Fatalf("drift %v with the paths stored, want none", got)
	}
	state = state.DeepCopy()
	state.Object(addr).SensitivePaths = nil
	for _, mode := range []plans.Mode{plans.NormalMode, plans.RefreshOnlyMode} {
		if got := drift(t, mode); len(got) != 1 || got[0] != plans.Update {
			t.Fatalf("mode %v: drift %v without the paths stored, want one update", mode, got)
		}
	}
}

// TestDriftOfMovedObjects: drift names where the previous run recorded a
// moved object, and a move without other drift is drift too, a no-op, as
// in Terraform (equivalence tests moved_with_drift and
// moved_with_refresh_only).
func TestDriftOfMovedObjects(t *testing.T) {
	p := &providertest.Provider{Schema: testSchema()}
	e := testEngine(t, p, `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b" }
`)
	_, state := planApply(t, e, nil, PlanOpts{})
	e = testEngine(t, p, `
resource "test_thing" "a2" { name = "a" }
resource "test_thing" "b2" { name = "b" }
moved {
  from = test_thing.a
  to   = test_thing.a2
}
moved {
  from = test_thing.b
  to   = test_thing.b2
}
`)
	// Outside strata, b's size changed.
	p.ReadResourceFn = func(req providers.ReadResourceRequest) providers.ReadResourceResponse {
		v := req.PriorState.AsValueMap()
		if v["name"].AsString() == "b" {
			v["size"] = cty.NumberIntVal(42)
		}
		return providers.ReadResourceResponse{NewState: cty.ObjectVal(v)}
	}
	for _, mode := range []plans.Mode{plans.NormalMode, plans.RefreshOnlyMode} {
		plan, diags := e.Plan(context.Background(), state, PlanOpts{Mode: mode})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		got := map[string]string{}
		for _, c := range plan.DriftedResources {
			prev := ""
			if c.PrevRunAddr != nil {
				prev = c.PrevRunAddr.String()
			}
			got[c.Addr.String()] = c.Action.String() + " from " + prev
		}
		want := map[string]string{"test_thing.a2": plans.NoOp.String() + " from test_thing.a", "test_thing.b2": plans.Update.String() + " from test_thing.b"}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("mode %v: wrong drift (-want +got):\n%s", mode, d)
		}
	}
}
