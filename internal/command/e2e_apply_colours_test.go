package command

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestE2EApplyProgressColoursMatchTerraform: the coloured lines of an
// apply, refresh and destroy after the plan (each resource's progress,
// "Apply complete!", "Outputs:") carry Terraform's escape codes byte for
// byte, so that logs captured from a terminal compare equal. Object ids
// and the product name are normalized.
func TestE2EApplyProgressColoursMatchTerraform(t *testing.T) {
	t.Parallel()
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed")
	}
	src := map[string]string{"main.tf": `resource "terraform_data" "a" {
  input = "x"
}
output "n" {
  value = terraform_data.a.output
}
`}
	ids := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	// progress returns out from marker on (the plan before it, and the
	// codes that close it, are not compared).
	progress := func(out, marker string) string {
		out = ids.ReplaceAllString(strings.ReplaceAll(out, "Terraform", "strata"), "ID")
		if i := strings.Index(out, marker); i >= 0 {
			return out[i:]
		}
		return out
	}
	runs := map[string][]result{}
	for _, bin := range []string{tf, strataBin} {
		dir := writeFiles(t, src)
		for _, args := range [][]string{{"refresh"}, {"apply", "-auto-approve"}, {"refresh"}, {"destroy", "-auto-approve"}} {
			runs[bin] = append(runs[bin], runIn(t, dir, "", bin, args...))
		}
	}
	// The first refresh starts from an empty state, with an output not
	// known yet: Terraform warns and succeeds.
	markers := []string{"", "terraform_data.a: Creating...", "", "terraform_data.a: Destroying..."}
	for i, m := range markers {
		want, got := runs[tf][i], runs[strataBin][i]
		w, g := progress(want.stdout, m), progress(got.stdout, m)
		if got.code != want.code || w != g || want.stderr != got.stderr {
			t.Errorf("run %d: strata exit %d, terraform %d\nstrata:\n%q\nterraform:\n%q\nstrata stderr:\n%s\nterraform stderr:\n%s", i, got.code, want.code, g, w, got.stderr, want.stderr)
		}
	}
}

// TestE2EFailedApplyPlanMatchesTerraform: an apply whose plan fails says
// "Planning failed." as Terraform does, only when the failed plan has
// changes, no-ops included: a postcondition failing on an existing
// object does; a data source failing before anything is planned does
// not.
func TestE2EFailedApplyPlanMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed")
	}
	cases := map[string]struct {
		src  string
		runs int
	}{
		"postcondition on an existing object": {runs: 2, src: `resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    postcondition {
      condition     = self.output == "y"
      error_message = "bad output"
    }
  }
}
`},
		"data source read fails": {runs: 1, src: `data "terraform_remote_state" "x" {
  backend = "local"
  config  = { path = "nope.tfstate" }
}
resource "terraform_data" "a" {
  input = 2
  lifecycle {
    precondition {
      condition     = data.terraform_remote_state.x.outputs == {}
      error_message = "nope"
    }
  }
}
`},
	}
	ids := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	norm := func(s string) string { return ids.ReplaceAllString(strings.ReplaceAll(s, "Terraform", "strata"), "ID") }
	// In a fixed order: the directories each case gets are numbered.
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		tc := cases[name]
		var res []result
		for _, bin := range []string{tf, strataBin} {
			dir := writeFiles(t, map[string]string{"main.tf": tc.src})
			var r result
			for i := 0; i < tc.runs; i++ {
				r = runIn(t, dir, "", bin, "apply", "-no-color", "-auto-approve")
			}
			res = append(res, r)
		}
		want, got := res[0], res[1]
		if got.code != want.code || norm(want.stdout) != norm(got.stdout) || norm(want.stderr) != norm(got.stderr) {
			t.Errorf("%s: strata exit %d, terraform %d\nstrata:\n%s%s\nterraform:\n%s%s", name, got.code, want.code, got.stdout, got.stderr, want.stdout, want.stderr)
		}
	}
}

// TestE2ECompactWarningsMatchTerraform: -compact-warnings lists each
// warning with where it is ("  on main.tf line 1"), under Terraform's
// bold yellow heading, with and without colour.
func TestE2ECompactWarningsMatchTerraform(t *testing.T) {
	t.Parallel()
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed")
	}
	dir := writeFiles(t, map[string]string{"main.tf": `resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    ignore_changes = [id]
  }
}
check "c" {
  assert {
    condition     = terraform_data.a.output == "z"
    error_message = "check failed"
  }
}
`})
	// warnings returns out from the line with the Warnings: heading on.
	warnings := func(out string) string {
		out = strings.ReplaceAll(out, "Terraform", "strata")
		i := strings.Index(out, "Warnings:")
		if i < 0 {
			return out
		}
		return out[strings.LastIndex(out[:i], "\n")+1:]
	}
	for _, args := range [][]string{{"plan", "-compact-warnings"}, {"plan", "-no-color", "-compact-warnings"}} {
		want, got := runIn(t, dir, "", tf, args...), runIn(t, dir, "", strataBin, args...)
		if w, g := warnings(want.stdout), warnings(got.stdout); got.code != want.code || w != g {
			t.Errorf("%s: strata exit %d, terraform %d\nstrata:\n%q\nterraform:\n%q", strings.Join(args, " "), got.code, want.code, g, w)
		}
	}
}

// TestE2ERefreshOnlyConditionsMatchTerraform: a refresh-only plan checks
// the preconditions and postconditions of the objects it reads, and
// reports failures as warnings, as Terraform does. (Terraform's refresh
// command makes a failed precondition an error and stops; strata's warns.)
func TestE2ERefreshOnlyConditionsMatchTerraform(t *testing.T) {
	t.Parallel()
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed")
	}
	src := `variable "x" {
  default = "a"
}
resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    precondition {
      condition     = var.x == "b"
      error_message = "pre"
    }
    postcondition {
      condition     = self.output == "y"
      error_message = "post"
    }
  }
}
`
	ids := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	norm := func(s string) string { return ids.ReplaceAllString(strings.ReplaceAll(s, "Terraform", "strata"), "ID") }
	for _, args := range [][]string{{"plan", "-refresh-only", "-no-color"}, {"apply", "-refresh-only", "-auto-approve", "-no-color"}} {
		var res []result
		for _, bin := range []string{tf, strataBin} {
			dir := writeFiles(t, map[string]string{"main.tf": src})
			// The postcondition fails the apply, after the object is made.
			runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color", "-var", "x=b")
			res = append(res, runIn(t, dir, "", bin, args...))
		}
		want, got := res[0], res[1]
		if got.code != want.code || norm(want.stdout) != norm(got.stdout) || norm(want.stderr) != norm(got.stderr) {
			t.Errorf("%s: strata exit %d, terraform %d\nstrata:\n%s%s\nterraform:\n%s%s", strings.Join(args, " "), got.code, want.code, got.stdout, got.stderr, want.stdout, want.stderr)
		}
	}
}
