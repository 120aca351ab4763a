package command

import (
	"encoding/json"
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
