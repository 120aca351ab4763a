package configs

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// sameAsWhole asserts that parsing src in pieces of size bytes gives
// exactly what hclsyntax gives for the whole file, or gives up; it
// reports whether it gave up.
func sameAsWhole(t *testing.T, src []byte, name string, size int) bool {
	t.Helper()
	want, _ := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	got, ok := parseChunked(src, name, size)
	if !ok {
		return false
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s in pieces of %d bytes: the parse differs from the whole file's", name, size)
	}
	return true
}

// TestParseChunkedAgreesWithWholeFile parses every configuration in the
// repository cut at every possible place (pieces of 1 byte: a cut after
// each "\n}\n") and at a few larger sizes.
func TestParseChunkedAgreesWithWholeFile(t *testing.T) {
	var files []string
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, ".tf") || strings.HasSuffix(path, ".tftest.hcl") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("found only %d configuration files", len(files))
	}
	chunked := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{1, 100, 1000} {
			if sameAsWhole(t, src, path, size) {
				chunked++
			}
		}
	}
	if chunked < 100 {
		t.Errorf("only %d parses were chunked; the test proves little", chunked)
	}
}

// TestParseChunkedGivesUpOffTopLevel puts a line holding only "}" where
// it is not the end of a top-level block: the pieces must not be used.
func TestParseChunkedGivesUpOffTopLevel(t *testing.T) {
	tests := map[string]string{
		"heredoc":      "locals {\n  a = <<EOT\n}\nresource \"x\" \"y\" {\n}\nEOT\n}\n",
		"comment":      "/*\n}\nresource \"x\" \"y\" {\n}\n*/\nlocals {\n}\n",
		"nested block": "resource \"x\" \"y\" {\n  lifecycle {\n}\n  count = 1\n}\n",
		"object":       "locals {\n  a = {\n}\n  b = 1\n}\n",
		"template":     "locals {\n  a = \"${ {\n}\n}\"\n}\n",
		"duplicate":    "a = 1\nlocals {\n}\na = 2\n",
		"error after":  "locals {\n}\nlocals {\n",
		"error before": "locals {\n  a = \n}\nlocals {\n}\n",
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			if sameAsWhole(t, []byte(src), "main.tf", 1) {
				t.Errorf("parsed in pieces, cut off the top level")
			}
		})
	}
	// And a well-formed file is cut.
	if !sameAsWhole(t, []byte("a = 1\nlocals {\n}\nb = 2\nresource \"x\" \"y\" {\n}\n"), "main.tf", 1) {
		t.Error("a well-formed file was not parsed in pieces")
	}
}

// TestParseSourceLargeFile checks that a large file goes through the
// pieces, with the whole source registered for diagnostics.
func TestParseSourceLargeFile(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 3*chunkSize; i++ {
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = \"é ${i}\"\n}\n", i)
	}
	src := []byte(b.String())
	if !sameAsWhole(t, src, "main.tf", chunkSize) {
		t.Fatal("a large file was not parsed in pieces")
	}
	p := NewParser()
	f, diags := p.ParseSource(src, "main.tf")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if string(p.Files()["main.tf"].Bytes) != string(src) {
		t.Error("the source is not registered for diagnostics")
	}
	if again, _ := p.ParseSource(src, "main.tf"); again != f {
		t.Error("a second parse of the same file should return the first")
	}
}
