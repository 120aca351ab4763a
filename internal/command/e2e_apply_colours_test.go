package command

import (
	"os/exec"
	"regexp"
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
	tf, err := exec.LookPath("terraform")
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
			runs[bin] = append(runs[bin], runTool(t, dir, "", bin, args...))
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
