package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers/builtin"
	"github.com/strata-dev/strata/internal/states"
)

// testConfigInline writes files (names may include directories, for
// child modules) into a temporary directory and loads the configuration.
func testConfigInline(t *testing.T, files map[string]string) *configs.Config {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, diags := configs.NewParser().LoadConfig(dir)
	if diags.HasErrors() {
		t.Fatalf("loading config: %s", diags.Error())
	}
	return cfg
}

func builtinEngine(cfg *configs.Config) *Engine {
	return &Engine{Config: cfg, Providers: builtin.Factories(), Version: "test"}
}

// planApply plans and applies, failing the test on errors.
func planApply(t *testing.T, e *Engine, state *states.State, opts PlanOpts) (*plans.Plan, *states.State) {
	t.Helper()
	plan, diags := e.Plan(context.Background(), state, opts)
	if diags.HasErrors() {
		t.Fatalf("plan: %s", diags.Error())
	}
	newState, diags := e.Apply(context.Background(), plan)
	if diags.HasErrors() {
		t.Fatalf("apply: %s", diags.Error())
	}
	return plan, newState
}

func actions(p *plans.Plan) map[string]plans.Action {
	ret := map[string]plans.Action{}
	for _, c := range p.Changes.Resources {
		ret[c.Addr.String()] = c.Action
	}
	return ret
}

func TestPlanApplyRoundTrip(t *testing.T) {
	cfg := testConfigInline(t, map[string]string{"main.tf": `
variable "n" {
  type    = number
  default = 2
}
resource "terraform_data" "a" {
  count = var.n
  input = "a${count.index}"
}
resource "terraform_data" "b" {
  for_each = toset(["x", "y"])
  input    = "${each.key}-${terraform_data.a[0].output}"
}
output "b" {
  value = terraform_data.b["x"].output
}
`})
	e := builtinEngine(cfg)
	plan, state := planApply(t, e, nil, PlanOpts{})
	add, change, destroy := plan.Changes.Counts()
	if add != 4 || change != 0 || destroy != 0 {
		t.Fatalf("wrong counts %d/%d/%d", add, change, destroy)
	}
	if got := state.Outputs["b"].Value.AsString(); got != "x-a0" {
		t.Fatalf("wrong output %q", got)
	}
	// A second plan changes nothing.
	plan2, diags := e.Plan(context.Background(), state, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if plan2.Changes.HasChanges() {
		t.Fatalf("expected no changes, got %v", actions(plan2))
	}
	// Reducing count deletes the orphaned index.
	plan3, state3 := planApply(t, e, state, PlanOpts{Variables: map[string]InputValue{"n": {Value: ctyNum(1)}}})
	if got := actions(plan3)["terraform_data.a[1]"]; got != plans.Delete {
		t.Fatalf("expected delete of a[1], got %s", got)
	}
	if len(state3.Resource(mustResource(t, "terraform_data.a")).Instances) != 1 {
		t.Fatal("expected one instance of a")
	}
	// Destroy removes everything.
	_, state4 := planApply(t, e, state3, PlanOpts{Mode: plans.DestroyMode})
	if !state4.Empty() {
		t.Fatalf("expected empty state, got %d resources, %d outputs", len(state4.Resources), len(state4.Outputs))
	}
}
