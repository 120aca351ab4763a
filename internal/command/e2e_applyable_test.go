package command

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ERefreshOnlyNotApplyable: a refresh-only plan whose only change
// is an output not known until apply changes nothing in the state, so it
// is not applyable: apply -refresh-only refuses it, and show -json says
// applyable false, as Terraform does.
func TestE2ERefreshOnlyNotApplyable(t *testing.T) {
	t.Parallel()
	run := func(bin string) (apply, show result) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\n\noutput \"o\" {\n  value = terraform_data.a.output\n}\n")
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: %s", bin, r.stderr)
		}
		apply = runIn(t, dir, "", bin, "apply", "-refresh-only", "-auto-approve", "-no-color")
		if r := runIn(t, dir, "", bin, "plan", "-refresh-only", "-out=p", "-no-color"); r.code != 0 {
			t.Fatalf("%s plan: %s", bin, r.stderr)
		}
		show = runIn(t, dir, "", bin, "show", "-json", "p")
		return apply, show
	}
	apply, show := run(strataBin)
	if apply.code != 1 || !strings.Contains(apply.stderr, "Error: Cannot apply non-applyable plan") {
		t.Errorf("apply -refresh-only: exit %d\n%s", apply.code, apply.stderr)
	}
	if !strings.Contains(show.stdout, `"applyable":false`) {
		t.Errorf("show -json: %s", show.stdout)
	}
	if tf, err := referenceTerraform(); err == nil {
		tfApply, tfShow := run(tf)
		if tfApply.code != apply.code || strings.ReplaceAll(tfApply.stderr, "Terraform", "strata") != apply.stderr {
			t.Errorf("apply -refresh-only: terraform exit %d\n%s\nstrata exit %d\n%s", tfApply.code, tfApply.stderr, apply.code, apply.stderr)
		}
		if !strings.Contains(tfShow.stdout, `"applyable":false`) {
			t.Errorf("terraform show -json: %s", tfShow.stdout)
		}
	}
}
