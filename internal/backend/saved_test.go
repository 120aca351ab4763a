package backend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
)

// TestSavedRoundTrip: what init records is read back as the same
// configuration, and none is recorded as none.
func TestSavedRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".terraform", "terraform.tfstate")
	f, diags := hclparse.NewParser().ParseHCL([]byte("conn_str = \"postgres://x\"\nskip_table_creation = true\n"), "main.tf")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	c, diags := DecodeBlock("pg", f.Body, hcl.Range{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	c.Merge(map[string]cty.Value{"schema_name": cty.StringVal("s")}, nil)
	if err := WriteSaved(path, c, "1.11.4"); err != nil {
		t.Fatal(err)
	}
	saved, diags := ReadSaved(path)
	if diags.HasErrors() || saved == nil {
		t.Fatalf("read back: %v, %v", saved, diags)
	}
	got, err := saved.Configured()
	if err != nil {
		t.Fatal(err)
	}
	if got.Type != "pg" || got.Hash != c.Hash || !got.Value.Equals(c.Value).True() {
		t.Errorf("read back %s %d %#v, want %s %d %#v", got.Type, got.Hash, got.Value, c.Type, c.Hash, c.Value)
	}
	if got.Args()["schema_name"].AsString() != "s" || len(got.Args()) != 3 {
		t.Errorf("args %#v", got.Args())
	}

	if err := WriteSaved(path, nil, "1.11.4"); err != nil {
		t.Fatal(err)
	}
	if saved, diags := ReadSaved(path); saved != nil || diags.HasErrors() {
		t.Errorf("after recording none: %v, %v", saved, diags)
	}
	if err := os.WriteFile(path, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, diags := ReadSaved(path); !diags.HasErrors() || !strings.Contains(diags[0].Detail, "strata init -reconfigure") {
		t.Errorf("a broken file: %v", diags)
	}
}

func TestOverrides(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "b.hcl")
	if err := os.WriteFile(file, []byte("schema_name = \"from-file\"\nconn_str = \"c\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _, diags := Overrides("", "pg", []string{file, "schema_name=later", "skip_index_creation=true"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got["schema_name"].AsString() != "later" || got["conn_str"].AsString() != "c" || !got["skip_index_creation"].True() {
		t.Errorf("got %#v", got)
	}
	// A relative file is read from dir and named as given.
	got, ranges, diags := Overrides(dir, "pg", []string{"b.hcl"})
	if diags.HasErrors() || got["conn_str"].AsString() != "c" || ranges["conn_str"].Filename != "b.hcl" {
		t.Errorf("relative file: %#v %v %v", got, ranges, diags)
	}
	_, _, diags = Overrides(t.TempDir(), "pg", []string{"b.hcl"})
	if len(diags) != 1 || diags[0].Detail != `The file "b.hcl" could not be read.` {
		t.Errorf("missing relative file: %v", diags)
	}
	_, _, diags = Overrides("", "pg", []string{"bucket=b", "skip_index_creation=perhaps"})
	if len(diags) != 2 || diags[0].Summary != "Invalid backend configuration argument" ||
		diags[1].Detail != `Invalid backend configuration value for skip_index_creation=perhaps: a bool required, not "perhaps".` {
		t.Errorf("diagnostics %v", diags)
	}
}
