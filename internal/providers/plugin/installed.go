package plugin

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	version "github.com/hashicorp/go-version"

	"github.com/strata-dev/strata/internal/addrs"
)

// Installed is a provider binary found in a working directory's
// .terraform/providers tree.
type Installed struct {
	Provider addrs.Provider
	Version  *version.Version
	// Path is the executable.
	Path string
}

// PlatformDir is the OS_ARCH directory name of the running platform, such
// as linux_amd64.
func PlatformDir() string { return runtime.GOOS + "_" + runtime.GOARCH }

// FindInstalled lists the provider binaries installed under root, a
// working directory's providers directory (DIR/.terraform/providers, or
// providers in TF_DATA_DIR), in Terraform's unpacked layout,
// HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/terraform-provider-TYPE[_vVERSION][.exe],
// for the running platform, sorted by address and then version. Entries
// that do not fit the layout are skipped; a missing tree is no error.
func FindInstalled(root string) ([]Installed, error) {
	var out []Installed
	hosts, err := os.ReadDir(root)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for _, host := range hosts {
		namespaces, _ := os.ReadDir(filepath.Join(root, host.Name()))
		for _, ns := range namespaces {
			types, _ := os.ReadDir(filepath.Join(root, host.Name(), ns.Name()))
			for _, typ := range types {
				versions, _ := os.ReadDir(filepath.Join(root, host.Name(), ns.Name(), typ.Name()))
				for _, ver := range versions {
					v, err := version.NewVersion(ver.Name())
					if err != nil {
						continue
					}
					pkgDir := filepath.Join(root, host.Name(), ns.Name(), typ.Name(), ver.Name(), PlatformDir())
					exe := findExecutable(pkgDir, typ.Name())
					if exe == "" {
						continue
					}
					out = append(out, Installed{
						Provider: addrs.Provider{Hostname: host.Name(), Namespace: ns.Name(), Type: typ.Name()},
						Version:  v,
						Path:     exe,
					})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if a, b := out[i].Provider.String(), out[j].Provider.String(); a != b {
			return a < b
		}
		return out[i].Version.LessThan(out[j].Version)
	})
	return out, nil
}

// findExecutable returns the provider executable in a package directory:
// the regular file whose name starts with terraform-provider-TYPE, as
// Terraform looks for it.
func findExecutable(pkgDir, typ string) string {
	entries, err := os.ReadDir(pkgDir)
	if err != nil {
		return ""
	}
	prefix := "terraform-provider-" + typ
	for _, e := range entries {
		name := e.Name()
		if name != prefix && !strings.HasPrefix(name, prefix+"_") && name != prefix+".exe" {
			continue
		}
		path := filepath.Join(pkgDir, name)
		fi, err := os.Stat(path) // follows links into a plugin cache
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0 {
			continue
		}
		return path
	}
	return ""
}
