package getproviders

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-dev/strata/internal/addrs"
)

func mirror(t *testing.T, versions ...string) (string, addrs.Provider) {
	t.Helper()
	root := t.TempDir()
	p := addrs.Provider{Hostname: "registry.terraform.io", Namespace: "acme", Type: "thing"}
	for _, v := range versions {
		dir := filepath.Join(root, p.Hostname, p.Namespace, p.Type, v, Platform())
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "terraform-provider-thing_v"+v), []byte("binary "+v), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A directory for another platform and a non-version are ignored.
	os.MkdirAll(filepath.Join(root, p.Hostname, p.Namespace, p.Type, "9.9.9", "plan9_mips"), 0o755)
	os.MkdirAll(filepath.Join(root, p.Hostname, p.Namespace, p.Type, "latest", Platform()), 0o755)
	return root, p
}

// TestAvailable: the packages of a mirror for this platform, newest
// first; another platform's and a non-version directory are left out.
func TestAvailable(t *testing.T) {
	root, p := mirror(t, "1.0.0", "1.2.0", "2.0.0")
	pkgs := Available([]string{root}, p)
	var got []string
	for _, pkg := range pkgs {
		got = append(got, pkg.Version.String())
	}
	if want := []string{"2.0.0", "1.2.0", "1.0.0"}; !slices.Equal(got, want) {
		t.Fatalf("available: %v, want %v", got, want)
	}
}

// TestInstallUnpackedLinks: as in Terraform, a package from an unpacked
// mirror is linked into the providers directory, and hashes the same.
func TestInstallUnpackedLinks(t *testing.T) {
	root, p := mirror(t, "1.0.0")
	pkg := Available([]string{root}, p)[0]
	dst := t.TempDir()
	meta := PackageMeta{Provider: pkg.Provider, Version: pkg.Version, Platform: Platform(), Dir: pkg.Dir}
	dir, res, err := InstallPackage(context.Background(), nil, meta, dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dst, "registry.terraform.io", "acme", "thing", "1.0.0", Platform())
	if dir != want || res.Summary != "unauthenticated" {
		t.Fatalf("installed into %s (%s), want %s", dir, res.Summary, want)
	}
	if target, err := os.Readlink(dir); err != nil || target != pkg.Dir {
		t.Errorf("%s links to %q (%v), want %s", dir, target, err, pkg.Dir)
	}
	h1, err := Hash(pkg.Dir)
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := Hash(dir)
	if !strings.HasPrefix(h1, "h1:") || h1 != h2 {
		t.Fatalf("hashes %s and %s should be equal h1 hashes", h1, h2)
	}
	if fi, err := os.Stat(filepath.Join(dir, "terraform-provider-thing_v1.0.0")); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Fatalf("installed binary missing or not executable: %v", err)
	}
	// A package that does not match the lock file is not installed.
	if _, _, err := InstallPackage(context.Background(), nil, meta, t.TempDir(), []string{"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}); err == nil {
		t.Error("a package that does not match the recorded checksum was installed")
	}
}

func TestImpliedMirrors(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": "/data", "XDG_DATA_DIRS": "/a:/b"}
	got := ImpliedMirrors(func(k string) string { return env[k] })
	joined := strings.Join(got, ",")
	for _, want := range []string{filepath.Join("terraform.d", "plugins"), "/data/terraform/plugins", "/a/terraform/plugins", "/b/terraform/plugins"} {
		if !strings.Contains(joined, want) {
			t.Errorf("implied mirrors %v lack %s", got, want)
		}
	}
}

// The user's directories are under the HOME the command is given.
func TestImpliedMirrorsHome(t *testing.T) {
	env := map[string]string{"HOME": "/home/someone"}
	got := ImpliedMirrors(func(k string) string { return env[k] })
	want := []string{
		filepath.Join("terraform.d", "plugins"),
		"/home/someone/.terraform.d/plugins",
		"/home/someone/.local/share/terraform/plugins",
		"/usr/local/share/terraform/plugins",
		"/usr/share/terraform/plugins",
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("implied mirrors:\n got %v\nwant %v", got, want)
	}
}

func TestPatternMatches(t *testing.T) {
	p := addrs.Provider{Hostname: "example.com", Namespace: "acme", Type: "thing"}
	hc := addrs.Provider{Hostname: "registry.terraform.io", Namespace: "hashicorp", Type: "aws"}
	tests := map[string]struct {
		pattern string
		p       addrs.Provider
		want    bool
	}{
		"exact":            {"example.com/acme/thing", p, true},
		"host wildcard":    {"example.com/*/*", p, true},
		"other host":       {"example.org/*/*", p, false},
		"default host":     {"hashicorp/aws", hc, true},
		"default ns":       {"aws", hc, true},
		"case":             {"EXAMPLE.com/Acme/*", p, true},
		"not default host": {"acme/thing", p, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := PatternMatches(tc.pattern, tc.p); got != tc.want {
				t.Errorf("PatternMatches(%q, %s) = %v, want %v", tc.pattern, tc.p, got, tc.want)
			}
		})
	}
}

func TestChecksumHashes(t *testing.T) {
	doc := "b11702d0fe892e155daf79134d0538dfd3f55d6f674195307783e721b67d1fb4  a_linux_amd64.zip\n" +
		"D4A259CA433A5B108860FFF2EF6AC4F32146D5780BD8632A6713446D9E77C81E  a_darwin_arm64.zip\n"
	got := checksumHashes([]byte(doc))
	want := []string{"zh:b11702d0fe892e155daf79134d0538dfd3f55d6f674195307783e721b67d1fb4", "zh:d4a259ca433a5b108860fff2ef6ac4f32146d5780bd8632a6713446d9e77c81e"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := checksumHashes([]byte("not a checksums file\n")); got != nil {
		t.Errorf("got %v for a non-checksums file", got)
	}
}

// TestHashSeesChangedFiles: a package hashed before is hashed again when
// a file changed, even one rewritten with the same size and modification
// time (its change time moves).
func TestHashSeesChangedFiles(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "terraform-provider-thing_v1.0.0")
	if err := os.WriteFile(exe, []byte("binary one"), 0o755); err != nil {
		t.Fatal(err)
	}
	first, err := Hash(dir)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := Hash(dir); again != first {
		t.Fatalf("the same files hash %s, then %s", first, again)
	}
	st, err := os.Stat(exe)
	if err != nil {
		t.Fatal(err)
	}
	// File times tick with the kernel's clock (a few milliseconds): a
	// rewrite in the same tick would keep the change time.
	time.Sleep(20 * time.Millisecond)
	if err := os.WriteFile(exe, []byte("binary two"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(exe, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	changed, err := Hash(dir)
	if err != nil {
		t.Fatal(err)
	}
	if changed == first {
		t.Errorf("a file rewritten with the same size and time still hashes %s", first)
	}
	// A new file counts too.
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if added, _ := Hash(dir); added == changed {
		t.Error("a file added to the package left its hash unchanged")
	}
}
