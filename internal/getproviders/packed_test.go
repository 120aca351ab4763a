package getproviders

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
)

// writeZip writes a package archive holding one executable.
func writeZip(t *testing.T, path, name, content string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, err := zw.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(content))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestDirSourcePacked: a filesystem mirror in the packed layout that
// "providers mirror" writes offers its archives, for this platform and
// others; an unpacked package of the same version wins; and
// InstallPackage unpacks an archive from a file:// URL.
func TestDirSourcePacked(t *testing.T) {
	root, p := mirror(t, "1.0.0")
	base := filepath.Join(root, p.Hostname, p.Namespace, p.Type)
	writeZip(t, filepath.Join(base, "terraform-provider-thing_1.0.0_"+Platform()+".zip"), "terraform-provider-thing_v1.0.0", "zipped 1.0.0")
	writeZip(t, filepath.Join(base, "terraform-provider-thing_2.0.0_"+Platform()+".zip"), "terraform-provider-thing_v2.0.0", "zipped 2.0.0")
	writeZip(t, filepath.Join(base, "terraform-provider-thing_2.0.0_plan9_arm.zip"), "terraform-provider-thing_v2.0.0", "plan9")
	os.WriteFile(filepath.Join(base, "terraform-provider-thing_x_"+Platform()+".zip"), nil, 0o644)

	pkgs := Available([]string{root}, p)
	if len(pkgs) != 2 || pkgs[0].Version.String() != "2.0.0" || pkgs[0].Archive == "" || pkgs[1].Dir == "" {
		t.Fatalf("available: %+v", pkgs)
	}
	src := DirSource{root}
	ctx := context.Background()
	tests := map[string]struct {
		version, platform string
		wantURL, wantDir  bool
		wantErr           string
	}{
		"unpacked wins":  {version: "1.0.0", platform: Platform(), wantDir: true},
		"archive":        {version: "2.0.0", platform: Platform(), wantURL: true},
		"other platform": {version: "2.0.0", platform: "plan9_arm", wantURL: true},
		"missing":        {version: "2.0.0", platform: "windows_386", wantErr: "is not available for windows_386"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			meta, err := src.PackageMeta(ctx, p, version.Must(version.NewVersion(tc.version)), tc.platform)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (meta.URL != "") != tc.wantURL || (meta.Dir != "") != tc.wantDir || (tc.wantURL && !strings.HasPrefix(meta.URL, "file://")) {
				t.Errorf("meta: %+v", meta)
			}
		})
	}

	meta, err := src.PackageMeta(ctx, p, version.Must(version.NewVersion("2.0.0")), Platform())
	if err != nil {
		t.Fatal(err)
	}
	dir, res, err := InstallPackage(ctx, nil, meta, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary != "unauthenticated" {
		t.Errorf("summary %q", res.Summary)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "terraform-provider-thing_v2.0.0")); string(got) != "zipped 2.0.0" {
		t.Errorf("unpacked %q", got)
	}
	if _, err := os.Stat(pkgs[0].Archive); err != nil {
		t.Errorf("the mirror's archive was removed: %v", err)
	}
}
