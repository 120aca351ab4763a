package engine

import (
	"context"
	"regexp"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// TestApplyReleasePlanned applies creates, updates, replacements (both
// orders) and a deletion with Engine.ReleasePlanned on and off: the new
// states must be the same, and with it on the changes made keep no
// planned values, but for the prior value of a replacement.
func TestApplyReleasePlanned(t *testing.T) {
	cfg := `
variable "in" { default = "one" }
variable "trigger" { default = "t1" }
variable "n" { default = 2 }
resource "terraform_data" "a" {
  input            = var.in
  triggers_replace = var.trigger
}
resource "terraform_data" "b" {
  input            = terraform_data.a.output
  triggers_replace = var.trigger
  lifecycle { create_before_destroy = true }
}
resource "terraform_data" "c" {
  count = var.n
  input = "${terraform_data.b.output}-${count.index}"
}
output "c" { value = terraform_data.c[*].output }
`
	steps := map[string]map[string]InputValue{
		"create":  nil,
		"update":  {"in": {Value: cty.StringVal("two")}},
		"replace": {"in": {Value: cty.StringVal("two")}, "trigger": {Value: cty.StringVal("t2")}},
		"delete":  {"in": {Value: cty.StringVal("two")}, "trigger": {Value: cty.StringVal("t2")}, "n": {Value: cty.NumberIntVal(1)}},
	}
	order := []string{"create", "update", "replace", "delete"}
	// Generated IDs differ from run to run.
	ids := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	run := func(release bool) (out []string) {
		e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": cfg}))
		e.ReleasePlanned = release
		var state *states.State
		for _, step := range order {
			plan, diags := e.Plan(context.Background(), state, PlanOpts{Variables: steps[step]})
			if diags.HasErrors() {
				t.Fatalf("%s: plan: %s", step, diags.Error())
			}
			if !plan.Changes.HasChanges() {
				t.Fatalf("%s: no changes planned", step)
			}
			state, diags = e.Apply(context.Background(), plan)
			if diags.HasErrors() {
				t.Fatalf("%s: apply: %s", step, diags.Error())
			}
			for _, c := range plan.Changes.Resources {
				switch {
				case !release || c.Action == plans.NoOp || c.Action == plans.Delete:
					if c.After == cty.NilVal || c.Before == cty.NilVal {
						t.Errorf("%s: %s (%s) lost its planned values", step, c.Addr, c.Action)
					}
				case c.Action.IsReplace():
					if c.After != cty.NilVal || c.Before == cty.NilVal {
						t.Errorf("%s: %s (%s): After released %t, Before kept %t; want true, true", step, c.Addr, c.Action, c.After == cty.NilVal, c.Before != cty.NilVal)
					}
				default:
					if c.After != cty.NilVal || c.Before != cty.NilVal {
						t.Errorf("%s: %s (%s) kept its planned values", step, c.Addr, c.Action)
					}
				}
			}
			data, err := statefile.Write(state)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, step+":\n"+ids.ReplaceAllString(string(data), "ID"))
		}
		return out
	}
	kept, released := run(false), run(true)
	for i := range kept {
		if kept[i] != released[i] {
			t.Errorf("states differ with ReleasePlanned\nwithout: %s\nwith:    %s", kept[i], released[i])
		}
	}
}
