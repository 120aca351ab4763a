package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// provider is one release of an upstream provider the suites need.
type provider struct {
	Name    string // "null": the repository is terraform-provider-null
	Version string // "3.1.0": the tag is v3.1.0
}

func (p provider) exe() string { return "terraform-provider-" + p.Name + "_v" + p.Version }

// decoyVersion is the version of the decoy put in an acceptance suite's
// mirror for the suite's own provider: higher than any release, so a CLI
// that ignores TF_REATTACH_PROVIDERS selects it, and fails.
const decoyVersion = "99.0.0"

// repoDir finds the repository of terraform-provider-NAME under repos:
// either a bare git directory as the search tool's fetch leaves it
// (hashicorp+terraform-provider-NAME/repo) or a plain clone
// (terraform-provider-NAME).
func repoDir(repos, name string) (string, error) {
	for _, dir := range []string{
		filepath.Join(repos, "hashicorp+terraform-provider-"+name, "repo"),
		filepath.Join(repos, "terraform-provider-"+name),
	} {
		if _, err := os.Stat(dir); err == nil {
			return dir, nil
		}
	}
	return "", fmt.Errorf("the repository of terraform-provider-%s is not in %s", name, repos)
}

// checkout clones the repository at tag into a new temporary directory.
func checkout(repo, tag string) (string, error) {
	dir, err := os.MkdirTemp("", "strata-compat-src-")
	if err != nil {
		return "", err
	}
	if out, err := exec.Command("git", "clone", "-q", "--branch", tag, repo, dir).CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("git clone %s at %s: %v\n%s", repo, tag, err, out)
	}
	return dir, nil
}

// buildProvider builds p from its repository into the cache, unless it
// is there already, and returns the binary's path.
func buildProvider(cache, repos string, p provider) (string, error) {
	out := filepath.Join(cache, "providers", p.Name, p.Version, p.exe())
	if st, err := os.Stat(out); err == nil && st.Size() > 0 {
		return out, nil
	}
	repo, err := repoDir(repos, p.Name)
	if err != nil {
		return "", err
	}
	src, err := checkout(repo, "v"+p.Version)
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(src)
	logf("building %s %s from source", p.Name, p.Version)
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building terraform-provider-%s %s: %v\n%s", p.Name, p.Version, err, b)
	}
	return out, nil
}

// buildDecoy builds the decoy provider binary into the cache.
func buildDecoy(cache string) (string, error) {
	out := filepath.Join(cache, "decoy", "terraform-provider-decoy")
	if st, err := os.Stat(out); err == nil && st.Size() > 0 {
		return out, nil
	}
	src, err := os.MkdirTemp("", "strata-compat-decoy-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(src)
	files := map[string]string{
		"go.mod": "module decoy\n\ngo 1.21\n",
		"main.go": `package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "decoy provider: the CLI started an installed provider instead of the one handed over in TF_REATTACH_PROVIDERS")
	os.Exit(1)
}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = src
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the decoy provider: %v\n%s", err, b)
	}
	return out, nil
}

// writeMirror lays out an unpacked filesystem mirror at dir holding the
// binaries given (provider -> binary) and returns a CLI configuration file
// that installs providers from it only.
func writeMirror(dir string, binaries map[provider]string) (string, error) {
	// Laid out afresh: the binaries are hard links into the cache, which
	// writing over an old layout would truncate.
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	platform := runtime.GOOS + "_" + runtime.GOARCH
	keys := make([]provider, 0, len(binaries))
	for p := range binaries {
		keys = append(keys, p)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].exe() < keys[j].exe() })
	for _, p := range keys {
		target := filepath.Join(dir, "registry.terraform.io", "hashicorp", p.Name, p.Version, platform)
		if err := os.MkdirAll(target, 0o755); err != nil {
			return "", err
		}
		if err := linkOrCopy(binaries[p], filepath.Join(target, p.exe())); err != nil {
			return "", err
		}
	}
	cfg := dir + ".tfrc"
	text := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", dir)
	return cfg, os.WriteFile(cfg, []byte(text), 0o644)
}

func linkOrCopy(src, dst string) error {
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "compat: "+strings.TrimSuffix(format, "\n")+"\n", args...)
}
