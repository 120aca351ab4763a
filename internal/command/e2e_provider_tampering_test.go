package command

import (
	"archive/zip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EProviderTampering: what plan and apply of a saved plan say when
// the installed provider package, the lock file or .terraform changed
// after init, as Terraform's e2etest TestProviderTampering checks: a
// package that no longer matches the lock file's checksums, a lock file
// removed or a package missing after the plan was saved, and an
// uninitialized backend reported before missing providers. The provider
// comes from a packed mirror (a zip), so that init installs a copy the
// test may alter. Exit codes and error summaries are compared with
// terraform's where it is installed.
func TestE2EProviderTampering(t *testing.T) {
	t.Parallel()
	exe := filepath.Join(testProviderMirrorV5(t), "registry.terraform.io", "strata", "stratav5", "0.1.0", hostPlatform, "terraform-provider-stratav5_v0.1.0")
	mirror := t.TempDir()
	zipPath := filepath.Join(mirror, "registry.terraform.io", "strata", "stratav5", "terraform-provider-stratav5_0.1.0_"+hostPlatform+".zip")
	writeZip(t, zipPath, exe)
	cli := filepath.Join(mirror, "cli.tfrc")
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
	const cfg = "terraform {\n  required_providers {\n    v5 = {\n      source  = \"strata/stratav5\"\n      version = \"0.1.0\"\n    }\n  }\n}\n"
	pkgExe := filepath.Join(".terraform", "providers", "registry.terraform.io", "strata", "stratav5", "0.1.0", hostPlatform, "terraform-provider-stratav5_v0.1.0")

	run := func(bin string) []string {
		var got []string
		scenario := func(name string, steps func(dir string, step func(args ...string))) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), cfg)
			step := func(args ...string) {
				r := runWith(t, dir, "", bin, []string{"TF_CLI_CONFIG_FILE=" + cli}, append(args, "-no-color")...)
				var errs []string
				for _, l := range strings.Split(r.stdout+r.stderr, "\n") {
					if strings.HasPrefix(l, "Error: ") || strings.HasPrefix(l, "  - ") {
						errs = append(errs, strings.ReplaceAll(l, "\"strata init\"", "\"terraform init\""))
					}
				}
				got = append(got, fmt.Sprintf("%s: %s: exit %d\n    %s", name, strings.Join(args, " "), r.code, strings.Join(errs, "\n    ")))
			}
			step("init")
			got = got[:len(got)-1] // init's output differs by product name only
			steps(dir, step)
		}
		tamper := func(dir string) {
			if err := os.WriteFile(filepath.Join(dir, pkgExe), []byte("tamper"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		remove := func(dir, name string) {
			if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
		scenario("package altered before plan", func(dir string, step func(...string)) {
			tamper(dir)
			step("plan")
		})
		scenario("lock file removed after plan", func(dir string, step func(...string)) {
			step("plan", "-out=tfplan")
			remove(dir, ".terraform.lock.hcl")
			step("apply", "tfplan")
		})
		scenario("packages removed after plan", func(dir string, step func(...string)) {
			step("plan", "-out=tfplan")
			remove(dir, ".terraform")
			step("apply", "tfplan")
		})
		scenario("package altered after plan", func(dir string, step func(...string)) {
			step("plan", "-out=tfplan")
			tamper(dir)
			step("apply", "tfplan")
		})
		scenario("backend not initialized", func(dir string, step func(...string)) {
			writeFile(t, filepath.Join(dir, "backend.tf"), "terraform {\n  backend \"local\" {\n    path = \"terraform.tfstate\"\n  }\n}\n")
			remove(dir, ".terraform")
			step("plan")
		})
		return got
	}
	got := run(strataBin)
	joined := strings.Join(got, "\n")
	for _, want := range []string{
		"package altered before plan: plan: exit 1\n    Error: Required plugins are not installed\n    - registry.terraform.io/strata/stratav5: the cached package for registry.terraform.io/strata/stratav5 0.1.0 (in .terraform/providers) does not match any of the checksums recorded in the dependency lock file",
		"lock file removed after plan: apply tfplan: exit 1\n    Error: Inconsistent dependency lock file",
		"packages removed after plan: apply tfplan: exit 1\n    Error: registry.terraform.io/strata/stratav5: there is no package for registry.terraform.io/strata/stratav5 0.1.0 cached in .terraform/providers",
		"package altered after plan: apply tfplan: exit 1\n    Error: registry.terraform.io/strata/stratav5: the cached package",
		"backend not initialized: plan: exit 1\n    Error: Backend initialization required",
	} {
		if !strings.Contains(joined, strings.ReplaceAll(want, "\n    - ", "\n      - ")) {
			t.Errorf("strata's output lacks %q:\n%s", want, joined)
		}
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	if want := strings.Join(run(tf), "\n"); want != joined {
		t.Errorf("differs from terraform:\nterraform:\n%s\nstrata:\n%s", want, joined)
	}
}

// writeZip writes a zip archive at path holding the file src under its
// own name, executable.
func writeZip(t *testing.T, path, src string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	// Stored, not compressed: compressing a provider binary costs a
	// second of CPU, and unpacking it at every init more.
	h := &zip.FileHeader{Name: filepath.Base(src), Method: zip.Store}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err == nil {
		_, err = w.Write(b)
	}
	if err == nil {
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}
