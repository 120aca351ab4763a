package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/plans"
)

func mustTarget(t *testing.T, s string) addrs.Target {
	t.Helper()
	tg, diags := addrs.ParseTarget(s)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return tg
}

func TestTargetAndReplace(t *testing.T) {
	src := func(v string) string {
		return `
resource "terraform_data" "base" { input = "` + v + `" }
resource "terraform_data" "uses" { input = terraform_data.base.output }
resource "terraform_data" "other" { input = "` + v + `" }
resource "terraform_data" "many" {
  count = 2
  input = "` + v + `"
}
output "o" { value = terraform_data.other.output }
`
	}
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": src("one")}))
	_, state := planApply(t, e, nil, PlanOpts{})

	e2 := builtinEngine(testConfigInline(t, map[string]string{"main.tf": src("two")}))
	plan, diags := e2.Plan(context.Background(), state, PlanOpts{Targets: []addrs.Target{mustTarget(t, "terraform_data.uses"), mustTarget(t, "terraform_data.many[1]")}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if !strings.Contains(diags[0].Summary, "Resource targeting is in effect") {
		t.Fatalf("no targeting warning: %v", diags)
	}
	got := actions(plan)
	want := map[string]plans.Action{"terraform_data.base": plans.Update, "terraform_data.uses": plans.Update, "terraform_data.many[1]": plans.Update}
	if len(got) != len(want) {
		t.Fatalf("targeted plan has %v, want %v", got, want)
	}
	for k, a := range want {
		if got[k] != a {
			t.Fatalf("%s: %s, want %s (all: %v)", k, got[k], a, got)
		}
	}
	if len(plan.Changes.Outputs) != 0 {
		t.Fatalf("output o depends on an untargeted resource but was planned: %v", plan.Changes.Outputs)
	}
	if _, diags := e2.Apply(context.Background(), plan); diags.HasErrors() {
		t.Fatal(diags.Error())
	}

	// -replace forces a replacement without any change.
	plan, diags = e.Plan(context.Background(), state, PlanOpts{ForceReplace: []addrs.Target{mustTarget(t, "terraform_data.other")}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	c := plan.Changes.Resource(mustInstance(t, "terraform_data.other"))
	if c.Action != plans.DeleteThenCreate || c.Reason != plans.ReasonReplaceByRequest {
		t.Fatalf("-replace planned %s/%d", c.Action, c.Reason)
	}

	// Destroying a target also destroys what depends on it, nothing else.
	plan, _ = e.Plan(context.Background(), state, PlanOpts{Mode: plans.DestroyMode, Targets: []addrs.Target{mustTarget(t, "terraform_data.base")}})
	got = actions(plan)
	if len(got) != 2 || got["terraform_data.base"] != plans.Delete || got["terraform_data.uses"] != plans.Delete {
		t.Fatalf("targeted destroy: %v", got)
	}
	_ = cty.NilVal
}

// TestTargetModules targets module calls, module instances and resources
// inside modules: only what they name (and what that depends on) is
// planned.
func TestTargetModules(t *testing.T) {
	files := func(v string) map[string]string {
		return map[string]string{
			"main.tf": `
resource "terraform_data" "root" { input = "` + v + `" }
module "a" {
  source = "./mod"
  count  = 2
  v      = "` + v + `"
}
module "b" {
  source = "./mod"
  v      = "` + v + `"
}
`,
			"mod/main.tf": `
variable "v" {}
resource "terraform_data" "x" { input = var.v }
resource "terraform_data" "y" { input = var.v }
`,
		}
	}
	_, state := planApply(t, builtinEngine(testConfigInline(t, files("one"))), nil, PlanOpts{})
	e := builtinEngine(testConfigInline(t, files("two")))
	tests := map[string][]string{
		"module.a":                     {"module.a[0].terraform_data.x", "module.a[0].terraform_data.y", "module.a[1].terraform_data.x", "module.a[1].terraform_data.y"},
		"module.a[1]":                  {"module.a[1].terraform_data.x", "module.a[1].terraform_data.y"},
		"module.b.terraform_data.y":    {"module.b.terraform_data.y"},
		"module.a[0].terraform_data.x": {"module.a[0].terraform_data.x"},
		"module.a.terraform_data.x":    {"module.a[0].terraform_data.x", "module.a[1].terraform_data.x"},
	}
	for target, want := range tests {
		t.Run(target, func(t *testing.T) {
			plan, diags := e.Plan(context.Background(), state, PlanOpts{Targets: []addrs.Target{mustTarget(t, target)}})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got := actions(plan)
			if len(got) != len(want) {
				t.Fatalf("planned %v, want updates of %v", got, want)
			}
			for _, addr := range want {
				if got[addr] != plans.Update {
					t.Errorf("%s: %s, want update (all: %v)", addr, got[addr], got)
				}
			}
		})
	}
}
