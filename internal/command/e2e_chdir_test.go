package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EChdirMatchesTerraform: with -chdir, path.cwd is the directory
// strata was run from (before -chdir, as in Terraform) and path.module, path.root and relative file paths are as
// Terraform gives them (relative); a -chdir naming nothing or a file is
// refused with Terraform's message.
func TestE2EChdirMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	const config = `
module "m" {
  source = "./mod"
}
output "cwd" { value = path.cwd }
output "module" { value = path.module }
output "root" { value = path.root }
output "file" { value = file("data.txt") }
output "child" { value = module.m.where }
`
	run := func(bin string) map[string]string {
		top := t.TempDir()
		dir := filepath.Join(top, "infra")
		if err := os.MkdirAll(filepath.Join(dir, "mod"), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		writeFile(t, filepath.Join(dir, "data.txt"), "hello")
		writeFile(t, filepath.Join(dir, "mod", "main.tf"), `output "where" { value = "${path.module} ${file("${path.module}/in.txt")}" }`)
		writeFile(t, filepath.Join(dir, "mod", "in.txt"), "child")
		out := map[string]string{}
		for _, args := range [][]string{{"init", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
			if r := runIn(t, top, "", bin, append([]string{"-chdir=infra"}, args...)...); r.code != 0 {
				t.Fatalf("%s %s: %+v", filepath.Base(bin), args[0], r)
			}
		}
		for _, name := range []string{"cwd", "module", "root", "file", "child"} {
			r := runIn(t, top, "", bin, "-chdir=infra", "output", "-raw", name)
			out[name] = strings.ReplaceAll(r.stdout, top, "<top>")
		}
		r := runIn(t, top, "", bin, "-chdir=missing", "plan")
		out["missing"] = strings.TrimSpace(r.stderr)
		r = runIn(t, top, "", bin, "-chdir=infra/main.tf", "plan")
		out["file dir"] = strings.TrimSpace(r.stderr)
		return out
	}
	got, want := run(strataBin), run(tf)
	// As Terraform documents: the directory before -chdir.
	if got["cwd"] != "<top>" {
		t.Errorf("path.cwd = %q, want <top>", got["cwd"])
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: strata %q, terraform %q", k, got[k], w)
		}
	}
}
