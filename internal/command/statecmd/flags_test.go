package statecmd

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
)

// capture records the options and arguments a command's run function got.
type capture struct {
	opts any
	args []string
}

// stateCommands builds each command of this file's table with a run
// function that records what it was given.
var stateCommands = map[string]func(d *Env, c *capture) *cobra.Command{
	"state list": func(d *Env, c *capture) *cobra.Command {
		return newStateListCommand(d, func(o *stateListOptions, a []string) error { c.opts, c.args = *o, a; return nil })
	},
	"state show": func(d *Env, c *capture) *cobra.Command {
		return newStateShowCommand(d, func(o *stateShowOptions, a []string) error { c.opts, c.args = *o, a; return nil })
	},
	"state rm": func(d *Env, c *capture) *cobra.Command {
		return newStateRmCommand(d, func(o *stateRmOptions, a []string) error { c.opts, c.args = *o, a; return nil })
	},
	"state mv": func(d *Env, c *capture) *cobra.Command {
		return newStateMvCommand(d, func(o *stateMvOptions, a []string) error { c.opts, c.args = *o, a; return nil })
	},
	"state pull": func(d *Env, c *capture) *cobra.Command {
		return newStatePullCommand(d, func(o *statePullOptions) error { c.opts = *o; return nil })
	},
	"state push": func(d *Env, c *capture) *cobra.Command {
		return newStatePushCommand(d, func(o *statePushOptions, a []string) error { c.opts, c.args = *o, a; return nil })
	},
	"state replace-provider": func(d *Env, c *capture) *cobra.Command {
		return newStateReplaceProviderCommand(d, func(o *stateReplaceProviderOptions, a []string) error { c.opts, c.args = *o, a; return nil })
	},
	"taint": func(d *Env, c *capture) *cobra.Command {
		return newTaintCommand(d, func(o *taintOptions, a []string) error { c.opts, c.args = *o, a; return nil }, false)
	},
	"untaint": func(d *Env, c *capture) *cobra.Command {
		return newTaintCommand(d, func(o *taintOptions, a []string) error { c.opts, c.args = *o, a; return nil }, true)
	},
}

// TestStateCommandFlags checks that Terraform's flags for the state
// commands, taint and untaint reach the options, and that wrong argument
// counts are refused before anything runs.
func TestStateCommandFlags(t *testing.T) {
	locked := stateFlags{lock: true}
	tests := map[string]struct {
		cmd      string
		args     []string
		want     any
		wantArgs []string
		wantErr  string // in stderr; the run function must not be called
	}{
		"list defaults": {cmd: "state list", want: stateListOptions{}, wantArgs: []string{}},
		"list everything": {cmd: "state list",
			args:     []string{"-state=s.tfstate", "-id=abc", "-no-color", "module.a", "x.y"},
			want:     stateListOptions{state: stateFlags{statePath: "s.tfstate"}, id: "abc", view: viewFlags{noColor: true}},
			wantArgs: []string{"module.a", "x.y"}},
		"show": {cmd: "state show", args: []string{"-state", "s.tfstate", "x.y[0]"},
			want: stateShowOptions{state: stateFlags{statePath: "s.tfstate"}}, wantArgs: []string{"x.y[0]"}},
		"show needs one address": {cmd: "state show", args: []string{"a.b", "c.d"}, wantErr: "Exactly one argument expected."},
		"show needs an address":  {cmd: "state show", wantErr: "Exactly one argument expected."},
		"rm defaults": {cmd: "state rm", args: []string{"a.b"},
			want: stateRmOptions{state: locked}, wantArgs: []string{"a.b"}},
		"rm everything": {cmd: "state rm",
			args:     []string{"-dry-run", "-backup=b.tfstate", "-lock=false", "-lock-timeout=3s", "-state=s.tfstate", "-ignore-remote-version", "a.b", "module.c"},
			want:     stateRmOptions{dryRun: true, state: stateFlags{backupPath: "b.tfstate", lockTimeout: 3 * time.Second, statePath: "s.tfstate"}},
			wantArgs: []string{"a.b", "module.c"}},
		"rm needs an address": {cmd: "state rm", wantErr: "At least one address is required."},
		"mv defaults": {cmd: "state mv", args: []string{"a.b", "a.c"},
			want: stateMvOptions{state: locked}, wantArgs: []string{"a.b", "a.c"}},
		"mv everything": {cmd: "state mv",
			args: []string{"-dry-run", "-state=s", "-state-out=o", "-backup=b", "-backup-out=bo", "-lock-timeout=1m", "a.b", "a.c"},
			want: stateMvOptions{dryRun: true, state: stateFlags{statePath: "s", backupPath: "b", lock: true, lockTimeout: time.Minute},
				stateOut: "o", backupOut: "bo"},
			wantArgs: []string{"a.b", "a.c"}},
		"mv needs two addresses": {cmd: "state mv", args: []string{"a.b"}, wantErr: "Exactly two arguments expected."},
		"pull":                   {cmd: "state pull", want: statePullOptions{}},
		"pull ignores arguments": {cmd: "state pull", args: []string{"x"}, want: statePullOptions{}}, // as Terraform
		"push": {cmd: "state push", args: []string{"-force", "-lock=false", "-"},
			want: statePushOptions{force: true}, wantArgs: []string{"-"}},
		"push needs a path": {cmd: "state push", wantErr: "Exactly one argument expected."},
		"replace-provider": {cmd: "state replace-provider",
			args:     []string{"-auto-approve", "-lock-timeout=2s", "-state=s", "-backup=-", "hashicorp/a", "acme/a"},
			want:     stateReplaceProviderOptions{autoApprove: true, state: stateFlags{lock: true, lockTimeout: 2 * time.Second, statePath: "s", backupPath: "-"}},
			wantArgs: []string{"hashicorp/a", "acme/a"}},
		"replace-provider needs two": {cmd: "state replace-provider", args: []string{"a"}, wantErr: "Exactly two arguments expected."},
		"taint": {cmd: "taint",
			args:     []string{"-allow-missing", "-lock=false", "-state=s", "-state-out=o", "-backup=b", "-ignore-remote-version", "a.b[1]"},
			want:     taintOptions{allowMissing: true, state: stateFlags{statePath: "s", stateOut: "o", backupPath: "b"}},
			wantArgs: []string{"a.b[1]"}},
		"taint needs one address": {cmd: "taint", wantErr: "The taint command expects exactly one argument."},
		"untaint": {cmd: "untaint", args: []string{"a.b"},
			want: taintOptions{untaint: true, state: locked}, wantArgs: []string{"a.b"}},
		"untaint needs one address": {cmd: "untaint", args: []string{"a.b", "c.d"}, wantErr: "The untaint command expects exactly one argument."},
	}
	allow := cmp.AllowUnexported(stateListOptions{}, stateShowOptions{}, stateRmOptions{}, stateMvOptions{},
		statePullOptions{}, statePushOptions{}, stateReplaceProviderOptions{}, taintOptions{},
		stateFlags{}, viewFlags{})
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d := testEnv()
			c := &capture{}
			cmd := stateCommands[tc.cmd](d, c)
			cmd.SetArgs(doubleDash(tc.args))
			cmd.SetOut(d.Stdout)
			cmd.SetErr(d.Stderr)
			err := cmd.Execute()
			if tc.wantErr != "" {
				stderr := d.Stderr.(*bytes.Buffer).String()
				if err != d.Reported || !strings.Contains(stderr, tc.wantErr) {
					t.Fatalf("got error %v and stderr %q, want the reported error and %q", err, stderr, tc.wantErr)
				}
				if !strings.Contains(stderr, "For more help, run: "+cmd.CommandPath()) {
					t.Errorf("stderr does not point at the command's help: %q", stderr)
				}
				if c.opts != nil {
					t.Error("the command ran despite the wrong arguments")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, c.opts, allow); diff != "" {
				t.Errorf("wrong options (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantArgs, c.args); diff != "" {
				t.Errorf("wrong arguments (-want +got):\n%s", diff)
			}
		})
	}
}

// errTestReported stands for package command's exit error.
var errTestReported = errors.New("reported")

// testEnv is an Env with buffers for output and argument errors reported
// as package command reports them.
func testEnv() *Env {
	var out, errb bytes.Buffer
	return &Env{
		Stdin: &bytes.Buffer{}, Stdout: &out, Stderr: &errb,
		NoColor:  func() bool { return false },
		Reported: errTestReported,
		Usage: func(cmd *cobra.Command, msg string) error {
			fmt.Fprintf(&errb, "Error: %s\n\nFor more help, run: %s -help\n", msg, cmd.CommandPath())
			return errTestReported
		},
	}
}

// doubleDash turns Terraform's single-dash flags into the double-dash
// ones cobra parses, as package command does before running a command.
func doubleDash(args []string) []string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		if len(a) > 2 && a[0] == '-' && a[1] != '-' {
			a = "-" + a
		}
		out = append(out, a)
	}
	return out
}
