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

// TestE2EShowStateEnds: how `show` ends, as Terraform's does: no blank
// line after the last resource when there are no outputs, "No state."
// when nothing is stored and a sentence when the stored state is empty
// (after a destroy). Compared with terraform when it is installed.
func TestE2EShowStateEnds(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		config  string
		destroy bool
		apply   bool
		want    string
	}{
		"nothing stored": {config: `resource "terraform_data" "a" {}`, want: "No state.\n"},
		"resources, no outputs": {
			config: "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\nresource \"terraform_data\" \"b\" {\n  input = \"y\"\n}\n", apply: true,
			want: "# terraform_data.a:\nresource \"terraform_data\" \"a\" {\n    id     = \"<uuid>\"\n    input  = \"x\"\n    output = \"x\"\n}\n\n# terraform_data.b:\nresource \"terraform_data\" \"b\" {\n    id     = \"<uuid>\"\n    input  = \"y\"\n    output = \"y\"\n}\n",
		},
		"outputs only": {config: "output \"o\" {\n  value = 1\n}\n", apply: true, want: "\n\nOutputs:\n\no = 1\n"},
		"destroyed":    {config: `resource "terraform_data" "a" {}`, apply: true, destroy: true, want: "The state file is empty. No resources are represented.\n"},
	}
	tf, _ := referenceTerraform()
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			run := func(bin string) string {
				dir := t.TempDir()
				writeFile(t, filepath.Join(dir, "main.tf"), tc.config)
				if bin == tf {
					if r := runIn(t, dir, "", tf, "init", "-no-color"); r.code != 0 {
						t.Fatalf("terraform init: %s%s", r.stdout, r.stderr)
					}
				}
				for _, step := range []struct {
					do   bool
					args []string
				}{{tc.apply, []string{"apply", "-auto-approve", "-no-color"}}, {tc.destroy, []string{"destroy", "-auto-approve", "-no-color"}}} {
					if !step.do {
						continue
					}
					if r := runIn(t, dir, "", bin, step.args...); r.code != 0 {
						t.Fatalf("%s %s: %s%s", bin, step.args[0], r.stdout, r.stderr)
					}
				}
				return uuidRe.ReplaceAllString(runIn(t, dir, "", bin, "show", "-no-color").stdout, "<uuid>")
			}
			got := run(strataBin)
			if got != tc.want {
				t.Errorf("strata show:\n%q\nwant\n%q", got, tc.want)
			}
			if tf != "" {
				if want := run(tf); got != want {
					t.Errorf("show differs from Terraform's:\n--- terraform\n%q\n--- strata\n%q", want, got)
				}
			}
		})
	}
}
