package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/strata-dev/strata/internal/provbuild"
)

// suite is a test suite written by others against Terraform, run here
// against a CLI binary.
type suite struct {
	Name string
	// Module is the Go module, at a pinned version, whose tests these
	// are, for a suite that comes from the Go module proxy rather than a
	// provider repository.
	Module string
	// Provider is the provider whose own acceptance tests these are (""
	// for a Module suite). Its tests run it in-process and hand it over
	// with TF_REATTACH_PROVIDERS; the mirror holds a decoy in its place.
	Provider string
	// Tag is the release of the provider's repository whose tests run.
	Tag string
	// Package is the package pattern given to go test.
	Package string
	// Exclude are packages the pattern matches whose tests cannot run
	// here (they download Terraform releases, say).
	Exclude []string
	// Needs are the provider releases the suite's configurations pin,
	// installed from the mirror. A Module suite that needs none runs
	// with TF_CLI_CONFIG_FILE=/dev/null, as its tests expect.
	Needs []provider
	// NoAcc leaves TF_ACC unset: the suite's tests that need the network
	// (a registry, releases.hashicorp.com) then skip.
	NoAcc bool
	// LDFlags are go test's -ldflags -X settings, for a suite whose tests
	// take the CLI under test from a package variable rather than from
	// the environment; "{bin}" stands for the binary's absolute path.
	LDFlags []string
	// Patches are edits to the suite's harness, never to its tests,
	// without which it cannot run here.
	Patches []patch
	// Known are the tests that pass with Terraform and fail with strata
	// because of a documented, intentional difference (differences.md),
	// each with the reason. They are listed apart from the regressions
	// and do not fail a -strict run.
	Known map[string]string
	// Equivalence is the tag of Terraform's repository whose equivalence
	// tests (testing/equivalence-tests) this suite runs, comparing each
	// CLI's outputs with the goldens Terraform produced, instead of go
	// test.
	Equivalence string
}

// patch replaces the only occurrence of Old in File (relative to the
// suite's source) with New. A patch that no longer applies, because the
// pinned version moved, is an error rather than a silent no-op.
type patch struct {
	File, Old, New string
}

// suites are every suite make compat knows, in the order it runs them.
var suites = []suite{
	{
		Name:    "terraform-exec",
		Module:  "github.com/hashicorp/terraform-exec@v0.26.0",
		Package: "./tfexec/internal/e2etest",
		Needs: []provider{
			{Name: "null", Version: "3.0.0"}, {Name: "null", Version: "3.1.0"}, {Name: "null", Version: "3.3.1"},
			{Name: "random", Version: "3.1.3"}, {Name: "random", Version: "3.9.0"}, {Name: "time", Version: "0.14.0"},
		},
	},
	{
		// Terraform's equivalence tests: plan, apply -json, show and
		// show -json outputs compared with Terraform's own goldens.
		Name:        "equivalence",
		Equivalence: "v1.11.4",
		Needs: []provider{
			{Name: "tfcoremock", Version: "0.1.1"}, {Name: "local", Version: "2.2.3"},
			{Name: "null", Version: "3.1.1"}, {Name: "random", Version: "3.4.3"},
		},
	},
	{
		// terraform-plugin-testing's own tests: most packages drive the
		// CLI through resource.Test with providers served in-process,
		// and check plans, state, import, refresh and error messages.
		Name:    "plugin-testing",
		Module:  "github.com/hashicorp/terraform-plugin-testing@v1.16.0",
		Package: "./...",
		// tfversion's tests install Terraform 1.0.7, 1.1.0... from
		// releases.hashicorp.com, and the first failure ends the package.
		Exclude: []string{"github.com/hashicorp/terraform-plugin-testing/tfversion"},
		Needs: []provider{
			{Name: "null", Version: "3.1.0"}, {Name: "null", Version: "3.1.1"}, {Name: "null", Version: "3.3.1"},
			{Name: "random", Version: "3.2.0"}, {Name: "random", Version: "3.5.1"}, {Name: "random", Version: "3.9.0"},
			{Name: "time", Version: "0.14.0"},
		},
	},
	{
		// Terraform's own end-to-end tests: the CLI binary run on
		// fixtures, with helper providers built from Terraform's source
		// (provider-simple, -v6) by the tests themselves. Half of them
		// need the network and skip without TF_ACC.
		Name:    "terraform-e2e",
		Module:  "github.com/hashicorp/terraform@v1.11.4",
		Package: "./internal/command/e2etest",
		NoAcc:   true,
		LDFlags: []string{
			// The binary under test, as make-archive.sh sets it.
			"github.com/hashicorp/terraform/internal/command/e2etest.terraformBin={bin}",
			// A release build's version: 1.11.4, not 1.11.4-dev, which
			// the version test and the plan file check compare with.
			"github.com/hashicorp/terraform/version.dev=no",
		},
		Patches: []patch{
			// Go 1.23's godebug setting is unknown to later Go releases,
			// which refuse the go.mod.
			{File: "go.mod", Old: "godebug tlskyber=0\n", New: ""},
			// canRunGoBuild is set only when TestMain builds terraform
			// itself; with a prebuilt binary the tests that build helper
			// providers would skip. Go is here, so they can run.
			{File: "internal/command/e2etest/main_test.go", Old: "var canRunGoBuild bool\n", New: "var canRunGoBuild = true\n"},
		},
		Known: map[string]string{
			"TestInitProvidersInternal":      "product name: strata has been successfully initialized!",
			"TestInitProvidersLocalOnly":     "product name: strata has been successfully initialized!",
			"TestInitProvidersCustomMethod":  "product name: strata has been successfully initialized!",
			"TestPrimaryChdirOption":         "product name (strata apply \"tfplan\"), and the test reads the plan file with Terraform's Go library: strata's plan file format is its own",
			"TestTerraformProviderFunctions": "the test reads the plan file with Terraform's Go library: strata's plan file format is its own",
			"TestProviderDevOverrides":       "init skips providers under dev_overrides; Terraform tries to install them and fails",
		},
	},
	{
		Name: "null", Provider: "null", Tag: "v3.3.1", Package: "./internal/...",
		Needs: []provider{{Name: "null", Version: "3.1.1"}},
	},
	{
		Name: "random", Provider: "random", Tag: "v3.9.0", Package: "./internal/...",
		Needs: []provider{{Name: "random", Version: "2.2.1"}, {Name: "random", Version: "3.1.3"}, {Name: "random", Version: "3.2.0"}, {Name: "random", Version: "3.3.2"}, {Name: "random", Version: "3.4.2"}},
	},
	{
		Name: "local", Provider: "local", Tag: "v2.9.0", Package: "./internal/...",
		Needs: []provider{{Name: "local", Version: "2.2.3"}},
	},
	{
		Name: "time", Provider: "time", Tag: "v0.14.0", Package: "./internal/...",
		Needs: []provider{{Name: "time", Version: "0.8.0"}},
	},
	{
		Name: "tls", Provider: "tls", Tag: "v4.2.1", Package: "./internal/...",
		Needs: []provider{{Name: "tls", Version: "3.1.0"}, {Name: "tls", Version: "3.4.0"}, {Name: "tls", Version: "4.1.0"}, {Name: "tls", Version: "4.2.0"}},
	},
	{
		Name: "archive", Provider: "archive", Tag: "v2.8.0", Package: "./internal/...",
		Needs: []provider{{Name: "archive", Version: "2.2.0"}},
	},
	{
		Name: "external", Provider: "external", Tag: "v2.4.0", Package: "./internal/...",
		Needs: []provider{{Name: "external", Version: "2.2.3"}},
	},
	{
		Name: "http", Provider: "http", Tag: "v3.6.0", Package: "./internal/...",
		Needs: []provider{{Name: "http", Version: "2.2.0"}, {Name: "null", Version: "3.1.1"}},
	},
	{
		Name: "cloudinit", Provider: "cloudinit", Tag: "v2.4.0", Package: "./internal/...",
		Needs: []provider{{Name: "cloudinit", Version: "2.2.0"}},
	},
}

// source fetches the suite's code into a new writable directory.
func (s suite) source(repos string) (string, error) {
	if s.Equivalence != "" {
		return equivalenceSource(repos, s.Equivalence)
	}
	if s.Provider != "" {
		repo, err := provbuild.RepoDir(repos, s.Provider)
		if err != nil {
			return "", err
		}
		return provbuild.Checkout(repo, s.Tag)
	}
	// A Module suite comes from the module proxy; the module cache is
	// read-only, so the tests run on a copy.
	out, err := exec.Command("go", "mod", "download", "-json", s.Module).Output()
	if err != nil {
		return "", fmt.Errorf("downloading %s: %v", s.Module, err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		return "", fmt.Errorf("downloading %s: no module directory in %s", s.Module, out)
	}
	dir, err := os.MkdirTemp("", "strata-compat-"+s.Name+"-")
	if err != nil {
		return "", err
	}
	if b, err := exec.Command("cp", "-R", mod.Dir+"/.", dir).CombinedOutput(); err != nil {
		return "", fmt.Errorf("copying %s: %v\n%s", s.Module, err, b)
	}
	if b, err := exec.Command("chmod", "-R", "u+w", dir).CombinedOutput(); err != nil {
		return "", fmt.Errorf("copying %s: %v\n%s", s.Module, err, b)
	}
	for _, p := range s.Patches {
		if err := p.apply(dir); err != nil {
			return "", fmt.Errorf("patching %s: %w", s.Module, err)
		}
	}
	return dir, nil
}

func (p patch) apply(dir string) error {
	path := filepath.Join(dir, p.File)
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if n := bytes.Count(b, []byte(p.Old)); n != 1 {
		return fmt.Errorf("%s holds %q %d times, not once", p.File, p.Old, n)
	}
	return os.WriteFile(path, bytes.Replace(b, []byte(p.Old), []byte(p.New), 1), 0o644)
}

// ldflags is the -ldflags value for the binary bin.
func (s suite) ldflags(bin string) string {
	var flags []string
	for _, x := range s.LDFlags {
		x = strings.ReplaceAll(x, "{bin}", bin)
		if strings.ContainsAny(x, " \t'") {
			x = `"` + x + `"`
		} else if strings.Contains(x, `"`) {
			x = "'" + x + "'"
		}
		flags = append(flags, "-X", x)
	}
	return strings.Join(flags, " ")
}

// unexpected are the regressions of got against base that Known does
// not explain.
func (s suite) unexpected(got, base Results) []string {
	var out []string
	for _, name := range got.Regressions(base) {
		if _, ok := s.Known[name]; !ok {
			out = append(out, name)
		}
	}
	return out
}

// run runs the suite's tests in src against the CLI binary bin, with
// providers installed from the mirror that cliConfig names, writing go
// test's JSON output to logPath.
func (s suite) run(src, bin, cliConfig, logPath string) (Results, error) {
	if s.Equivalence != "" {
		return runEquivalence(src, bin, cliConfig, logPath)
	}
	pkgs, err := s.packages(src)
	if err != nil {
		return Results{}, err
	}
	args := []string{"test", "-json", "-count=1", "-p=1", "-timeout=60m"}
	if len(s.LDFlags) > 0 {
		args = append(args, "-ldflags", s.ldflags(bin))
	}
	cmd := exec.Command("go", append(args, pkgs...)...)
	cmd.Dir = src
	work, err := os.MkdirTemp("", "strata-compat-run-")
	if err != nil {
		return Results{}, err
	}
	defer os.RemoveAll(work)
	cmd.Env = append(cleanEnv(),
		"TF_CLI_CONFIG_FILE="+cliConfig,
		"CHECKPOINT_DISABLE=1",
		"TMPDIR="+work, // so that what a killed test leaves behind goes too
		"TF_ACC_TERRAFORM_PATH="+bin,
		"TFEXEC_E2ETEST_TERRAFORM_PATH="+bin,
	)
	if !s.NoAcc {
		cmd.Env = append(cmd.Env, "TF_ACC=1")
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	runErr := cmd.Run()
	if err := os.WriteFile(logPath, out.Bytes(), 0o644); err != nil {
		return Results{}, err
	}
	res := ParseTestJSON(bytes.NewReader(out.Bytes()))
	if _, ok := runErr.(*exec.ExitError); runErr != nil && !ok {
		return res, runErr
	}
	if res.BuildFailed {
		return res, fmt.Errorf("the suite did not run to the end; see %s", logPath)
	}
	return res, nil
}

// packages are the packages of the suite's pattern in src, less the
// excluded ones.
func (s suite) packages(src string) ([]string, error) {
	if len(s.Exclude) == 0 {
		return []string{s.Package}, nil
	}
	cmd := exec.Command("go", "list", s.Package)
	cmd.Dir = src
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing the packages of %s: %v", s.Name, err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		if !slices.Contains(s.Exclude, p) {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs, nil
}

// cleanEnv is the environment without the variables that would change
// how the CLIs under test behave.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "TF_") || name == "CHECKPOINT_DISABLE" || name == "TMPDIR" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// mirrorFor builds the mirror the suite installs providers from: what it
// needs, and for a provider's own suite the decoy in place of that
// provider's newest release.
func (s suite) mirrorFor(dir string, built map[provider]string, decoy string) (string, error) {
	if s.Provider == "" && len(s.Needs) == 0 {
		return os.DevNull, nil
	}
	binaries := map[provider]string{}
	for _, p := range s.Needs {
		binaries[p] = built[p]
	}
	if s.Provider != "" {
		binaries[provider{Name: s.Provider, Version: decoyVersion}] = decoy
	}
	return provbuild.WriteMirror(filepath.Join(dir, "mirror-"+s.Name), binaries)
}
