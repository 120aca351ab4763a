package command

import (
	"os"
	"os/exec"
	"path/filepath"
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
		{[]string{"apply", "-parallelism=abc", "-no-color"}, "\nError: Failed to parse command-line flags\n\ninvalid value \"abc\" for flag -parallelism: parse error\n\nFor more help on using this command, run:\n  strata apply -help\n"},
		{[]string{"plan", "-refresh=maybe", "-no-color"}, "\nError: Failed to parse command-line flags\n\ninvalid boolean value \"maybe\" for -refresh: parse error\n\nFor more help on using this command, run:\n  strata plan -help\n"},
		{[]string{"output", "-bogus", "-no-color"}, "\nError: Failed to parse command-line flags\n\nflag provided but not defined: -bogus\n\nFor more help on using this command, run:\n  strata output -help\n"},
		{[]string{"state", "rm", "-bogus", "-no-color"}, "Error parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"plan", "-parallelism=-1", "-no-color"}, "\nError: Invalid parallelism value\n\nThe parallelism must be a positive value. Not -1.\n"},
		{[]string{"destroy", "-parallelism=-3", "-no-color"}, "\nError: Invalid parallelism value\n\nThe parallelism must be a positive value. Not -3.\n"},
		{[]string{"refresh", "-parallelism=-2", "-no-color"}, "\nError: Invalid parallelism value\n\nThe parallelism must be a positive value. Not -2.\n"},
		{[]string{"plann"}, "strata has no command named \"plann\". Did you mean \"plan\"?\n\nTo see all of strata's top-level commands, run:\n  strata -help\n\n"},
		{[]string{"xyzzyq"}, "strata has no command named \"xyzzyq\".\n\nTo see all of strata's top-level commands, run:\n  strata -help\n\n"},
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
	tf, tfErr := exec.LookPath("terraform")
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
	if tf, err := exec.LookPath("terraform"); err == nil {
		if want := run(tf); strings.Join(want, "|") != strings.Join(got, "|") {
			t.Errorf("differs from terraform:\n%q", want)
		}
	}
}
