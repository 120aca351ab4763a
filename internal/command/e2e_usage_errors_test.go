package command

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestE2EUsageErrorsMatchTerraform: wrong positional arguments, an
// unknown flag, a missing subcommand, "help" as a command and options
// before the subcommand strata does not know are reported as Terraform reports
// them for each command that predates diagnostics: the same message, on
// the same stream, in red unless -no-color, with the command's usage on
// stderr or stdout or not at all, and the same exit code (some commands
// ignore extra arguments). The usage text itself is strata's, so it is
// compared as <usage>. Compared with terraform, with and without colour,
// when it is installed.
func TestE2EUsageErrorsMatchTerraform(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args           []string
		code           int
		stdout, stderr string // with -no-color, usage texts as <usage>
	}{
		{[]string{"-bogus"}, 127, "<usage>\n", ""},
		{[]string{"-bogus", "plan"}, 1, "Invalid flags before the subcommand. If these flags are for\nthe subcommand, please put them after the subcommand.\n\n<usage>\n", ""},
		{[]string{"-chdir=.", "-chdir=.", "version"}, 1, "Invalid flags before the subcommand. If these flags are for\nthe subcommand, please put them after the subcommand.\n\n<usage>\n", ""},
		{[]string{"-chdir="}, 1, "", "Invalid -chdir option: must include an equals sign followed by a directory path, like -chdir=example\n"},
		{[]string{"-chdir"}, 1, "", "Invalid -chdir option: must include an equals sign followed by a directory path, like -chdir=example\n"},
		{[]string{"-help", "nosuch"}, 1, "", "strata has no command named \"nosuch\".\n\nTo see all of strata's top-level commands, run:\n  strata -help\n\n"},
		{[]string{"-help", "state", "list"}, 0, "<usage>\n", ""},
		{[]string{"help"}, 1, "", "strata has no command named \"help\".\n\nTo see all of strata's top-level commands, run:\n  strata -help\n\n"},
		{[]string{"providers", "-help"}, 0, "\n<usage>\n", ""},
		{[]string{"metadata", "functions", "-help"}, 0, "\n<usage>\n", ""},
		{[]string{"state", "-help"}, 0, "<usage>\n", ""},
		{[]string{"import"}, 1, "", "The import command expects two arguments.\n<usage>\n"},
		{[]string{"import", "a"}, 1, "", "The import command expects two arguments.\n<usage>\n"},
		{[]string{"import", "a", "b", "c"}, 1, "", "The import command expects two arguments.\n<usage>\n"},
		{[]string{"import", "-bogus"}, 1, "", "<usage>\n"},
		{[]string{"taint"}, 1, "", "The taint command expects exactly one argument.\n<usage>\n"},
		{[]string{"taint", "a", "b"}, 1, "", "The taint command expects exactly one argument.\n<usage>\n"},
		{[]string{"taint", "-bogus"}, 1, "", "<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"untaint"}, 1, "", "The untaint command expects exactly one argument.\n<usage>\n"},
		{[]string{"untaint", "-bogus"}, 1, "", "<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"state", "mv"}, 1, "<usage>\n", "Exactly two arguments expected.\n\n"},
		{[]string{"state", "mv", "a"}, 1, "<usage>\n", "Exactly two arguments expected.\n\n"},
		{[]string{"state", "mv", "-bogus"}, 1, "", "Error parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"state", "rm"}, 1, "<usage>\n", "At least one address is required.\n\n"},
		{[]string{"state", "rm", "-bogus"}, 1, "", "Error parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"state", "show"}, 1, "<usage>\n", "Exactly one argument expected.\n"},
		{[]string{"state", "show", "a", "b"}, 1, "<usage>\n", "Exactly one argument expected.\n"},
		{[]string{"state", "show", "-bogus"}, 1, "", "Error parsing command-line flags: flag provided but not defined: -bogus\n"},
		{[]string{"state", "pull", "a"}, 0, "", ""},
		{[]string{"state", "pull", "-bogus"}, 1, "", "Error parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"state", "push"}, 1, "<usage>\n", "Exactly one argument expected.\n\n"},
		{[]string{"state", "push", "a", "b"}, 1, "<usage>\n", "Exactly one argument expected.\n\n"},
		{[]string{"state", "push", "-bogus"}, 1, "", "Error parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"state", "replace-provider", "a"}, 1, "<usage>\n", "Exactly two arguments expected.\n\n"},
		{[]string{"state", "replace-provider", "-bogus"}, 1, "<usage>\n", "Error parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"state", "list", "-bogus"}, 1, "<usage>\n", "Error parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"state", "list", "a"}, 1, "", "No state file was found!\n\nState management commands require a state file. Run this command\nin a directory where strata has been run or use the -state flag\nto point the command to a specific state location.\n"},
		{[]string{"state", "identities"}, 1, "<usage>\n", ""},
		{[]string{"state"}, 1, "<usage>\n", ""},
		{[]string{"workspace", "new"}, 1, "<usage>\n", "Expected a single argument: NAME.\n\n"},
		{[]string{"workspace", "new", "a", "b"}, 1, "<usage>\n", "Expected a single argument: NAME.\n\n"},
		{[]string{"workspace", "new", "-bogus"}, 1, "", "<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"workspace", "select"}, 1, "<usage>\n", "Expected a single argument: NAME.\n\n"},
		{[]string{"workspace", "select", "-bogus"}, 1, "", "<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"workspace", "delete"}, 1, "<usage>\n", "Expected a single argument: NAME.\n\n"},
		{[]string{"workspace", "delete", "-bogus"}, 1, "", "<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"workspace", "list", "a"}, 1, "", "Too many command line arguments. Did you mean to use -chdir?\n"},
		{[]string{"workspace", "list", "-bogus"}, 1, "", "<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"workspace", "show", "a"}, 0, "default\n", ""},
		{[]string{"workspace", "show", "-bogus"}, 1, "", "<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"workspace"}, 1, "<usage>\n", ""},
		{[]string{"force-unlock"}, 1, "<usage>\n", "Expected a single argument: LOCK_ID\n"},
		{[]string{"force-unlock", "a", "b"}, 1, "<usage>\n", "Expected a single argument: LOCK_ID\n"},
		{[]string{"force-unlock", "-bogus"}, 1, "", "<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"console", "a"}, 1, "", "Too many command line arguments. Did you mean to use -chdir?\n"},
		{[]string{"console", "-bogus"}, 1, "", "<usage>\nError parsing command line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"get", "a"}, 1, "", "Too many command line arguments. Did you mean to use -chdir?\n"},
		{[]string{"get", "-bogus"}, 1, "", "<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"graph", "a"}, 1, "", "Too many command line arguments. Did you mean to use -chdir?\n"},
		{[]string{"graph", "-bogus"}, 1, "", "<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"version", "-bogus"}, 1, "", "<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"providers", "a"}, 1, "", "Too many command line arguments. Did you mean to use -chdir?\n"},
		{[]string{"providers", "-bogus"}, 1, "", "\n<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"providers", "lock", "-bogus"}, 1, "", "\n<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"providers", "lock", "a"}, 1, "", "\nError: Invalid provider argument\n\nThe provider registry.terraform.io/hashicorp/a is not required by the current\nconfiguration.\n\n"},
		{[]string{"providers", "mirror"}, 1, "", "\nError: No output directory specified\n\nThe providers mirror command requires an output directory as a command-line\nargument.\n\n"},
		{[]string{"providers", "mirror", "a", "b"}, 1, "", "\nError: No output directory specified\n\nThe providers mirror command requires an output directory as a command-line\nargument.\n\n"},
		{[]string{"providers", "mirror", "-bogus"}, 1, "", "\n<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"providers", "schema"}, 1, "", "The `strata providers schema` command requires the `-json` flag.\n\n\n<usage>\n"},
		{[]string{"providers", "schema", "-bogus"}, 1, "", "\n<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"test", "a"}, 0, "\nSuccess! 0 passed, 0 failed.\n", ""},
		{[]string{"test", "-bogus"}, 1, "", "\nError: Failed to parse command-line flags\n\nflag provided but not defined: -bogus\n\nFor more help on using this command, run:\n  strata test -help\n"},
		{[]string{"metadata", "functions"}, 1, "", "The `strata metadata functions` command requires the `-json` flag.\n\n\n<usage>\n"},
		{[]string{"metadata", "functions", "-bogus"}, 1, "", "\n<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"metadata"}, 1, "<usage>\n", ""},
		{[]string{"fmt", "-bogus"}, 1, "", "<usage>\nError parsing command-line flags: flag provided but not defined: -bogus\n\n"},
		{[]string{"fmt", "a", "b"}, 2, "", "\nError: No file or directory at a\n\n\n"},
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
	tf, tfErr := referenceTerraform()
	names := strings.NewReplacer("registry.terraform.io", "registry.terraform.io", "terraform", "strata", "Terraform", "strata")
	for _, tc := range tests {
		r := runInProcess(t, dir, nil, "", append(tc.args, "-no-color")...)
		if got := (result{usageShape(r.stdout), usageShape(r.stderr), r.code}); got != (result{tc.stdout, tc.stderr, tc.code}) {
			t.Errorf("strata %v -no-color: exit %d\nstdout %q\nstderr %q\nwant exit %d\nstdout %q\nstderr %q", tc.args, got.code, got.stdout, got.stderr, tc.code, tc.stdout, tc.stderr)
		}
		if tfErr != nil {
			continue
		}
		for _, args := range [][]string{append(tc.args, "-no-color"), tc.args} {
			s := runInProcess(t, dir, nil, "", args...)
			tr := runIn(t, dir, "", tf, args...)
			got := result{usageShape(s.stdout), usageShape(s.stderr), s.code}
			want := result{usageShape(names.Replace(tr.stdout)), usageShape(names.Replace(tr.stderr)), tr.code}
			if got != want {
				t.Errorf("%v differs from terraform:\nstrata    exit %d, stdout %q, stderr %q\nterraform exit %d, stdout %q, stderr %q", args, got.code, got.stdout, got.stderr, want.code, want.stdout, want.stderr)
			}
		}
	}
}

// usageLine is the first line of a command's usage text, colour codes
// before it allowed; errorLine the line after a usage.
var (
	usageLine = regexp.MustCompile(`^(\x1b\[[0-9;]*m)*Usage: `)
	errorLine = regexp.MustCompile(`^(\x1b\[[0-9;]*m)*Error parsing`)
)

// usageShape replaces each usage text in out, from its "Usage:" line to
// the end or to the "Error parsing" line after it, by <usage>.
func usageShape(out string) string {
	lines := strings.Split(out, "\n")
	var shaped []string
	for i := 0; i < len(lines); i++ {
		if !usageLine.MatchString(lines[i]) {
			shaped = append(shaped, lines[i])
			continue
		}
		j := i
		for j < len(lines) && !errorLine.MatchString(lines[j]) {
			j++
		}
		shaped = append(shaped, "<usage>")
		if j == len(lines) && lines[j-1] == "" {
			shaped = append(shaped, "")
		}
		i = j - 1
	}
	return strings.Join(shaped, "\n")
}
