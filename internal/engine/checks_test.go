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
