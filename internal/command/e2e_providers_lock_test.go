package command

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// treeOf reads every file below dir, by slash-separated relative path.
func treeOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(readFile(t, p))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestE2EProvidersLock: providers lock records, from the origin registry,
// the signed zh: checksums of every platform and the h1: checksum of each
// requested platform, says which are new, and finds nothing to change on a
// second run; with -fs-mirror it checksums the mirror's packages. Output
// and lock files are compared with terraform's.
func TestE2EProvidersLock(t *testing.T) {
	t.Parallel()
	s := newStaticRegistry(t, thingPackages()...)
	env := []string{"SSL_CERT_FILE=" + s.CertFile}
	cfg := requireProvider("thing", s.Host+"/acme/thing", "~> 1.0")
	sdir, tdir := twinDirs(t, map[string]string{"main.tf": cfg})
	steps := []struct {
		name string
		args []string
		code int
		// fresh removes the lock file first; colour leaves out -no-color.
		fresh, colour bool
	}{
		{name: "this platform", args: nil},
		{name: "again", args: nil},
		{name: "more platforms", args: []string{"-platform=" + hostPlatform, "-platform=windows_amd64"}},
		{name: "fresh, two platforms", args: []string{"-platform=windows_amd64", "-platform=darwin_arm64"}, fresh: true},
		{name: "one provider", args: []string{s.Host + "/acme/thing"}},
		{name: "bad platform", args: []string{"-platform=bogus"}, code: 1},
		{name: "both mirrors", args: []string{"-fs-mirror=/x", "-net-mirror=https://x/"}, code: 1},
		{name: "not required", args: []string{s.Host + "/acme/other"}, code: 1},
		{name: "plugin cache", args: []string{"-enable-plugin-cache"}},
		{name: "colour, unchanged", colour: true},
		{name: "colour, updated", args: []string{"-platform=windows_amd64"}, colour: true, fresh: true},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.fresh {
				os.Remove(filepath.Join(sdir, ".terraform.lock.hcl"))
				os.Remove(filepath.Join(tdir, ".terraform.lock.hcl"))
			}
			args := append([]string{"providers", "lock", "-no-color"}, st.args...)
			if st.colour {
				args = append([]string{"providers", "lock"}, st.args...)
			}
			r := strataEnv(t, sdir, env, args...)
			if r.code != st.code {
				t.Fatalf("exit code %d, want %d:\n%s\n%s", r.code, st.code, r.stdout, r.stderr)
			}
			tr, ok := terraformEnv(t, tdir, env, args...)
			if !ok {
				if st.code == 0 && !strings.Contains(r.stdout, "Success!") {
					t.Errorf("output:\n%s", r.stdout)
				}
				return
			}
			if tr.code != st.code {
				t.Fatalf("terraform exit code %d:\n%s", tr.code, tr.stdout)
			}
			// In colour, byte for byte but for the product name.
			if st.colour && r.stdout != strings.ReplaceAll(tr.stdout, "Terraform", "strata") {
				t.Errorf("output differs:\nstrata:\n%q\nterraform:\n%q", r.stdout, tr.stdout)
			}
			if got, want := sortedObtained(paragraphs(strings.TrimSpace(r.stdout+r.stderr))), sortedObtained(paragraphs(strings.TrimSpace(tr.stdout))); got != want {
				t.Errorf("output differs:\nstrata:\n%s\nterraform:\n%s", got, want)
			}
			if st.code == 0 {
				if got, want := readFile(t, filepath.Join(sdir, ".terraform.lock.hcl")), readFile(t, filepath.Join(tdir, ".terraform.lock.hcl")); string(got) != string(want) {
					t.Errorf("lock files differ:\nstrata:\n%s\nterraform:\n%s", got, want)
				}
			}
		})
	}
}

// TestE2EProvidersLockNetMirror: with -net-mirror the checksums come from
// the mirror's packages only (h1: of each platform). Terraform 1.11 cannot
// be compared here: it fails to build mirror URLs for a host with a port.
func TestE2EProvidersLockNetMirror(t *testing.T) {
	t.Parallel()
	s := newStaticRegistry(t, thingPackages()...)
	env := []string{"SSL_CERT_FILE=" + s.CertFile}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), requireProvider("thing", s.Host+"/acme/thing", "~> 1.0"))
	r := strataEnv(t, dir, env, "providers", "lock", "-no-color", "-net-mirror="+s.MirrorURL(), "-platform="+hostPlatform, "-platform=windows_amd64")
	if r.code != 0 || !strings.Contains(r.stdout, "- Retrieved "+s.Host+"/acme/thing 1.1.0 for windows_amd64 (verified checksum)") {
		t.Fatalf("providers lock -net-mirror: %+v", r)
	}
	lock := string(readFile(t, filepath.Join(dir, ".terraform.lock.hcl")))
	if strings.Count(lock, `"h1:`) != 2 || strings.Contains(lock, `"zh:`) {
		t.Errorf("lock file:\n%s", lock)
	}
}

// sortedObtained sorts the "- Obtained" lines of a flattened output, which
// Terraform prints in map order.
var obtainedSep = regexp.MustCompile(`\s*- Obtained\s*`)

func sortedObtained(s string) string {
	paras := strings.Split(s, "\n\n")
	for i, p := range paras {
		if !strings.Contains(p, "- Obtained") {
			continue
		}
		head, rest, _ := strings.Cut(p, "- Obtained")
		// Terraform prints these lines in no fixed order, and separated
		// by a space or a line break depending on the output's layout.
		items := obtainedSep.Split(rest, -1)
		for j := range items {
			items[j] = strings.TrimSpace(items[j])
		}
		sort.Strings(items)
		paras[i] = head + strings.Join(items, " | ")
	}
	return strings.Join(paras, "\n\n")
}

// TestE2EProvidersMirror: providers mirror writes the packed layout with
// index.json and VERSION.json byte for byte as terraform does, honours the
// lock file unless -lock-file=false, and the result works as a filesystem
// mirror for init and for providers lock -fs-mirror.
func TestE2EProvidersMirror(t *testing.T) {
	t.Parallel()
	s := newStaticRegistry(t, thingPackages()...)
	env := []string{"SSL_CERT_FILE=" + s.CertFile}
	sdir, tdir := twinDirs(t, map[string]string{"main.tf": requireProvider("thing", s.Host+"/acme/thing", "~> 1.0")})
	smirror, tmirror := t.TempDir(), t.TempDir()
	run := func(dir, mirror string, args ...string) (result, result, bool) {
		t.Helper()
		full := append(append([]string{"providers", "mirror", "-no-color"}, args...), mirror)
		r := strataEnv(t, sdir, env, full...)
		if r.code != 0 {
			t.Fatalf("strata %v: %+v", full, r)
		}
		tfull := append(append([]string{"providers", "mirror", "-no-color"}, args...), tmirror)
		tr, ok := terraformEnv(t, tdir, env, tfull...)
		if ok && tr.code != 0 {
			t.Fatalf("terraform %v: %s", tfull, tr.stdout)
		}
		return r, tr, ok
	}
	r, tr, ok := run(sdir, smirror, "-platform="+hostPlatform, "-platform=darwin_arm64")
	if !strings.Contains(r.stdout, "  - Selected v1.1.0 to meet constraints ~> 1.0\n") {
		t.Errorf("output:\n%s", r.stdout)
	}
	if ok && r.stdout != tr.stdout {
		t.Errorf("output differs:\nstrata:\n%s\nterraform:\n%s", r.stdout, tr.stdout)
	}
	// A lock file selecting 1.0.0, then -lock-file=false.
	ldir := t.TempDir()
	writeFile(t, filepath.Join(ldir, "main.tf"), requireProvider("thing", s.Host+"/acme/thing", "1.0.0"))
	if r := strataEnv(t, ldir, env, "providers", "lock"); r.code != 0 {
		t.Fatalf("providers lock: %+v", r)
	}
	lock := string(readFile(t, filepath.Join(ldir, ".terraform.lock.hcl")))
	writeFile(t, filepath.Join(sdir, ".terraform.lock.hcl"), lock)
	writeFile(t, filepath.Join(tdir, ".terraform.lock.hcl"), lock)
	r, tr, ok = run(sdir, smirror)
	if !strings.Contains(r.stdout, "  - Selected v1.0.0 to match dependency lock file\n") {
		t.Errorf("output:\n%s", r.stdout)
	}
	if ok && r.stdout != tr.stdout {
		t.Errorf("output differs:\nstrata:\n%s\nterraform:\n%s", r.stdout, tr.stdout)
	}
	r, tr, ok = run(sdir, smirror, "-lock-file=false")
	if ok && r.stdout != tr.stdout {
		t.Errorf("output differs:\nstrata:\n%s\nterraform:\n%s", r.stdout, tr.stdout)
	}
	got := treeOf(t, smirror)
	base := s.Host + "/acme/thing/"
	for _, f := range []string{"index.json", "1.0.0.json", "1.1.0.json", "terraform-provider-thing_1.1.0_darwin_arm64.zip"} {
		if _, ok := got[base+f]; !ok {
			t.Errorf("%s missing from the mirror: %v", f, got)
		}
	}
	if ok {
		want := treeOf(t, tmirror)
		var names []string
		for name := range want {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if got[name] != want[name] {
				t.Errorf("%s differs:\nstrata:\n%s\nterraform:\n%s", name, got[name], want[name])
			}
		}
		if len(got) != len(want) {
			t.Errorf("strata wrote %d files, terraform %d", len(got), len(want))
		}
	}

	// The mirror as a filesystem mirror: init installs from it, and
	// providers lock -fs-mirror checksums its packages.
	cli := filepath.Join(t.TempDir(), "cli.tfrc")
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", smirror))
	idir, itdir := twinDirs(t, map[string]string{"main.tf": requireProvider("thing", s.Host+"/acme/thing", "~> 1.0")})
	menv := []string{"TF_CLI_CONFIG_FILE=" + cli}
	if r := strataEnv(t, idir, menv, "init", "-no-color"); r.code != 0 || !strings.Contains(r.stdout, "- Installed "+s.Host+"/acme/thing v1.1.0 (unauthenticated)") {
		t.Fatalf("init from the mirror: %+v", r)
	}
	if tr, ok := terraformEnv(t, itdir, menv, "init", "-no-color"); ok {
		if got, want := readFile(t, filepath.Join(idir, ".terraform.lock.hcl")), readFile(t, filepath.Join(itdir, ".terraform.lock.hcl")); tr.code != 0 || string(got) != string(want) {
			t.Errorf("lock files differ:\nstrata:\n%s\nterraform (%d):\n%s\n%s", got, tr.code, want, tr.stdout)
		}
	}
	args := []string{"providers", "lock", "-no-color", "-fs-mirror=" + smirror, "-platform=" + hostPlatform, "-platform=darwin_arm64"}
	r = strataEnv(t, idir, menv, args...)
	if r.code != 0 || !strings.Contains(r.stdout, "Additional checksums for this platform are now tracked in the lock file") {
		t.Errorf("providers lock -fs-mirror: %+v", r)
	}
	if tr, ok := terraformEnv(t, itdir, menv, args...); ok {
		if got, want := readFile(t, filepath.Join(idir, ".terraform.lock.hcl")), readFile(t, filepath.Join(itdir, ".terraform.lock.hcl")); tr.code != 0 || string(got) != string(want) {
			t.Errorf("lock files differ after -fs-mirror:\nstrata:\n%s\nterraform (%d):\n%s\n%s", got, tr.code, want, tr.stdout)
		}
	}
}

func TestSortedObtained(t *testing.T) {
	t.Parallel()
	a := "- Fetching x...\n\n- Obtained p checksums for windows_amd64; Additional\n- Obtained p checksums for linux_amd64; All"
	b := "- Fetching x...\n\n- Obtained p checksums for linux_amd64; All - Obtained p checksums for windows_amd64; Additional"
	if sortedObtained(a) != sortedObtained(b) {
		t.Errorf("the order of Obtained lines still matters:\n%q\n%q", sortedObtained(a), sortedObtained(b))
	}
}
