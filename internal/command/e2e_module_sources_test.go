package command

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-dev/strata/internal/initwd/sourcetest"
)

// The tests here install modules from servers on 127.0.0.1: a module
// registry over TLS (trusted through SSL_CERT_FILE, and standing in for
// registry.terraform.io through the CLI configuration's host block), git
// repositories served by git http-backend, reached directly, through
// GitHub shorthands (rewritten by git's url.insteadOf) and over ssh (a
// GIT_SSH_COMMAND that runs git's command locally), and http archives.
// strata and terraform install the same configuration, and each plans in
// the directory the other initialised.

// moduleSourcesFixture publishes a module in every form and returns the
// configuration calling each, and the environment both tools need.
func moduleSourcesFixture(t *testing.T) (s *sourcetest.Server, files map[string]string, env []string) {
	t.Helper()
	s = sourcetest.New(t)
	module := func(v string) map[string]string {
		return map[string]string{
			"main.tf":     fmt.Sprintf("variable \"suffix\" {\n  default = \"\"\n}\noutput \"v\" {\n  value = \"%s${var.suffix}\"\n}\n", v),
			"sub/main.tf": fmt.Sprintf("output \"v\" {\n  value = \"%s/sub\"\n}\n", v),
		}
	}
	repo := s.NewRepo("mod")
	repo.Commit(module("v1"))
	repo.Git("tag", "v1.0.0")
	repo.Commit(module("main"))
	repo.Push()
	s.AddFile("/arch/mod.tar.gz", sourcetest.TarGz(t, sourcetest.Files(module("targz"))))
	s.AddFile("/arch/mod.zip", sourcetest.Zip(t, sourcetest.Files(module("zip"))))
	s.AddFile("/arch/noext", sourcetest.Zip(t, sourcetest.Files(module("noext"))))
	s.AddGetter("/get/meta", s.PlainURL+"/arch/mod.zip", true)
	s.AddGetter("/get/hdr", "git::"+s.PlainURL+repo.Path()+"?ref=v1.0.0", false)
	for _, v := range []string{"1.0.0", "1.1.0", "2.0.0"} {
		s.AddFile("/pkg/thing-"+v+".tar.gz", sourcetest.TarGz(t, sourcetest.Files(module("reg"+v))))
		s.AddModule("acme/thing/null", v, s.URL+"/pkg/thing-"+v+".tar.gz")
	}
	s.AddModule("acme/gitthing/null", "0.1.0", "git::"+s.PlainURL+repo.Path()+"?ref=v1.0.0")
	abs := t.TempDir()
	writeTree(t, abs, module("abs"))

	home := t.TempDir()
	gitConfig := filepath.Join(home, "gitconfig")
	writeFile(t, gitConfig, fmt.Sprintf("[url %q]\n\tinsteadOf = https://github.com/org/\n\tinsteadOf = https://bitbucket.org/org/\n", s.PlainURL+"/git/"))
	// git runs "ssh [options] HOST COMMAND"; this runs COMMAND here, with
	// the repository path below the served repositories.
	fakeSSH := filepath.Join(home, "fake-ssh")
	// A key given with -i is logged to ssh.log beside it.
	writeFile(t, fakeSSH, "#!/bin/sh\nprev=\nfor a; do\n  if [ \"$prev\" = -i ]; then echo \"key:$(cat \"$a\")\" >>"+filepath.Join(home, "ssh.log")+"; fi\n  prev=$a; cmd=$a\ndone\n"+
		"cmd=$(printf '%s' \"$cmd\" | sed \"s|'/|'"+s.GitRoot+"/|\")\nexec sh -c \"$cmd\"\n")
	if err := os.Chmod(fakeSSH, 0o755); err != nil {
		t.Fatal(err)
	}
	cliConfig := filepath.Join(home, "cli.tfrc")
	writeFile(t, cliConfig, fmt.Sprintf("host \"registry.terraform.io\" {\n  services = {\n    \"modules.v1\" = \"%s/v1/modules/\"\n  }\n}\n", s.URL))
	env = []string{
		"SSL_CERT_FILE=" + s.CertFile,
		"GIT_CONFIG_GLOBAL=" + gitConfig,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_SSH_COMMAND=" + fakeSSH,
		"TF_CLI_CONFIG_FILE=" + cliConfig,
		"STRATA_TEST_SSH_LOG=" + filepath.Join(home, "ssh.log"),
	}

	calls := []struct{ name, source, version string }{
		{"reg", "acme/thing/null", "~> 1.0"},
		{"reghost", s.Host + "/acme/thing/null//sub", "2.0.0"},
		{"reggit", "acme/gitthing/null", ""},
		{"gith", "git::" + s.PlainURL + repo.Path() + "//sub?ref=v1.0.0", ""},
		{"gitdepth", "git::" + s.PlainURL + repo.Path() + "?ref=main&depth=1", ""},
		{"github", "github.com/org/mod//sub?ref=v1.0.0", ""},
		{"bitbucket", "bitbucket.org/org/mod", ""},
		{"ssh", "git::ssh://git@example.invalid/mod.git?ref=v1.0.0", ""},
		{"scp", "git@example.invalid:mod.git//sub", ""},
		{"targz", s.PlainURL + "/arch/mod.tar.gz", ""},
		{"zip", s.URL + "/arch/mod.zip//sub", ""},
		{"noext", s.PlainURL + "/arch/noext?archive=zip", ""},
		{"meta", s.PlainURL + "/get/meta", ""},
		{"hdr", s.URL + "/get/hdr//sub", ""},
		{"abs", abs, ""},
	}
	var main strings.Builder
	for _, c := range calls {
		fmt.Fprintf(&main, "module %q {\n  source = %q\n", c.name, c.source)
		if c.version != "" {
			fmt.Fprintf(&main, "  version = %q\n", c.version)
		}
		fmt.Fprintf(&main, "}\noutput %q {\n  value = module.%s.v\n}\n", c.name, c.name)
	}
	return s, map[string]string{"main.tf": main.String()}, env
}

// TestE2EModuleSourcesMatchTerraform: strata init installs every kind of
// module source, writes the manifest terraform init writes byte for byte,
// and plans the same outputs; each tool plans in the directory the other
// initialised.
func TestE2EModuleSourcesMatchTerraform(t *testing.T) {
	t.Parallel()
	s, files, env := moduleSourcesFixture(t)
	staticSourceServer(t, s)
	sdir, tdir := twinDirs(t, files)
	r := inProcessEnv(t, sdir, env, "init", "-no-color")
	if r.code != 0 {
		t.Fatalf("strata init: %+v", r)
	}
	for _, want := range []string{
		"Downloading registry.terraform.io/acme/thing/null 1.1.0 for reg...",
		"Downloading " + s.Host + "/acme/thing/null 2.0.0 for reghost...",
		"- reghost in .terraform/modules/reghost/sub",
		"Downloading git::https://github.com/org/mod.git?ref=v1.0.0 for github...",
		"Downloading git::ssh://git@example.invalid/mod.git for scp...",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("init output lacks %q:\n%s", want, r.stdout)
		}
	}
	manifest := string(readFile(t, filepath.Join(sdir, ".terraform/modules/modules.json")))
	for _, want := range []string{
		`{"Key":"reg","Source":"registry.terraform.io/acme/thing/null","Version":"1.1.0","Dir":".terraform/modules/reg"}`,
		`{"Key":"scp","Source":"git::ssh://git@example.invalid/mod.git//sub","Dir":".terraform/modules/scp/sub"}`,
		`{"Key":"github","Source":"git::https://github.com/org/mod.git//sub?ref=v1.0.0","Dir":".terraform/modules/github/sub"}`,
	} {
		if !strings.Contains(manifest, want) {
			t.Errorf("manifest lacks %s:\n%s", want, manifest)
		}
	}
	plan := inProcessEnv(t, sdir, env, "plan", "-no-color")
	if plan.code != 0 {
		t.Fatalf("strata plan: %+v", plan)
	}
	for _, want := range []string{`+ reg       = "reg1.1.0"`, `+ reghost   = "reg2.0.0/sub"`, `+ gitdepth  = "main"`, `+ scp       = "main/sub"`, `+ abs       = "abs"`, `+ meta      = "zip"`} {
		if !strings.Contains(plan.stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan.stdout)
		}
	}

	tr, ok := terraformEnv(t, tdir, env, "init", "-no-color")
	if !ok {
		t.Skip("terraform is not installed")
	}
	if tr.code != 0 {
		t.Fatalf("terraform init: %s", tr.stdout)
	}
	if got := string(readFile(t, filepath.Join(tdir, ".terraform/modules/modules.json"))); got != manifest {
		t.Errorf("manifests differ:\nstrata:    %s\nterraform: %s", manifest, got)
	}
	tplan, _ := terraformEnv(t, tdir, append(env, "TF_IN_AUTOMATION=1"), "plan", "-no-color")
	if paragraphs(tplan.stdout) != paragraphs(plan.stdout) {
		t.Errorf("plans differ:\nstrata:\n%s\nterraform:\n%s", plan.stdout, tplan.stdout)
	}

	// The modules command lists the calls as Terraform does: sources as
	// recorded, versions and the constraints that allow more.
	if r, tr := inProcessEnv(t, sdir, env, "modules", "-no-color"), mustTerraform(t, tdir, env, "modules", "-no-color"); r.stdout != tr {
		t.Errorf("modules differ:\nstrata:\n%s\nterraform:\n%s", r.stdout, tr)
	}

	// Each plans in the other's directory, with nothing to install again.
	if r := inProcessEnv(t, tdir, env, "plan", "-no-color"); r.code != 0 || r.stdout != plan.stdout {
		t.Errorf("strata plan in terraform's directory: %+v", r)
	}
	if tr, _ := terraformEnv(t, sdir, append(env, "TF_IN_AUTOMATION=1"), "plan", "-no-color"); tr.code != 0 || tr.stdout != tplan.stdout {
		t.Errorf("terraform plan in strata's directory:\n%s", tr.stdout)
	}
	before := len(s.Requests())
	if r := inProcessEnv(t, tdir, env, "init", "-no-color"); r.code != 0 || strings.Contains(r.stdout, "Downloading") {
		t.Errorf("strata init in terraform's directory downloaded again: %+v", r)
	}
	if n := len(s.Requests()) - before; n != 0 {
		t.Errorf("strata init in terraform's directory made %d requests: %v", n, s.Requests()[before:])
	}
}

// TestE2EModuleRegistryUpgrade: init keeps the installed registry version
// while it meets the constraint, -upgrade takes the newest match, and a
// constraint the installed version no longer meets stops plan until init
// runs again, as in Terraform.
func TestE2EModuleRegistryUpgrade(t *testing.T) {
	t.Parallel()
	s, _, env := moduleSourcesFixture(t)
	staticSourceServer(t, s)
	call := func(v string) map[string]string {
		return map[string]string{"main.tf": fmt.Sprintf("module \"m\" {\n  source  = \"acme/thing/null\"\n  version = %q\n}\noutput \"v\" {\n  value = module.m.v\n}\n", v)}
	}
	sdir, tdir := twinDirs(t, call("1.0.0"))
	for _, dir := range []string{sdir, tdir} {
		run := func(args ...string) result {
			if dir == sdir {
				return inProcessEnv(t, dir, env, args...)
			}
			r, ok := terraformEnv(t, dir, env, args...)
			if !ok {
				t.Skip("terraform is not installed")
			}
			return r
		}
		if r := run("init", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, "acme/thing/null 1.0.0 for m") {
			t.Fatalf("%s: first init: %+v", dir, r)
		}
		writeTree(t, dir, call("~> 1.0"))
		if r := run("init", "-no-color"); r.code != 0 || strings.Contains(r.stdout, "Downloading") {
			t.Errorf("%s: init with a constraint the installed version meets downloaded: %+v", dir, r)
		}
		if r := run("init", "-no-color", "-upgrade"); r.code != 0 || !strings.Contains(r.stdout, "Downloading registry.terraform.io/acme/thing/null 1.1.0 for m...") {
			t.Errorf("%s: init -upgrade: %+v", dir, r)
		}
		writeTree(t, dir, call("2.0.0"))
		r := run("plan", "-no-color")
		if out := flat(r.stdout + r.stderr); r.code != 1 || !strings.Contains(out, "Error: Module version requirements have changed") ||
			!strings.Contains(out, "the installed version (1.1.0) is no longer acceptable") {
			t.Errorf("%s: plan after the constraint changed: %+v", dir, r)
		}
		if r := run("init", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, "acme/thing/null 2.0.0 for m") {
			t.Errorf("%s: init after the constraint changed: %+v", dir, r)
		}
	}
}

// TestE2ETestRegistryModule: a test file's run block may use a registry
// module instead of the module under test; init installs it under the run
// block's key, as terraform init does, and test runs it.
func TestE2ETestRegistryModule(t *testing.T) {
	t.Parallel()
	s, _, env := moduleSourcesFixture(t)
	staticSourceServer(t, s)
	files := map[string]string{
		"main.tf": "output \"root\" {\n  value = 1\n}\n",
		"tests/host.tftest.hcl": "run \"sub\" {\n  module {\n    source  = \"" + s.Host + "/acme/thing/null//sub\"\n    version = \"2.0.0\"\n  }\n" +
			"  assert {\n    condition     = output.v == \"reg2.0.0/sub\"\n    error_message = \"wrong module: ${output.v}\"\n  }\n}\n",
		"tests/reg.tftest.hcl": "run \"helper\" {\n  module {\n    source  = \"acme/thing/null\"\n    version = \"~> 1.0\"\n  }\n  variables {\n    suffix = \"!\"\n  }\n" +
			"  assert {\n    condition     = output.v == \"reg1.1.0!\"\n    error_message = \"wrong module: ${output.v}\"\n  }\n}\n",
	}
	sdir, tdir := twinDirs(t, files)
	if r := inProcessEnv(t, sdir, env, "init", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, "Downloading registry.terraform.io/acme/thing/null 1.1.0 for test.tests.reg.helper...") {
		t.Fatalf("strata init: %+v", r)
	}
	manifest := string(readFile(t, filepath.Join(sdir, ".terraform/modules/modules.json")))
	if r := inProcessEnv(t, sdir, env, "test", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, `run "helper"... pass`) || !strings.Contains(r.stdout, `run "sub"... pass`) {
		t.Errorf("strata test: %+v", r)
	}
	tr, ok := terraformEnv(t, tdir, env, "init", "-no-color")
	if !ok {
		return
	}
	if tr.code != 0 {
		t.Fatalf("terraform init: %s", tr.stdout)
	}
	if got := string(readFile(t, filepath.Join(tdir, ".terraform/modules/modules.json"))); got != manifest {
		t.Errorf("manifests differ:\nstrata:    %s\nterraform: %s", manifest, got)
	}
	if tr, _ := terraformEnv(t, tdir, env, "test", "-no-color"); tr.code != 0 {
		t.Errorf("terraform test: %s", tr.stdout)
	}
}

// TestE2EInitFromRemoteModule: init -from-module copies a registry
// module's newest version, or a git repository's subdirectory, into an
// empty directory and initialises it, as terraform init does.
func TestE2EInitFromRemoteModule(t *testing.T) {
	t.Parallel()
	s, _, env := moduleSourcesFixture(t)
	staticSourceServer(t, s)
	for _, source := range []string{"acme/thing/null", "git::" + s.PlainURL + "/git/mod.git//sub?ref=v1.0.0"} {
		sdir, tdir := t.TempDir(), t.TempDir()
		r := inProcessEnv(t, sdir, env, "init", "-no-color", "-from-module="+source)
		if r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf("Copying configuration from %q...", source)) {
			t.Fatalf("%s: strata init: %+v", source, r)
		}
		got := string(readFile(t, filepath.Join(sdir, "main.tf")))
		if tr, ok := terraformEnv(t, tdir, env, "init", "-no-color", "-from-module="+source); ok {
			if tr.code != 0 {
				t.Fatalf("%s: terraform init: %s", source, tr.stdout)
			}
			if want := string(readFile(t, filepath.Join(tdir, "main.tf"))); got != want {
				t.Errorf("%s: main.tf differs:\nstrata:\n%s\nterraform:\n%s", source, got, want)
			}
		}
		if !strings.Contains(got, `"reg2.0.0`) && !strings.Contains(got, `"v1/sub"`) {
			t.Errorf("%s: copied the wrong module:\n%s", source, got)
		}
	}
}

// mustTerraform runs terraform, which must be installed and succeed, and
// returns its output.
func mustTerraform(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	r, ok := terraformEnv(t, dir, env, args...)
	if !ok || r.code != 0 {
		t.Fatalf("terraform %s: %+v", strings.Join(args, " "), r)
	}
	return r.stdout
}

// TestE2EModuleGitSSHKey: a git source's sshkey argument (a base64
// private key) is handed to ssh with -i, as terraform does, and the key
// file is gone afterwards.
func TestE2EModuleGitSSHKey(t *testing.T) {
	t.Parallel()
	_, _, env := moduleSourcesFixture(t)
	var logFile string
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "STRATA_TEST_SSH_LOG="); ok {
			logFile = v
		}
	}
	key := base64.StdEncoding.EncodeToString([]byte("not really a key"))
	files := map[string]string{"main.tf": "module \"m\" {\n  source = \"git::ssh://git@example.invalid/mod.git?ref=v1.0.0&sshkey=" + key + "\"\n}\n"}
	sdir, tdir := twinDirs(t, files)
	for _, dir := range []string{sdir, tdir} {
		os.Remove(logFile)
		if dir == sdir {
			if r := inProcessEnv(t, dir, env, "init", "-no-color"); r.code != 0 {
				t.Fatalf("strata init: %+v", r)
			}
		} else if tr, ok := terraformEnv(t, dir, env, "init", "-no-color"); !ok {
			return
		} else if tr.code != 0 {
			t.Fatalf("terraform init: %s", tr.stdout)
		}
		if got := string(readFile(t, logFile)); !strings.Contains(got, "key:not really a key") {
			t.Errorf("%s: ssh was not given the key: %q", dir, got)
		}
		matches, _ := filepath.Glob(filepath.Join(dir, ".terraform", "modules", "*"))
		for _, m := range matches {
			if strings.Contains(filepath.Base(m), "sshkey") {
				t.Errorf("%s: key file left behind: %s", dir, m)
			}
		}
	}
}
