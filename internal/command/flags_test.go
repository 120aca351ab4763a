package command

import (
	"bytes"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/watch"
)

// TestPlanFlags checks that Terraform-style flags reach the options, using
// an injected run function as cli/cli does.
func TestPlanFlags(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		args []string
		want planOptions
	}{
		"defaults": {
			args: nil,
			want: planOptions{refresh: true, parallelism: 10, state: stateFlags{lock: true}},
		},
		"everything": {
			args: []string{"-destroy", "-refresh=false", "-parallelism=3", "-detailed-exitcode", "-no-color",
				"-lock=false", "-lock-timeout=5s", "-state=s.tfstate", "-input=false"},
			want: planOptions{destroy: true, parallelism: 3, detailedExitCode: true, view: viewFlags{noColor: true},
				state: stateFlags{statePath: "s.tfstate", lockTimeout: 5 * time.Second}},
		},
		"double dashes work too": {
			args: []string{"--parallelism", "7", "--refresh=false"},
			want: planOptions{parallelism: 7, state: stateFlags{lock: true}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got *planOptions
			cmd := newPlanCommand(testDeps(), func(o *planOptions) error { got = o; return nil })
			cmd.SetArgs(normalizeArgs(tc.args))
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			got.vars = varFlags{}
			got.targets = targetFlags{}
			if diff := cmp.Diff(tc.want, *got, cmp.AllowUnexported(planOptions{}, stateFlags{}, viewFlags{}, varFlags{}, targetFlags{})); diff != "" {
				t.Errorf("wrong result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestVarFlagsKeepOrder(t *testing.T) {
	t.Parallel()
	var got *applyOptions
	cmd := newApplyCommand(testDeps(), func(o *applyOptions) error { got = o; return nil }, false)
	cmd.SetArgs(normalizeArgs([]string{"-var", "a=1", "-var-file=x.tfvars", "-var=b=2", "-auto-approve"}))
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	want := []varItem{{value: "a=1"}, {file: true, value: "x.tfvars"}, {value: "b=2"}}
	if diff := cmp.Diff(want, *got.vars.items, cmp.AllowUnexported(varItem{})); diff != "" {
		t.Errorf("wrong result (-want +got):\n%s", diff)
	}
	if !got.autoApprove || got.destroy {
		t.Errorf("wrong options %+v", got)
	}
}

func TestDestroyCommandSetsDestroy(t *testing.T) {
	t.Parallel()
	var got *applyOptions
	cmd := newApplyCommand(testDeps(), func(o *applyOptions) error { got = o; return nil }, true)
	cmd.SetArgs(nil)
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if !got.destroy {
		t.Error("destroy command did not select destroy mode")
	}
}

func TestNormalizeArgs(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ in, want []string }{
		"single dash long":  {[]string{"-auto-approve", "-var=x=-1"}, []string{"--auto-approve", "--var=x=-1"}},
		"values untouched":  {[]string{"-var", "x=1", "NAME"}, []string{"--var", "x=1", "NAME"}},
		"short and numbers": {[]string{"-h", "-1"}, []string{"-h", "-1"}},
		"after --":          {[]string{"--", "-foo"}, []string{"--", "-foo"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, normalizeArgs(tc.in)); diff != "" {
				t.Errorf("wrong result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGlobalOptions(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in        []string
		wantArgs  []string
		wantChdir string
		wantErr   bool
	}{
		"chdir equals": {in: []string{"-chdir=x", "plan"}, wantArgs: []string{"plan"}, wantChdir: "x"},
		"chdir space":  {in: []string{"-chdir", "x", "plan"}, wantArgs: []string{"plan"}, wantChdir: "x"},
		"chdir alone":  {in: []string{"-chdir"}, wantErr: true},
		"second chdir": {in: []string{"-chdir=x", "-chdir=y", "plan"}, wantErr: true},
		"version":      {in: []string{"-version"}, wantArgs: []string{"version"}},
		"help":         {in: []string{"-help"}, wantArgs: []string{"help"}},
		"help command": {in: []string{"-help", "plan", "-out=x"}, wantArgs: []string{"plan", "-out=x", "-help"}},
		"help help":    {in: []string{"-help", "-help"}, wantArgs: []string{"help"}},
		"help word":    {in: []string{"help"}, wantErr: true},
		"empty chdir":  {in: []string{"-chdir="}, wantErr: true},
		"unknown":      {in: []string{"-bogus", "plan"}, wantErr: true},
		"unknown only": {in: []string{"-bogus"}, wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			args, chdir, err := globalOptions(tc.in)
			if tc.wantErr {
				if err == nil {
					t.Fatal("expected an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantArgs, args); diff != "" || chdir != tc.wantChdir {
				t.Errorf("args diff %s, chdir %q", diff, chdir)
			}
		})
	}
}

func testDeps() *Deps {
	var out, errb bytes.Buffer
	return &Deps{Stdin: &bytes.Buffer{}, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Version: "test"}
}

func TestWatchFlags(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		args []string
		want watchOptions
		set  []string
	}{
		"defaults": {
			want: watchOptions{interval: 5 * time.Minute, jitter: 0.1, debounce: 500 * time.Millisecond, parallelism: 10, refreshConc: 4, state: stateFlags{lock: true}},
		},
		"everything": {
			args: []string{"-interval=30s", "-jitter=0.2", "-converge", "-allow-destroy", "-max-changes=3", "-converged-timeout=2m",
				"-debounce=1s", "-listen=127.0.0.1:9310", "-watch-config=w.hcl", "-json", "-lock-timeout=5s", "-parallelism=4", "-refresh-concurrency=2", "-restart-providers"},
			want: watchOptions{interval: 30 * time.Second, jitter: 0.2, converge: true, allowDestroy: true, maxChanges: 3, convergedTimeout: 2 * time.Minute,
				debounce: time.Second, listen: "127.0.0.1:9310", configFile: "w.hcl", view: viewFlags{json: true}, parallelism: 4, refreshConc: 2, restartProviders: true,
				state: stateFlags{lock: true, lockTimeout: 5 * time.Second}},
			set: []string{"allow-destroy", "converge", "converged-timeout", "debounce", "interval", "jitter", "json", "listen", "lock-timeout", "max-changes", "parallelism", "refresh-concurrency", "restart-providers", "watch-config"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got *watchOptions
			cmd := newWatchCommand(testDeps(), func(o *watchOptions) error { got = o; return nil })
			cmd.SetArgs(normalizeArgs(tc.args))
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			var set []string
			for f := range got.set {
				set = append(set, f)
			}
			sort.Strings(set)
			if diff := cmp.Diff(tc.set, set); diff != "" {
				t.Errorf("wrong flags set (-want +got):\n%s", diff)
			}
			got.vars, got.set = varFlags{}, nil
			if diff := cmp.Diff(tc.want, *got, cmp.AllowUnexported(watchOptions{}, stateFlags{}, viewFlags{}, varFlags{})); diff != "" {
				t.Errorf("wrong result (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWatchSchedule: the schedule file sets what the command line does
// not.
func TestWatchSchedule(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := dir + "/w.hcl"
	if err := os.WriteFile(path, []byte("interval = \"2m\"\njitter = 0.3\nresource_type \"local_file\" { interval = \"10s\" }\nrefresh_concurrency = 2\nprovider \"hashicorp/aws\" { refresh_concurrency = 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, limits, diags := watchSchedule(&watchOptions{interval: 5 * time.Minute, jitter: 0.1, refreshConc: 4, configFile: path, set: map[string]bool{"jitter": true}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if s.Interval != 2*time.Minute || s.Jitter != 0.1 || s.BackoffBase != 2*time.Minute || len(s.Rules) != 1 || s.IntervalFor("local_file.a", "local_file") != 10*time.Second {
		t.Fatalf("wrong schedule %+v", s)
	}
	if want := (watch.RefreshLimits{Default: 2, ByProvider: map[string]int{"registry.terraform.io/hashicorp/aws": 1}}); !cmp.Equal(want, limits) {
		t.Fatalf("wrong refresh limits %+v", limits)
	}
	// -refresh-concurrency on the command line wins over the file.
	_, limits, _ = watchSchedule(&watchOptions{interval: 5 * time.Minute, jitter: 0.1, refreshConc: 6, configFile: path, set: map[string]bool{"refresh-concurrency": true}})
	if limits.Default != 6 || limits.ByProvider["registry.terraform.io/hashicorp/aws"] != 1 {
		t.Fatalf("wrong refresh limits with the flag %+v", limits)
	}
	if _, _, diags := watchSchedule(&watchOptions{interval: 0, jitter: 0.1, refreshConc: 4}); !diags.HasErrors() {
		t.Fatal("no error for -interval=0")
	}
	if _, _, diags := watchSchedule(&watchOptions{interval: time.Minute, jitter: 0.1}); !diags.HasErrors() {
		t.Fatal("no error for -refresh-concurrency=0")
	}
}
