package provbuild

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestWriteMirrorTwice: laying out a mirror again over an old one keeps
// the cached binaries it links to intact.
func TestWriteMirrorTwice(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "cache", "terraform-provider-null_v3.1.0")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := Release{Name: "null", Version: "3.1.0"}
	mirror := filepath.Join(dir, "mirror")
	for i := 0; i < 2; i++ {
		cfg, err := WriteMirror(mirror, map[Release]string{p: bin})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(cfg); err != nil {
			t.Fatal(err)
		}
	}
	for _, path := range []string{bin, filepath.Join(mirror, "registry.terraform.io/hashicorp/null/3.1.0", runtime.GOOS+"_"+runtime.GOARCH, p.Exe())} {
		if got, _ := os.ReadFile(path); string(got) != "binary" {
			t.Errorf("%s holds %q after two layouts", path, got)
		}
	}
}
