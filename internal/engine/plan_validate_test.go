package engine

import (
	"context"
	"testing"

	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// TestPlanValidatesFirst: as Terraform, every plan validates the whole
// configuration before planning, so an error in a block that has no
// instances (count = 0, an empty for_each, a module called zero times)
// stops normal, refresh-only and destroy plans alike, with no plan.
func TestPlanValidatesFirst(t *testing.T) {
	const bad = "  input = 1 + \"a\"\n"
	configs := map[string]map[string]string{
		"count = 0":      {"main.tf": "resource \"terraform_data\" \"a\" {\n  count = 0\n" + bad + "}\n"},
		"empty for_each": {"main.tf": "resource \"terraform_data\" \"a\" {\n  for_each = {}\n" + bad + "}\n"},
		"module called zero times": {
			"main.tf":   "module \"m\" {\n  source = \"./m\"\n  count  = 0\n}\n",
			"m/main.tf": "resource \"terraform_data\" \"a\" {\n" + bad + "}\n",
		},
	}
	modes := map[string]plans.Mode{"normal": plans.NormalMode, "refresh-only": plans.RefreshOnlyMode, "destroy": plans.DestroyMode}
	for name, files := range configs {
		for modeName, mode := range modes {
			t.Run(name+"/"+modeName, func(t *testing.T) {
				e := builtinEngine(testConfigInline(t, files))
				plan, diags := e.Plan(context.Background(), states.New(), PlanOpts{Mode: mode})
				if plan != nil {
					t.Errorf("a plan was made")
				}
				if len(diags) != 1 || diags[0].Summary != "Invalid operand" {
					t.Errorf("diagnostics %v, want validation's Invalid operand alone", diags)
				}
			})
		}
	}
}
