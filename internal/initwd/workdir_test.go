package initwd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/initwd/sourcetest"
)

// TestInstallModulesWorkDir: with Options.WorkDir, DataDir and Environ,
// modules are read and installed in that working directory (not the
// process's), recorded relative to it as Terraform records them, and git
// runs with the environment given (here a git configuration that rewrites
// the repository's address).
func TestInstallModulesWorkDir(t *testing.T) {
	t.Parallel()
	s := sourcetest.New(t)
	repo := s.NewRepo("mod")
	repo.Commit(moduleFiles)
	repo.Git("tag", "v1.0.0")
	repo.Push()
	gitConfig := filepath.Join(t.TempDir(), "gitconfig")
	if err := os.WriteFile(gitConfig, []byte("[url \""+s.PlainURL+"/git/\"]\n\tinsteadOf = https://example.invalid/org/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	writeTree(t, work, map[string]string{
		"main.tf": moduleCall("local", "./modules/local", "") +
			moduleCall("remote", "git::https://example.invalid/org/"+filepath.Base(repo.Path())+"?ref=v1.0.0", ""),
		"modules/local/main.tf": "output \"v\" {\n  value = \"local\"\n}\n",
	})
	p := configs.NewParser()
	p.SetWorkDir(work)
	mod, diags := p.LoadModule(".")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var out bytes.Buffer
	_, diags = InstallModules(context.Background(), mod, Options{
		WorkDir: work,
		DataDir: "data",
		Environ: append(os.Environ(), "GIT_CONFIG_GLOBAL="+gitConfig),
		Log:     func(line string) { out.WriteString(line + "\n") },
	})
	if diags.HasErrors() {
		t.Fatalf("%s\n%s", diags, out.String())
	}
	if want := "- local in modules/local\n"; !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
	if want := "- remote in data/modules/remote\n"; !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
	manifest, err := os.ReadFile(filepath.Join(work, "data", "modules", "modules.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"Dir":"modules/local"`, `"Dir":"data/modules/remote"`} {
		if !strings.Contains(string(manifest), want) {
			t.Errorf("manifest lacks %s: %s", want, manifest)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "data", "modules", "remote", "main.tf")); err != nil {
		t.Errorf("the git module is not in the working directory's data directory: %v", err)
	}
	for _, stray := range []string{"data", ".terraform"} {
		if _, err := os.Stat(stray); err == nil {
			t.Errorf("%s was created in the process's directory", stray)
		}
	}
}
