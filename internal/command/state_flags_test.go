package command

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestForceUnlockFlags checks that Terraform's flags for force-unlock
// reach the options, and that a missing lock ID is refused before
// anything runs. The state commands' flags are tested in statecmd.
func TestForceUnlockFlags(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		args     []string
		want     forceUnlockOptions
		wantArgs []string
		wantErr  string // in stderr; the run function must not be called
	}{
		"force-unlock": {args: []string{"-force", "1234"},
			want: forceUnlockOptions{force: true}, wantArgs: []string{"1234"}},
		"force-unlock needs an id": {wantErr: "Expected a single argument: LOCK_ID"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d := testDeps()
			var got *forceUnlockOptions
			var gotArgs []string
			cmd := newForceUnlockCommand(d, func(o *forceUnlockOptions, a []string) error { got, gotArgs = o, a; return nil })
			cmd.SetArgs(normalizeArgs(tc.args))
			cmd.SetOut(d.Stdout)
			cmd.SetErr(d.Stderr)
			err := cmd.Execute()
			if tc.wantErr != "" {
				stderr := d.Stderr.(*bytes.Buffer).String()
				if ExitCode(err) != 1 || !strings.Contains(stderr, tc.wantErr) {
					t.Fatalf("got exit %d and stderr %q, want exit 1 and %q", ExitCode(err), stderr, tc.wantErr)
				}
				if !strings.Contains(stderr, "For more help, run: "+cmd.CommandPath()) {
					t.Errorf("stderr does not point at the command's help: %q", stderr)
				}
				if got != nil {
					t.Error("the command ran despite the wrong arguments")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, *got, cmp.AllowUnexported(forceUnlockOptions{}, viewFlags{})); diff != "" {
				t.Errorf("wrong options (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantArgs, gotArgs); diff != "" {
				t.Errorf("wrong arguments (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStateCommandTree checks that the root command offers every state
// subcommand, taint, untaint and force-unlock, and that their help shows
// Terraform's single-dash flags.
func TestStateCommandTree(t *testing.T) {
	t.Parallel()
	root := NewRootCommand(testDeps())
	for _, path := range [][]string{
		{"state", "list"}, {"state", "show"}, {"state", "rm"}, {"state", "mv"}, {"state", "pull"},
		{"state", "push"}, {"state", "replace-provider"}, {"taint"}, {"untaint"}, {"force-unlock"},
	} {
		cmd, _, err := root.Find(path)
		if err != nil || cmd.Name() != path[len(path)-1] {
			t.Errorf("%v: not found (%v)", path, err)
			continue
		}
		help := helpText(cmd)
		if !strings.HasPrefix(help, "Usage: strata [global options] "+strings.Join(path, " ")) {
			t.Errorf("%v: help starts %q", path, strings.SplitN(help, "\n", 2)[0])
		}
		if strings.Contains(help, "--") {
			t.Errorf("%v: help shows a double-dash flag:\n%s", path, help)
		}
	}
	if !strings.Contains(root.Long, "  state         Advanced state management") {
		t.Error("root help does not list the state command")
	}
}

// TestStateParentCommand: "strata state" alone or with a subcommand it
// does not have prints its help and fails, as Terraform's does.
func TestStateParentCommand(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		args       []string
		wantStdout string
		wantStderr string
	}{
		"no subcommand":      {wantStdout: "Subcommands:\n    list "},
		"unknown subcommand": {args: []string{"bogus"}, wantStdout: "Subcommands:\n    list "},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			d := testDeps()
			code := Run(append([]string{"state"}, tc.args...), d)
			stdout, stderr := d.Stdout.(*bytes.Buffer).String(), d.Stderr.(*bytes.Buffer).String()
			if code != 1 || !strings.Contains(stdout, tc.wantStdout) || !strings.Contains(stderr, tc.wantStderr) {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
		})
	}
}
