package command

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/initwd/sourcetest"
)

// TestE2EInitModules: init installs local and git modules, prints them,
// // again, then with -upgrade.
func TestE2EInitModules(t *testing.T) {
	t.Parallel()
	bare, _ := sourcetest.ModuleRepo(t)
	url := "git::file://" + filepath.ToSlash(bare)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"main.tf":                     "module \"net\" {\n  source = \"./modules/net\"\n}\n\nmodule \"vpc\" {\n  source = \"" + url + "//vpc?ref=v1.0\"\n}\n\noutput \"vpc\" {\n  value = module.vpc.version\n}\n",
		"modules/net/main.tf":         "module \"subnets\" {\n  source = \"./subnets\"\n}\n",
		"modules/net/subnets/main.tf": `output "cidr" { value = "10.0.0.0/16" }`,
	})

	r := mustInProcess(t, dir, 0, "init", "-no-color")
	want := "Initializing modules...\n" +
		"- net in modules/net\n" +
		"- net.subnets in modules/net/subnets\n" +
		"Downloading " + url + "?ref=v1.0 for vpc...\n" +
		"- vpc in .terraform/modules/vpc/vpc\n" +
		"- vpc.inner in .terraform/modules/vpc/vpc/inner\n" +
		"Initializing provider plugins...\n"
	if !strings.Contains(r.stdout, "Initializing the backend...\n"+want) {
		t.Errorf("init output lacks the modules section:\n%s\nwant:\n%s", r.stdout, want)
	}
	wantManifest := `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
		`{"Key":"net","Source":"./modules/net","Dir":"modules/net"},` +
		`{"Key":"net.subnets","Source":"./subnets","Dir":"modules/net/subnets"},` +
		`{"Key":"vpc","Source":"` + url + `//vpc?ref=v1.0","Dir":".terraform/modules/vpc/vpc"},` +
		`{"Key":"vpc.inner","Source":"./inner","Dir":".terraform/modules/vpc/vpc/inner"}]}`
	if got := string(readFile(t, filepath.Join(dir, configs.ManifestPath()))); got != wantManifest {
		t.Errorf("wrong manifest\n got: %s\nwant: %s", got, wantManifest)
	}
	if !strings.Contains(string(readFile(t, filepath.Join(dir, ".terraform/modules/vpc/vpc/main.tf"))), `"one"`) {
		t.Errorf("the module was not checked out at v1.0")
	}

	r = mustInProcess(t, dir, 0, "init", "-no-color")
	if !strings.Contains(r.stdout, "Initializing modules...\nInitializing provider plugins...\n") {
		t.Errorf("re-init did not keep the installed modules:\n%s", r.stdout)
	}
	r = mustInProcess(t, dir, 0, "init", "-no-color", "-upgrade")
	if !strings.Contains(r.stdout, "Upgrading modules...\n"+strings.TrimPrefix(want, "Initializing modules...\n")) {
		t.Errorf("init -upgrade did not install the modules again:\n%s", r.stdout)
	}
	if got := string(readFile(t, filepath.Join(dir, configs.ManifestPath()))); got != wantManifest {
		t.Errorf("wrong manifest after -upgrade\n got: %s\nwant: %s", got, wantManifest)
	}
}

// TestE2EInitModuleRegistryUnreachable: a registry that does not answer
// fails init with exit code 1 and Terraform's diagnostic, at the module
// block.
func TestE2EInitModuleRegistryUnreachable(t *testing.T) {
	t.Parallel()
	files := map[string]string{"main.tf": "module \"consul\" {\n  source  = \"127.0.0.1:1/hashicorp/consul/aws\"\n  version = \"0.1.0\"\n}\n"}
	want := []string{
		"Error: Error accessing remote module registry",
		"on main.tf line 1:",
		`1: module "consul" {`,
		`Failed to retrieve available versions for module "consul" (main.tf:1) from 127.0.0.1:1: failed to request discovery document: Get "https://127.0.0.1:1/.well-known/terraform.json": dial tcp 127.0.0.1:1: connect: connection refused.`,
	}
	sdir, tdir := twinDirs(t, files)
	r := inProcessEnv(t, sdir, []string{"TF_REGISTRY_DISCOVERY_RETRY=0"}, "init", "-no-color")
	if r.code != 1 || !strings.Contains(r.stdout, "Initializing modules...\n") || strings.Contains(r.stdout, "Initializing provider plugins") {
		t.Errorf("wrong output:\n%+v", r)
	}
	for _, w := range want {
		if !strings.Contains(flat(r.stderr), flat(w)) {
			t.Errorf("error output lacks %q:\n%s", w, r.stderr)
		}
	}
	if tr, ok := terraformEnv(t, tdir, []string{"TF_REGISTRY_DISCOVERY_RETRY=0"}, "init", "-no-color"); ok {
		for _, w := range want {
			if !strings.Contains(flat(tr.stdout), flat(w)) {
				t.Errorf("terraform's output lacks %q:\n%s", w, tr.stdout)
			}
		}
	}
}

// TestE2EInitModulesMatchTerraform: for the same configuration, strata
// init writes the manifest Terraform writes, byte for byte, and prints the
// same modules section.
func TestE2EInitModulesMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	files := map[string]string{
		"main.tf":                     "module \"net\" {\n  source = \"./modules/net\"\n}\nmodule \"app\" {\n  source = \"./modules/app/\"\n}\n",
		"modules/net/main.tf":         "module \"subnets\" {\n  source = \"./subnets\"\n}\nmodule \"sib\" {\n  source = \"../app\"\n}\n",
		"modules/net/subnets/main.tf": `output "x" { value = 1 }`,
		"modules/app/main.tf":         `output "y" { value = 2 }`,
	}
	cases := map[string]map[string]string{"local": files}
	if _, err := exec.LookPath("git"); err == nil {
		bare, _ := sourcetest.ModuleRepo(t)
		url := "git::file://" + filepath.ToSlash(bare)
		withGit := map[string]string{}
		for k, v := range files {
			withGit[k] = v
		}
		withGit["git.tf"] = "module \"g\" {\n  source = \"" + url + "//vpc?ref=v1.0\"\n}\nmodule \"whole\" {\n  source = \"" + url + "\"\n}\n"
		cases["git"] = withGit
	}
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			tfDir, stDir := t.TempDir(), t.TempDir()
			writeTree(t, tfDir, cases[name])
			writeTree(t, stDir, cases[name])
			tr := runIn(t, tfDir, "", tf, "init", "-no-color", "-input=false")
			if tr.code != 0 {
				t.Fatalf("terraform init: %s%s", tr.stdout, tr.stderr)
			}
			sr := mustInProcess(t, stDir, 0, "init", "-no-color")
			want := string(readFile(t, filepath.Join(tfDir, configs.ManifestPath())))
			got := string(readFile(t, filepath.Join(stDir, configs.ManifestPath())))
			if got != want {
				t.Errorf("manifests differ\nterraform: %s\n   strata: %s", want, got)
			}
			if w, g := modulesSection(tr.stdout), modulesSection(sr.stdout); w != g {
				t.Errorf("modules sections differ\nterraform:\n%s\nstrata:\n%s", w, g)
			}
		})
	}
}

// modulesSection returns init's output from "Initializing modules..." to
// the next section.
func modulesSection(out string) string {
	i := strings.Index(out, "Initializing modules...")
	if i < 0 {
		return ""
	}
	out = out[i:]
	if j := strings.Index(out, "Initializing provider plugins..."); j >= 0 {
		out = out[:j]
	}
	return out
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, p, src)
	}
}
