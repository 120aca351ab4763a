package depsfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-dev/strata/internal/addrs"
)

// terraformWritten is a lock file as Terraform 1.11 writes it.
const terraformWritten = `# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.0.0"
  constraints = "~> 5.0"
  hashes = [
    "h1:abc=",
    "zh:0123",
  ]
}

provider "registry.terraform.io/strata/stratafw" {
  version = "0.1.0"
  hashes = [
    "h1:ZRlh0BIESQcvd5z9KIQ4PPiKlhlDMlwiJtMeAOf1Ofs=",
  ]
}
`

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.hcl")
	if err := os.WriteFile(in, []byte(terraformWritten), 0o644); err != nil {
		t.Fatal(err)
	}
	locks, diags := Load(in)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	aws := locks[addrs.NewDefaultProvider("aws")]
	if aws == nil || aws.Version != "5.0.0" || aws.Constraints != "~> 5.0" || !aws.HasHash("zh:0123") {
		t.Fatalf("wrong aws lock %+v", aws)
	}
	out := filepath.Join(dir, "out.hcl")
	if err := Save(out, locks); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	if string(got) != terraformWritten {
		t.Fatalf("Save did not reproduce Terraform's file:\n%s", got)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"syntax":      "provider {",
		"bad source":  `provider "a/b/c/d" { version = "1" }`,
		"bad version": `provider "x/y" { version = 1 }`,
	} {
		path := filepath.Join(dir, "f")
		os.WriteFile(path, []byte(src), 0o644)
		if _, diags := Load(path); !diags.HasErrors() {
			t.Errorf("%s: expected an error", name)
		}
	}
	if locks, diags := Load(filepath.Join(dir, "missing")); diags.HasErrors() || len(locks) != 0 {
		t.Error("a missing lock file is an empty one")
	}
}
