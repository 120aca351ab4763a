package getproviders

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/dirhash"
)

// PackageDir is where a package of p at version for platform lives under
// root (.terraform/providers or a plugin cache directory).
func PackageDir(root string, meta PackageMeta) string {
	p := meta.Provider
	return filepath.Join(root, p.Hostname, p.Namespace, p.Type, meta.Version.String(), meta.Platform)
}

const lockDocs = "for more information: https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification"

// InstallPackage puts meta's package into root at
// HOST/NAMESPACE/TYPE/VERSION/OS_ARCH, copying a local directory or
// downloading, authenticating and unpacking an archive. When allowed lists
// checksums (from the lock file), the package must match one of them.
func InstallPackage(ctx context.Context, c *http.Client, meta PackageMeta, root string, allowed []string) (string, AuthResult, error) {
	if c == nil {
		c = http.DefaultClient
	}
	dst := PackageDir(root, meta)
	if meta.Dir != "" {
		if err := VerifyDir(meta, allowed); err != nil {
			return "", AuthResult{}, err
		}
		// As Terraform does, an unpacked package is linked, not copied.
		return dst, AuthResult{Summary: "unauthenticated"}, Link(meta.Dir, dst)
	}
	archive, err := download(ctx, c, meta.URL)
	if err != nil {
		return "", AuthResult{}, err
	}
	defer os.Remove(archive)
	res := AuthResult{Summary: "unauthenticated"}
	if meta.Auth != nil {
		if res, err = meta.Auth.Authenticate(ctx, archive); err != nil {
			return "", res, err
		}
	}
	if len(allowed) > 0 {
		ok, err := ArchiveMatches(archive, allowed)
		if err != nil {
			return "", res, err
		}
		if !ok {
			return "", res, fmt.Errorf("the current package for %s %s doesn't match any of the checksums previously recorded in the dependency lock file; %s",
				meta.Provider.String(), meta.Version, lockDocs)
		}
	}
	if err := unzip(archive, dst); err != nil {
		return "", res, fmt.Errorf("failed to unpack %s: %w", meta.URL, err)
	}
	return dst, res, nil
}

// VerifyDir checks an unpacked package against the "h1:" checksums among
// allowed; with none there is nothing to check.
func VerifyDir(meta PackageMeta, allowed []string) error {
	h1s := withPrefix(allowed, "h1:")
	if len(h1s) == 0 {
		return nil
	}
	h, err := Hash(meta.Dir)
	if err != nil {
		return err
	}
	if !contains(h1s, h) {
		return fmt.Errorf("the local package for %s %s doesn't match any of the checksums previously recorded in the dependency lock file (this might be because the available checksums are for packages targeting different platforms); %s",
			meta.Provider.String(), meta.Version, lockDocs)
	}
	return nil
}

func withPrefix(hashes []string, prefix string) []string {
	var out []string
	for _, h := range hashes {
		if strings.HasPrefix(h, prefix) {
			out = append(out, h)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// download fetches u into a temporary file and returns its name.
func download(ctx context.Context, c *http.Client, u string) (string, error) {
	if strings.HasPrefix(u, "file://") {
		return copyArchive(u)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", fmt.Errorf("failed to download %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("unsuccessful request to %s: %s", u, resp.Status)
	}
	f, err := os.CreateTemp("", "strata-provider-*.zip")
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("failed to download %s: %w", u, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// copyArchive copies a local archive (a file:// URL, from a packed
// filesystem mirror) into a temporary file, as download would.
func copyArchive(u string) (string, error) {
	pu, err := url.Parse(u)
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp("", "strata-provider-*.zip")
	if err != nil {
		return "", err
	}
	f.Close()
	if err := copyFile(filepath.FromSlash(pu.Path), f.Name()); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// unzip replaces dst with the archive's contents, refusing entries that
// would land outside it.
func unzip(archive, dst string) error {
	zr, err := zip.OpenReader(archive)
	if err != nil {
		return err
	}
	defer zr.Close()
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, f := range zr.File {
		name := filepath.FromSlash(f.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("archive entry %q is outside the package directory", f.Name)
		}
		target := filepath.Join(dst, name)
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		mode := f.Mode().Perm()
		if mode == 0 {
			mode = 0o644
		}
		if err := writeEntry(f, target, mode); err != nil {
			return err
		}
	}
	return nil
}

func writeEntry(f *zip.File, target string, mode os.FileMode) error {
	in, err := f.Open()
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Link makes the package directory dst point at src, an installed package
// in a plugin cache directory: a symbolic link to its absolute path, as
// Terraform makes, or a copy where links are not possible.
func Link(src, dst string) error {
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return err
	}
	if err := os.Symlink(abs, dst); err == nil {
		return nil
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if err := copyFile(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// FetchArchive downloads (or, for a file:// URL, copies) meta's archive
// into a temporary file, which the caller removes, and authenticates it
// with meta.Auth when there is one.
func FetchArchive(ctx context.Context, c *http.Client, meta PackageMeta) (string, AuthResult, error) {
	if c == nil {
		c = http.DefaultClient
	}
	archive, err := download(ctx, c, meta.URL)
	if err != nil {
		return "", AuthResult{}, err
	}
	res := AuthResult{Summary: "unauthenticated"}
	if meta.Auth != nil {
		if res, err = meta.Auth.Authenticate(ctx, archive); err != nil {
			os.Remove(archive)
			return "", res, err
		}
	}
	return archive, res, nil
}

// ArchiveHash returns the "h1:" checksum of a zip archive's contents: the
// checksum of the directory it unpacks to.
func ArchiveHash(archive string) (string, error) {
	return dirhash.HashZip(archive, dirhash.Hash1)
}
