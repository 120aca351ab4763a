// Package provbuild builds provider plugins from their source
// repositories and lays them out as filesystem mirrors, for the tools that
// run strata and Terraform side by side on real providers (make compat,
// make bench). There is no registry on a machine without the network, so
// these tools build the releases they need from fetched repositories.
package provbuild

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
)

// Release is one release of a provider: hashicorp/NAME upstream unless
// Namespace says otherwise.
type Release struct {
	Name      string // "null": the repository is terraform-provider-null
	Version   string // "3.1.0": the tag is v3.1.0
	Namespace string // "" is hashicorp
}

// namespace is the release's namespace in a mirror's layout.
func (r Release) namespace() string {
	if r.Namespace == "" {
		return "hashicorp"
	}
	return r.Namespace
}

// Exe is the file name of the release's plugin binary.
func (r Release) Exe() string { return "terraform-provider-" + r.Name + "_v" + r.Version }

// RepoDir finds the repository of terraform-provider-NAME under repos:
// either a bare git directory as the search tool's fetch leaves it
// (hashicorp+terraform-provider-NAME/repo) or a plain clone
// (terraform-provider-NAME).
func RepoDir(repos, name string) (string, error) {
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

// Checkout clones the repository at tag into a new temporary directory,
// which the caller removes.
func Checkout(repo, tag string) (string, error) {
	dir, err := os.MkdirTemp("", "strata-provbuild-src-")
	if err != nil {
		return "", err
	}
	if out, err := exec.Command("git", "clone", "-q", "--branch", tag, repo, dir).CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("git clone %s at %s: %v\n%s", repo, tag, err, out)
	}
	return dir, nil
}

// Build builds r from its repository under repos into the cache, unless
// it is there already, and returns the binary's path. logf, when not nil,
// hears about builds that take time.
func Build(cache, repos string, r Release, logf func(string, ...any)) (string, error) {
	out := filepath.Join(cache, "providers", r.Name, r.Version, r.Exe())
	if st, err := os.Stat(out); err == nil && st.Size() > 0 {
		return out, nil
	}
	repo, err := RepoDir(repos, r.Name)
	if err != nil {
		return "", err
	}
	src, err := Checkout(repo, "v"+r.Version)
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(src)
	if logf != nil {
		logf("building %s %s from source", r.Name, r.Version)
	}
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building terraform-provider-%s %s: %v\n%s", r.Name, r.Version, err, b)
	}
	return out, nil
}

// WriteMirror lays out an unpacked filesystem mirror at dir holding the
// binaries given (release -> binary) and returns a CLI configuration file
// that installs providers from it only.
func WriteMirror(dir string, binaries map[Release]string) (string, error) {
	// Laid out afresh: the binaries are hard links into the cache, which
	// writing over an old layout would truncate.
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	platform := runtime.GOOS + "_" + runtime.GOARCH
	keys := make([]Release, 0, len(binaries))
	for r := range binaries {
		keys = append(keys, r)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].Exe() < keys[j].Exe() })
	for _, r := range keys {
		target := filepath.Join(dir, "registry.terraform.io", r.namespace(), r.Name, r.Version, platform)
		if err := os.MkdirAll(target, 0o755); err != nil {
			return "", err
		}
		if err := linkOrCopy(binaries[r], filepath.Join(target, r.Exe())); err != nil {
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
