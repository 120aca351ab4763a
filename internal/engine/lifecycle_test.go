package engine

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
	"github.com/strata-dev/strata/internal/states"
)

// testSchema is the schema of the fake provider's "test_thing".
func testSchema() providers.GetProviderSchemaResponse {
	return providers.GetProviderSchemaResponse{
		ResourceTypes: map[string]providers.Schema{
			"test_thing": {Block: &configschema.Block{
				Attributes: map[string]*configschema.Attribute{
					"id":    {Type: cty.String, Computed: true},
					"name":  {Type: cty.String, Required: true},
					"size":  {Type: cty.Number, Optional: true, Computed: true},
					"color": {Type: cty.String, Optional: true},
				},
			}},
		},
	}
}

func testEngine(t *testing.T, p *providertest.Provider, src string) *Engine {
	t.Helper()
	cfg := testConfigInline(t, map[string]string{"main.tf": src})
	return &Engine{
		Config: cfg,
		Providers: map[addrs.Provider]providers.Factory{
			addrs.NewDefaultProvider("test"): func() (providers.Interface, error) { return p, nil },
		},
		Version: "test",
	}
}

func TestApplyInconsistentResult(t *testing.T) {
	p := &providertest.Provider{Schema: testSchema()}
	p.ApplyResourceChangeFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		v := req.PlannedState.AsValueMap()
		v["id"] = cty.StringVal("x")
		v["name"] = cty.StringVal("changed by provider")
		v["size"] = cty.NumberIntVal(1)
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(v)}
	}
	e := testEngine(t, p, `resource "test_thing" "a" { name = "a" }`)
	plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	state, diags := e.Apply(context.Background(), plan)
	if !diags.HasErrors() {
		t.Fatal("expected an error")
	}
	msg := diags.Error()
	if !strings.Contains(msg, "Provider produced inconsistent result after apply") || !strings.Contains(msg, ".name") {
		t.Fatalf("wrong error: %s", msg)
	}
	// The object is still saved so that nothing is lost.
	if state.Object(mustInstance(t, "test_thing.a")) == nil {
		t.Fatal("new state was not saved")
	}
}

func TestPlanInvalidPlan(t *testing.T) {
	tests := map[string]struct {
		plan func(req providers.PlanResourceChangeRequest) cty.Value
		want string
	}{
		"config value changed": {
			plan: func(req providers.PlanResourceChangeRequest) cty.Value {
				v := req.ProposedNewState.AsValueMap()
				v["name"] = cty.StringVal("other")
				v["id"] = cty.UnknownVal(cty.String)
				return cty.ObjectVal(v)
			},
			want: ".name: planned value",
		},
		"non-computed set": {
			plan: func(req providers.PlanResourceChangeRequest) cty.Value {
				v := req.ProposedNewState.AsValueMap()
				v["color"] = cty.StringVal("red")
				v["id"] = cty.UnknownVal(cty.String)
				return cty.ObjectVal(v)
			},
			want: ".color",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &providertest.Provider{Schema: testSchema()}
			p.PlanResourceChangeFn = func(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
				return providers.PlanResourceChangeResponse{PlannedState: tc.plan(req)}
			}
			e := testEngine(t, p, `resource "test_thing" "a" { name = "a" }`)
			_, diags := e.Plan(context.Background(), nil, PlanOpts{})
			if !diags.HasErrors() || !strings.Contains(diags.Error(), "Provider produced invalid plan") || !strings.Contains(diags.Error(), tc.want) {
				t.Fatalf("wrong diagnostics: %v", diags)
			}
		})
	}
}

func TestApplyInconsistentFinalPlan(t *testing.T) {
	p := &providertest.Provider{Schema: testSchema()}
	var calls int32
	p.PlanResourceChangeFn = func(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
		v := req.ProposedNewState.AsValueMap()
		v["id"] = cty.UnknownVal(cty.String)
		// The first plan promises size 1, the second 2.
		v["size"] = cty.NumberIntVal(int64(atomic.AddInt32(&calls, 1)))
		return providers.PlanResourceChangeResponse{PlannedState: cty.ObjectVal(v)}
	}
	e := testEngine(t, p, `resource "test_thing" "a" { name = "a" }`)
	plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	_, diags = e.Apply(context.Background(), plan)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Provider produced inconsistent final plan") || !strings.Contains(diags.Error(), ".size") {
		t.Fatalf("wrong diagnostics: %v", diags)
	}
}

func TestReplaceAndUpdate(t *testing.T) {
	cfg := `
variable "in" { default = "one" }
variable "trigger" { default = "t1" }
resource "terraform_data" "a" {
  input            = var.in
  triggers_replace = var.trigger
}
resource "terraform_data" "b" {
  input = terraform_data.a.output
}
`
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": cfg}))
	_, state := planApply(t, e, nil, PlanOpts{})
	idBefore := objectAttr(t, state, "terraform_data.a", "id")

	// Changing input updates a in place; its output becomes unknown, so b
	// is updated too.
	plan, state2 := planApply(t, e, state, PlanOpts{Variables: map[string]InputValue{"in": {Value: cty.StringVal("two")}}})
	if got := actions(plan); got["terraform_data.a"] != plans.Update || got["terraform_data.b"] != plans.Update {
		t.Fatalf("wrong actions %v", got)
	}
	a := plan.Changes.Resource(mustInstance(t, "terraform_data.a"))
	if a.After.GetAttr("output").IsKnown() {
		t.Fatal("output should be unknown in the plan when input changes")
	}
	if got := objectAttr(t, state2, "terraform_data.b", "output"); got != `"two"` {
		t.Fatalf("b.output = %s", got)
	}

	// Changing triggers_replace replaces a.
	plan, state3 := planApply(t, e, state2, PlanOpts{Variables: map[string]InputValue{
		"in": {Value: cty.StringVal("two")}, "trigger": {Value: cty.StringVal("t2")},
	}})
	ac := plan.Changes.Resource(mustInstance(t, "terraform_data.a"))
	if ac.Action != plans.DeleteThenCreate || len(ac.RequiredReplace) != 1 {
		t.Fatalf("expected replacement forced by triggers_replace, got %s %v", ac.Action, ac.RequiredReplace)
	}
	if objectAttr(t, state3, "terraform_data.a", "id") == idBefore {
		t.Fatal("a was not replaced")
	}
}

func TestDestroyOrder(t *testing.T) {
	// c depends on b depends on a; destroy must delete c, then b, then a.
	var mu sync.Mutex
	var order []string
	p := &providertest.Provider{Schema: testSchema()}
	p.ApplyResourceChangeFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		if req.PlannedState.IsNull() {
			mu.Lock()
			order = append(order, req.PriorState.GetAttr("name").AsString())
			mu.Unlock()
			return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
		}
		v := req.PlannedState.AsValueMap()
		v["id"] = cty.StringVal("id-" + v["name"].AsString())
		if !v["size"].IsKnown() {
			v["size"] = cty.NumberIntVal(1)
		}
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(v)}
	}
	e := testEngine(t, p, `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b-${test_thing.a.id}" }
resource "test_thing" "c" { name = "c-${test_thing.b.id}" }
`)
	_, state := planApply(t, e, nil, PlanOpts{})
	// Destroy without configuration: order comes from the state's
	// dependencies alone.
	e2 := testEngine(t, p, `# empty`)
	plan, _ := planApply(t, e2, state, PlanOpts{})
	if n := len(plan.Changes.Resources); n != 3 {
		t.Fatalf("expected 3 deletions, got %d", n)
	}
	want := []string{"c-id-b-id-a", "b-id-a", "a"}
	if strings.Join(order, ",") != strings.Join(want, ",") {
		t.Fatalf("wrong destroy order %v, want %v", order, want)
	}
}

func TestApplyRecordsJournal(t *testing.T) {
	rec := &recorder{}
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": `
resource "terraform_data" "a" { input = 1 }
output "o" { value = terraform_data.a.output }
`}))
	e.Recorder = rec
	planApply(t, e, nil, PlanOpts{})
	got := strings.Join(rec.events, ",")
	if got != "intent terraform_data.a create,set terraform_data.a,output o" {
		t.Fatalf("wrong records: %s", got)
	}
}

func TestParallelismBound(t *testing.T) {
	var cur, peak int32
	p := &providertest.Provider{Schema: testSchema()}
	p.ApplyResourceChangeFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		n := atomic.AddInt32(&cur, 1)
		for {
			old := atomic.LoadInt32(&peak)
			if n <= old || atomic.CompareAndSwapInt32(&peak, old, n) {
				break
			}
		}
		defer atomic.AddInt32(&cur, -1)
		v := req.PlannedState.AsValueMap()
		v["id"], v["size"] = cty.StringVal("x"), cty.NumberIntVal(1)
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(v)}
	}
	e := testEngine(t, p, `
resource "test_thing" "a" {
  count = 50
  name  = "a${count.index}"
}`)
	e.Parallelism = 3
	planApply(t, e, nil, PlanOpts{})
	if peak > 3 {
		t.Fatalf("%d provider operations ran at once, limit 3", peak)
	}
}

func TestCancelledApplyStopsProviders(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	var once sync.Once
	p := &providertest.Provider{Schema: testSchema(), StopFn: func() { once.Do(func() { close(stopped) }) }}
	p.ApplyResourceChangeFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		cancel() // the user presses Ctrl-C during the first create
		select {
		case <-stopped: // the engine asks the provider to stop
		case <-time.After(10 * time.Second):
			t.Error("Stop was not called while the operation ran")
		}
		v := req.PlannedState.AsValueMap()
		v["id"], v["size"] = cty.StringVal("x"), cty.NumberIntVal(1)
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(v)}
	}
	e := testEngine(t, p, `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id }
`)
	plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	state, _ := e.Apply(ctx, plan)
	if state.Object(mustInstance(t, "test_thing.a")) == nil {
		t.Fatal("the finished create of a was lost")
	}
	if state.Object(mustInstance(t, "test_thing.b")) != nil {
		t.Fatal("b should not have been started after the interrupt")
	}
}

type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) Intent(addr addrs.AbsResourceInstance, deposed, action string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "intent "+addr.String()+" "+action)
	return nil
}

func (r *recorder) Set(addr addrs.AbsResourceInstance, deposed string, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "set "+addr.String())
	return nil
}

func (r *recorder) SetOutput(name string, v *states.OutputValue) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "output "+name)
	return nil
}
