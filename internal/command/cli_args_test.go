package command

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWithEnvArgs(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		env     map[string]string
		args    []string
		want    []string
		wantErr string
	}{
		"none": {
			args: []string{"plan", "-out=x"},
			want: []string{"plan", "-out=x"},
		},
		"general before the user's": {
			env:  map[string]string{"TF_CLI_ARGS": "-input=false -var 'x=a b'"},
			args: []string{"plan", "-out=x"},
			want: []string{"plan", "-input=false", "-var", "x=a b", "-out=x"},
		},
		"command-specific before the general": {
			env:  map[string]string{"TF_CLI_ARGS": "-var x=g", "TF_CLI_ARGS_plan": "-var x=s"},
			args: []string{"plan"},
			want: []string{"plan", "-var", "x=s", "-var", "x=g"},
		},
		"other commands untouched": {
			env:  map[string]string{"TF_CLI_ARGS_apply": "-auto-approve"},
			args: []string{"plan"},
			want: []string{"plan"},
		},
		"nested command": {
			env:  map[string]string{"TF_CLI_ARGS_workspace_new": "-lock=false"},
			args: []string{"workspace", "new", "dev"},
			want: []string{"workspace", "new", "-lock=false", "dev"},
		},
		"dashes become underscores": {
			env:  map[string]string{"TF_CLI_ARGS_force_unlock": "-force"},
			args: []string{"force-unlock", "id"},
			want: []string{"force-unlock", "-force", "id"},
		},
		"no command": {
			env:  map[string]string{"TF_CLI_ARGS": "-x"},
			args: []string{},
			want: []string{},
		},
		"unterminated quote": {
			env:     map[string]string{"TF_CLI_ARGS": `"oops`},
			args:    []string{"plan"},
			wantErr: "error parsing extra CLI args from TF_CLI_ARGS: invalid command line string",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := withEnvArgs(func(k string) string { return tc.env[k] }, tc.args)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("wrong arguments (-want +got)\n%s", diff)
			}
		})
	}
}

// TestE2ECLIArgsEnv: TF_CLI_ARGS and TF_CLI_ARGS_plan reach the command as
// in Terraform (the user's flags win), compared with terraform when it is
// installed.
func TestE2ECLIArgsEnv(t *testing.T) {
	t.Parallel()
	cases := []struct{ general, specific, user string }{
		{"-var x=general", "-var x=specific", ""},
		{"-var x=general", "-var x=specific", "x=user"},
		{"-var 'x=a b'", "", ""},
	}
	run := func(bin string) []string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "variable \"x\" {}\noutput \"x\" {\n  value = var.x\n}\n")
		var outs []string
		for _, c := range cases {
			env := []string{"TF_CLI_ARGS=" + c.general, "TF_CLI_ARGS_plan=" + c.specific}
			args := []string{"plan", "-no-color", "-input=false"}
			if c.user != "" {
				args = append(args, "-var", c.user)
			}
			r := runWith(t, dir, "", bin, env, args...)
			line := ""
			for _, l := range strings.Split(r.stdout, "\n") {
				if strings.Contains(l, "x = ") {
					line = strings.TrimSpace(l)
				}
			}
			outs = append(outs, line)
		}
		return outs
	}
	got := run(strataBin)
	want := []string{`+ x = "general"`, `+ x = "user"`, `+ x = "a b"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outputs (-want +got)\n%s", diff)
	}
	if tf, err := referenceTerraform(); err == nil {
		if diff := cmp.Diff(run(tf), got); diff != "" {
			t.Errorf("differs from terraform (-terraform +strata)\n%s", diff)
		}
	}
}

// TestE2ETFInput: TF_INPUT=0 turns prompts off as -input=false does, even
// with -input=true, as in Terraform.
func TestE2ETFInput(t *testing.T) {
	t.Parallel()
	for _, bin := range []string{strataBin, "terraform"} {
		if bin == "terraform" {
			tf, err := referenceTerraform()
			if err != nil {
				continue
			}
			bin = tf
		}
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "variable \"x\" {}\n")
		r := runWith(t, dir, "val\n", bin, []string{"TF_INPUT=0"}, "plan", "-no-color", "-input=true")
		if r.code != 1 || !strings.Contains(r.stderr, "No value for required variable") {
			t.Errorf("%s with TF_INPUT=0: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
		}
		r = runWith(t, dir, "val\n", bin, []string{"TF_INPUT=1"}, "plan", "-no-color")
		if r.code != 0 {
			t.Errorf("%s with TF_INPUT=1 and an answer: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
		}
	}
}
