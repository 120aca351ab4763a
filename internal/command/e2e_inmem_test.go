package command

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EInmemBackend: the inmem backend, as terraform-exec's lock tests
// use it: lock_id starts the state locked, so apply fails on the lock and
// force-unlock succeeds with that ID only; a directory never initialised
// is refused. Exit codes are compared with terraform when installed.
func TestE2EInmemBackend(t *testing.T) {
	t.Parallel()
	const lockID = "2b6a6738-5dd5-50d6-c0ae-f6352977666b"
	config := "terraform {\n  backend \"inmem\" {\n    lock_id = \"" + lockID + "\"\n  }\n}\nresource \"terraform_data\" \"a\" {}\n"
	steps := []struct {
		args     []string
		code     int
		contains string
	}{
		{[]string{"show", "-json"}, 1, "Backend initialization required"},
		{[]string{"init"}, 0, `Successfully configured the backend "inmem"`},
		{[]string{"apply", "-auto-approve"}, 1, "state lock"},
		{[]string{"force-unlock", "-force", "badlockid"}, 1, ""},
		{[]string{"force-unlock", "-force", lockID}, 0, "successfully unlocked"},
		{[]string{"workspace", "new", "x"}, 0, `Created and switched to workspace "x"`},
		{[]string{"workspace", "list"}, 0, "  default"}, // x was in the memory of the command that made it
	}
	run := func(bin string) {
		t.Helper()
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		for _, s := range steps {
			r := runIn(t, dir, "", bin, append(s.args, "-no-color")...)
			if r.code != s.code || !strings.Contains(r.stdout+r.stderr, s.contains) {
				t.Errorf("%s %s: exit %d, want %d with %q\n%s%s", filepath.Base(bin), strings.Join(s.args, " "), r.code, s.code, s.contains, r.stdout, r.stderr)
			}
		}
	}
	run(strataBin)
	if tf, err := referenceTerraform(); err == nil {
		run(tf)
	}
}

// TestE2EBackendInitRequired: a local backend block that init never
// recorded stops the commands that use the state, as in Terraform, which
// terraform-exec's no-init tests rely on.
func TestE2EBackendInitRequired(t *testing.T) {
	t.Parallel()
	config := "terraform {\n  backend \"local\" {\n    path = \"foo.tfstate\"\n  }\n}\n"
	run := func(bin string) {
		t.Helper()
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		for _, args := range [][]string{{"show", "-json"}, {"show"}, {"plan"}, {"state", "list"}, {"output"}, {"workspace", "list"}} {
			r := runIn(t, dir, "", bin, append(args, "-no-color")...)
			if r.code != 1 || !strings.Contains(r.stderr, "Backend initialization required") {
				t.Errorf("%s %s: exit %d, want 1 with Backend initialization required\n%s%s", filepath.Base(bin), strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
		}
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: exit %d\n%s", filepath.Base(bin), r.code, r.stderr)
		}
		if r := runIn(t, dir, "", bin, "show", "-json"); r.code != 0 {
			t.Errorf("%s show -json after init: exit %d\n%s", filepath.Base(bin), r.code, r.stderr)
		}
	}
	run(strataBin)
	if tf, err := referenceTerraform(); err == nil {
		run(tf)
	}
}
