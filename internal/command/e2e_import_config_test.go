package command

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EImportConfigDir: import -config=DIR reads the configuration from
// DIR and keeps the state in the working directory, as Terraform does;
// a missing directory is an error that writes nothing.
func TestE2EImportConfigDir(t *testing.T) {
	run := func(bin string) string {
		t.Helper()
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "cfg"), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "cfg", "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
		r := runIn(t, dir, "", bin, "import", "-no-color", "-config=nope", "terraform_data.a", "x")
		if r.code != 1 {
			t.Errorf("%s import -config=nope: exit %d, want 1", bin, r.code)
		}
		if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
			t.Errorf("%s import -config=nope wrote a state", bin)
		}
		r = runIn(t, dir, "", bin, "import", "-no-color", "-config=cfg", "terraform_data.a", "7c1b")
		if r.code != 0 {
			t.Fatalf("%s import -config=cfg: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "cfg", "terraform.tfstate")); err == nil {
			t.Errorf("%s wrote the state into the configuration directory", bin)
		}
		r = runIn(t, dir, "", bin, "state", "show", "-no-color", "terraform_data.a")
		return r.stdout
	}
	got := run(strataBin)
	if !strings.Contains(got, `id = "7c1b"`) {
		t.Errorf("strata state show after import:\n%s", got)
	}
	if tf, err := exec.LookPath("terraform"); err == nil {
		if want := run(tf); want != got {
			t.Errorf("state show differs from terraform's:\nstrata:\n%s\nterraform:\n%s", got, want)
		}
	}
}
