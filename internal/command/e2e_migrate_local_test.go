package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EMigrateLocalPath: init -migrate-state into backend "local" with
// another path copies the state there and empties the old file (its
// .backup keeps it), and removing the block again brings it back; nothing
// is lost on the way. Compared with terraform when installed.
func TestE2EMigrateLocalPath(t *testing.T) {
	t.Parallel()
	withPath := "terraform {\n  backend \"local\" {\n    path = \"other.tfstate\"\n  }\n}\nresource \"terraform_data\" \"a\" {}\n"
	plain := "resource \"terraform_data\" \"a\" {}\n"
	type outcome struct {
		Sizes        string // which files hold a state: other, default, default backup
		ListAfterOne string
		ListAfterTwo string
		NoChanges    bool
	}
	size := func(dir, name string) string {
		st, err := os.Stat(filepath.Join(dir, name))
		switch {
		case err != nil:
			return "none"
		case st.Size() == 0:
			return "empty"
		}
		return "state"
	}
	run := func(bin string) outcome {
		dir := t.TempDir()
		step := func(args ...string) result {
			t.Helper()
			r := runIn(t, dir, "", bin, args...)
			if r.code != 0 {
				t.Fatalf("%s %s: exit %d\n%s%s", filepath.Base(bin), strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
			return r
		}
		writeFile(t, filepath.Join(dir, "main.tf"), plain)
		step("apply", "-auto-approve", "-no-color")
		writeFile(t, filepath.Join(dir, "main.tf"), withPath)
		step("init", "-migrate-state", "-force-copy", "-no-color")
		var o outcome
		o.Sizes = strings.Join([]string{size(dir, "other.tfstate"), size(dir, "terraform.tfstate"), size(dir, "terraform.tfstate.backup")}, ",")
		o.ListAfterOne = step("state", "list").stdout
		writeFile(t, filepath.Join(dir, "main.tf"), plain)
		step("init", "-migrate-state", "-force-copy", "-no-color")
		o.ListAfterTwo = step("state", "list").stdout
		o.NoChanges = runIn(t, dir, "", bin, "plan", "-detailed-exitcode", "-no-color").code == 0
		return o
	}
	got := run(strataBin)
	want := outcome{Sizes: "state,empty,state", ListAfterOne: "terraform_data.a\n", ListAfterTwo: "terraform_data.a\n", NoChanges: true}
	if got != want {
		t.Errorf("migration: %+v, want %+v", got, want)
	}
	if tf, err := referenceTerraform(); err == nil {
		if tfo := run(tf); tfo != got {
			t.Errorf("strata %+v, terraform %+v", got, tfo)
		}
	}
}
