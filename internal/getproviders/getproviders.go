// Package getproviders finds provider packages in local directories laid
// out as Terraform's filesystem mirrors (HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/
// holding terraform-provider-TYPE*), selects versions under constraints,
// installs them into .terraform/providers and computes their "h1:"
// checksums, as Terraform's lock file records them.
//
// It imports addrs.
package getproviders

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/go-version"
	"golang.org/x/mod/sumdb/dirhash"

	"github.com/strata-dev/strata/internal/addrs"
)

// Platform is the running OS_ARCH, such as linux_amd64.
func Platform() string { return runtime.GOOS + "_" + runtime.GOARCH }

// Package is one provider version found in a mirror.
type Package struct {
	Provider addrs.Provider
	Version  *version.Version
	// Dir is the unpacked package directory, in the unpacked layout
	// HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/.
	Dir string
	// Archive is the package's zip file, in the packed layout
	// HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip that
	// "providers mirror" writes; set instead of Dir.
	Archive string
}

// Available lists the versions of p found in the mirror directories for
// the running platform, newest first, unpacked or packed. Earlier
// directories win for a version found in several, and within one
// directory an unpacked package wins over an archive.
func Available(dirs []string, p addrs.Provider) []Package {
	seen := map[string]bool{}
	var out []Package
	for _, root := range dirs {
		for _, pkg := range packagesIn(root, p, Platform()) {
			if !seen[pkg.Version.String()] {
				seen[pkg.Version.String()] = true
				out = append(out, pkg)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version.GreaterThan(out[j].Version) })
	return out
}

// packagesIn lists the packages of p for platform in one mirror
// directory, unpacked ones first.
func packagesIn(root string, p addrs.Provider, platform string) []Package {
	base := filepath.Join(root, p.Hostname, p.Namespace, p.Type)
	entries, err := os.ReadDir(base)
	if err != nil {
		return nil
	}
	var out []Package
	for _, e := range entries {
		v, err := version.NewVersion(e.Name())
		if err != nil || !e.IsDir() {
			continue
		}
		dir := filepath.Join(base, e.Name(), platform)
		if HasExecutable(dir, p.Type) {
			out = append(out, Package{Provider: p, Version: v, Dir: dir})
		}
	}
	prefix, suffix := "terraform-provider-"+p.Type+"_", "_"+platform+".zip"
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, suffix) {
			continue
		}
		v, err := version.NewVersion(strings.TrimSuffix(strings.TrimPrefix(name, prefix), suffix))
		if err != nil {
			continue
		}
		out = append(out, Package{Provider: p, Version: v, Archive: filepath.Join(base, name)})
	}
	return out
}

// HasExecutable reports whether dir holds a provider plugin file for the
// provider type typ (terraform-provider-<typ>...).
func HasExecutable(dir, typ string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "terraform-provider-"+typ) && !e.IsDir() {
			return true
		}
	}
	return false
}

// Hash returns the package's "h1:" checksum, the hash of its directory
// contents that Terraform records in the lock file. A link to a package in
// a plugin cache is followed. A package this process hashed before whose
// files are unchanged (see filesID) is not read again.
func Hash(dir string) (string, error) {
	if resolved, err := filepath.EvalSymlinks(dir); err == nil {
		dir = resolved
	}
	id, known := filesID(dir)
	if known {
		if m, ok := hashes.Load(dir); ok && m.(hashMemo).id == id {
			return m.(hashMemo).sum, nil
		}
	}
	sum, err := dirhash.HashDir(dir, "", dirhash.Hash1)
	if err == nil && known {
		hashes.Store(dir, hashMemo{id: id, sum: sum})
	}
	return sum, err
}

// hashes are the checksums this process computed, by package directory.
// A command may hash one package several times (init checks what it
// installs, then records it), and the end-to-end tests run many commands
// in one process.
var hashes sync.Map

type hashMemo struct{ id, sum string }

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// HomeDir is the user's home directory as Terraform finds it: $HOME (read
// with getenv), else the system's record of the user's; "" when neither
// says.
func HomeDir(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// ImpliedMirrors are the directories Terraform searches for providers on
// this system when no installation method is configured: terraform.d/plugins
// in the working directory, then the user and system plugin directories.
func ImpliedMirrors(getenv func(string) string) []string {
	dirs := []string{filepath.Join("terraform.d", "plugins")}
	home := HomeDir(getenv)
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".terraform.d", "plugins"))
	}
	dataHome := getenv("XDG_DATA_HOME")
	if dataHome == "" && home != "" {
		dataHome = filepath.Join(home, ".local", "share")
	}
	if dataHome != "" {
		dirs = append(dirs, filepath.Join(dataHome, "terraform", "plugins"))
	}
	dataDirs := getenv("XDG_DATA_DIRS")
	if dataDirs == "" {
		dataDirs = "/usr/local/share:/usr/share"
	}
	for _, d := range filepath.SplitList(dataDirs) {
		dirs = append(dirs, filepath.Join(d, "terraform", "plugins"))
	}
	return dirs
}
