package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestE2EBasicWorkflow(t *testing.T) {
	t.Parallel()
	dir := workdir(t, "basic")
	mustStrata(t, dir, 0, "init", "-no-color")
	mustStrata(t, dir, 0, "validate", "-no-color")

	plan := mustStrata(t, dir, 2, "plan", "-no-color", "-detailed-exitcode")
	golden(t, "basic", "plan-create.golden", plan.stdout)

	apply := mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(flat(apply.stdout), "Apply complete! Resources: 6 added, 0 changed, 0 destroyed.") {
		t.Fatalf("wrong apply summary:\n%s", apply.stdout)
	}
	if !strings.Contains(flat(apply.stdout), "secret = <sensitive>") || strings.Contains(flat(apply.stdout), "hunter2") {
		t.Fatalf("sensitive output leaked or missing:\n%s", apply.stdout)
	}
	st, err := os.Stat(filepath.Join(dir, "terraform.tfstate"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("state file missing or wrong mode: %v %v", err, st)
	}

	// A second plan finds nothing to do.
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")

	// Outputs in every format.
	out := mustStrata(t, dir, 0, "output", "-no-color")
	golden(t, "basic", "output.golden", out.stdout)
	raw := mustStrata(t, dir, 0, "output", "-raw", "first_size")
	if raw.stdout != "1" {
		t.Fatalf("output -raw: %q", raw.stdout)
	}
	js := mustStrata(t, dir, 0, "output", "-json")
	var outputs map[string]struct {
		Sensitive bool
		Value     any
	}
	if err := json.Unmarshal([]byte(js.stdout), &outputs); err != nil {
		t.Fatalf("output -json is not JSON: %v\n%s", err, js.stdout)
	}
	if !outputs["secret"].Sensitive || outputs["secret"].Value != "hunter2" {
		t.Fatalf("wrong JSON for secret: %+v", outputs["secret"])
	}
	if r := strata(t, dir, "output", "nope"); r.code != 1 || !strings.Contains(flat(r.stderr), `Output "nope" not found`) {
		t.Fatalf("missing output: %+v", r)
	}

	show := mustStrata(t, dir, 0, "show", "-no-color")
	golden(t, "basic", "show.golden", show.stdout)

	// Changing a variable updates, replaces and deletes.
	update := mustStrata(t, dir, 2, "plan", "-no-color", "-detailed-exitcode",
		"-var", `names=["a"]`, "-var", "settings={size=2}")
	golden(t, "basic", "plan-update.golden", update.stdout)

	before := readFile(t, filepath.Join(dir, "terraform.tfstate"))
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color", `-var=names=["a"]`, "-var=settings={size=2}")
	backup := readFile(t, filepath.Join(dir, "terraform.tfstate.backup"))
	if string(backup) != string(before) {
		t.Fatal("terraform.tfstate.backup does not hold the previous snapshot")
	}
	var s struct{ Serial int }
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &s); err != nil || s.Serial != 2 {
		t.Fatalf("serial = %d, want 2 (%v)", s.Serial, err)
	}

	destroy := mustStrata(t, dir, 0, "destroy", "-auto-approve", "-no-color", `-var=names=["a"]`, "-var=settings={size=2}")
	if !strings.Contains(flat(destroy.stdout), "Destroy complete! Resources: 4 destroyed.") {
		t.Fatalf("wrong destroy summary:\n%s", destroy.stdout)
	}
	if r := mustStrata(t, dir, 0, "show", "-no-color"); r.stdout != "The state file is empty. No resources are represented.\n" {
		t.Fatalf("state not empty after destroy:\n%s", r.stdout)
	}
}

func TestE2EApplyNeedsYes(t *testing.T) {
	t.Parallel()
	dir := workdir(t, "basic")
	r := runIn(t, dir, "no\n", strataBin, "apply", "-no-color")
	if r.code != 1 || !strings.Contains(flat(r.stdout), "Apply cancelled.") {
		t.Fatalf("apply without yes: code %d\n%s", r.code, r.stdout)
	}
	if !strings.Contains(flat(r.stdout), "Do you want to perform these actions?") {
		t.Fatalf("no approval prompt:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
		t.Fatal("a cancelled apply wrote state")
	}
	r = runIn(t, dir, "yes\n", strataBin, "apply", "-no-color")
	if r.code != 0 || !strings.Contains(flat(r.stdout), "Apply complete!") {
		t.Fatalf("apply with yes: code %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

func TestE2EVariablesSources(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.tf", `
variable "from_env" {}
variable "from_tfvars" {}
variable "from_auto" {}
variable "from_file" {}
variable "from_flag" {}
variable "overridden" {}
output "all" {
  value = join(",", [var.from_env, var.from_tfvars, var.from_auto, var.from_file, var.from_flag, var.overridden])
}
`)
	write("terraform.tfvars", "from_tfvars = \"tfvars\"\noverridden = \"tfvars\"\n")
	write("b.auto.tfvars", "from_auto = \"auto\"\noverridden = \"auto\"\n")
	write("extra.tfvars", "from_file = \"file\"\n")
	cmd := []string{"apply", "-auto-approve", "-no-color", "-input=false", "-var-file=extra.tfvars", "-var", "from_flag=flag", "-var", "overridden=flag"}
	env := []string{"TF_VAR_from_env=env", "TF_VAR_overridden=env"}
	if r := runWith(t, dir, "", strataBin, env, cmd...); r.code != 0 {
		t.Fatalf("apply: %+v", r)
	}
	r := runWith(t, dir, "", strataBin, env, "output", "-raw", "all")
	if r.code != 0 || r.stdout != "env,tfvars,auto,file,flag,flag" {
		t.Fatalf("wrong precedence: %q", r.stdout)
	}
	// A required variable without a value and -input=false is an error.
	write("more.tf", `variable "missing" {}`)
	r = runWith(t, dir, "", strataBin, env, "plan", "-no-color", "-input=false")
	if r.code != 1 || !strings.Contains(flat(r.stderr), "No value for required variable") {
		t.Fatalf("missing variable: %+v", r)
	}
	// With input allowed, it is asked for.
	r = runWith(t, dir, "typed\n", strataBin, env, "plan", "-no-color", "-var-file=extra.tfvars", "-var", "from_flag=flag")
	if r.code != 0 || !strings.Contains(flat(r.stdout), "var.missing") {
		t.Fatalf("prompt: %+v", r)
	}
}

// TestE2EApprovalAnswers: the end of the output after the approval
// prompt, for "no" and for input that ends with no answer (an error, as
// in Terraform, not a cancel), for apply and destroy; compared with
// terraform when installed.
func TestE2EApprovalAnswers(t *testing.T) {
	t.Parallel()
	type end struct {
		Code           int
		Stdout, Stderr string
	}
	run := func(bin string) []end {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
		if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %s", bin, r.stderr)
		}
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\nresource \"terraform_data\" \"b\" {}\n")
		var ends []end
		for _, c := range []struct{ stdin, cmd string }{{"no\n", "apply"}, {"", "apply"}, {"no\n", "destroy"}, {"", "destroy"}} {
			r := runIn(t, dir, c.stdin, bin, c.cmd, "-no-color")
			out := r.stdout
			if i := strings.LastIndex(out, "Only 'yes' will be accepted"); i >= 0 {
				out = out[i:]
			}
			ends = append(ends, end{r.code, out, r.stderr})
		}
		return ends
	}
	got := run(strataBin)
	const approve, confirm = "Only 'yes' will be accepted to approve.\n\n  Enter a value: ", "Only 'yes' will be accepted to confirm.\n\n  Enter a value: "
	const eof = "\nError: error asking for approval: EOF\n\n"
	want := []end{
		{1, approve + "\nApply cancelled.\n", ""},
		{1, approve, eof},
		{1, confirm + "\nDestroy cancelled.\n", ""},
		{1, confirm, eof},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if tf, err := referenceTerraform(); err == nil {
		if diff := cmp.Diff(run(tf), got); diff != "" {
			t.Errorf("differs from terraform (-terraform +strata)\n%s", diff)
		}
	}
}
