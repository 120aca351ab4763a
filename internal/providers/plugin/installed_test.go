package plugin

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindInstalled(t *testing.T) {
	bin := testProvider(t, "stratafw")
	dir := t.TempDir()
	install := func(host, ns, typ, ver, platform, file string) string {
		t.Helper()
		pkg := filepath.Join(dir, ".terraform", "providers", host, ns, typ, ver, platform)
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(pkg, file)
		if err := os.Symlink(bin, path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	older := install("registry.terraform.io", "strata", "stratafw", "0.1.0", PlatformDir(), "terraform-provider-stratafw_v0.1.0")
	newer := install("registry.terraform.io", "strata", "stratafw", "0.10.0", PlatformDir(), "terraform-provider-stratafw_v0.10.0")
	install("registry.terraform.io", "strata", "other", "1.0.0", "plan9_mips", "terraform-provider-other_v1.0.0")
	install("example.com", "ns", "bare", "2.0.0", PlatformDir(), "terraform-provider-bare")
	install("example.com", "ns", "junk", "not-a-version", PlatformDir(), "terraform-provider-junk")
	install("example.com", "ns", "misnamed", "1.0.0", PlatformDir(), "something-else")

	found, err := FindInstalled(filepath.Join(dir, ".terraform", "providers"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range found {
		got = append(got, f.Provider.String()+" "+f.Version.String()+" "+filepath.Base(f.Path))
	}
	want := []string{
		"example.com/ns/bare 2.0.0 terraform-provider-bare",
		"registry.terraform.io/strata/stratafw 0.1.0 " + filepath.Base(older),
		"registry.terraform.io/strata/stratafw 0.10.0 " + filepath.Base(newer),
	}
	if len(got) != len(want) {
		t.Fatalf("found %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("found[%d] = %q, want %q", i, got[i], want[i])
		}
	}

	if none, err := FindInstalled(t.TempDir()); err != nil || len(none) != 0 {
		t.Errorf("empty directory: %v, %v", none, err)
	}
}
