package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2EShowStateChecks: show -json of a state carries the check results
// the last apply recorded (variable validations, preconditions and
// postconditions, check blocks, in modules and with instances), as
// Terraform's does; each tool reads the state the other wrote.
func TestE2EShowStateChecks(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"main.tf": `variable "x" {
  default = "a"
  validation {
    condition     = length(var.x) > 0
    error_message = "empty"
  }
}
resource "terraform_data" "a" {
  count = 2
  input = var.x
  lifecycle {
    postcondition {
      condition     = self.input == "a"
      error_message = "not a"
    }
  }
}
check "c" {
  assert {
    condition     = terraform_data.a[0].input == "b"
    error_message = "not b"
  }
}
module "m" {
  source = "./m"
  count  = 2
  y      = var.x
}
output "o" {
  value = 1
  precondition {
    condition     = var.x != ""
    error_message = "y"
  }
}
`,
		"m/main.tf": `variable "y" {
  validation {
    condition     = var.y != ""
    error_message = "empty"
  }
}
resource "terraform_data" "r" {
  input = var.y
  lifecycle {
    precondition {
      condition     = var.y == "a"
      error_message = "not a"
    }
  }
}
output "p" {
  value = terraform_data.r.input
  precondition {
    condition     = terraform_data.r.input != ""
    error_message = "z"
  }
}
`,
	}
	apply := func(bin string) string {
		dir := t.TempDir()
		for name, src := range files {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, name), src)
		}
		for _, args := range [][]string{{"init", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
			if r := runIn(t, dir, "", bin, args...); r.code != 0 {
				t.Fatalf("%s %s: %s", bin, args[0], r.stderr)
			}
		}
		return dir
	}
	checks := func(bin, dir string) any {
		r := runIn(t, dir, "", bin, "show", "-json")
		var doc struct {
			Checks any `json:"checks"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%s show -json: %v\n%s", bin, err, r.stderr)
		}
		return doc.Checks
	}
	dir := apply(strataBin)
	got := checks(strataBin, dir)
	if got == nil {
		t.Fatal("show -json has no checks")
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	if diff := cmp.Diff(checks(tf, dir), got); diff != "" {
		t.Errorf("terraform's show -json of strata's state differs (-terraform +strata)\n%s", diff)
	}
	tfDir := apply(tf)
	if diff := cmp.Diff(checks(tf, tfDir), checks(strataBin, tfDir)); diff != "" {
		t.Errorf("show -json of terraform's state differs (-terraform +strata)\n%s", diff)
	}
	if diff := cmp.Diff(checks(tf, tfDir), got); diff != "" {
		t.Errorf("the check results each tool recorded differ (-terraform +strata)\n%s", diff)
	}
	// A destroy checks nothing: both record every object as unknown,
	// the root module's outputs with their one instance.
	for _, run := range []struct{ bin, dir string }{{strataBin, dir}, {tf, tfDir}} {
		if r := runIn(t, run.dir, "", run.bin, "apply", "-destroy", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply -destroy: %s", run.bin, r.stderr)
		}
	}
	// show -json of a state with no resources and outputs leaves out its
	// checks, as no state at all.
	for _, d := range []string{dir, tfDir} {
		want := runIn(t, d, "", tf, "show", "-json").stdout
		if got := runIn(t, d, "", strataBin, "show", "-json").stdout; got != want {
			t.Errorf("show -json after destroy: terraform %s, strata %s", want, got)
		}
	}
	// So the state files are compared.
	recorded := func(dir string) []any {
		var st struct {
			CheckResults []any `json:"check_results"`
		}
		if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &st); err != nil {
			t.Fatal(err)
		}
		sort.Slice(st.CheckResults, func(i, j int) bool {
			return fmt.Sprint(st.CheckResults[i]) < fmt.Sprint(st.CheckResults[j])
		})
		return st.CheckResults
	}
	if want := recorded(tfDir); len(want) == 0 {
		t.Error("terraform recorded no check results after destroy")
	} else if diff := cmp.Diff(want, recorded(dir)); diff != "" {
		t.Errorf("the check results each tool recorded after destroy differ (-terraform +strata)\n%s", diff)
	}
}
