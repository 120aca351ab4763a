package initwd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFromModule(t *testing.T) {
	t.Parallel()
	src, dst := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "main.tf"), []byte(`output "o" { value = 1 }`), 0o644); err != nil {
		t.Fatal(err)
	}
	if diags := FromModuleTarget(dst); len(diags) != 0 {
		t.Fatalf("an empty directory is refused: %s", diags)
	}
	if diags := FromModule(context.Background(), src, dst, nil, nil, nil); len(diags) != 0 {
		t.Fatal(diags)
	}
	if data, err := os.ReadFile(filepath.Join(dst, "main.tf")); err != nil || !strings.Contains(string(data), `output "o"`) {
		t.Fatalf("main.tf not copied: %q, %v", data, err)
	}
	diags := FromModuleTarget(dst)
	if len(diags) != 1 || !strings.HasPrefix(diags[0].Summary, "The working directory already contains files.") {
		t.Errorf("a directory with configuration files is accepted: %s", diags)
	}
	missing := filepath.Join(src, "nope")
	diags = FromModule(context.Background(), missing, t.TempDir(), nil, nil, nil)
	if len(diags) != 1 || diags[0].Summary != "Failed to download module" || !strings.HasPrefix(diags[0].Detail, `Could not download module "root" source code from "`+missing+`": `) || !strings.HasSuffix(diags[0].Detail, ".") {
		t.Errorf("wrong diagnostics for a missing source: %s", diags)
	}
}

// TestFromModuleRelative: a relative source is relative to the working
// directory the module is copied into, not to the process's directory.
func TestFromModuleRelative(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	src, dst := filepath.Join(top, "src"), filepath.Join(top, "work")
	for _, d := range []string{src, dst} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(src, "main.tf"), []byte(`output "o" { value = 1 }`), 0o644); err != nil {
		t.Fatal(err)
	}
	if diags := FromModule(context.Background(), "../src", dst, nil, nil, nil); len(diags) != 0 {
		t.Fatal(diags)
	}
	if _, err := os.Stat(filepath.Join(dst, "main.tf")); err != nil {
		t.Fatalf("main.tf not copied: %v", err)
	}
}
