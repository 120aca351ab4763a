package command

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestE2ERefreshConditionsMatchesTerraform: strata refresh, as
// Terraform's refresh, makes a failing precondition or postcondition an
// error, of a managed resource as of a data source, exits 1 and writes
// no state; plan -refresh-only keeps them warnings for managed resources
// in both tools. Compared with terraform: exit code, stderr, the lines
// of stdout (in any order: refreshes run concurrently) and the state.
// It also accepts and ignores -replace, as Terraform's refresh does.
func TestE2ERefreshConditionsMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	const config = `variable "pre" {
  default = true
}
variable "post" {
  default = true
}
variable "out" {
  default = "x"
}
resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    precondition {
      condition     = var.pre
      error_message = "pre failed"
    }
  }
}
resource "terraform_data" "b" {
  input = "y"
  lifecycle {
    postcondition {
      condition     = var.post
      error_message = "post failed"
    }
  }
}
resource "terraform_data" "c" {
  input = terraform_data.a.output
}
data "terraform_remote_state" "d" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
  lifecycle {
    precondition {
      condition     = var.pre
      error_message = "data pre failed"
    }
    postcondition {
      condition     = var.post
      error_message = "data post failed"
    }
  }
}
output "o" {
  value = "${terraform_data.c.output}-${var.out}"
}
`
	const other = `{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"6a5a0a3e-1111-2222-3333-444444444444","outputs":{"v":{"value":2,"type":"number"}},"resources":[],"check_results":null}
`
	tests := map[string][]string{
		"precondition":              {"refresh", "-var", "pre=false", "-var", "out=y"},
		"postcondition":             {"refresh", "-var", "post=false", "-var", "out=y"},
		"both":                      {"refresh", "-var", "pre=false", "-var", "post=false", "-var", "out=y"},
		"none":                      {"refresh", "-var", "out=y"},
		"refresh-only plan":         {"plan", "-refresh-only", "-var", "pre=false", "-var", "post=false"},
		"refresh-only apply":        {"apply", "-refresh-only", "-auto-approve", "-var", "post=false", "-var", "out=y"},
		"refresh-only apply, pre":   {"apply", "-refresh-only", "-auto-approve", "-var", "pre=false", "-var", "out=y"},
		"refresh, json, postcondtn": {"refresh", "-json", "-var", "post=false"},
		"refresh, compact warnings": {"refresh", "-compact-warnings", "-var", "pre=false"},
		// -replace is accepted and ignored, once its addresses are checked.
		"replace":             {"refresh", "-replace=terraform_data.a", "-var", "out=y"},
		"replace, no such":    {"refresh", "-replace=terraform_data.zz"},
		"replace, invalid":    {"refresh", "-replace=foo"},
		"replace, no address": {"refresh", "-replace"},
	}
	for name, args := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			run := func(bin string) (result, string) {
				dir := t.TempDir()
				writeFile(t, filepath.Join(dir, "main.tf"), config)
				writeFile(t, filepath.Join(dir, "other.tfstate"), other)
				if r := runWith(t, dir, "", bin, nil, "init", "-no-color"); r.code != 0 {
					t.Fatalf("%s init: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
				}
				if r := runWith(t, dir, "", bin, nil, "apply", "-no-color", "-auto-approve"); r.code != 0 {
					t.Fatalf("%s apply: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
				}
				r := runWith(t, dir, "", bin, nil, append([]string{args[0], "-no-color"}, args[1:]...)...)
				var st struct {
					Outputs map[string]struct{ Value any }
				}
				if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &st); err != nil {
					t.Fatal(err)
				}
				return r, st.Outputs["o"].Value.(string)
			}
			got, gotOut := run(strataBin)
			want, wantOut := run(tf)
			norm := func(s string) string {
				s = strings.ReplaceAll(s, "Terraform", "strata")
				s = uuidRe.ReplaceAllString(s, "UUID")
				lines := strings.Split(s, "\n")
				if strings.Contains(s, `"@timestamp"`) {
					lines = orderedJSONMessages(t, s)
				}
				sort.Strings(lines)
				return strings.Join(lines, "\n")
			}
			if got.code != want.code || norm(got.stdout) != norm(want.stdout) || got.stderr != strings.NewReplacer("Terraform", "strata", "terraform refresh", "strata refresh").Replace(want.stderr) || gotOut != wantOut {
				t.Errorf("differs from terraform:\nterraform: exit %d, output o %q\n%s\n--- stderr\n%s\nstrata: exit %d, output o %q\n%s\n--- stderr\n%s", want.code, wantOut, want.stdout, want.stderr, got.code, gotOut, got.stdout, got.stderr)
			}
		})
	}
}
