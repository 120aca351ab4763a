package command

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EDevOverrideWarnings: with development overrides in the CLI
// configuration, validate (human and -json, the warning after the
// configuration's own diagnostics), plan, apply, apply -refresh-only and
// destroy warn about them, and refresh and console do not, as in
// Terraform (Terraform's e2etest TestProviderDevOverrides checks validate).
// The outputs are compared with terraform's where it is installed.
func TestE2EDevOverrideWarnings(t *testing.T) {
	t.Parallel() // its own directories
	mirror := testProviderMirrorV5(t)
	bin := filepath.Join(mirror, "registry.terraform.io", "strata", "stratav5", "0.1.0", hostPlatform)
	const cfg = "terraform {\n  required_providers {\n    v5 = { source = \"strata/stratav5\" }\n  }\n}\n" +
		"resource \"stratav5_thing\" \"a\" {\n  provider = v5\n  name     = \"one\"\n}\n"
	const warning = "Warning: Provider development overrides are in effect"
	run := func(exe string) []string {
		dir := t.TempDir()
		cli := filepath.Join(dir, "cli.tfrc")
		writeFile(t, cli, fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"strata/stratav5\" = %q\n  }\n  direct {}\n}\n", bin))
		writeFile(t, filepath.Join(dir, "main.tf"), cfg)
		var got []string
		step := func(args ...string) string {
			r := runWith(t, dir, "1 + 1\n", exe, []string{"TF_CLI_CONFIG_FILE=" + cli}, args...)
			out := r.stdout + r.stderr
			got = append(got, fmt.Sprintf("%s: exit %d, warns %d", strings.Join(args, " "), r.code, strings.Count(out, warning)))
			return out
		}
		// No init: dev overrides need none.
		validate := step("validate", "-no-color")
		got = append(got, "validate output:\n"+strings.ReplaceAll(validate, bin, "BIN"))
		step("plan", "-no-color")
		step("apply", "-auto-approve", "-no-color")
		step("refresh", "-no-color")
		step("apply", "-refresh-only", "-auto-approve", "-no-color")
		step("console")
		step("destroy", "-auto-approve", "-no-color")
		// The configuration's own diagnostics come first.
		writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(cfg, `"one"`, `"one" + 1`, 1))
		js := step("validate", "-json")
		got = append(got, "validate -json:\n"+strings.ReplaceAll(js, bin, "BIN"))
		return got
	}
	got := run(strataBin)
	want := []string{
		"validate -no-color: exit 0, warns 1",
		"plan -no-color: exit 0, warns 1",
		"apply -auto-approve -no-color: exit 0, warns 1",
		"refresh -no-color: exit 0, warns 0",
		"apply -refresh-only -auto-approve -no-color: exit 0, warns 1",
		"console: exit 0, warns 0",
		"destroy -auto-approve -no-color: exit 0, warns 1",
		"validate -json: exit 1, warns 0",
	}
	var counts []string
	for _, l := range got {
		if !strings.Contains(l, "\n") {
			counts = append(counts, l)
		}
	}
	if strings.Join(counts, "\n") != strings.Join(want, "\n") {
		t.Errorf("strata:\n%s\nwant:\n%s", strings.Join(counts, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(got[1], "Success! The configuration is valid, but there were some validation warnings") {
		t.Errorf("validate:\n%s", got[1])
	}
	if js := got[len(got)-1]; strings.Index(js, `"Invalid operand"`) > strings.Index(js, `"Provider development overrides are in effect"`) {
		t.Errorf("the warning comes before the configuration's error:\n%s", js)
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	if want := run(tf); strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("differs from terraform:\nterraform:\n%s\nstrata:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}
