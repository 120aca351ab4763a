package command

import (
	"strings"
	"testing"
)

// TestE2EVariableErrorsMatchTerraform: the errors a pipeline sees for
// bad variable values (a -var, TF_VAR_ variable or -var-file value of the
// wrong type, an undeclared -var, a required variable missing with
// -input=false) in plan, apply and refresh are Terraform's, byte for byte
// with and without colour, with the product name normalized.
func TestE2EVariableErrorsMatchTerraform(t *testing.T) {
	t.Parallel()
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed")
	}
	src := map[string]string{
		"main.tf": `variable "n" {
  type    = number
  default = 2
}
variable "o" {
  type    = object({ a = string })
  default = { a = "x" }
}
variable "req" {
  type = string
}
output "n" {
  value = var.n
}
`,
		"bad.tfvars": "n = \"x\"\n",
	}
	cases := []struct {
		env  []string
		args []string
	}{
		{nil, []string{"plan", "-no-color", "-input=false", "-var", "req=r", "-var", "n=x"}},
		{nil, []string{"plan", "-input=false", "-var", "req=r", "-var", "n=[1]"}},
		{nil, []string{"plan", "-no-color", "-input=false", "-var", "req=r", "-var", "o={b=1}"}},
		{nil, []string{"plan", "-no-color", "-input=false", "-var", "req=r", "-var-file=bad.tfvars"}},
		{nil, []string{"plan", "-no-color", "-input=false", "-var", "req=r", "-var", "nope=1"}},
		{nil, []string{"plan", "-no-color", "-input=false"}},
		{[]string{"TF_VAR_n=x"}, []string{"plan", "-no-color", "-input=false", "-var", "req=r"}},
		{[]string{"TF_VAR_n=x", "TF_VAR_req=r"}, []string{"apply", "-no-color", "-input=false", "-auto-approve"}},
		// apply and refresh do not say "Planning failed." for a failed
		// plan with nothing to show; refresh warns about an empty state.
		{nil, []string{"apply", "-input=false", "-auto-approve", "-var", "req=r", "-var", "n=x"}},
		{nil, []string{"refresh", "-no-color", "-input=false", "-var", "req=r", "-var", "n=x"}},
		{nil, []string{"refresh", "-input=false", "-var", "req=r"}},
	}
	norm := strings.NewReplacer("Terraform", "strata")
	for _, c := range cases {
		name := strings.Join(append(append([]string{}, c.env...), c.args...), " ")
		stDir, tfDir := writeFiles(t, src), writeFiles(t, src)
		want := runWith(t, tfDir, "", tf, c.env, c.args...)
		got := inProcessEnv(t, stDir, c.env, c.args...)
		want.stdout, want.stderr = norm.Replace(want.stdout), norm.Replace(want.stderr)
		if got.code != want.code || got.stdout != want.stdout || got.stderr != want.stderr {
			t.Errorf("%s: strata exit %d, terraform %d\nstrata stdout:\n%s\nstrata stderr:\n%s\nterraform stdout:\n%s\nterraform stderr:\n%s",
				name, got.code, want.code, got.stdout, got.stderr, want.stdout, want.stderr)
		}
	}
}

// TestE2ESavedPlanVariablesMatchTerraform: applying a saved plan with a
// -var that repeats the value the plan was made with works, and one that
// changes it fails with Terraform's error naming both values.
func TestE2ESavedPlanVariablesMatchTerraform(t *testing.T) {
	t.Parallel()
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed")
	}
	src := map[string]string{"main.tf": "variable \"v\" {\n  default = 1\n}\noutput \"o\" {\n  value = var.v\n}\n"}
	norm := strings.NewReplacer("Terraform", "strata")
	for _, given := range []string{"v=2", "v=3"} {
		var res []result
		for _, bin := range []string{tf, strataBin} {
			dir := writeFiles(t, src)
			if r := runIn(t, dir, "", bin, "plan", "-no-color", "-var", "v=2", "-out=p.tfplan"); r.code != 0 {
				t.Fatalf("%s plan: %d\n%s%s", bin, r.code, r.stdout, r.stderr)
			}
			res = append(res, runIn(t, dir, "", bin, "apply", "-no-color", "-var", given, "p.tfplan"))
		}
		want, got := res[0], res[1]
		if got.code != want.code || got.stdout != norm.Replace(want.stdout) || got.stderr != norm.Replace(want.stderr) {
			t.Errorf("apply -var %s: strata exit %d, terraform %d\nstrata:\n%s%s\nterraform:\n%s%s", given, got.code, want.code, got.stdout, got.stderr, want.stdout, want.stderr)
		}
	}
}
