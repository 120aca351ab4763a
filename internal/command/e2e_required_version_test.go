package command

import (
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
