package command

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var undeclaredName = regexp.MustCompile(`named "\w+"`)

// TestE2ESavedPlanVariablesMatchesTerraform: applying a saved plan with
// variable values given again (-var, -var-file, TF_VAR_, automatic
// variables files) compares each with the plan's value as Terraform
// does: the same value as given is accepted; another one is an error from
// -var and -var-file (with the file's location), a warning from the
// environment and ignored from an automatic file; a variable the plan
// took the default of is an undeclared one. Exit codes, stdout and stderr
// are compared with terraform's.
func TestE2ESavedPlanVariablesMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	const config = `variable "a" {
  default = "x"
}
variable "b" {
  type    = number
  default = 1
}
variable "l" {
  type    = list(string)
  default = []
}
variable "e" {
  default   = "e"
  ephemeral = true
}
output "o" {
  value = "${var.a}-${var.b}-${length(var.l)}"
}
`
	files := map[string]string{
		"same.tfvars":    "a = \"y\"\n",
		"diff.tfvars":    "\n a   =   \"z\"  \n",
		"b2.tfvars":      "b = 2\n",
		"undecl.tfvars":  "c = 1\nd = 2\n",
		"many.tfvars":    "c = 1\nd = 2\nf = 3\ng = 4\n",
		"l.tfvars":       "l = [\"q\"]\n",
		"e.tfvars":       "e = \"q\"\n",
		"mixed.tfvars":   "a = \"y\"\nb = 3\n",
		"complex.tfvars": "l = [\"q\", \"r\"]\nb = 2\n",
	}
	tests := map[string]struct {
		plan, apply, env []string
		auto             string // terraform.tfvars written after the plan
		// anyOrder: terraform picks the undeclared variables it names
		// in map order, so the names are not compared.
		anyOrder bool
	}{
		"var-file same":                {plan: []string{"-var", "a=y"}, apply: []string{"-var-file=same.tfvars"}},
		"var-file other":               {plan: []string{"-var", "a=y"}, apply: []string{"-var-file=diff.tfvars"}},
		"var-file for a default":       {plan: []string{"-var", "a=y"}, apply: []string{"-var-file=b2.tfvars"}},
		"var-file undeclared":          {plan: []string{"-var", "a=y"}, apply: []string{"-var-file=undecl.tfvars"}, anyOrder: true},
		"var-file many undeclared":     {plan: []string{"-var", "a=y"}, apply: []string{"-var-file=many.tfvars"}, anyOrder: true},
		"var-file mixed":               {plan: []string{"-var", "a=y"}, apply: []string{"-var-file=mixed.tfvars"}},
		"two var-files":                {plan: []string{"-var", "a=y"}, apply: []string{"-var-file=diff.tfvars", "-var-file=b2.tfvars"}},
		"var-file missing":             {plan: []string{"-var", "a=y"}, apply: []string{"-var-file=nonexistent.tfvars"}},
		"var then var-file":            {plan: []string{"-var", "a=y"}, apply: []string{"-var=a=y", "-var-file=diff.tfvars"}},
		"var-file then var":            {plan: []string{"-var", "a=y"}, apply: []string{"-var-file=diff.tfvars", "-var=a=y"}},
		"var string, var-file number":  {plan: []string{"-var", "b=2"}, apply: []string{"-var-file=b2.tfvars"}},
		"var-file both times":          {plan: []string{"-var-file=b2.tfvars"}, apply: []string{"-var-file=b2.tfvars"}},
		"var-file then var number":     {plan: []string{"-var-file=b2.tfvars"}, apply: []string{"-var", "b=3"}},
		"var same":                     {plan: []string{"-var", "a=y"}, apply: []string{"-var", "a=y"}},
		"var other":                    {plan: []string{"-var", "a=y"}, apply: []string{"-var", "a=w"}},
		"var for a default":            {apply: []string{"-var", "a=x"}},
		"var list":                     {plan: []string{"-var-file=l.tfvars"}, apply: []string{"-var", "l=[]"}},
		"var-file list and number":     {plan: []string{"-var-file=l.tfvars", "-var", "b=2"}, apply: []string{"-var-file=complex.tfvars"}},
		"ephemeral not planned":        {apply: []string{"-var-file=e.tfvars"}},
		"ephemeral planned":            {plan: []string{"-var", "e=q"}, apply: []string{"-var-file=e.tfvars"}},
		"env other":                    {plan: []string{"-var", "b=1"}, env: []string{"TF_VAR_b=2"}},
		"env same":                     {plan: []string{"-var", "b=2"}, env: []string{"TF_VAR_b=2"}},
		"env string for a number":      {plan: []string{"-var-file=b2.tfvars"}, env: []string{"TF_VAR_b=2"}},
		"env for a default":            {env: []string{"TF_VAR_a=z", "TF_VAR_zz=1"}},
		"env two":                      {plan: []string{"-var", "a=y"}, env: []string{"TF_VAR_a=z", "TF_VAR_b=5"}},
		"env overridden by var":        {plan: []string{"-var", "a=y"}, env: []string{"TF_VAR_a=z"}, apply: []string{"-var", "a=y"}},
		"env list":                     {plan: []string{"-var-file=l.tfvars"}, env: []string{`TF_VAR_l=["r"]`}},
		"env list same":                {plan: []string{"-var-file=l.tfvars"}, env: []string{`TF_VAR_l=["q"]`}},
		"env other, json":              {plan: []string{"-var", "a=y"}, env: []string{"TF_VAR_a=z"}, apply: []string{"-json"}},
		"automatic file other":         {plan: []string{"-var", "a=y"}, auto: "a = \"u\"\n"},
		"automatic file for a default": {plan: []string{"-var", "a=y"}, auto: "b = 5\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			run := func(bin string) result {
				dir := t.TempDir()
				writeFile(t, filepath.Join(dir, "main.tf"), config)
				for name, content := range files {
					writeFile(t, filepath.Join(dir, name), content)
				}
				if r := runWith(t, dir, "", bin, nil, "init", "-no-color"); r.code != 0 {
					t.Fatalf("%s init: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
				}
				if r := runWith(t, dir, "", bin, nil, append([]string{"plan", "-no-color", "-out=p"}, tc.plan...)...); r.code != 0 {
					t.Fatalf("%s plan: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
				}
				if tc.auto != "" {
					writeFile(t, filepath.Join(dir, "terraform.tfvars"), tc.auto)
				}
				args := append(append([]string{"apply", "-no-color"}, tc.apply...), "p")
				return runWith(t, dir, "", bin, tc.env, args...)
			}
			got, want := run(strataBin), run(tf)
			norm := func(s string) string {
				s = strings.ReplaceAll(s, "Terraform", "strata")
				if tc.anyOrder {
					s = undeclaredName.ReplaceAllString(s, `named "NAME"`)
				}
				if !strings.Contains(s, `"@timestamp"`) {
					return s
				}
				return strings.Join(orderedJSONMessages(t, s), "\n")
			}
			if got.code != want.code || norm(got.stdout) != norm(want.stdout) || norm(got.stderr) != norm(want.stderr) {
				t.Errorf("differs from terraform:\nterraform: exit %d\n%s\n--- stderr\n%s\nstrata: exit %d\n%s\n--- stderr\n%s", want.code, want.stdout, want.stderr, got.code, got.stdout, got.stderr)
			}
		})
	}
}

// TestE2EUndeclaredVariablesMatchTerraform: values for variables the
// configuration does not declare are reported as Terraform reports them:
// from -var an error, from a file a warning without a source location
// (two at most, then a count of the others), shown after the plan with
// its other diagnostics; from the environment nothing. Compared with
// terraform for plan, apply, refresh and destroy.
func TestE2EUndeclaredVariablesMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	const config = `variable "a" {
  default = "x"
}
resource "terraform_data" "r" {
}
check "c" {
  assert {
    condition     = var.a == "y"
    error_message = "not y"
  }
}
`
	tests := map[string]struct {
		args, env []string
		anyOrder  bool
	}{
		"plan, file":          {args: []string{"plan", "-var-file=one.tfvars"}},
		"plan, files":         {args: []string{"plan", "-var-file=many.tfvars", "-var-file=one.tfvars"}, anyOrder: true},
		"plan, var":           {args: []string{"plan", "-var", "zz=1"}},
		"plan, env":           {args: []string{"plan"}, env: []string{"TF_VAR_zz=1"}},
		"apply, file":         {args: []string{"apply", "-auto-approve", "-var-file=one.tfvars"}},
		"refresh, file":       {args: []string{"refresh", "-var-file=one.tfvars"}},
		"destroy, file":       {args: []string{"destroy", "-auto-approve", "-var-file=one.tfvars"}},
		"plan, file then var": {args: []string{"plan", "-var-file=one.tfvars", "-var", "c=2"}},
		"plan, var then file": {args: []string{"plan", "-var", "c=2", "-var-file=one.tfvars"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			run := func(bin string) result {
				dir := t.TempDir()
				writeFile(t, filepath.Join(dir, "main.tf"), config)
				writeFile(t, filepath.Join(dir, "one.tfvars"), "c = 1\n")
				writeFile(t, filepath.Join(dir, "many.tfvars"), "d = 1\ne = 2\nf = 3\n")
				for _, args := range [][]string{{"init", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
					if r := runWith(t, dir, "", bin, nil, args...); r.code != 0 {
						t.Fatalf("%s %s: exit %d\n%s%s", bin, args[0], r.code, r.stdout, r.stderr)
					}
				}
				return runWith(t, dir, "", bin, tc.env, append([]string{tc.args[0], "-no-color"}, tc.args[1:]...)...)
			}
			got, want := run(strataBin), run(tf)
			norm := func(s string) string {
				s = uuidRe.ReplaceAllString(strings.ReplaceAll(s, "Terraform", "strata"), "<uuid>")
				s = strings.ReplaceAll(s, `"terraform apply"`, `"strata apply"`)
				if tc.anyOrder {
					s = undeclaredName.ReplaceAllString(s, `named "NAME"`)
					s = undeclaredFile.ReplaceAllString(s, `in file "FILE"`)
				}
				return s
			}
			if got.code != want.code || norm(got.stdout) != norm(want.stdout) || norm(got.stderr) != norm(want.stderr) {
				t.Errorf("differs from terraform:\nterraform: exit %d\n%s\n--- stderr\n%s\nstrata: exit %d\n%s\n--- stderr\n%s", want.code, want.stdout, want.stderr, got.code, got.stdout, got.stderr)
			}
		})
	}
}

var undeclaredFile = regexp.MustCompile(`in file\s+"[\w.]+"`)
