package command

import (
	"path/filepath"
	"strings"
	"testing"
)

// workspaceScript is a session of workspace commands covering each
// message: invalid names, an existing workspace, selecting the selected
// one, deleting a missing, the active, a non-empty and the default
// workspace, and -force. Without -no-color the success lines keep their
// colours.
var workspaceScript = [][]string{
	{"init", "-no-color"},
	{"workspace", "new", "-no-color", "bad name"},
	{"workspace", "new", "-no-color", "a/b"},
	{"workspace", "select", "default"},
	{"workspace", "new", "dev"},
	{"workspace", "new", "-no-color", "dev"},
	{"workspace", "delete", "-no-color", "dev"},
	{"workspace", "select", "default"},
	{"workspace", "delete", "-no-color", "nope"},
	{"workspace", "select", "-no-color", "nope"},
	{"workspace", "select", "dev"},
	{"workspace", "delete", "-no-color", "default"},
	{"workspace", "select", "-no-color", "default"},
	{"apply", "-auto-approve", "-no-color"},
	{"workspace", "select", "-no-color", "dev"},
	{"workspace", "delete", "-no-color", "default"},
	{"apply", "-auto-approve", "-no-color"},
	{"workspace", "select", "-no-color", "default"},
	{"workspace", "delete", "-no-color", "dev"},
	{"workspace", "delete", "-force", "dev"},
	{"workspace", "select", "-or-create", "x2"},
	{"workspace", "list"},
}

// TestE2EWorkspaceMessages runs workspaceScript and compares each step's
// exit code and output with terraform's when it is installed: stdout byte
// for byte (colours included), stderr word for word (a message that
// names the tool wraps at other words). Without terraform it checks the
// messages scripts match on.
func TestE2EWorkspaceMessages(t *testing.T) {
	t.Parallel()
	run := func(bin string) []result {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
		var out []result
		for _, args := range workspaceScript {
			r := runIn(t, dir, "", bin, args...)
			if args[0] == "init" || args[0] == "apply" {
				r.stdout = ""
			}
			out = append(out, r)
		}
		return out
	}
	got := run(strataBin)
	wantIn := map[int]string{
		1:  `The workspace name "bad name" is not allowed.`,
		5:  `Workspace "dev" already exists`,
		6:  `Workspace "dev" is your active workspace.`,
		8:  `Workspace "nope" doesn't exist.`,
		11: "cannot delete default state",
		15: `Workspace "default" is currently tracking the following resource instances: - terraform_data.a`,
	}
	for i, want := range wantIn {
		if got[i].code != 1 || !strings.Contains(flat(got[i].stderr), want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and %q", workspaceScript[i], got[i].code, got[i].stderr, want)
		}
	}
	if want := "  default\n* x2\n\n"; got[len(got)-1].stdout != want {
		t.Errorf("list after -or-create: %q", got[len(got)-1].stdout)
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	tfNames := strings.NewReplacer(`"terraform plan"`, `"strata plan"`, "Terraform", "strata")
	want := run(tf)
	for i := range want {
		w, g := want[i], got[i]
		if w.code != g.code || tfNames.Replace(w.stdout) != g.stdout || flat(tfNames.Replace(w.stderr)) != flat(g.stderr) {
			t.Errorf("%v differs from terraform:\nterraform: exit %d\n%s%s\nstrata: exit %d\n%s%s", workspaceScript[i], w.code, w.stdout, w.stderr, g.code, g.stdout, g.stderr)
		}
	}
}
