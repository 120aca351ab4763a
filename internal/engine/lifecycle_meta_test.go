package engine

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
)

func TestCreateBeforeDestroy(t *testing.T) {
	var mu sync.Mutex
	var ops []string
	p := &providertest.Provider{Schema: testSchema()}
	p.PlanResourceChangeFn = func(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
		if req.ProposedNewState.IsNull() {
			return providers.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}
		}
		v := req.ProposedNewState.AsValueMap()
		var replace []cty.Path
		if req.PriorState.IsNull() {
			v["id"] = cty.UnknownVal(cty.String)
			if v["size"].IsNull() {
				v["size"] = cty.UnknownVal(cty.Number)
			}
		} else if !req.PriorState.GetAttr("name").RawEquals(v["name"]) {
			replace = []cty.Path{cty.GetAttrPath("name")}
		}
		return providers.PlanResourceChangeResponse{PlannedState: cty.ObjectVal(v), RequiresReplace: replace}
	}
	p.ApplyResourceChangeFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		mu.Lock()
		defer mu.Unlock()
		if req.PlannedState.IsNull() {
			ops = append(ops, "delete "+req.PriorState.GetAttr("name").AsString())
			return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
		}
		v := req.PlannedState.AsValueMap()
		ops = append(ops, "create "+v["name"].AsString())
		v["id"], v["size"] = cty.StringVal("id-"+v["name"].AsString()), cty.NumberIntVal(1)
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(v)}
	}
	src := `
variable "name" { default = "one" }
resource "test_thing" "a" {
  name = var.name
  lifecycle {
    create_before_destroy = true
  }
}
resource "test_thing" "b" {
  name  = "b"
  color = test_thing.a.id
}`
	e := testEngine(t, p, src)
	_, state := planApply(t, e, nil, PlanOpts{})
	ops = nil
	plan, state2 := planApply(t, e, state, PlanOpts{Variables: map[string]InputValue{"name": {Value: cty.StringVal("two")}}})
	if got := actions(plan)["test_thing.a"]; got != plans.CreateThenDelete {
		t.Fatalf("action %s, want CreateThenDelete", got)
	}
	// The old object outlives the update of b, which still refers to it.
	if strings.Join(ops, ",") != "create two,create b,delete one" {
		t.Fatalf("wrong order: %v", ops)
	}
	inst := state2.Resource(mustResource(t, "test_thing.a")).Instances[nil]
	if inst == nil || len(inst.Deposed) != 0 || objectAttr(t, state2, "test_thing.a", "name") != `"two"` {
		t.Fatalf("wrong final state: %+v", inst)
	}
}

func TestPreventDestroy(t *testing.T) {
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": `
resource "terraform_data" "a" {
  input = 1
  lifecycle {
    prevent_destroy = true
  }
}`}))
	_, state := planApply(t, e, nil, PlanOpts{})
	_, diags := e.Plan(context.Background(), state, PlanOpts{Mode: plans.DestroyMode})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Instance cannot be destroyed") {
		t.Fatalf("expected prevent_destroy error, got %v", diags)
	}
}

func TestIgnoreChanges(t *testing.T) {
	src := func(input string) string {
		return `
resource "terraform_data" "a" {
  input = "` + input + `"
  lifecycle {
    ignore_changes = [input]
  }
}`
	}
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": src("one")}))
	_, state := planApply(t, e, nil, PlanOpts{})
	e2 := builtinEngine(testConfigInline(t, map[string]string{"main.tf": src("two")}))
	plan, diags := e2.Plan(context.Background(), state, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if plan.Changes.HasChanges() {
		t.Fatalf("ignored attribute produced changes: %v", actions(plan))
	}
}

// TestIgnoreChangesReplacement checks that ignore_changes only holds back
// updates: a replacement creates the new object from the configuration as
// written, and ignore_changes names map keys as well as attributes.
func TestIgnoreChangesReplacement(t *testing.T) {
	cases := []struct {
		name           string
		ignore, trig   string
		input1, input2 string
		wantAction     plans.Action
		wantInput      string
	}{
		{"replace uses new config", "input", "1", `{ a = 1 }`, `{ a = 2 }`, plans.DeleteThenCreate, `{"a":2}`},
		{"index names a key", `input["a"]`, "0", `{ a = 1, b = 2 }`, `{ a = 5, b = 2 }`, plans.NoOp, `{"a":1,"b":2}`},
		{"attribute names a key", `input.a`, "0", `{ a = 1, b = 2 }`, `{ a = 5, b = 3 }`, plans.Update, `{"a":1,"b":3}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := func(input, trig string) string {
				return `
resource "terraform_data" "a" {
  input            = ` + input + `
  triggers_replace = ` + trig + `
  lifecycle {
    ignore_changes = [` + tc.ignore + `]
  }
}`
			}
			e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": src(tc.input1, "0")}))
			_, state := planApply(t, e, nil, PlanOpts{})
			e2 := builtinEngine(testConfigInline(t, map[string]string{"main.tf": src(tc.input2, tc.trig)}))
			plan, state := planApply(t, e2, state, PlanOpts{})
			if got := actions(plan)["terraform_data.a"]; got != tc.wantAction {
				t.Fatalf("action = %s, want %s", got, tc.wantAction)
			}
			if got := objectAttr(t, state, "terraform_data.a", "input"); got != tc.wantInput {
				t.Fatalf("input = %s, want %s", got, tc.wantInput)
			}
		})
	}
}

func TestRefreshDetectsDeletion(t *testing.T) {
	p := &providertest.Provider{Schema: testSchema()}
	e := testEngine(t, p, `resource "test_thing" "a" { name = "a" }`)
	_, state := planApply(t, e, nil, PlanOpts{})
	p.ReadResourceFn = func(req providers.ReadResourceRequest) providers.ReadResourceResponse {
		return providers.ReadResourceResponse{NewState: cty.NullVal(req.PriorState.Type())}
	}
	plan, diags := e.Plan(context.Background(), state, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := actions(plan)["test_thing.a"]; got != plans.Create {
		t.Fatalf("object deleted outside strata should be re-created, got %s", got)
	}
	// With -refresh=false the deletion is not noticed.
	plan, _ = e.Plan(context.Background(), state, PlanOpts{SkipRefresh: true})
	if plan.Changes.HasChanges() {
		t.Fatalf("-refresh=false still refreshed: %v", actions(plan))
	}
}

func TestSensitiveValuesRecorded(t *testing.T) {
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": `
variable "s" {
  default   = "secret"
  sensitive = true
}
resource "terraform_data" "a" {
  input = { name = var.s, other = "x" }
}`}))
	_, state := planApply(t, e, nil, PlanOpts{})
	obj := state.Object(mustInstance(t, "terraform_data.a"))
	if len(obj.SensitivePaths) != 1 || !obj.SensitivePaths[0].Equals(cty.GetAttrPath("input").GetAttr("name")) {
		t.Fatalf("sensitive paths %#v, want input.name", obj.SensitivePaths)
	}
}

func TestImpureFunctionsUnknownUntilApply(t *testing.T) {
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": `
resource "terraform_data" "a" {
  input = { id = uuid(), at = timestamp() }
}`}))
	plan, state := planApply(t, e, nil, PlanOpts{})
	in := plan.Changes.Resource(mustInstance(t, "terraform_data.a")).After.GetAttr("input")
	if in.IsWhollyKnown() {
		t.Fatalf("uuid() and timestamp() should be unknown in the plan, got %#v", in)
	}
	if got := objectAttr(t, state, "terraform_data.a", "input"); !strings.Contains(got, `"id":"`) {
		t.Fatalf("input after apply: %s", got)
	}
}

func TestGraphDOT(t *testing.T) {
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": `
resource "terraform_data" "a" { input = "x" }
locals { l = terraform_data.a.output }
resource "terraform_data" "b" {
  count = 2
  input = local.l
}`}))
	got, diags := e.GraphDOT(context.Background(), nil, "", nil, false)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	want := `digraph G {
  rankdir = "RL";
  node [shape = rect, fontname = "sans-serif"];
  "terraform_data.a" [label="terraform_data.a"];
  "terraform_data.b" [label="terraform_data.b"];
  "terraform_data.b" -> "terraform_data.a";
}
`
	if got != want {
		t.Fatalf("wrong graph:\n%s\nwant:\n%s", got, want)
	}
	full, _ := e.GraphDOT(context.Background(), nil, "plan", nil, false)
	if !strings.Contains(full, `"[root] local.l" -> "[root] terraform_data.a"`) {
		t.Fatalf("full graph lacks the local's edge:\n%s", full)
	}

	// With a state: the plan graph has the resources only in the state,
	// and the apply graph a step per deletion, after what depends on it.
	_, state := planApply(t, builtinEngine(testConfigInline(t, map[string]string{"main.tf": `
resource "terraform_data" "old" { input = "x" }
resource "terraform_data" "a" { input = "x" }`})), nil, PlanOpts{})
	plan, _ := e.GraphDOT(context.Background(), state, "plan", nil, false)
	if !strings.Contains(plan, `"[root] terraform_data.old (orphan)" [label = "terraform_data.old (orphan)"`) {
		t.Fatalf("plan graph lacks the orphan:\n%s", plan)
	}
	apply, diags := e.GraphDOT(context.Background(), state, "apply", nil, false)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if !strings.Contains(apply, `"[root] terraform_data.old (destroy)" -> "[root] provider[\"terraform.io/builtin/terraform\"]"`) || strings.Contains(apply, "(orphan)") {
		t.Fatalf("apply graph lacks the deletion step:\n%s", apply)
	}
}

func TestDeprecatedArgumentWarns(t *testing.T) {
	schema := testSchema()
	schema.ResourceTypes["test_thing"].Block.Attributes["color"].Deprecated = true
	p := &providertest.Provider{Schema: schema}
	e := testEngine(t, p, `resource "test_thing" "a" {
  name  = "a"
  color = "red"
}`)
	// Once from the validation every plan starts with, once from the
	// plan, as Terraform reports a provider's validation warnings.
	_, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if diags.HasErrors() || len(diags) != 2 {
		t.Fatalf("wrong diagnostics: %v", diags)
	}
	for _, d := range diags {
		if d.Summary != "Argument is deprecated" || d.Subject == nil || d.Subject.Start.Line != 3 {
			t.Fatalf("wrong diagnostics: %v", diags)
		}
	}
}

func TestPostconditionAfterApply(t *testing.T) {
	p := &providertest.Provider{Schema: testSchema()}
	e := testEngine(t, p, `
resource "test_thing" "a" {
  name = "a"
  lifecycle {
    postcondition {
      condition     = self.id == "expected"
      error_message = "The id was ${self.id}."
    }
  }
}`)
	plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if diags.HasErrors() {
		t.Fatalf("the postcondition is unknown during plan and must wait: %v", diags)
	}
	state, diags := e.Apply(context.Background(), plan)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Resource postcondition failed") || !strings.Contains(diags.Error(), "The id was applied.") {
		t.Fatalf("wrong diagnostics: %v", diags)
	}
	if state.Object(mustInstance(t, "test_thing.a")) == nil {
		t.Fatal("the object must be saved even when its postcondition fails")
	}
}

// TestCreateBeforeDestroyInherited: everything a create_before_destroy
// resource depends on (through another resource, depends_on or a module
// boundary) is replaced create-then-destroy and flagged in the state; a
// resource outside that chain is replaced destroy-first.
func TestCreateBeforeDestroyInherited(t *testing.T) {
	e := builtinEngine(testConfigInline(t, map[string]string{
		"main.tf": `
variable "v" { default = "1" }
resource "terraform_data" "c" { triggers_replace = var.v }
resource "terraform_data" "b" { input = terraform_data.c.id }
resource "terraform_data" "d" { triggers_replace = var.v }
resource "terraform_data" "a" {
  input      = terraform_data.b.id
  depends_on = [terraform_data.d]
  lifecycle { create_before_destroy = true }
}
resource "terraform_data" "e" { triggers_replace = var.v }
module "m" {
  source = "./m"
  in     = terraform_data.e.id
  v      = var.v
}
resource "terraform_data" "plain" { triggers_replace = var.v }
`,
		"m/main.tf": `
variable "in" {}
variable "v" {}
resource "terraform_data" "cbd" {
  input = var.in
  lifecycle { create_before_destroy = true }
}
`}))
	_, state := planApply(t, e, nil, PlanOpts{})
	plan, state2 := planApply(t, e, state, PlanOpts{Variables: map[string]InputValue{"v": {Value: cty.StringVal("2")}}})
	want := map[string]plans.Action{
		"terraform_data.c":     plans.CreateThenDelete,
		"terraform_data.d":     plans.CreateThenDelete,
		"terraform_data.e":     plans.CreateThenDelete,
		"terraform_data.plain": plans.DeleteThenCreate,
	}
	got := actions(plan)
	for addr, a := range want {
		if got[addr] != a {
			t.Errorf("%s: %s, want %s", addr, got[addr], a)
		}
	}
	for addr, flagged := range map[string]bool{"terraform_data.b": true, "terraform_data.c": true, "terraform_data.e": true, "terraform_data.plain": false} {
		inst := state2.Resource(mustResource(t, addr)).Instances[nil]
		if inst == nil || inst.Current == nil || inst.Current.CreateBeforeDestroy != flagged {
			t.Errorf("%s: create_before_destroy in state is not %v: %+v", addr, flagged, inst)
		}
	}
}
