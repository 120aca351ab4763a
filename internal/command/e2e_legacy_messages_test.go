package command

import (
	"strings"
	"testing"
)

// TestE2ELegacyMessagesMatchTerraform: the commands Terraform still runs
// through its older UI layer (state subcommands, taint, import, graph,
// force-unlock, providers and metadata subcommands) print their errors as
// it does: a blank line after each diagnostic, and some errors as a plain
// red line rather than a diagnostic. Compared byte for byte, colours
// included, with the product name normalized.
func TestE2ELegacyMessagesMatchTerraform(t *testing.T) {
	t.Parallel()
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed")
	}
	cases := [][]string{
		{"state", "mv", "terraform_data.nope", "terraform_data.x"},
		{"state", "mv", "-no-color", "terraform_data.nope", "terraform_data.x"},
		{"state", "show", "terraform_data.nope"},
		{"state", "push", "nope.tfstate"},
		{"state", "push", "-no-color", "nope.tfstate"},
		{"untaint", "-no-color", "terraform_data.a"},
		{"import", "terraform_data.b", "x"},
		{"import", "-no-color", "terraform_data.b", "x"},
		{"graph", "-type=nope"},
		{"force-unlock", "-force", "nope"},
		{"force-unlock", "-no-color", "-force", "nope"},
		{"providers", "schema"},
		{"providers", "schema", "-no-color"},
		{"metadata", "functions"},
		{"providers", "lock", "-no-color", "-platform=nope"},
	}
	src := map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\n"}
	dirs := map[string]string{}
	for _, bin := range []string{strataBin, tf} {
		dir := writeFiles(t, src)
		for _, args := range [][]string{{"init", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
			if r := runIn(t, dir, "", bin, args...); r.code != 0 {
				t.Fatalf("%s %s: %d\n%s%s", bin, strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
		}
		dirs[bin] = dir
	}
	// In a directory with no state, the state commands' own message.
	empty := t.TempDir()
	for _, args := range [][]string{{"state", "list"}, {"state", "show", "x.y"}, {"state", "rm", "-no-color", "x.y"}} {
		got, want := runIn(t, empty, "", strataBin, args...), runIn(t, empty, "", tf, args...)
		if w := strings.ReplaceAll(want.stderr, "where Terraform has", "where strata has"); got.code != want.code || got.stderr != w {
			t.Errorf("%s with no state: strata exit %d, terraform %d\nstrata:\n%q\nterraform:\n%q", strings.Join(args, " "), got.code, want.code, got.stderr, w)
		}
	}
	for _, args := range cases {
		got, want := runIn(t, dirs[strataBin], "", strataBin, args...), runIn(t, dirs[tf], "", tf, args...)
		w := strings.NewReplacer("terraform state", "strata state", "terraform providers", "strata providers",
			"terraform metadata", "strata metadata", "Usage: terraform", "Usage: strata").Replace(want.stderr)
		if got.code != want.code || got.stderr != w {
			t.Errorf("%s: strata exit %d, terraform %d\nstrata:\n%q\nterraform:\n%q", strings.Join(args, " "), got.code, want.code, got.stderr, w)
		}
	}
}
