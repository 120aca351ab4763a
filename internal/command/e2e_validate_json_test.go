package command

import (
	"os"
	"path/filepath"
	"testing"
)

// TestE2EValidateJSONSnippets: validate -json describes each diagnostic
// with its source snippet, byte for byte as Terraform does (the golden
// validate.json was written by terraform 1.11.4; the test also runs
// terraform when it is installed).
func TestE2EValidateJSONSnippets(t *testing.T) {
	t.Parallel()
	src := filepath.Join("testdata", "validate-json")
	dir := t.TempDir()
	main, err := os.ReadFile(filepath.Join(src, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "main.tf"), string(main))
	want, err := os.ReadFile(filepath.Join(src, "validate.json"))
	if err != nil {
		t.Fatal(err)
	}
	got := strata(t, dir, "validate", "-json", "-no-color")
	if got.code != 1 || got.stdout != string(want) {
		t.Errorf("strata validate -json: exit %d, want 1\n got: %s\nwant: %s", got.code, got.stdout, want)
	}
	if tf, err := referenceTerraform(); err == nil {
		r := runIn(t, dir, "", tf, "validate", "-json", "-no-color")
		if r.stdout != got.stdout {
			t.Errorf("terraform validate -json differs:\nterraform: %s\n   strata: %s", r.stdout, got.stdout)
		}
	}
}
