package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ERequiredVersionMatchesTerraform: failed required_version
// constraints are reported as Terraform reports them, once per module call
// naming the call and its source, by init (after installing the modules,
// without its note on invalid configurations) and by plan. The only
// difference is the documented wording of strata's detail (see
// differences.md).
func TestE2ERequiredVersionMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	module := "terraform {\n  required_version = \"< 1.0\"\n}\n"
	calls := `module "a" {
  source = "./m"
}
module "b" {
  source = "./m"
}
module "ok" {
  source = "./ok"
}
`
	cases := map[string]string{
		"modules":             calls,
		"root and modules":    "terraform {\n  required_version = \">= 99\"\n}\n" + calls,
		"root and nested use": "terraform {\n  required_version = \">= 1.0\"\n}\n" + calls,
	}
	// Terraform's wording, for strata's documented one.
	wording := strings.NewReplacer(
		", the version of the language strata implements. To proceed, either choose another supported version",
		". To proceed, either choose another supported Terraform version",
	)
	for name, root := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			outputs := map[string][]result{}
			for _, bin := range []string{tf, strataBin} {
				dir := t.TempDir()
				writeFile(t, filepath.Join(dir, "main.tf"), root)
				for sub, src := range map[string]string{"m": module, "ok": "module \"c\" {\n  source = \"../m\"\n}\n"} {
					if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
						t.Fatal(err)
					}
					writeFile(t, filepath.Join(dir, sub, "main.tf"), src)
				}
				for _, cmd := range []string{"init", "plan"} {
					outputs[bin] = append(outputs[bin], runIn(t, dir, "", bin, cmd, "-no-color", "-input=false"))
				}
			}
			for i, cmd := range []string{"init", "plan"} {
				want, got := outputs[tf][i], outputs[strataBin][i]
				if got.code != want.code {
					t.Errorf("%s: exit code %d, terraform %d", cmd, got.code, want.code)
				}
				product := strings.NewReplacer("Terraform", "strata", "terraform", "strata")
				for _, out := range []struct{ what, want, got string }{
					{"stdout", want.stdout, got.stdout},
					{"stderr", want.stderr, got.stderr},
				} {
					w := normalize(product.Replace(out.want))
					g := normalize(product.Replace(wording.Replace(flat(out.got))))
					if flat(g) != flat(w) {
						t.Errorf("%s %s differs from Terraform's:\n--- terraform\n%s\n--- strata\n%s", cmd, out.what, w, out.got)
					}
				}
			}
		})
	}
}

// TestE2ERequiredVersionNewer: a constraint that only newer Terraform 1.x
// versions meet is a warning, in the root module and in a called one, and
// init, validate and plan go on; a constraint that excludes the language
// version strata implements by an upper bound, or asks for another major
// version, fails as in Terraform (compared with it above).
func TestE2ERequiredVersionNewer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		constraint string
		fails      bool
	}{
		{">= 1.12", false},
		{">= 1.12.0, < 2.0.0", false},
		{"~> 1.13.0", false},
		{"~> 1.14", false},
		{"1.14.1", false},
		{">= 1.12.0-beta1", false},
		{">= 1.0", false},
		{"< 1.0", true},
		{"~> 1.5.0", true},
		{">= 1.5, < 1.11", true},
		{">= 2.0", true},
		{"> 1.12, < 1.12.1, != 1.12.0", true},
	}
	for _, c := range cases {
		for _, where := range []string{"root", "module"} {
			t.Run(c.constraint+"/"+where, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				block := fmt.Sprintf("terraform {\n  required_version = %q\n}\n", c.constraint)
				root := "resource \"terraform_data\" \"a\" {}\n"
				if where == "root" {
					root += block
				} else {
					root += "module \"m\" {\n  source = \"./m\"\n}\n"
					if err := os.MkdirAll(filepath.Join(dir, "m"), 0o755); err != nil {
						t.Fatal(err)
					}
					writeFile(t, filepath.Join(dir, "m", "main.tf"), block)
				}
				writeFile(t, filepath.Join(dir, "main.tf"), root)
				newer := c.constraint != ">= 1.0"
				for _, cmd := range []string{"init", "validate", "plan"} {
					r := strata(t, dir, cmd, "-no-color")
					out := flat(r.stdout + r.stderr)
					switch {
					case c.fails:
						if r.code != 1 || !strings.Contains(out, "Error: Unsupported Terraform Core version") {
							t.Errorf("%s: exit %d, want the error:\n%s%s", cmd, r.code, r.stdout, r.stderr)
						}
					case r.code != 0:
						t.Errorf("%s: exit %d:\n%s%s", cmd, r.code, r.stdout, r.stderr)
					case newer != strings.Contains(out, "Warning: Newer Terraform version required"):
						t.Errorf("%s: warning shown %v, want %v:\n%s%s", cmd, !newer, newer, r.stdout, r.stderr)
					case newer && where == "module" && !strings.Contains(out, "Module module.m (from ./m) asks for Terraform version "+c.constraint):
						t.Errorf("%s: the warning does not name the module call:\n%s%s", cmd, r.stdout, r.stderr)
					}
					if c.fails {
						break
					}
				}
			})
		}
	}
}
