package command

import (
	"strings"
	"testing"
)

// The e2e tests of OpenTofu's additions to the language, which Terraform
// does not accept: golden outputs, checked against OpenTofu's
// documentation.

// TestE2ETofuFiles: .tofu and .tofu.json files are configuration, and
// take the place of the .tf and .tf.json files of the same base name, for
// override files too; a saved plan's configuration snapshot keeps the
// same files.
func TestE2ETofuFiles(t *testing.T) {
	dir := workdir(t, "tofu_files")
	r := mustStrata(t, dir, 0, "plan", "-no-color", "-out=p.tfplan")
	golden(t, "tofu_files", "plan.golden", r.stdout)
	mustStrata(t, dir, 0, "apply", "-no-color", "p.tfplan")
	out := mustStrata(t, dir, 0, "output", "-raw", "extra")
	if out.stdout != "from extra.tofu.json" {
		t.Errorf("output extra = %q", out.stdout)
	}
	show := mustStrata(t, dir, 0, "state", "show", "-no-color", "terraform_data.b")
	if !strings.Contains(show.stdout, `"from b_override.tofu"`) {
		t.Errorf("terraform_data.b:\n%s", show.stdout)
	}
}
