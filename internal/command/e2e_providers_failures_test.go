package command

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EProvidersLockFailuresMatchTerraform: providers lock with a
// filesystem mirror that lacks the providers lists each failure as
// Terraform does (the provider's full address, one line each, a period at
// the end): no release matching the constraints, or, for a provider the
// lock file selects, that version "no longer available". Compared with
// terraform.
func TestE2EProvidersLockFailuresMatchTerraform(t *testing.T) {
	t.Parallel()
	const cfg = "terraform {\n  required_providers {\n    null = {\n      source  = \"hashicorp/null\"\n      version = \"3.1.1\"\n    }\n    random = {\n      source = \"hashicorp/random\"\n    }\n  }\n}\n"
	const lock = "provider \"registry.terraform.io/hashicorp/null\" {\n  version     = \"3.1.1\"\n  constraints = \"3.1.1\"\n  hashes = [\n    \"h1:71sNUDvmiJcijsvfXpiLCz0lXIBSsEJjMxljt7hxMhw=\",\n  ]\n}\n"
	run := func(t *testing.T, bin string, locked bool) result {
		dir := t.TempDir()
		empty := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), cfg)
		if locked {
			writeFile(t, filepath.Join(dir, ".terraform.lock.hcl"), lock)
		}
		r := runWith(t, dir, "", bin, nil, "providers", "lock", "-no-color", "-fs-mirror="+empty)
		r.stdout = strings.ReplaceAll(r.stdout+r.stderr, empty, "EMPTY")
		r.stderr = ""
		return r
	}
	tf, tfErr := referenceTerraform()
	for _, locked := range []bool{false, true} {
		name := map[bool]string{false: "no lock file", true: "locked"}[locked]
		t.Run(name, func(t *testing.T) {
			got := run(t, strataBin, locked)
			want := "- registry.terraform.io/hashicorp/null: no available releases match the given constraints 3.1.1\n- registry.terraform.io/hashicorp/random: no available releases match the given constraints."
			if locked {
				want = "- registry.terraform.io/hashicorp/null: the previously-selected version 3.1.1 is no longer available\n"
			}
			if got.code != 1 || !strings.Contains(flat(got.stdout), flat(want)) {
				t.Errorf("exit %d, output lacks %q:\n%s", got.code, want, got.stdout)
			}
			if tfErr != nil {
				return
			}
			if tr := run(t, tf, locked); tr.code != got.code || paragraphs(tr.stdout) != paragraphs(got.stdout) {
				t.Errorf("differs from terraform:\nterraform (%d):\n%s\nstrata (%d):\n%s", tr.code, tr.stdout, got.code, got.stdout)
			}
		})
	}
}

// TestE2EProvidersMirrorFailuresMatchTerraform: providers mirror goes on
// after a provider its registry does not have, reports each, and then
// that it cannot index an output directory nothing was written to; a
// provider the lock file selects is looked up in the registry before the
// version is said to be selected. Compared with terraform where it is
// installed (the registry is a server on loopback, so its runs are not
// recorded).
func TestE2EProvidersMirrorFailuresMatchTerraform(t *testing.T) {
	t.Parallel()
	s := newStaticRegistry(t, thingPackages()...)
	env := []string{"SSL_CERT_FILE=" + s.CertFile}
	cfg := "terraform {\n  required_providers {\n    one = {\n      source = \"" + s.Host + "/acme/missing-one\"\n    }\n    two = {\n      source  = \"" + s.Host + "/acme/missing-two\"\n      version = \"1.0.0\"\n    }\n  }\n}\n"
	lock := "provider \"" + s.Host + "/acme/missing-one\" {\n  version = \"1.1.0\"\n  hashes = [\n    \"h1:71sNUDvmiJcijsvfXpiLCz0lXIBSsEJjMxljt7hxMhw=\",\n  ]\n}\n\n" +
		"provider \"" + s.Host + "/acme/missing-two\" {\n  version     = \"1.0.0\"\n  constraints = \"1.0.0\"\n  hashes = [\n    \"h1:71sNUDvmiJcijsvfXpiLCz0lXIBSsEJjMxljt7hxMhw=\",\n  ]\n}\n"
	sdir, tdir := twinDirs(t, map[string]string{"main.tf": cfg, ".terraform.lock.hcl": lock})
	r := strataEnv(t, sdir, env, "providers", "mirror", "-no-color", "out")
	got := r.stdout + r.stderr
	for _, want := range []string{
		"- Mirroring " + s.Host + "/acme/missing-one...\n- Mirroring " + s.Host + "/acme/missing-two...\n",
		"Error: Provider not available",
		"Error: Failed to update indexes",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if r.code != 1 || strings.Count(got, "Error: Provider not available") != 2 || strings.Contains(got, "Selected") {
		t.Errorf("exit %d:\n%s", r.code, got)
	}
	// terraform mirrors the providers in no fixed order (strata's is
	// sorted): the lines are compared, not their order.
	if tr, ok := terraformEnv(t, tdir, env, "providers", "mirror", "-no-color", "out"); ok && (tr.code != r.code || sortedLines(tr.stdout) != sortedLines(got)) {
		t.Errorf("differs from terraform:\nterraform (%d):\n%s\nstrata (%d):\n%s", tr.code, tr.stdout, r.code, got)
	}
}

// TestE2EProvidersMirrorInconsistentLockMatchesTerraform: providers mirror
// refuses, before it looks anything up, a lock file that selects no
// version of a provider the configuration needs or one its constraints no
// longer allow, in Terraform's words ("got:[...]"). Compared with
// terraform.
func TestE2EProvidersMirrorInconsistentLockMatchesTerraform(t *testing.T) {
	t.Parallel()
	const cfg = "terraform {\n  required_providers {\n    null = {\n      source  = \"hashicorp/null\"\n      version = \"3.2.0\"\n    }\n    random = {\n      source = \"hashicorp/random\"\n    }\n  }\n}\n"
	const lock = "provider \"registry.terraform.io/hashicorp/null\" {\n  version     = \"3.1.1\"\n  constraints = \"3.1.1\"\n  hashes = [\n    \"h1:71sNUDvmiJcijsvfXpiLCz0lXIBSsEJjMxljt7hxMhw=\",\n  ]\n}\n"
	run := func(bin string) result {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), cfg)
		writeFile(t, filepath.Join(dir, ".terraform.lock.hcl"), lock)
		r := runWith(t, dir, "", bin, nil, "providers", "mirror", "-no-color", "out")
		r.stdout += r.stderr
		r.stderr = ""
		return r
	}
	got := run(strataBin)
	const want = " got:[provider registry.terraform.io/hashicorp/null: locked version selection 3.1.1 doesn't match the updated version constraints \"3.2.0\" provider registry.terraform.io/hashicorp/random: required by this configuration but no version is selected]\n"
	if got.code != 1 || !strings.Contains(got.stdout, "Error: Inconsistent dependency lock file") || !strings.Contains(got.stdout, want) || strings.Contains(got.stdout, "Mirroring") {
		t.Errorf("exit %d:\n%s", got.code, got.stdout)
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	if tr := run(tf); tr.code != got.code || paragraphs(tr.stdout) != paragraphs(got.stdout) {
		t.Errorf("differs from terraform:\nterraform (%d):\n%s\nstrata (%d):\n%s", tr.code, tr.stdout, got.code, got.stdout)
	}
}
