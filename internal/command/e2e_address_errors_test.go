package command

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EAddressErrorsMatchTerraform: an address that does not parse, given
// to import, the state subcommands, taint or untaint, fails as in
// Terraform, with and without colour: the parser's own summary ("Invalid
// address", "Index value required"...) pointing at line 1 of a source
// that is not available (import shows its argument, named
// <import-address>, and then where the syntax is described), every
// argument's error (state mv, state rm), state show's plain text, and
// import's refusal of a data resource. Compared with terraform.
func TestE2EAddressErrorsMatchTerraform(t *testing.T) {
	t.Parallel()
	run := func(bin string) string {
		t.Helper()
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
		if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
		}
		var out strings.Builder
		step := func(args ...string) {
			r := runIn(t, dir, "", bin, args...)
			fmt.Fprintf(&out, "## %s: exit %d\n%s--- stderr\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		for _, color := range []string{"-no-color", "-lock=true"} {
			step("import", color, "a.b.c", "x")
			step("import", color, "terraform_data.a[", "x")
			step("state", "rm", color, "nope", "terraform_data.a[1].x")
			step("state", "show", color, "a.b.c")
		}
		step("import", "-no-color", "module.m", "x")
		step("import", "-no-color", "data.terraform_data.a", "x")
		step("state", "mv", "-no-color", "nope", "1abc")
		step("state", "list", "-no-color", "a.b.c")
		step("taint", "-no-color", "bad[[")
		step("untaint", "-no-color", "nope")
		return out.String()
	}
	got := run(strataBin)
	for _, want := range []string{
		"## import -no-color a.b.c x: exit 1\nFor information on valid syntax, see:\nhttps://developer.hashicorp.com/terraform/cli/state/resource-addressing\n--- stderr\n\nError: Invalid address\n\n  on <import-address> line 1:\n   1: a.b.c\n\nResource instance key must be given in square brackets.\n",
		"Error: Index value required\n\n  on  line 1:\n  (source code not available)\n",
		"Error: A managed resource address is required. Importing into a data resource is not allowed.\n",
		"Error parsing instance address: a.b.c\n\nThis command requires",
		"Error: Variable name required\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("strata's output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, ": exit 0\n") {
		t.Errorf("a command succeeded:\n%s", got)
	}
	sameAsTerraform(t, got, run)
}
