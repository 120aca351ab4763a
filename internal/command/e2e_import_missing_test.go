package command

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestE2EImportNonExistentMatchesTerraform: importing an ID whose object
// the provider finds not to exist, without an error of its own (the
// protocol 5 test provider's read of "gone" returns null), is Terraform's
// "Cannot import non-existent remote object" in Terraform's words, with no
// source location, for the import command and an import block alike;
// compared with terraform.
func TestE2EImportNonExistentMatchesTerraform(t *testing.T) {
	t.Parallel() // its own directories
	mirror := testProviderMirrorV5(t)
	const cfg = "terraform {\n  required_providers {\n    stratav5 = { source = \"strata/stratav5\" }\n  }\n}\n\nresource \"stratav5_thing\" \"a\" {\n  name = \"one\"\n}\n"
	const block = "\nimport {\n  to = stratav5_thing.a\n  id = \"gone\"\n}\n"
	run := func(bin string) string {
		dir := t.TempDir()
		cli := filepath.Join(dir, "cli.tfrc")
		writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
		writeFile(t, filepath.Join(dir, "main.tf"), cfg)
		step := func(args ...string) string {
			r := runWith(t, dir, "", bin, []string{"TF_CLI_CONFIG_FILE=" + cli}, args...)
			return fmt.Sprintf("## %s: exit %d\n%s\n--- stderr\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		if out := step("init", "-no-color"); !strings.Contains(out, ": exit 0\n") {
			t.Fatalf("%s init:\n%s", bin, out)
		}
		got := step("import", "-no-color", "stratav5_thing.a", "gone")
		writeFile(t, filepath.Join(dir, "main.tf"), cfg+block)
		got += step("plan", "-no-color")
		return got
	}
	got := run(strataBin)
	const want = "Error: Cannot import non-existent remote object\n\nWhile attempting to import an existing object to \"stratav5_thing.a\", the\nprovider detected that no object exists with the given id."
	if n := strings.Count(got, want); n != 2 {
		t.Errorf("strata's output has Terraform's error %d times, want 2:\n%s", n, got)
	}
	if strings.Contains(got, "on main.tf") {
		t.Errorf("the error names a source location:\n%s", got)
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	// The product's name is the one difference in wording.
	product := regexp.MustCompile(`(?i)terraform|strata`)
	if want := run(tf); unwrap(product.ReplaceAllString(want, "PRODUCT")) != unwrap(product.ReplaceAllString(got, "PRODUCT")) {
		t.Errorf("differs from terraform:\nterraform:\n%s\nstrata:\n%s", want, got)
	}
}
