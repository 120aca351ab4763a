package command

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EStateCommandsConfigErrorsMatchTerraform: Terraform's state
// commands (and taint, untaint, force-unlock) read the backend from the
// root module, so errors loading it (syntax, unknown or duplicate blocks)
// stop them, with -state too, while errors the module would only give
// when evaluated do not. strata prints the same diagnostics (colour
// included, file names absolute where Terraform's are) on the same stream
// with the same exit code, and leaves the state alone.
func TestE2EStateCommandsConfigErrorsMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	state := string(readFile(t, filepath.Join("testdata", "statecmd", "modules.tfstate")))
	configs := map[string]string{
		"syntax":    "resource \"terraform_data\" \"c\" { input = 1 \n",
		"block":     "bogus {}\n",
		"duplicate": "resource \"terraform_data\" \"a\" {}\nresource \"terraform_data\" \"a\" {}\n",
		"reference": "resource \"terraform_data\" \"a\" {\n  input = var.nope\n}\n",
	}
	commands := [][]string{
		{"state", "list"},
		{"state", "list", "-no-color", "-state=other.tfstate"},
		{"state", "show", "terraform_data.a"},
		{"state", "show", "-no-color", "terraform_data.a"},
		{"state", "rm", "-no-color", "terraform_data.a"},
		{"state", "mv", "terraform_data.a", "terraform_data.z"},
		{"state", "pull"},
		{"state", "push", "-force", "other.tfstate"},
		{"state", "replace-provider", "-auto-approve", "hashicorp/a", "hashicorp/b"},
		{"taint", "-no-color", "terraform_data.a"},
		{"untaint", "terraform_data.a"},
		{"force-unlock", "-force", "123"},
	}
	for name, config := range configs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, args := range commands {
				var res [2]result
				var dirs [2]string
				for i, bin := range []string{tf, strataBin} {
					dirs[i] = t.TempDir()
					writeFile(t, filepath.Join(dirs[i], "main.tf"), config)
					writeFile(t, filepath.Join(dirs[i], "terraform.tfstate"), state)
					writeFile(t, filepath.Join(dirs[i], "other.tfstate"), state)
					res[i] = runIn(t, dirs[i], "", bin, args...)
					if got := string(readFile(t, filepath.Join(dirs[i], "terraform.tfstate"))); got != state && res[i].code != 0 {
						t.Errorf("%s: %s changed the state and failed", strings.Join(args, " "), filepath.Base(bin))
					}
				}
				norm := func(s, dir string) string {
					return strings.NewReplacer(dir, "DIR", "Terraform", "strata", "terraform", "strata").Replace(s)
				}
				want, got := res[0], res[1]
				cmd := strings.Join(args, " ")
				if got.code != want.code {
					t.Errorf("%s: exit code %d, terraform's %d", cmd, got.code, want.code)
				}
				if g, w := norm(got.stdout, dirs[1]), norm(want.stdout, dirs[0]); g != w {
					t.Errorf("%s: stdout differs\n--- terraform\n%s--- strata\n%s", cmd, w, g)
				}
				if g, w := norm(got.stderr, dirs[1]), norm(want.stderr, dirs[0]); g != w {
					t.Errorf("%s: stderr differs\n--- terraform\n%s--- strata\n%s", cmd, w, g)
				}
			}
		})
	}
}
