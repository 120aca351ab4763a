package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2EImportConfigDir: import -config=DIR reads the configuration from
// DIR and keeps the state in the working directory, as Terraform does;
// a missing directory is an error that writes nothing.
func TestE2EImportConfigDir(t *testing.T) {
	t.Parallel()
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
	if tf, err := referenceTerraform(); err == nil {
		if want := run(tf); want != got {
			t.Errorf("state show differs from terraform's:\nstrata:\n%s\nterraform:\n%s", got, want)
		}
	}
}

// TestE2EImportRecordsOutputs: import records the root outputs it can
// evaluate from the state, sensitive ones marked, as Terraform does.
// (Terraform also records an output that refers to a resource not in the
// state, as null; strata leaves it out.)
func TestE2EImportRecordsOutputs(t *testing.T) {
	t.Parallel()
	config := `resource "terraform_data" "a" {}
variable "v" {
  default = "vv"
}
output "x" {
  value = 1
}
output "id" {
  value = terraform_data.a.id
}
output "s" {
  value     = var.v
  sensitive = true
}
`
	run := func(bin string) map[string]any {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		if r := runIn(t, dir, "", bin, "import", "-no-color", "terraform_data.a", "7c1b"); r.code != 0 {
			t.Fatalf("%s import: %s", bin, r.stderr)
		}
		data, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Outputs map[string]any `json:"outputs"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Outputs
	}
	got := run(strataBin)
	want := map[string]any{
		"x":  map[string]any{"value": 1.0, "type": "number"},
		"id": map[string]any{"value": "7c1b", "type": "string"},
		"s":  map[string]any{"value": "vv", "type": "string", "sensitive": true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outputs after import (-want +got)\n%s", diff)
	}
	if tf, err := referenceTerraform(); err == nil {
		if diff := cmp.Diff(run(tf), got); diff != "" {
			t.Errorf("differs from terraform (-terraform +strata)\n%s", diff)
		}
	}
}

// TestE2EImportUnconfiguredMatchesTerraform: importing to an address the
// configuration does not declare fails as in Terraform, before the
// provider is asked, with and without colour: into a module not called,
// Terraform's "Import to non-existent module"; to a resource not in a
// called module, the older UI's message showing the block to write; to
// an instance key the module calls' and the resource's count or for_each
// do not produce (evaluated, here from a variable and a local), "Configuration
// for import target does not exist". An instance that is declared
// imports, with Terraform's output in colour too.
func TestE2EImportUnconfiguredMatchesTerraform(t *testing.T) {
	t.Parallel()
	const config = `variable "n" {
  default = 2
}

locals {
  keys = toset(["k"])
}

resource "terraform_data" "a" {}

resource "terraform_data" "c" {
  count = var.n
}

resource "terraform_data" "f" {
  for_each = local.keys
}

module "m" {
  source = "./m"
}

module "mc" {
  source = "./m"
  count  = 1
}
`
	run := func(bin string) string {
		t.Helper()
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{"main.tf": config, "m/main.tf": "resource \"terraform_data\" \"a\" {}\n"})
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
		}
		var out strings.Builder
		step := func(args ...string) {
			r := runIn(t, dir, "", bin, args...)
			fmt.Fprintf(&out, "## %s: exit %d\n%s--- stderr\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		for _, addr := range []string{"terraform_data.b", "module.m.terraform_data.b", "module.n.terraform_data.a", "terraform_data.c[2]"} {
			step("import", "-input=false", addr, "x")
		}
		for _, addr := range []string{
			"terraform_data.b", "module.m.terraform_data.b", "module.n.terraform_data.a", "module.m[0].terraform_data.a",
			"terraform_data.a[0]", "terraform_data.c[2]", `terraform_data.c["x"]`, "terraform_data.c", `terraform_data.f["z"]`,
			"module.mc[1].terraform_data.a", "module.mc.terraform_data.a",
		} {
			step("import", "-no-color", addr, "x")
		}
		if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
			t.Errorf("%s wrote a state", bin)
		}
		for _, addr := range []string{`terraform_data.f["k"]`, "module.mc[0].terraform_data.a"} {
			step("import", "-no-color", addr, "x")
		}
		// In colour: the escape sequences are Terraform's too.
		step("import", "-input=false", "terraform_data.c[1]", "x")
		step("state", "list")
		return out.String()
	}
	got := run(strataBin)
	for _, want := range []string{
		"Error: resource address \"module.m.terraform_data.b\" does not exist in the configuration.\n\nBefore importing this resource, please create its configuration in module.m. For example:\n\nresource \"terraform_data\" \"b\" {\n  # (resource arguments)\n}\n",
		"Error: Import to non-existent module\n\nmodule.n is not defined in the configuration. Please add configuration for\nthis module before importing into it.\n",
		"Error: Configuration for import target does not exist\n\nThe configuration for the given import terraform_data.c[2] does not exist.",
		"The configuration for the given import module.mc[1].terraform_data.a",
		"## state list: exit 0\nterraform_data.c[1]\nterraform_data.f[\"k\"]\nmodule.mc[0].terraform_data.a\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("strata's output lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, ": exit 0\n"); n != 4 {
		t.Errorf("%d commands succeeded, want the three declared imports and state list:\n%s", n, got)
	}
	sameAsTerraform(t, got, run)
}
