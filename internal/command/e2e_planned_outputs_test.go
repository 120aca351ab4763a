package command

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2EModuleOutputsKeepPlannedValues: applying a plan made in the same
// command keeps the child module outputs that were known when planned,
// while applying a saved plan evaluates them again, as Terraform does. The
// input here is an unknown string at plan (so the outputs comparing it
// with an object are known) and null at apply (replaced by the default
// object, nullable = false).
func TestE2EModuleOutputsKeepPlannedValues(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"m/main.tf": `variable "input" {
  type     = any
  nullable = false
  default  = { a = [], b = {} }
}
output "provided" { value = var.input != { a = [], b = {} } }
output "isnull" { value = var.input == null }
output "keys" { value = try(keys(var.input), "nokeys") }
`,
		"main.tf": `module "m" {
  source = "./m"
  input  = uuid() == "" ? "foo" : null
}
output "all" { value = module.m }
`,
	}
	run := func(bin string) []string {
		dir := t.TempDir()
		writeTree(t, dir, files)
		step := func(args ...string) string {
			r := runIn(t, dir, "", bin, args...)
			if r.code != 0 {
				t.Fatalf("%s %s: exit %d\n%s%s", filepath.Base(bin), strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
			return r.stdout
		}
		step("init", "-no-color")
		step("apply", "-auto-approve", "-no-color")
		inMemory := step("output", "-json", "all")
		step("destroy", "-auto-approve", "-no-color")
		step("plan", "-no-color", "-out=saved.tfplan")
		step("apply", "-no-color", "saved.tfplan")
		saved := step("output", "-json", "all")
		return []string{strings.TrimSpace(inMemory), strings.TrimSpace(saved)}
	}
	got := run(strataBin)
	want := []string{
		`{"isnull":false,"keys":"nokeys","provided":true}`,
		`{"isnull":false,"keys":["a","b"],"provided":false}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outputs after apply (in memory, saved plan) (-want +got):\n%s", diff)
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	if diff := cmp.Diff(run(tf), got); diff != "" {
		t.Errorf("differs from terraform (-terraform +strata):\n%s", diff)
	}
}
