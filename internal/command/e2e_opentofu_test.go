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

// TestE2ETofuExclude: -exclude leaves out what it names and what depends
// on it, an instance alone where it names one (what depends on its
// resource is still left out, as in OpenTofu), and when destroying, what
// the excluded objects depend on. It cannot be combined with -target.
func TestE2ETofuExclude(t *testing.T) {
	dir := copyTree(t, "tofu_exclude")
	r := mustStrata(t, dir, 0, "plan", "-no-color", "-exclude=terraform_data.base", "-exclude=terraform_data.other[1]", "-exclude=module.m", "-out=p.tfplan")
	golden(t, "tofu_exclude", "plan.golden", r.stdout)
	r = mustStrata(t, dir, 0, "apply", "-no-color", "p.tfplan")
	if got := mustStrata(t, dir, 0, "state", "list").stdout; got != "terraform_data.other[0]\n" {
		t.Errorf("state after applying the plan with -exclude:\n%s", got)
	}
	r = mustStrata(t, dir, 0, "apply", "-no-color", "-auto-approve", "-exclude=terraform_data.dep")
	golden(t, "tofu_exclude", "apply.golden", summaryLines(r.stdout))
	want := "terraform_data.base\nterraform_data.other[0]\nterraform_data.other[1]\nterraform_data.uses_other\nmodule.m.terraform_data.inner\n"
	if got := mustStrata(t, dir, 0, "state", "list").stdout; got != want {
		t.Errorf("state after apply -exclude:\n%s", got)
	}
	mustStrata(t, dir, 0, "apply", "-no-color", "-auto-approve")
	r = mustStrata(t, dir, 0, "destroy", "-no-color", "-auto-approve", "-exclude=terraform_data.dep")
	golden(t, "tofu_exclude", "destroy.golden", summaryLines(r.stdout))
	if got := mustStrata(t, dir, 0, "state", "list").stdout; got != "terraform_data.base\nterraform_data.dep\n" {
		t.Errorf("state after destroy -exclude:\n%s", got)
	}
	r = mustStrata(t, dir, 1, "plan", "-no-color", "-exclude=terraform_data.dep", "-target=terraform_data.base")
	if !strings.Contains(r.stderr, "Invalid combination of arguments") {
		t.Errorf("-exclude with -target:\n%s", r.stderr)
	}
}

// summaryLines keeps what an apply says it plans and did, without the
// progress lines, whose order varies: the headers of planned changes, the
// counts, and the summaries of warnings.
func summaryLines(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		for _, p := range []string{"  # ", "Plan: ", "Warning: ", "Apply complete!", "Destroy complete!"} {
			if strings.HasPrefix(l, p) {
				keep = append(keep, l)
			}
		}
	}
	return strings.Join(keep, "\n") + "\n"
}
