package command

import (
	"os"
	"path/filepath"
	"testing"
)

// TestE2EShowModulesMatchesTerraform: `show` of a state with resources in
// several module instances prints what terraform show prints, blank lines
// between modules included.
func TestE2EShowModulesMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	run := func(bin string) string {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "mod"), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"root\" {\n  input = \"r\"\n}\nmodule \"m\" {\n  source   = \"./mod\"\n  for_each = toset([\"a\", \"b\"])\n  v        = each.key\n}\noutput \"o\" {\n  value = module.m[\"a\"].out\n}\n")
		writeFile(t, filepath.Join(dir, "mod", "main.tf"), "variable \"v\" {}\nresource \"terraform_data\" \"x\" {\n  input = var.v\n}\nresource \"terraform_data\" \"y\" {\n  input = var.v\n}\noutput \"out\" {\n  value = terraform_data.x.output\n}\n")
		if bin == tf {
			if r := runIn(t, dir, "", tf, "init", "-no-color"); r.code != 0 {
				t.Fatalf("terraform init: %s%s", r.stdout, r.stderr)
			}
		}
		if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %s%s", bin, r.stdout, r.stderr)
		}
		return normalize(runIn(t, dir, "", bin, "show", "-no-color").stdout)
	}
	if want, got := run(tf), run(strataBin); got != want {
		t.Fatalf("show differs from Terraform's:\n--- terraform\n%s\n--- strata\n%s", want, got)
	}
}
