package command

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	pluginOnce sync.Once
	pluginDir  string
	pluginErr  error
)

// testProviderMirror builds the framework test provider (protocol 6) into
// a filesystem mirror laid out as HOST/NAMESPACE/TYPE/VERSION/OS_ARCH, the
// layout of both Terraform's mirrors and .terraform/providers.
func testProviderMirror(t *testing.T) string {
	t.Helper()
	pluginOnce.Do(func() { pluginDir, pluginErr = buildTestProviderMirror("stratafw") })
	if pluginErr != nil {
		t.Fatal(pluginErr)
	}
	return pluginDir
}

const pluginConfig = `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}
provider "stratafw" {
  prefix = "x-"
}
variable "name" {
  default = "one"
}
resource "stratafw_thing" "a" {
  name   = var.name
  secret = "s3cret"
  labels = { env = "dev" }
  rules  = [{ port = 80 }]
}
data "stratafw_echo" "e" {
  input = stratafw_thing.a.id
}
output "echo" {
  value = data.stratafw_echo.e.result
}
`

// TestE2EPluginProviderWithTerraform runs a real provider plugin, built
// with terraform-plugin-framework, through strata and Terraform on the same
// working directory: each reads what the other applied and plans no
// changes.
func TestE2EPluginProviderWithTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	mirror := testProviderMirror(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), pluginConfig)
	cliConfig := filepath.Join(dir, "cli.tfrc")
	writeFile(t, cliConfig, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
	tfrun := func(args ...string) result {
		t.Helper()
		r := runWith(t, dir, "", tf, []string{"TF_CLI_CONFIG_FILE=" + cliConfig}, args...)
		return result{stdout: r.stdout + r.stderr, code: r.code}
	}
	// Terraform installs the provider from the mirror into .terraform.
	if r := tfrun("init", "-no-color"); r.code != 0 {
		t.Fatalf("terraform init: %s", r.stdout)
	}
	if r := tfrun("apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("terraform apply: %s", r.stdout)
	}
	r := mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	if !strings.Contains(r.stdout, "No changes.") {
		t.Fatalf("strata plans changes on Terraform's state:\n%s", r.stdout)
	}
	// strata replaces the object (name forces replacement) ...
	plan := mustStrata(t, dir, 2, "plan", "-no-color", "-detailed-exitcode", "-var", "name=two")
	if !strings.Contains(plan.stdout, `~ name         = "one" -> "two" # forces replacement`) {
		t.Fatalf("no forced replacement shown:\n%s", plan.stdout)
	}
	apply := mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color", "-var", "name=two")
	if !strings.Contains(apply.stdout, `echo = "x-x-two"`) {
		t.Fatalf("apply through the plugin:\n%s", apply.stdout)
	}
	// ... and Terraform finds nothing to do on strata's state.
	if r := tfrun("plan", "-no-color", "-detailed-exitcode", "-var", "name=two"); r.code != 0 {
		t.Fatalf("terraform plans changes on strata's state (exit %d):\n%s", r.code, r.stdout)
	}
	mustStrata(t, dir, 0, "destroy", "-auto-approve", "-no-color", "-var", "name=two")
	// Processes started from this test's working directory must be gone.
	if out, _ := exec.Command("pgrep", "-f", dir).Output(); len(out) > 0 {
		t.Fatalf("provider processes left running: %s", out)
	}
}

// TestE2EInitInstallsFromPluginDir: init installs a provider from
// -plugin-dir, writes the lock file Terraform writes, refuses a package
// whose checksum the lock file does not list, and uses the provider.
func TestE2EInitInstallsFromPluginDir(t *testing.T) {
	t.Parallel()
	mirror := testProviderMirror(t)
	dir := t.TempDir()
	cfg := strings.Replace(pluginConfig, `stratafw = { source = "strata/stratafw" }`,
		"stratafw = {\n      source  = \"strata/stratafw\"\n      version = \"~> 0.1\"\n    }", 1)
	writeFile(t, filepath.Join(dir, "main.tf"), cfg)
	r := mustStrata(t, dir, 0, "init", "-no-color", "-plugin-dir="+mirror)
	if !strings.Contains(r.stdout, "- Installed strata/stratafw v0.1.0 (unauthenticated)") {
		t.Fatalf("init output:\n%s", r.stdout)
	}
	lock := string(readFile(t, filepath.Join(dir, ".terraform.lock.hcl")))
	if !strings.Contains(lock, `constraints = "~> 0.1"`) || !strings.Contains(lock, `"h1:`) {
		t.Fatalf("lock file:\n%s", lock)
	}
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	if r := mustStrata(t, dir, 0, "version"); !strings.Contains(r.stdout, "+ provider registry.terraform.io/strata/stratafw v0.1.0") {
		t.Fatalf("version does not list the provider:\n%s", r.stdout)
	}

	// Terraform reads the lock file as it is and changes nothing.
	if tf, err := referenceTerraform(); err == nil {
		cli := filepath.Join(dir, "cli.tfrc")
		writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
		if r := runWith(t, dir, "", tf, []string{"TF_CLI_CONFIG_FILE=" + cli}, "init", "-no-color"); r.code != 0 {
			t.Fatalf("terraform init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		if got := string(readFile(t, filepath.Join(dir, ".terraform.lock.hcl"))); got != lock {
			t.Fatalf("terraform rewrote strata's lock file:\n%s\n---\n%s", lock, got)
		}
	}

	// A lock file recording another checksum stops init.
	bad := strings.Replace(lock, `"h1:`, `"h1:AAAA`, 1)
	writeFile(t, filepath.Join(dir, ".terraform.lock.hcl"), bad)
	r = strata(t, dir, "init", "-no-color", "-plugin-dir="+mirror)
	if r.code != 1 || !strings.Contains(flat(r.stderr), "doesn't match any of the checksums previously recorded in the dependency lock file") {
		t.Fatalf("checksum mismatch: %+v", r)
	}
	// -upgrade selecting the same version still holds the package to the
	// checksums locked for it, as in Terraform.
	r = strata(t, dir, "init", "-no-color", "-upgrade", "-plugin-dir="+mirror)
	if r.code != 1 || !strings.Contains(flat(r.stderr), "doesn't match any of the checksums previously recorded in the dependency lock file") {
		t.Fatalf("checksum mismatch with -upgrade: %+v", r)
	}
	// Without the lock file, init records the package's checksum again.
	if err := os.Remove(filepath.Join(dir, ".terraform.lock.hcl")); err != nil {
		t.Fatal(err)
	}
	mustStrata(t, dir, 0, "init", "-no-color", "-plugin-dir="+mirror)
	if got := string(readFile(t, filepath.Join(dir, ".terraform.lock.hcl"))); !strings.Contains(got, lock[strings.Index(lock, `"h1:`):strings.Index(lock, `"h1:`)+50]) {
		t.Fatalf("init did not record the package's checksum:\n%s", got)
	}
	// A provider nowhere to be found is a clear error.
	writeFile(t, filepath.Join(dir, "extra.tf"), `resource "nope_thing" "x" {}`)
	r = strata(t, dir, "init", "-no-color", "-plugin-dir="+mirror)
	if r.code != 1 || !strings.Contains(flat(r.stderr), "Failed to query available provider packages") || !strings.Contains(flat(r.stderr), "provider registry.terraform.io/hashicorp/nope was not found in any of the search locations") {
		t.Fatalf("missing provider: %+v", r)
	}
}

// TestE2EPluginAliases: each provider configuration gets its own plugin
// process, configured with its own arguments.
func TestE2EPluginAliases(t *testing.T) {
	t.Parallel()
	mirror := testProviderMirror(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}
provider "stratafw" {
  prefix = "default-"
}
provider "stratafw" {
  alias  = "other"
  prefix = "other-"
}
resource "stratafw_thing" "a" {
  name = "a"
}
resource "stratafw_thing" "b" {
  provider = stratafw.other
  name     = "b"
}
output "ids" {
  value = [stratafw_thing.a.id, stratafw_thing.b.id]
}
`)
	mustStrata(t, dir, 0, "init", "-no-color", "-plugin-dir="+mirror)
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	r := mustStrata(t, dir, 0, "output", "-json", "ids")
	if strings.TrimSpace(r.stdout) != `["default-a","other-b"]` {
		t.Fatalf("ids = %s", r.stdout)
	}
	state := string(readFile(t, filepath.Join(dir, "terraform.tfstate")))
	if !strings.Contains(state, `"provider": "provider[\"registry.terraform.io/strata/stratafw\"].other"`) {
		t.Fatalf("aliased provider not recorded in state:\n%s", state)
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	mustStrata(t, dir, 0, "destroy", "-auto-approve", "-no-color")
}
