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
	if diags := FromModule(context.Background(), src, dst, nil, nil); len(diags) != 0 {
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
	diags = FromModule(context.Background(), missing, t.TempDir(), nil, nil)
	if len(diags) != 1 || diags[0].Summary != "Failed to download module" || !strings.HasPrefix(diags[0].Detail, `Could not download module "root" source code from "`+missing+`": `) || !strings.HasSuffix(diags[0].Detail, ".") {
		t.Errorf("wrong diagnostics for a missing source: %s", diags)
	}
}
