package command

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestE2ECLIErrors: a flag a command cannot parse and a command strata
// does not have are reported in Terraform's words (Go's flag package
// messages, the "Failed to parse command-line flags" diagnostic, the
// "has no command named" line with a suggestion); compared with
// terraform, the product name aside, when installed.
func TestE2ECLIErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string // on stderr, exit code 1
	}{
		{[]string{"plan", "-bogus", "-no-color"}, "\nError: Failed to parse command-line flags\n\nflag provided but not defined: -bogus\n\nFor more help on using this command, run:\n  strata plan -help\n"},
		{[]string{"apply", "-lock-timeout=xyz", "-no-color"}, "\nError: Failed to parse command-line flags\n\ninvalid value \"xyz\" for flag -lock-timeout: parse error\n\nFor more help on using this command, run:\n  strata apply -help\n"},
		{[]string{"apply", "-parallelism=abc", "-no-color"}, "\nError: Failed to parse command-line flags\n\ninvalid value \"abc\" for flag -parallelism: parse error\n\nFor more help on using this command, run:\n  strata apply -help\n"},
		{[]string{"plan", "-refresh=maybe", "-no-color"}, "\nError: Failed to parse command-line flags\n\ninvalid boolean value \"maybe\" for -refresh: parse error\n\nFor more help on using this command, run:\n  strata plan -help\n"},
		{[]string{"output", "-bogus", "-no-color"}, "\nError: Failed to parse command-line flags\n\nflag provided but not defined: -bogus\n\nFor more help on using this command, run:\n  strata output -help\n"},
		{[]string{"state", "rm", "-bogus", "-no-color"}, "Error parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"plan", "-parallelism=-1", "-no-color"}, "\nError: Invalid parallelism value\n\nThe parallelism must be a positive value. Not -1.\n"},
		{[]string{"destroy", "-parallelism=-3", "-no-color"}, "\nError: Invalid parallelism value\n\nThe parallelism must be a positive value. Not -3.\n"},
		{[]string{"refresh", "-parallelism=-2", "-no-color"}, "\nError: Invalid parallelism value\n\nThe parallelism must be a positive value. Not -2.\n"},
		{[]string{"plan", "a", "-no-color"}, "\nError: Too many command line arguments\n\nTo specify a working directory for the plan, use the global -chdir flag.\n\nFor more help on using this command, run:\n  strata plan -help\n"},
		{[]string{"apply", "a", "b", "-no-color"}, "\nError: Too many command line arguments\n\nExpected at most one positional argument.\n\nFor more help on using this command, run:\n  strata apply -help\n"},
		{[]string{"refresh", "a", "-no-color"}, "\nError: Too many command line arguments\n\nExpected at most one positional argument.\n\nFor more help on using this command, run:\n  strata refresh -help\n"},
		{[]string{"show", "a", "b", "-no-color"}, "\nError: Too many command line arguments\n\nExpected at most one positional argument.\n\nFor more help on using this command, run:\n  strata show -help\n"},
		{[]string{"output", "a", "b", "-no-color"}, "\nError: Unexpected argument\n\nThe output command expects exactly one argument with the name of an output\nvariable or no arguments to show all outputs.\n\nFor more help on using this command, run:\n  strata output -help\n"},
		{[]string{"output", "-json", "-raw", "-no-color"}, "\nError: Invalid output format\n\nThe -raw and -json options are mutually-exclusive.\n\nFor more help on using this command, run:\n  strata output -help\n"},
		{[]string{"init", "a", "-no-color"}, "\nError: Too many command line arguments. Did you mean to use -chdir?\n\n"},
		{[]string{"destroy", "nofile", "-no-color"}, "\nError: Failed to load \"nofile\" as a plan file\n\nError: stat nofile: no such file or directory\n"},
		{[]string{"validate", "nodir", "-no-color"}, "\nError: Failed to read module directory\n\nModule directory nodir does not exist or cannot be read.\n"},
		{[]string{"plan", "-out", "-no-color"}, "\nError: Failed to parse command-line flags\n\nflag needs an argument: -out\n\nFor more help on using this command, run:\n  strata plan -help\n"},
		{[]string{"plan", "-target=bad[", "-refresh-only", "-destroy", "-no-color"}, "\nError: Invalid target \"bad[\"\n\nIndex brackets must contain either a literal number or a literal string.\n\nError: Incompatible plan mode options\n\nThe -destroy and -refresh-only options are mutually-exclusive.\n\nFor more help on using this command, run:\n  strata plan -help\n"},
		{[]string{"apply", "-target=a.b.c", "-no-color"}, "\nError: Invalid target \"a.b.c\"\n\nResource instance key must be given in square brackets.\n\nFor more help on using this command, run:\n  strata apply -help\n"},
		{[]string{"plan", "-replace=module.m", "-no-color"}, "\nError: Invalid force-replace address \"module.m\"\n\nA resource instance address is required here. The module path must be\nfollowed by a resource instance specification.\n\nFor more help on using this command, run:\n  strata plan -help\n"},
		{[]string{"plan", "-target=a.b[1.5]", "-no-color"}, "\nError: Invalid target \"a.b[1.5]\"\n\nInvalid resource instance key: value must be a whole number, between\n-9223372036854775808 and 9223372036854775807.\n\nFor more help on using this command, run:\n  strata plan -help\n"},
		{[]string{"plann"}, "strata has no command named \"plann\". Did you mean \"plan\"?\n\nTo see all of strata's top-level commands, run:\n  strata -help\n\n"},
		{[]string{"xyzzyq"}, "strata has no command named \"xyzzyq\".\n\nTo see all of strata's top-level commands, run:\n  strata -help\n\n"},
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
	tf, tfErr := referenceTerraform()
	tfNames := strings.NewReplacer("Terraform", "strata", "terraform ", "strata ")
	for _, tc := range tests {
		r := strata(t, dir, tc.args...)
		if r.code != 1 || r.stderr != tc.want {
			t.Errorf("strata %v: exit %d, stderr\n%q\nwant exit 1 and\n%q", tc.args, r.code, r.stderr, tc.want)
		}
		if tfErr == nil {
			tr := runIn(t, dir, "", tf, tc.args...)
			if got := tfNames.Replace(tr.stderr); tr.code != r.code || got != r.stderr {
				t.Errorf("%v differs from terraform: exit %d, stderr\n%q", tc.args, tr.code, got)
			}
		}
	}
}

// TestE2EDeprecatedStateFlag: -state on plan, apply, refresh and destroy
// still works and warns first, as in Terraform; compared with terraform
// when installed.
func TestE2EDeprecatedStateFlag(t *testing.T) {
	t.Parallel()
	const warning = "\nWarning: Deprecated flag: -state\n\nUse `path` attribute within the `local` backend instead:\nhttps://developer.hashicorp.com/terraform/language/v1.10.x/settings/backends/local#path\n"
	run := func(bin string) []string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
		var heads []string
		for _, args := range [][]string{{"plan"}, {"apply", "-auto-approve"}, {"refresh"}, {"destroy", "-auto-approve"}} {
			r := runIn(t, dir, "", bin, append(args, "-state=other.tfstate", "-no-color")...)
			if r.code != 0 {
				t.Fatalf("%s %v: %s", bin, args, r.stderr)
			}
			head := r.stdout
			if len(head) > len(warning) {
				head = head[:len(warning)]
			}
			heads = append(heads, head)
		}
		if _, err := os.Stat(filepath.Join(dir, "other.tfstate")); err != nil {
			t.Errorf("%s: -state did not write other.tfstate", bin)
		}
		return heads
	}
	got := run(strataBin)
	for i, h := range got {
		if h != warning {
			t.Errorf("step %d starts with %q, want the warning", i, h)
		}
	}
	if tf, err := referenceTerraform(); err == nil {
		if want := run(tf); strings.Join(want, "|") != strings.Join(got, "|") {
			t.Errorf("differs from terraform:\n%q", want)
		}
	}
}

// TestE2EReplaceWithoutKey: -replace naming a resource with count or
// for_each replaces nothing and lists the -replace option of every
// instance, as Terraform does; compared with terraform (whose order of
// the warnings varies) when installed.
func TestE2EReplaceWithoutKey(t *testing.T) {
	t.Parallel()
	run := func(bin string) []string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  count = 3\n}\nresource \"terraform_data\" \"m\" {\n  for_each = toset([\"x\", \"y\"])\n}\n")
		if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %s", bin, r.stderr)
		}
		r := runIn(t, dir, "", bin, "plan", "-replace=terraform_data.a", "-replace=terraform_data.m", "-detailed-exitcode", "-no-color")
		if r.code != 0 {
			t.Errorf("%s plan: exit %d, want 0 (nothing replaced)\n%s", bin, r.code, r.stderr)
		}
		warnings := strings.Split(r.stdout[strings.Index(r.stdout, "\nWarning:"):], "\nWarning:")[1:]
		sort.Strings(warnings)
		return warnings
	}
	got := run(strataBin)
	want := []string{
		" Incompletely-matched force-replace resource instance\n\nYour force-replace request for terraform_data.a doesn't match any resource\ninstances because it lacks an instance key.\n\nTo force replacement of particular instances, use one or more of the\nfollowing options instead:\n  -replace=\"terraform_data.a[0]\"\n  -replace=\"terraform_data.a[1]\"\n  -replace=\"terraform_data.a[2]\"\n",
		" Incompletely-matched force-replace resource instance\n\nYour force-replace request for terraform_data.m doesn't match any resource\ninstances because it lacks an instance key.\n\nTo force replacement of particular instances, use one or more of the\nfollowing options instead:\n  -replace=\"terraform_data.m[\\\"x\\\"]\"\n  -replace=\"terraform_data.m[\\\"y\\\"]\"\n",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("warnings:\n%q\nwant\n%q", got, want)
	}
	if tf, err := referenceTerraform(); err == nil {
		if tw := run(tf); strings.Join(tw, "|") != strings.Join(got, "|") {
			t.Errorf("differs from terraform:\n%q", tw)
		}
	}
}
