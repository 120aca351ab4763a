package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/plans"
)

// summaries lists each diagnostic as "severity: summary".
func summaries(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		out = append(out, sev+": "+d.Summary)
	}
	return out
}

func TestCheckBlocks(t *testing.T) {
	tests := map[string]struct {
		src       string
		wantPlan  []string // diagnostics of the plan
		wantApply []string // diagnostics of the apply
	}{
		"passing": {
			src:       "locals {\n  one = 1\n}\ncheck \"c\" {\n  assert {\n    condition     = local.one == 1\n    error_message = \"no\"\n  }\n}\n",
			wantPlan:  nil,
			wantApply: nil,
		},
		"failing is a warning": {
			src:       "locals {\n  one = 1\n}\ncheck \"c\" {\n  assert {\n    condition     = local.one == 2\n    error_message = \"no\"\n  }\n}\n",
			wantPlan:  []string{"warning: Check block assertion failed"},
			wantApply: []string{"warning: Check block assertion failed"},
		},
		"unknown until apply": {
			src:       "resource \"terraform_data\" \"a\" { input = \"x\" }\ncheck \"c\" {\n  assert {\n    condition     = terraform_data.a.output == \"x\"\n    error_message = \"no\"\n  }\n}\n",
			wantPlan:  []string{"warning: Check block assertion known after apply"},
			wantApply: nil,
		},
		"nested data source failure is a warning and skips the assertions": {
			src:       "check \"c\" {\n  data \"terraform_remote_state\" \"s\" {\n    backend = \"local\"\n    config = { path = \"missing.tfstate\" }\n  }\n  assert {\n    condition     = length(data.terraform_remote_state.s.outputs) > 0\n    error_message = \"no\"\n  }\n}\n",
			wantPlan:  []string{"warning: Unable to find remote state"},
			wantApply: []string{"warning: Unable to find remote state"},
		},
		"in every module instance": {
			src:       "module \"m\" {\n  source = \"./mod\"\n  count  = 2\n}\n",
			wantPlan:  []string{"warning: Check block assertion failed", "warning: Check block assertion failed"},
			wantApply: []string{"warning: Check block assertion failed", "warning: Check block assertion failed"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := testConfigInline(t, map[string]string{
				"main.tf":     tc.src,
				"mod/main.tf": "variable \"ok\" {\n  default = false\n}\ncheck \"c\" {\n  assert {\n    condition     = var.ok\n    error_message = \"no\"\n  }\n}\n",
			})
			e := builtinEngine(cfg)
			plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
			if got := strings.Join(summaries(diags), "; "); got != strings.Join(tc.wantPlan, "; ") {
				t.Fatalf("plan diagnostics: %s, want %s", got, strings.Join(tc.wantPlan, "; "))
			}
			_, diags = e.Apply(context.Background(), plan)
			if got := strings.Join(summaries(diags), "; "); got != strings.Join(tc.wantApply, "; ") {
				t.Fatalf("apply diagnostics: %s, want %s", got, strings.Join(tc.wantApply, "; "))
			}
			for _, d := range diags {
				if !IsCheckDiagnostic(d) {
					t.Errorf("%q is not marked as a check diagnostic", d.Summary)
				}
			}
		})
	}
}

// TestCheckNestedDataReadAgain: a check's data source is read during plan
// and planned to be read again during apply, after every other change.
func TestCheckNestedDataReadAgain(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "other.tfstate")
	if err := os.WriteFile(state, []byte(`{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"x","outputs":{"o":{"value":"hi","type":"string"}},"resources":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	src := "resource \"terraform_data\" \"a\" { input = \"x\" }\ncheck \"c\" {\n  data \"terraform_remote_state\" \"s\" {\n    backend = \"local\"\n    config = { path = \"" + filepath.ToSlash(state) + "\" }\n  }\n  assert {\n    condition     = data.terraform_remote_state.s.outputs.o == \"hi\"\n    error_message = \"no\"\n  }\n}\n"
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": src}))
	plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if len(diags) > 0 {
		t.Fatalf("plan: %v", diags)
	}
	c := plan.Changes.Resource(mustInstance(t, "data.terraform_remote_state.s"))
	if c == nil || c.Action != plans.Read || c.Reason != plans.ReasonReadBecauseCheckNested {
		t.Fatalf("nested data source change: %+v", c)
	}
	if got := c.After.GetAttr("outputs").GetAttr("o"); !got.IsKnown() || got.AsString() != "hi" {
		t.Fatalf("planned value of the nested data source: %#v", c.After)
	}
	newState, diags := e.Apply(context.Background(), plan)
	if diags.HasErrors() || len(diags) > 0 {
		t.Fatalf("apply: %v", diags)
	}
	if newState.Object(mustInstance(t, "data.terraform_remote_state.s")) == nil {
		t.Fatal("the nested data source is not in the state after apply")
	}
}

// TestCheckResultsInState: after an apply the state records every
// checkable object's result, as Terraform's check_results.
func TestCheckResultsInState(t *testing.T) {
	src := `
variable "n" {
  default = 3
  validation {
    condition     = var.n > 0
    error_message = "positive"
  }
}
resource "terraform_data" "a" {
  count = 2
  input = var.n
  lifecycle {
    postcondition {
      condition     = self.output != null
      error_message = "has output"
    }
  }
}
output "o" {
  value = terraform_data.a[0].output
  precondition {
    condition     = var.n == 3
    error_message = "three"
  }
}
check "c" {
  assert {
    condition     = var.n == 4
    error_message = "not four"
  }
}
`
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": src}))
	_, state := planApply(t, e, nil, PlanOpts{})
	want := `[{"object_kind":"check","config_addr":"check.c","status":"fail","objects":[{"object_addr":"check.c","status":"fail","failure_messages":["not four"]}]},` +
		`{"object_kind":"output","config_addr":"output.o","status":"pass","objects":[{"object_addr":"output.o","status":"pass"}]},` +
		`{"object_kind":"resource","config_addr":"terraform_data.a","status":"pass","objects":[{"object_addr":"terraform_data.a[0]","status":"pass"},{"object_addr":"terraform_data.a[1]","status":"pass"}]},` +
		`{"object_kind":"var","config_addr":"var.n","status":"pass","objects":[{"object_addr":"var.n","status":"pass"}]}]`
	if got := string(state.CheckResults); got != want {
		t.Fatalf("check_results:\n%s\nwant\n%s", got, want)
	}
}
