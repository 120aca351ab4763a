package command

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-dev/strata/internal/initwd/sourcetest"
)

// fsMirror makes a filesystem mirror holding unpacked packages of
// example.com/acme/thing at versions, and returns the environment that
// makes strata and terraform install from it.
func fsMirror(t *testing.T, versions ...string) []string {
	t.Helper()
	root := t.TempDir()
	for _, v := range versions {
		dir := filepath.Join(root, "mirror", "example.com", "acme", "thing", v, hostPlatform)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "terraform-provider-thing_v"+v), []byte("#!/bin/sh\necho "+v+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cli := filepath.Join(root, "cli.tfrc")
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", filepath.Join(root, "mirror")))
	return []string{"TF_CLI_CONFIG_FILE=" + cli}
}

// twinDirs writes the same files into two new directories, one for strata
// and one for terraform.
func twinDirs(t *testing.T, files map[string]string) (sdir, tdir string) {
	t.Helper()
	sdir, tdir = t.TempDir(), t.TempDir()
	writeTree(t, sdir, files)
	writeTree(t, tdir, files)
	return sdir, tdir
}

// paragraphs makes human output comparable across the two tools: the
// product name unified, and each paragraph's line wrapping undone (the
// names differ in length, so lines wrap at other words).
func paragraphs(s string) string {
	s = strings.NewReplacer("Terraform", "strata", "terraform init", "strata init", "terraform plan", "strata plan", "terraform providers", "strata providers").Replace(s)
	var out []string
	for _, p := range strings.Split(s, "\n\n") {
		out = append(out, strings.Join(strings.Fields(p), " "))
	}
	return strings.Join(out, "\n\n")
}

// TestE2EInitOutputMatchesTerraform: the text of a first and a second init
// from a filesystem mirror, lock file notes and the warning about
// incomplete checksums included, is Terraform's, and so is the lock file.
func TestE2EInitOutputMatchesTerraform(t *testing.T) {
	t.Parallel()
	env := fsMirror(t, "1.0.0", "1.1.0")
	sdir, tdir := twinDirs(t, map[string]string{"main.tf": requireProvider("thing", "example.com/acme/thing", ">=1.0.0")})
	for _, step := range []string{"first", "again"} {
		r := strataEnv(t, sdir, env, "init", "-no-color")
		if r.code != 0 {
			t.Fatalf("%s init: %+v", step, r)
		}
		if step == "first" && !strings.Contains(flat(r.stdout), "Warning: Incomplete lock file information for providers") {
			t.Errorf("first init does not warn about the incomplete lock file:\n%s", r.stdout)
		}
		tr, ok := terraformEnv(t, tdir, env, "init", "-no-color")
		if !ok {
			continue
		}
		if got, want := paragraphs(r.stdout), paragraphs(tr.stdout); got != want {
			t.Errorf("%s init: output differs\nstrata:\n%s\nterraform:\n%s", step, got, want)
		}
		if got, want := readFile(t, filepath.Join(sdir, ".terraform.lock.hcl")), readFile(t, filepath.Join(tdir, ".terraform.lock.hcl")); string(got) != string(want) {
			t.Errorf("lock files differ:\nstrata:\n%s\nterraform:\n%s", got, want)
		}
	}
}

// TestE2EInitLockfileReadonly: -lockfile=readonly installs what the lock
// file selects, refuses another selection without touching the file, and
// conflicts with -upgrade, as in Terraform.
func TestE2EInitLockfileReadonly(t *testing.T) {
	t.Parallel()
	env := fsMirror(t, "1.0.0", "1.1.0")
	cfg := requireProvider("thing", "example.com/acme/thing", "")
	tests := []struct {
		name string
		// lock is the lock file before init; "" for none.
		lock    string
		args    []string
		code    int
		wantErr string
	}{
		{name: "no lock file", args: []string{"-lockfile=readonly"}, code: 1, wantErr: "Provider dependency changes detected"},
		{name: "locked", lock: "1.0.0", args: []string{"-lockfile=readonly"}},
		{name: "with upgrade", lock: "1.0.0", args: []string{"-lockfile=readonly", "-upgrade"}, code: 1, wantErr: "The -upgrade flag conflicts with -lockfile=readonly."},
		{name: "other mode", lock: "1.0.0", args: []string{"-lockfile=other"}},
	}
	// The lock file Terraform writes for 1.0.0 from this mirror.
	lockDir := t.TempDir()
	writeFile(t, filepath.Join(lockDir, "main.tf"), requireProvider("thing", "example.com/acme/thing", "1.0.0"))
	if r := strataEnv(t, lockDir, env, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	lock100 := string(readFile(t, filepath.Join(lockDir, ".terraform.lock.hcl")))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"main.tf": cfg}
			if tc.lock != "" {
				files[".terraform.lock.hcl"] = lock100
			}
			sdir, tdir := twinDirs(t, files)
			args := append([]string{"init", "-no-color"}, tc.args...)
			r := strataEnv(t, sdir, env, args...)
			if r.code != tc.code {
				t.Fatalf("exit code %d, want %d:\n%s\n%s", r.code, tc.code, r.stdout, r.stderr)
			}
			if tc.wantErr != "" && !strings.Contains(flat(r.stderr), tc.wantErr) {
				t.Errorf("stderr lacks %q:\n%s", tc.wantErr, r.stderr)
			}
			checkLock := func(dir string) {
				t.Helper()
				got, err := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
				switch {
				case tc.lock == "" && !os.IsNotExist(err):
					t.Errorf("%s: a read-only lock file was created:\n%s", dir, got)
				case tc.lock != "" && string(got) != lock100:
					t.Errorf("%s: the lock file changed:\n%s", dir, got)
				}
			}
			checkLock(sdir)
			tr, ok := terraformEnv(t, tdir, env, args...)
			if !ok {
				return
			}
			if tr.code != tc.code {
				t.Errorf("terraform exit code %d, want %d:\n%s", tr.code, tc.code, tr.stdout)
			}
			if tc.wantErr != "" && !strings.Contains(flat(tr.stdout), tc.wantErr) {
				t.Errorf("terraform's output lacks %q:\n%s", tc.wantErr, tr.stdout)
			}
			checkLock(tdir)
		})
	}
}

// TestE2EInitLockConstraintsNormalized: constraints from several modules,
// written unevenly, are recorded merged and normalized, byte for byte as
// Terraform records them, so that terraform accepts strata's lock file;
// and a changed constraint that the locked version still meets leaves the
// recorded constraints alone, as in Terraform.
func TestE2EInitLockConstraintsNormalized(t *testing.T) {
	t.Parallel()
	env := fsMirror(t, "1.0.0", "1.1.0")
	files := map[string]string{
		"main.tf":     requireProvider("thing", "example.com/acme/thing", ">=1.0.0, >= 1.0.0") + "module \"a\" {\n  source = \"./a\"\n}\nmodule \"b\" {\n  source = \"./b\"\n}\n",
		"a/main.tf":   requireProvider("thing", "example.com/acme/thing", "~>1.0"),
		"b/main.tf":   requireProvider("thing", "example.com/acme/thing", ">= 1.0.0"),
		"c/unused.tf": "",
	}
	sdir, tdir := twinDirs(t, files)
	r := strataEnv(t, sdir, env, "init", "-no-color")
	if r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	if !strings.Contains(r.stdout, `- Finding example.com/acme/thing versions matching ">= 1.0.0, ~> 1.0"...`) {
		t.Errorf("constraints not normalized in the output:\n%s", r.stdout)
	}
	lock := string(readFile(t, filepath.Join(sdir, ".terraform.lock.hcl")))
	if !strings.Contains(lock, `constraints = ">= 1.0.0, ~> 1.0"`) {
		t.Errorf("lock file:\n%s", lock)
	}
	writeFile(t, filepath.Join(sdir, "b", "main.tf"), requireProvider("thing", "example.com/acme/thing", ">= 1.1.0"))
	if r := strataEnv(t, sdir, env, "init", "-no-color"); r.code != 0 {
		t.Fatalf("second init: %+v", r)
	}
	if got := string(readFile(t, filepath.Join(sdir, ".terraform.lock.hcl"))); got != lock {
		t.Errorf("the lock file changed although the version did not:\n%s", got)
	}

	tr, ok := terraformEnv(t, tdir, env, "init", "-no-color")
	if !ok {
		return
	}
	if tr.code != 0 {
		t.Fatalf("terraform init: %s", tr.stdout)
	}
	if got := string(readFile(t, filepath.Join(tdir, ".terraform.lock.hcl"))); got != lock {
		t.Errorf("lock files differ:\nstrata:\n%s\nterraform:\n%s", lock, got)
	}
	// Terraform reads strata's directory as its own.
	if tr, _ := terraformEnv(t, sdir, env, "init", "-no-color", "-lockfile=readonly"); tr.code != 0 || strings.Contains(tr.stdout, "Warning") {
		t.Errorf("terraform init -lockfile=readonly on strata's directory: %s", tr.stdout)
	}
}

// TestE2EInitGetFalse: -get=false installs no modules; modules already
// installed are used, and a module not installed is an error, as in
// Terraform.
func TestE2EInitGetFalse(t *testing.T) {
	t.Parallel()
	bare, _ := sourcetest.ModuleRepo(t)
	files := map[string]string{"main.tf": "module \"g\" {\n  source = \"git::file://" + bare + "//vpc?ref=v1.0\"\n}\n"}
	sdir, tdir := twinDirs(t, files)
	for _, dir := range []string{sdir, tdir} {
		run := func(args ...string) result {
			if dir == sdir {
				return strataEnv(t, dir, nil, args...)
			}
			r, ok := terraformEnv(t, dir, nil, args...)
			if !ok {
				t.Skip("terraform is not installed")
			}
			return r
		}
		r := run("init", "-no-color", "-get=false")
		if r.code != 1 || !strings.Contains(r.stdout+r.stderr, "Module not installed") {
			t.Errorf("%s: init -get=false without modules: %+v", dir, r)
		}
		if _, err := os.Stat(filepath.Join(dir, ".terraform", "modules", "g")); !os.IsNotExist(err) {
			t.Errorf("%s: -get=false installed the module", dir)
		}
		if r := run("init", "-no-color"); r.code != 0 {
			t.Fatalf("%s: init: %+v", dir, r)
		}
		r = run("init", "-no-color", "-get=true")
		if r.code != 0 || strings.Contains(r.stdout, "Downloading") {
			t.Errorf("%s: init -get=true again: %+v", dir, r)
		}
		r = run("init", "-no-color", "-get=false")
		if r.code != 0 || strings.Contains(r.stdout, "Initializing modules") {
			t.Errorf("%s: init -get=false with modules installed: %+v", dir, r)
		}
	}
}

// TestE2EGet: get installs modules only, printing just the module lines,
// and -update installs them again, as terraform get does.
func TestE2EGet(t *testing.T) {
	t.Parallel()
	bare, _ := sourcetest.ModuleRepo(t)
	files := map[string]string{
		"main.tf":       "module \"g\" {\n  source = \"git::file://" + bare + "//vpc?ref=v1.0\"\n}\nmodule \"l\" {\n  source = \"./l\"\n}\n",
		"l/main.tf":     "variable \"required\" {}\n",
		"versions.tf":   requireProvider("thing", "example.com/acme/thing", ""),
		"ignored/x.txt": "",
	}
	sdir, tdir := twinDirs(t, files)
	steps := [][]string{{"get", "-no-color"}, {"get", "-no-color"}, {"get", "-update", "-no-color"}}
	for _, args := range steps {
		r := strataEnv(t, sdir, nil, args...)
		if r.code != 0 {
			t.Fatalf("strata %v: %+v", args, r)
		}
		if _, err := os.Stat(filepath.Join(sdir, ".terraform", "providers")); !os.IsNotExist(err) {
			t.Errorf("get installed providers")
		}
		tr, ok := terraformEnv(t, tdir, nil, args...)
		if !ok {
			continue
		}
		if tr.code != 0 {
			t.Fatalf("terraform %v: %s", args, tr.stdout)
		}
		if got, want := strings.ReplaceAll(r.stdout, sdir, "DIR"), strings.ReplaceAll(tr.stdout, tdir, "DIR"); got != want {
			t.Errorf("strata %v:\n%s\nterraform:\n%s", args, got, want)
		}
	}
	if _, ok := terraformEnv(t, tdir, nil, "version"); ok {
		if got, want := readFile(t, filepath.Join(sdir, ".terraform", "modules", "modules.json")), readFile(t, filepath.Join(tdir, ".terraform", "modules", "modules.json")); string(got) != string(want) {
			t.Errorf("manifests differ:\nstrata:\n%s\nterraform:\n%s", got, want)
		}
	}
}

// TestE2EInitFromModule: -from-module copies a module from a directory or
// a git repository into an empty working directory and initializes it;
// a directory with configuration files is refused.
func TestE2EInitFromModule(t *testing.T) {
	t.Parallel()
	bare, _ := sourcetest.ModuleRepo(t)
	src := t.TempDir()
	writeTree(t, src, map[string]string{
		"main.tf":           "module \"inner\" {\n  source = \"./inner\"\n}\noutput \"o\" { value = module.inner.i }\n",
		"inner/main.tf":     "output \"i\" { value = 1 }\n",
		".terraform/x.json": "{}",
	})
	tests := map[string]struct {
		source  string
		files   map[string]string
		code    int
		want    []string
		wantErr string
	}{
		"directory": {source: src, want: []string{"main.tf", "inner/main.tf"}},
		"git":       {source: "git::file://" + bare + "//vpc?ref=v1.0", want: []string{"main.tf", "inner/main.tf"}},
		"not empty": {source: src, files: map[string]string{"main.tf": "\n"}, code: 1, wantErr: "The working directory already contains files."},
		"missing":   {source: filepath.Join(src, "nope"), code: 1, wantErr: "Failed to download module"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			sdir, tdir := twinDirs(t, tc.files)
			args := []string{"init", "-no-color", "-from-module=" + tc.source}
			r := strataEnv(t, sdir, nil, args...)
			if r.code != tc.code {
				t.Fatalf("exit code %d, want %d:\n%s\n%s", r.code, tc.code, r.stdout, r.stderr)
			}
			if tc.wantErr != "" && !strings.Contains(flat(r.stderr), tc.wantErr) {
				t.Errorf("stderr lacks %q:\n%s", tc.wantErr, r.stderr)
			}
			if tc.code == 0 && !strings.HasPrefix(r.stdout, fmt.Sprintf("Copying configuration from %q...\n", tc.source)) {
				t.Errorf("output:\n%s", r.stdout)
			}
			for _, f := range tc.want {
				if _, err := os.Stat(filepath.Join(sdir, f)); err != nil {
					t.Errorf("%s not copied: %v", f, err)
				}
			}
			if _, err := os.Stat(filepath.Join(sdir, ".terraform", "x.json")); err == nil {
				t.Errorf("hidden directories were copied")
			}
			tr, ok := terraformEnv(t, tdir, nil, args...)
			if !ok {
				return
			}
			if tr.code != tc.code {
				t.Errorf("terraform exit code %d, want %d:\n%s", tr.code, tc.code, tr.stdout)
			}
			if tc.wantErr != "" && !strings.Contains(flat(tr.stdout), tc.wantErr) {
				t.Errorf("terraform's output lacks %q:\n%s", tc.wantErr, tr.stdout)
			}
			for _, f := range tc.want {
				if _, err := os.Stat(filepath.Join(tdir, f)); err != nil {
					t.Errorf("terraform did not copy %s either: %v", f, err)
				}
			}
		})
	}
}

// TestE2EInitModuleCallChecksDeferred: init succeeds on module calls that
// miss a required argument or pass an unknown one, as Terraform's does;
// validate reports them.
func TestE2EInitModuleCallChecksDeferred(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"main.tf":   "module \"m\" {\n  source = \"./m\"\n  unknown = 1\n}\n",
		"m/main.tf": "variable \"x\" {}\n",
	}
	sdir, tdir := twinDirs(t, files)
	if r := strataEnv(t, sdir, nil, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	r := strataEnv(t, sdir, nil, "validate", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Missing required argument") || !strings.Contains(r.stderr, "Unsupported argument") {
		t.Errorf("validate: %+v", r)
	}
	if tr, ok := terraformEnv(t, tdir, nil, "init", "-no-color"); ok && tr.code != 0 {
		t.Errorf("terraform init: %s", tr.stdout)
	}
}

// TestE2EInitParentModuleSource: a module called as "../" is recorded in
// the manifest as "./..", byte for byte as Terraform records it, so that
// terraform accepts strata's .terraform; ".." alone is refused, as
// Terraform refuses it.
func TestE2EInitParentModuleSource(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"main.tf":     "output \"x\" { value = 1 }\n",
		"sub/main.tf": "module \"up\" {\n  source = \"../\"\n}\n",
	}
	sroot, troot := twinDirs(t, files)
	sdir, tdir := filepath.Join(sroot, "sub"), filepath.Join(troot, "sub")
	if r := strataEnv(t, sdir, nil, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	manifest := string(readFile(t, filepath.Join(sdir, ".terraform", "modules", "modules.json")))
	if !strings.Contains(manifest, `"Source":"./..","Dir":".."`) {
		t.Errorf("manifest:\n%s", manifest)
	}
	if _, ok := terraformEnv(t, tdir, nil, "init", "-no-color"); ok {
		if got := string(readFile(t, filepath.Join(tdir, ".terraform", "modules", "modules.json"))); got != manifest {
			t.Errorf("manifests differ:\nstrata:\n%s\nterraform:\n%s", manifest, got)
		}
		if tr, _ := terraformEnv(t, sdir, nil, "plan", "-no-color"); tr.code != 0 {
			t.Errorf("terraform plan in strata's directory: %s", tr.stdout)
		}
	}

	writeFile(t, filepath.Join(sdir, "main.tf"), "module \"up\" {\n  source = \"..\"\n}\n")
	writeFile(t, filepath.Join(tdir, "main.tf"), "module \"up\" {\n  source = \"..\"\n}\n")
	r := strataEnv(t, sdir, nil, "init", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Invalid module source address") || !strings.Contains(flat(r.stderr), `use "./.." instead`) {
		t.Errorf("init with source \"..\": %+v", r)
	}
	if tr, ok := terraformEnv(t, tdir, nil, "init", "-no-color"); ok && (tr.code != 1 || !strings.Contains(tr.stdout, "Invalid module source address")) {
		t.Errorf("terraform init with source \"..\": %s", tr.stdout)
	}
}

// TestE2EInitUpgradeKeepsLockedChecksums: init -upgrade that selects the
// version already locked keeps the lock file's checksums (those of other
// platforms too), reuses a matching installed package, and so neither
// rewrites the lock file nor warns that it is incomplete, as Terraform
// does; a locked version the constraints no longer allow is reported after
// the "Reusing previous version" line, as in Terraform.
func TestE2EInitUpgradeKeepsLockedChecksums(t *testing.T) {
	t.Parallel()
	env := fsMirror(t, "1.0.0", "1.1.0")
	const other = `"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",`
	sdir, tdir := twinDirs(t, map[string]string{"main.tf": requireProvider("thing", "example.com/acme/thing", "")})
	_, haveTF := terraformEnv(t, tdir, env, "init", "-no-color")
	if r := strataEnv(t, sdir, env, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	dirs := []string{sdir}
	if haveTF {
		dirs = append(dirs, tdir)
	}
	for _, dir := range dirs {
		lock := filepath.Join(dir, ".terraform.lock.hcl")
		writeFile(t, lock, strings.Replace(string(readFile(t, lock)), "hashes = [\n", "hashes = [\n    "+other+"\n", 1))
	}
	for _, step := range []string{"installed", "not installed"} {
		if step == "not installed" {
			for _, dir := range dirs {
				if err := os.RemoveAll(filepath.Join(dir, ".terraform")); err != nil {
					t.Fatal(err)
				}
			}
		}
		r := strataEnv(t, sdir, env, "init", "-no-color", "-upgrade")
		if r.code != 0 {
			t.Fatalf("%s: init -upgrade: %+v", step, r)
		}
		out := flat(r.stdout)
		if strings.Contains(out, "Incomplete lock file information") || strings.Contains(out, "has made some changes") {
			t.Errorf("%s: init -upgrade reports a changed lock file:\n%s", step, r.stdout)
		}
		if step == "installed" && !strings.Contains(out, "- Using previously-installed example.com/acme/thing v1.1.0") {
			t.Errorf("%s: init -upgrade does not reuse the installed package:\n%s", step, r.stdout)
		}
		if lock := string(readFile(t, filepath.Join(sdir, ".terraform.lock.hcl"))); !strings.Contains(lock, other) {
			t.Errorf("%s: init -upgrade dropped a locked checksum:\n%s", step, lock)
		}
		if !haveTF {
			continue
		}
		tr, _ := terraformEnv(t, tdir, env, "init", "-no-color", "-upgrade")
		if got, want := paragraphs(r.stdout), paragraphs(tr.stdout); got != want {
			t.Errorf("%s: output differs\nstrata:\n%s\nterraform:\n%s", step, got, want)
		}
		if got, want := readFile(t, filepath.Join(sdir, ".terraform.lock.hcl")), readFile(t, filepath.Join(tdir, ".terraform.lock.hcl")); string(got) != string(want) {
			t.Errorf("%s: lock files differ:\nstrata:\n%s\nterraform:\n%s", step, got, want)
		}
	}

	files := map[string]string{"main.tf": requireProvider("thing", "example.com/acme/thing", "1.0.0")}
	writeTree(t, sdir, files)
	writeTree(t, tdir, files)
	r := strataEnv(t, sdir, env, "init", "-no-color")
	if r.code != 1 || !strings.Contains(r.stdout, "- Reusing previous version of example.com/acme/thing from the dependency lock file") ||
		!strings.Contains(flat(r.stderr), "does not match configured version constraint 1.0.0") {
		t.Errorf("init with a locked version the constraint excludes: %+v", r)
	}
	if tr, ok := terraformEnv(t, tdir, env, "init", "-no-color"); ok && paragraphs(r.stdout+r.stderr) != paragraphs(tr.stdout) {
		t.Errorf("output differs\nstrata:\n%s\nterraform:\n%s", paragraphs(r.stdout+r.stderr), paragraphs(tr.stdout))
	}
}

// TestE2EInitPhasesMatchTerraform: init reports the built-in providers,
// then selects every provider's version, then installs them, as Terraform
// does; a provider that cannot be found does not stop the others from
// being installed, and the error lists the directories searched, as
// Terraform's does. Terraform's order within a phase is random: lines are
// compared phase by phase, as sets.
func TestE2EInitPhasesMatchTerraform(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, p := range []string{"example.com/acme/thing/1.0.0", "zzz.com/acme/zed/1.0.0"} {
		dir := filepath.Join(root, "mirror", filepath.FromSlash(p), hostPlatform)
		name := strings.Split(p, "/")[2]
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "terraform-provider-"+name+"_v1.0.0"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cli := filepath.Join(root, "cli.tfrc")
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", filepath.Join(root, "mirror")))
	env := []string{"TF_CLI_CONFIG_FILE=" + cli}
	cfg := `resource "terraform_data" "x" {}
terraform {
  required_providers {
    zed   = { source = "zzz.com/acme/zed" }
    thing = { source = "example.com/acme/thing" }
    nope  = { source = "example.com/acme/nope" }
  }
}
`
	// phases splits init's output into its progress lines by phase (as
	// sorted sets) and the rest.
	phases := func(t *testing.T, out string) (builtin, query, install []string, rest string) {
		t.Helper()
		last := 0
		var other []string
		for _, l := range strings.Split(out, "\n") {
			phase := 0
			switch {
			case strings.Contains(l, " is built in to "):
				builtin, phase = append(builtin, l), 1
			case strings.HasPrefix(l, "- Finding ") || strings.HasPrefix(l, "- Reusing "):
				query, phase = append(query, l), 2
			case strings.HasPrefix(l, "- Install") || strings.HasPrefix(l, "- Using previously"):
				install, phase = append(install, l), 3
			default:
				other = append(other, l)
			}
			if phase != 0 {
				if phase < last {
					t.Errorf("%q comes after a line of a later phase:\n%s", l, out)
				}
				last = phase
			}
		}
		sort.Strings(builtin)
		sort.Strings(query)
		sort.Strings(install)
		return builtin, query, install, strings.Join(other, "\n")
	}
	sdir, tdir := twinDirs(t, map[string]string{"main.tf": cfg})
	for _, step := range []string{"missing provider", "reinit"} {
		if step == "reinit" {
			// Without the missing provider: the others are reused.
			cfg = strings.Replace(cfg, "    nope  = { source = \"example.com/acme/nope\" }\n", "", 1)
			writeFile(t, filepath.Join(sdir, "main.tf"), cfg)
			writeFile(t, filepath.Join(tdir, "main.tf"), cfg)
			if r := strataEnv(t, sdir, env, "init", "-no-color"); r.code != 0 {
				t.Fatalf("init: %+v", r)
			}
			terraformEnv(t, tdir, env, "init", "-no-color")
		}
		r := strataEnv(t, sdir, env, "init", "-no-color")
		out := r.stdout + r.stderr
		b, q, i, rest := phases(t, out)
		if step == "missing provider" {
			if r.code != 1 || len(b) != 1 || len(q) != 3 || len(i) != 4 ||
				!strings.Contains(flat(rest), "not found in any of the search locations - "+filepath.Join(root, "mirror")) ||
				!strings.Contains(rest, "\n\n  - "+filepath.Join(root, "mirror")) {
				t.Errorf("%s: exit %d:\n%s", step, r.code, out)
			}
			for _, p := range []string{"example.com/acme/thing", "zzz.com/acme/zed"} {
				if _, err := os.Stat(filepath.Join(sdir, ".terraform", "providers", filepath.FromSlash(p))); err != nil {
					t.Errorf("%s was not installed: %v", p, err)
				}
			}
		} else if r.code != 0 || len(q) != 2 || len(i) != 2 {
			t.Errorf("%s: exit %d:\n%s", step, r.code, out)
		}
		tr, ok := terraformEnv(t, tdir, env, "init", "-no-color")
		if !ok {
			continue
		}
		tb, tq, ti, trest := phases(t, tr.stdout)
		if tr.code != r.code {
			t.Errorf("%s: exit code %d, terraform's %d", step, r.code, tr.code)
		}
		unify := strings.NewReplacer("Terraform", "strata").Replace
		if diff := cmp.Diff([][]string{tb, tq, ti}, [][]string{b, q, i}, cmp.Transformer("unify", unify)); diff != "" {
			t.Errorf("%s: progress lines differ from terraform's (-terraform +strata)\n%s", step, diff)
		}
		if got, want := paragraphs(rest), paragraphs(trest); got != want {
			t.Errorf("%s: output differs\nstrata:\n%s\nterraform:\n%s", step, got, want)
		}
	}
}

// TestE2EInitIncompleteLockWarningOrder: the providers the warning about
// incomplete lock file information lists are sorted by the names shown,
// as Terraform sorts them (hashicorp/null before i.com/acme/ii, although
// registry.terraform.io/hashicorp/null comes after).
func TestE2EInitIncompleteLockWarningOrder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, p := range []string{"registry.terraform.io/hashicorp/null", "i.com/acme/ii"} {
		dir := filepath.Join(root, "mirror", filepath.FromSlash(p), "1.0.0", hostPlatform)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "terraform-provider-"+filepath.Base(p)+"_v1.0.0"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cli := filepath.Join(root, "cli.tfrc")
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", filepath.Join(root, "mirror")))
	env := []string{"TF_CLI_CONFIG_FILE=" + cli}
	sdir, tdir := twinDirs(t, map[string]string{"main.tf": "terraform {\n  required_providers {\n    ii   = { source = \"i.com/acme/ii\" }\n    null = { source = \"hashicorp/null\" }\n  }\n}\n"})
	r := strataEnv(t, sdir, env, "init", "-no-color")
	if r.code != 0 || !strings.Contains(r.stdout, "  - hashicorp/null\n  - i.com/acme/ii\n") {
		t.Errorf("init: %+v", r)
	}
	if tr, ok := terraformEnv(t, tdir, env, "init", "-no-color"); ok {
		// From the warning on: Terraform's progress lines come in a
		// random order.
		from := func(s string) string { return s[max(0, strings.Index(s, "Warning:")):] }
		if got, want := paragraphs(from(r.stdout)), paragraphs(from(tr.stdout)); got != want {
			t.Errorf("output differs\nstrata:\n%s\nterraform:\n%s", got, want)
		}
	}
}
