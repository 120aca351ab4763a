package command

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestE2EOverrideFilesMatchTerraform: override files merge into the
// blocks of the primary files with Terraform's rules (arguments replaced,
// lifecycle merged argument by argument, locals and variables replaced),
// and an override without a base is an error, as in Terraform.
func TestE2EOverrideFilesMatchTerraform(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"main.tf": `variable "name" {
  default = "base"
}
locals {
  l = "base-local"
}
resource "terraform_data" "a" {
  input            = var.name
  triggers_replace = ["x"]
  lifecycle {
    ignore_changes        = [triggers_replace]
    create_before_destroy = false
  }
}
output "o" {
  value = terraform_data.a.input
}
output "l" {
  value = local.l
}
`,
		"main_override.tf": `variable "name" {
  default = "overridden"
}
locals {
  l = "over-local"
}
resource "terraform_data" "a" {
  lifecycle {
    create_before_destroy = true
  }
}
`,
		"override.tf.json": `{"output": {"o": {"sensitive": true}}}`,
	}
	cbd := regexp.MustCompile(`"create_before_destroy": (true|false)`)
	run := func(bin string) (outputs, state string, bad result) {
		dir := t.TempDir()
		for name, src := range files {
			writeFile(t, filepath.Join(dir, name), src)
		}
		if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %s", bin, r.stderr)
		}
		outputs = runIn(t, dir, "", bin, "output", "-json").stdout
		state = strings.Join(cbd.FindAllString(string(readFile(t, filepath.Join(dir, "terraform.tfstate"))), -1), ",")
		writeFile(t, filepath.Join(dir, "x_override.tf"), "resource \"terraform_data\" \"nope\" {\n  input = 1\n}\n")
		return outputs, state, runIn(t, dir, "", bin, "validate", "-no-color")
	}
	outputs, state, bad := run(strataBin)
	for _, want := range []string{`"sensitive": true`, `"value": "overridden"`, `"value": "over-local"`} {
		if !strings.Contains(outputs, want) {
			t.Errorf("outputs lack %s:\n%s", want, outputs)
		}
	}
	if state != `"create_before_destroy": true` {
		t.Errorf("state: %s, want create_before_destroy from the override", state)
	}
	if bad.code != 1 || !strings.Contains(bad.stderr, "Error: Missing resource to override") {
		t.Errorf("override without a base: exit %d\n%s", bad.code, bad.stderr)
	}
	if tf, err := referenceTerraform(); err == nil {
		tfOutputs, tfState, tfBad := run(tf)
		if tfOutputs != outputs || tfState != state {
			t.Errorf("terraform: %s %s\nstrata: %s %s", tfOutputs, tfState, outputs, state)
		}
		if tfBad.code != bad.code || tfBad.stderr != bad.stderr {
			t.Errorf("override without a base: terraform %d\n%s\nstrata %d\n%s", tfBad.code, tfBad.stderr, bad.code, bad.stderr)
		}
	}
}
