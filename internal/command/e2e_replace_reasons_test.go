package command

import (
	"path/filepath"
	"strings"
	"testing"
)

const replaceReasonsConfig = `variable "v" {
  default = "1"
}
resource "terraform_data" "a" {
  triggers_replace = var.v
}
resource "terraform_data" "b" {
  triggers_replace = { x = var.v }
  lifecycle {
    create_before_destroy = true
  }
}
resource "terraform_data" "c" {
  input = "c"
}
resource "terraform_data" "d" {
  input = "d"
}
`

// TestE2EReplaceReasons: each replacement in a human plan has strata's
// one-line summary of why and in which order; without those lines the
// plan is Terraform's, word for word.
func TestE2EReplaceReasons(t *testing.T) {
	t.Parallel()
	plan := func(bin string) string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), replaceReasonsConfig)
		if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %s", bin, r.stderr)
		}
		if r := runIn(t, dir, "", bin, "taint", "terraform_data.d"); r.code != 0 {
			t.Fatalf("%s taint: %s", bin, r.stderr)
		}
		r := runIn(t, dir, "", bin, "plan", "-no-color", "-var", "v=2", "-replace=terraform_data.c")
		if r.code != 0 {
			t.Fatalf("%s plan: %s", bin, r.stderr)
		}
		return r.stdout
	}
	got := plan(strataBin)
	for _, want := range []string{
		"  # terraform_data.a must be replaced\n  # (strata) replaced because: `triggers_replace` changed (force new); destroy first, then create (no create_before_destroy)\n-/+ resource",
		"  # terraform_data.b must be replaced\n  # (strata) replaced because: `triggers_replace` changed (force new); create the new object first, then destroy the old one (create_before_destroy)\n+/- resource",
		"  # terraform_data.c will be replaced, as requested\n  # (strata) replaced because: -replace names it; destroy first, then create (no create_before_destroy)\n-/+ resource",
		"  # terraform_data.d is tainted, so must be replaced\n  # (strata) replaced because: the object is tainted (a create or provisioner failed, or it was tainted by hand); destroy first, then create (no create_before_destroy)\n-/+ resource",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("plan lacks\n%s\nin:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "# (strata) "); n != 4 {
		t.Errorf("%d notes, want 4", n)
	}
	if tf, err := referenceTerraform(); err == nil {
		w := normalize(strings.NewReplacer("Terraform", "strata", "terraform apply", "strata apply").Replace(plan(tf)))
		if g := normalize(got); w != g {
			t.Errorf("without strata's notes, the plan differs from Terraform's\nterraform:\n%s\nstrata:\n%s", w, g)
		}
	}
}
