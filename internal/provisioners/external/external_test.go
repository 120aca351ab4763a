package external

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDirs(t *testing.T) {
	platform := runtime.GOOS + "_" + runtime.GOARCH
	got := Dirs("/w", "/bin", "/w/.terraform", "/home/u")
	want := []string{
		"/w", "/bin", "/w/terraform.d/plugins/" + platform, "/w/.terraform/plugins/" + platform,
		"/home/u/.terraform.d/plugins", "/home/u/.terraform.d/plugins/" + platform,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong dirs (-want +got)\n%s", diff)
	}
	if got := Dirs("/w", "", "/w/.terraform", ""); len(got) != 3 {
		t.Errorf("empty directories are left out: %v", got)
	}
}

func TestFind(t *testing.T) {
	write := func(path string, mode os.FileMode) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	write(filepath.Join(a, "terraform-provisioner-noexec"), 0o644)
	write(filepath.Join(b, "terraform-provisioner-noexec"), 0o755)
	write(filepath.Join(b, "terraform-provisioner-ver_v1.2.0"), 0o755)
	write(filepath.Join(b, "terraform-provisioner-ver_v1.10.0"), 0o755)
	write(filepath.Join(c, "terraform-provisioner-ver"), 0o755)
	write(filepath.Join(a, "terraform-provisioner-first"), 0o755)
	write(filepath.Join(c, "terraform-provisioner-first"), 0o755)
	dirs := []string{a, b, c}
	for typ, want := range map[string]string{
		"noexec":  filepath.Join(b, "terraform-provisioner-noexec"), // not executable in a
		"ver":     filepath.Join(b, "terraform-provisioner-ver_v1.10.0"),
		"first":   filepath.Join(a, "terraform-provisioner-first"),
		"missing": "",
	} {
		if got := Find(typ, dirs); got != want {
			t.Errorf("Find(%q) = %q, want %q", typ, got, want)
		}
	}
}

func TestForTypes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "terraform-provisioner-echo"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	got := ForTypes([]string{"local-exec", "echo", "echo", "missing", "file", "remote-exec"}, []string{dir})
	if len(got) != 1 || got["echo"] == nil {
		t.Errorf("ForTypes = %v, want only echo", got)
	}
}
