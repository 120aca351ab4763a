package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2EErroredPlanFile: when planning fails after it started, plan -out
// still writes the plan, marked errored, with what was planned before the
// error; show -json says errored and not applyable, and apply refuses it.
// Each case is compared with terraform when it is installed.
func TestE2EErroredPlanFile(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		step1, config string
		changes       []string
	}{
		"precondition": {
			config: `resource "terraform_data" "a" {
  input = "x"
}
resource "terraform_data" "b" {
  input = terraform_data.a.input
  lifecycle {
    precondition {
      condition     = terraform_data.a.input == "y"
      error_message = "nope"
    }
  }
}
`,
			changes: []string{"terraform_data.a create"},
		},
		"variable validation": {
			config: `variable "v" {
  default = "a"
  validation {
    condition     = var.v == "b"
    error_message = "must be b"
  }
}
resource "terraform_data" "a" {
  input = var.v
}
`,
		},
		"prevent_destroy": {
			step1:   "resource \"terraform_data\" \"a\" {\n  input = \"1\"\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n",
			config:  "resource \"terraform_data\" \"a\" {\n  input            = \"2\"\n  triggers_replace = [1]\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n",
			changes: []string{"terraform_data.a delete,create"},
		},
		"failing data source": {
			config: `resource "terraform_data" "a" {
  input = "1"
}
data "terraform_remote_state" "s" {
  backend = "local"
  config = {
    path = "nope.tfstate"
  }
}
`,
			changes: []string{"terraform_data.a create"},
		},
	}
	type outcome struct {
		PlanCode, ApplyCode int
		Errored, Applyable  bool
		Changes             []string
	}
	run := func(t *testing.T, bin, step1, config string) outcome {
		t.Helper()
		dir := t.TempDir()
		if step1 != "" {
			writeFile(t, filepath.Join(dir, "main.tf"), step1)
			if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
				t.Fatalf("%s apply: %s", bin, r.stderr)
			}
		}
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		var o outcome
		o.PlanCode = runIn(t, dir, "", bin, "plan", "-out=p.plan", "-no-color").code
		if _, err := os.Stat(filepath.Join(dir, "p.plan")); err != nil {
			t.Fatalf("%s wrote no plan file", bin)
		}
		r := runIn(t, dir, "", bin, "show", "-json", "p.plan")
		var doc struct {
			Errored   bool `json:"errored"`
			Applyable bool `json:"applyable"`
			Changes   []struct {
				Address string `json:"address"`
				Change  struct {
					Actions []string `json:"actions"`
				} `json:"change"`
			} `json:"resource_changes"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%s show -json: %v\n%s%s", bin, err, r.stdout, r.stderr)
		}
		o.Errored, o.Applyable = doc.Errored, doc.Applyable
		for _, c := range doc.Changes {
			o.Changes = append(o.Changes, c.Address+" "+strings.Join(c.Change.Actions, ","))
		}
		r = runIn(t, dir, "", bin, "apply", "-no-color", "p.plan")
		o.ApplyCode = r.code
		if !strings.Contains(r.stderr, "Cannot apply incomplete plan") {
			t.Errorf("%s apply of an errored plan:\n%s", bin, r.stderr)
		}
		return o
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := run(t, strataBin, tc.step1, tc.config)
			want := outcome{PlanCode: 1, ApplyCode: 1, Errored: true, Changes: tc.changes}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("errored plan (-want +got)\n%s", diff)
			}
			if tf, err := referenceTerraform(); err == nil {
				if diff := cmp.Diff(run(t, tf, tc.step1, tc.config), got); diff != "" {
					t.Errorf("differs from terraform (-terraform +strata)\n%s", diff)
				}
			}
		})
	}
}
