package initwd

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/getproviders"
)

// FromModuleTarget checks that dir, the target of init -from-module,
// holds no configuration files yet.
func FromModuleTarget(dir string) hcl.Diagnostics {
	if names, _ := configs.ModuleFiles(dir); len(names) > 0 {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "The working directory already contains files. The -from-module option requires an empty directory into which a copy of the referenced module will be placed.",
			Detail:   "To initialize the configuration already in this working directory, omit the -from-module option.",
		}}
	}
	return nil
}

// FromModule is CopyModule for init -from-module, its failure as
// Terraform reports it.
func FromModule(ctx context.Context, source, dst string, reg *getproviders.Registry, client *http.Client, environ []string) hcl.Diagnostics {
	if err := CopyModule(ctx, source, dst, reg, client, environ); err != nil {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to download module",
			Detail:   fmt.Sprintf("Could not download module \"root\" source code from %q: %s.", source, strings.TrimSuffix(err.Error(), ".")),
		}}
	}
	return nil
}

// CopyModule copies the module at source into dst, for init
// -from-module: a directory on this machine (a relative or absolute path,
// or a file:// URL), or any source a module call may name (a registry
// module's newest version, a git repository, an http(s) archive...),
// downloaded first into a temporary directory. Hidden files and
// directories (.git, .terraform...) are not copied. dst is the working
// directory, which a relative source is relative to, as in Terraform
// (after -chdir). reg and client are as in Options, environ is
// Options.Environ.
func CopyModule(ctx context.Context, source, dst string, reg *getproviders.Registry, client *http.Client, environ []string) error {
	local := source
	if !filepath.IsAbs(local) {
		local = filepath.Join(dst, local)
	}
	if IsLocalPath(source) || filepath.IsAbs(source) {
		return copyTree(local, dst)
	}
	src, err := addrs.ParseModuleSource(source)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "strata-from-module-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	f := &fetcher{ctx: ctx, client: client, git: gitRunner{ctx: ctx, environ: environ}}
	pkg := filepath.Join(tmp, "pkg")
	var sub string
	switch src := src.(type) {
	case addrs.ModuleSourceRemote:
		if src.Getter == "file" {
			u, err := url.Parse(src.URL())
			if err != nil {
				return err
			}
			return copyTree(filepath.Join(filepath.FromSlash(u.Path), filepath.FromSlash(src.Subdir)), dst)
		}
		if sub, err = f.fetch(src, pkg); err != nil {
			return err
		}
	case addrs.ModuleSourceRegistry:
		if reg == nil {
			reg = getproviders.NewRegistry(nil, nil, os.Getenv)
		}
		mr := &moduleRegistry{reg: reg}
		vs, err := mr.versions(ctx, src)
		if err != nil {
			return err
		}
		v := selectVersion(vs, nil)
		if v == nil {
			return fmt.Errorf("the module registry at %s has no released version of %s", src.Host, src.PackageAddr())
		}
		loc, err := mr.location(ctx, src, v)
		if err != nil {
			return err
		}
		if sub, err = f.fetch(loc, pkg); err != nil {
			return err
		}
		sub = joinSubdir(sub, src.Subdir)
	default:
		return copyTree(local, dst)
	}
	return copyTree(joinPkgDir(pkg, sub), dst)
}

// IsLocalPath reports whether src is a relative path as module sources
// write them: ".", "..", or starting with "./" or "../".
func IsLocalPath(src string) bool {
	return src == "." || src == ".." || strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../") ||
		strings.HasPrefix(src, `.\`) || strings.HasPrefix(src, `..\`)
}

// copyTree copies the files below src into dst, leaving out hidden files
// and directories.
func copyTree(src, dst string) error {
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", src)
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if rel == "." {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return copyFile(p, target)
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
