package command

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EDestroyWithProviderFunctions: provider-defined functions in
// locals, count, outputs and a child module do not stop a destroy, a
// destroy without refresh, or a saved destroy plan; the exit codes and
// summaries are Terraform's where terraform is installed (issue 20 asked
// whether Terraform fails where strata succeeds: in none of these).
func TestE2EDestroyWithProviderFunctions(t *testing.T) {
	t.Parallel() // its own directories
	mirror := testProviderMirrorV5(t)
	const req = "terraform {\n  required_providers {\n    v5 = { source = \"strata/stratav5\" }\n  }\n}\n"
	files := map[string]string{
		"main.tf": req + `locals {
  name = provider::v5::upper("thing")
}
resource "terraform_data" "a" {
  input = local.name
}
resource "terraform_data" "c" {
  count = length(provider::v5::repeat("ab", 0, 1))
  input = count.index
}
module "m" {
  source = "./m"
}
output "o" {
  value = provider::v5::upper(terraform_data.a.output)
}
`,
		"m/main.tf": req + `resource "terraform_data" "b" {
  input = provider::v5::upper("inner")
}
`,
	}
	run := func(bin string) []string {
		dir := t.TempDir()
		writeTree(t, dir, files)
		cli := filepath.Join(dir, "cli.tfrc")
		writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
		var got []string
		step := func(args ...string) {
			r := runWith(t, dir, "", bin, []string{"TF_CLI_CONFIG_FILE=" + cli}, args...)
			code := r.code
			line := ""
			for _, l := range strings.Split(r.stdout+r.stderr, "\n") {
				if strings.Contains(l, " complete! Resources:") || strings.HasPrefix(l, "Error: ") {
					line = strings.TrimSpace(l)
				}
			}
			got = append(got, fmt.Sprintf("%s: exit %d %s", strings.Join(args, " "), code, line))
		}
		step("init", "-no-color")
		for _, destroy := range [][]string{
			{"destroy", "-auto-approve", "-no-color"},
			{"destroy", "-auto-approve", "-no-color", "-refresh=false"},
			{"apply", "-no-color", "destroy.tfplan"},
		} {
			step("apply", "-auto-approve", "-no-color")
			if destroy[0] == "apply" {
				step("plan", "-destroy", "-no-color", "-out=destroy.tfplan")
			}
			step(destroy...)
		}
		return got[1:] // init's output differs by product name only
	}
	got := run(strataBin)
	for _, line := range got {
		if !strings.Contains(line, "exit 0") {
			t.Errorf("strata: %s", line)
		}
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	want := run(tf)
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("differs from terraform:\nterraform:\n%s\nstrata:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}
