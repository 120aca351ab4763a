package command

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EMovedIntoMissingModule: an object moved into a module call that
// is not declared is destroyed, and the plan says why as Terraform does,
// in the human plan and in show -json's action_reason.
func TestE2EMovedIntoMissingModule(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	step1 := `resource "terraform_data" "a" {
  input = "a"
}
`
	step2 := `moved {
  from = terraform_data.a
  to   = module.nope.terraform_data.a
}
`
	plans := map[string]string{}
	for _, tool := range []string{"terraform", "strata"} {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), step1)
		run := func(want int, args ...string) result {
			t.Helper()
			if tool == "strata" {
				return mustStrata(t, dir, want, args...)
			}
			r := runIn(t, dir, "", tf, args...)
			if r.code != want {
				t.Fatalf("terraform %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
			return r
		}
		if tool == "terraform" {
			run(0, "init", "-no-color")
		}
		run(0, "apply", "-auto-approve", "-no-color")
		writeFile(t, filepath.Join(dir, "main.tf"), step2)
		r := run(0, "plan", "-no-color", "-out=p")
		var lines []string
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "#") {
				lines = append(lines, strings.TrimSpace(l))
			}
		}
		plans[tool] = strings.Join(lines, "\n")
		js := run(0, "show", "-json", "p")
		if !strings.Contains(js.stdout, `"action_reason":"delete_because_no_move_target"`) {
			t.Errorf("%s: show -json lacks delete_because_no_move_target:\n%s", tool, js.stdout)
		}
	}
	if plans["terraform"] != plans["strata"] {
		t.Errorf("plans differ\nterraform:\n%s\nstrata:\n%s", plans["terraform"], plans["strata"])
	}
}
