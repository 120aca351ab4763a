package initwd

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"

	"github.com/strata-dev/strata/internal/addrs"
)

// maxRedirects bounds how many times a package may point elsewhere
// (X-Terraform-Get, terraform-get meta tags) before init gives up.
const maxRedirects = 5

// fetcher downloads remote module packages.
type fetcher struct {
	ctx context.Context
	// client makes http(s) requests for packages; it sends tokens only to
	// their own hosts.
	client *http.Client
	git    gitRunner
}

// fetch downloads the package src names into dst, which must not exist,
// and returns the module's directory inside dst: the subdirectory src
// selects, below the one a page it was pointed to selects.
func (f *fetcher) fetch(src addrs.ModuleSourceRemote, dst string) (string, error) {
	sub, err := f.fetchPackage(src, dst, 0)
	if err != nil {
		return "", err
	}
	return path.Join(sub, src.Subdir), nil
}

// fetchPackage downloads src's package (ignoring src.Subdir) into dst and
// returns the subdirectory that the address it was pointed to selects.
func (f *fetcher) fetchPackage(src addrs.ModuleSourceRemote, dst string, hops int) (string, error) {
	switch src.Getter {
	case "git":
		gs, err := parseGitSource(src)
		if err != nil {
			return "", err
		}
		f.git.ctx = f.ctx
		if err := f.git.clone(gs, dst); err != nil {
			return "", fmt.Errorf("error downloading '%s': %w", src.URL(), err)
		}
		return "", nil
	case "http", "https":
		return f.fetchHTTP(src.URL(), dst, hops)
	case "file":
		return "", f.fetchFile(src.URL(), dst)
	default:
		return "", fmt.Errorf("strata does not install %s:: sources: it installs module registry addresses, git repositories (git::), http(s) URLs and directories on this machine. Download the module and call it with a local path instead", src.Getter)
	}
}

// fetchFile makes dst a symbolic link to a directory on this machine, as
// Terraform does for absolute paths and file:// URLs, or unpacks an
// archive file there.
func (f *fetcher) fetchFile(raw string, dst string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	p := filepath.FromSlash(u.Path)
	fi, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("the module directory %s cannot be read: %w", p, errors.Unwrap(err))
	}
	if fi.IsDir() {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.Symlink(p, dst)
	}
	format := archiveFormat(u)
	if format == "" {
		return fmt.Errorf("%s is neither a directory nor an archive", p)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	return unpackArchive(format, p, dst)
}
