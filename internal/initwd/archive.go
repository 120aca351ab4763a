package initwd

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/ulikunitz/xz"
)

// archiveFormats are the archive file name endings strata unpacks,
// longest first, as go-getter matches them.
var archiveFormats = []string{"tar.bz2", "tar.gz", "tar.xz", "tbz2", "tgz", "txz", "zip", "tar"}

// archiveFormat returns the archive format of a package URL: its
// "archive" query argument, else its path's ending. "" means the URL is
// not an archive (or archive=false).
func archiveFormat(u *url.URL) string {
	if a := u.Query().Get("archive"); a != "" {
		if a == "false" {
			return ""
		}
		return a
	}
	for _, f := range archiveFormats {
		if strings.HasSuffix(u.Path, "."+f) {
			return f
		}
	}
	return ""
}

// unpackArchive unpacks an archive of the given format into dst, which
// must exist and be empty. It refuses entries that would be written
// outside dst: names with ".." or absolute, links pointing outside it, and
// entries below a symbolic link.
func unpackArchive(format, file, dst string) error {
	switch format {
	case "zip":
		return unpackZip(file, dst)
	case "tar", "tar.gz", "tgz", "tar.bz2", "tbz2", "tar.xz", "txz":
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		defer f.Close()
		var r io.Reader = f
		switch format {
		case "tar.gz", "tgz":
			gz, err := gzip.NewReader(f)
			if err != nil {
				return fmt.Errorf("unpacking the %s archive: %w", format, err)
			}
			defer gz.Close()
			r = gz
		case "tar.bz2", "tbz2":
			r = bzip2.NewReader(f)
		case "tar.xz", "txz":
			xr, err := xz.NewReader(f)
			if err != nil {
				return fmt.Errorf("unpacking the %s archive: %w", format, err)
			}
			r = xr
		}
		return unpackTar(r, dst)
	default:
		return fmt.Errorf("unsupported archive format %q; strata unpacks zip, tar, tar.gz (tgz), tar.bz2 (tbz2) and tar.xz (txz)", format)
	}
}

// unpacker writes archive entries below dst, refusing what would leave it.
type unpacker struct {
	dst   string
	links []string // symbolic links created, relative to dst
}

// target checks an entry's name and returns where it goes.
func (u *unpacker) target(name string) (string, string, error) {
	name = strings.ReplaceAll(name, `\`, "/")
	if path.IsAbs(name) || filepath.IsAbs(name) || (len(name) > 1 && name[1] == ':') {
		return "", "", fmt.Errorf("the archive entry %q has an absolute path; strata refuses to unpack it, since it would be written outside the module directory", name)
	}
	for _, el := range strings.Split(name, "/") {
		if el == ".." {
			return "", "", fmt.Errorf("the archive entry %q contains \"..\"; strata refuses to unpack it, since it could be written outside the module directory", name)
		}
	}
	clean := path.Clean(name)
	if clean == "." {
		return "", clean, nil
	}
	// Nothing is written through a link the archive made: a link may
	// point anywhere inside dst, but a path through it could lead out.
	parts := strings.Split(clean, "/")
	for i := 1; i < len(parts); i++ {
		p := filepath.Join(u.dst, filepath.FromSlash(strings.Join(parts[:i], "/")))
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "", "", fmt.Errorf("the archive entry %q is below the symbolic link %q; strata refuses to unpack it", name, strings.Join(parts[:i], "/"))
		}
	}
	return filepath.Join(u.dst, filepath.FromSlash(clean)), clean, nil
}

// link creates a symbolic link at name pointing at target, which must
// stay inside dst.
func (u *unpacker) link(name, target string) error {
	p, clean, err := u.target(name)
	if err != nil || p == "" {
		return err
	}
	if path.IsAbs(target) || filepath.IsAbs(target) {
		return fmt.Errorf("the archive entry %q is a symbolic link to the absolute path %q; strata refuses to unpack it, since it points outside the module directory", name, target)
	}
	if dest := path.Join(path.Dir(clean), target); dest == ".." || strings.HasPrefix(dest, "../") {
		return fmt.Errorf("the archive entry %q is a symbolic link to %q, outside the module directory; strata refuses to unpack it", name, target)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	os.RemoveAll(p)
	if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
		return err
	}
	u.links = append(u.links, clean)
	return nil
}

// file writes a regular file.
func (u *unpacker) file(name string, mode fs.FileMode, r io.Reader) error {
	p, _, err := u.target(name)
	if err != nil || p == "" {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	os.RemoveAll(p)
	perm := mode.Perm() | 0o600
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (u *unpacker) dir(name string) error {
	p, _, err := u.target(name)
	if err != nil || p == "" {
		return err
	}
	return os.MkdirAll(p, 0o755)
}

// check verifies, once everything is unpacked, that every link resolves
// inside dst: links to links are judged by where they finally lead.
func (u *unpacker) check() error {
	root, err := filepath.EvalSymlinks(u.dst)
	if err != nil {
		return err
	}
	for _, l := range u.links {
		real, err := filepath.EvalSymlinks(filepath.Join(u.dst, filepath.FromSlash(l)))
		if err != nil {
			continue // dangling: it leads nowhere
		}
		if !withinDir(root, real) {
			return fmt.Errorf("the archive entry %q is a symbolic link that leads outside the module directory; strata refuses to unpack it", l)
		}
	}
	return nil
}

func unpackTar(r io.Reader, dst string) error {
	u := &unpacker{dst: dst}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("reading the archive: %w", err)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = u.dir(h.Name)
		case tar.TypeReg, '\x00': // '\x00' is the old regular-file flag (tar.TypeRegA)
			err = u.file(h.Name, fs.FileMode(h.Mode), tr)
		case tar.TypeSymlink:
			err = u.link(h.Name, h.Linkname)
		case tar.TypeLink:
			err = u.hardLink(h.Name, h.Linkname)
		case tar.TypeXGlobalHeader, tar.TypeXHeader:
		default:
			// Devices, fifos and the like have no place in a module.
			err = fmt.Errorf("the archive entry %q is not a file, directory or link; strata refuses to unpack it", h.Name)
		}
		if err != nil {
			return err
		}
	}
	return u.check()
}

// hardLink copies the file an earlier entry wrote, which must be inside
// dst and not a link.
func (u *unpacker) hardLink(name, target string) error {
	tp, _, err := u.target(target)
	if err != nil {
		return err
	}
	fi, err := os.Lstat(tp)
	if err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("the archive entry %q is a hard link to %q, which is not a file unpacked before it", name, target)
	}
	data, err := os.ReadFile(tp)
	if err != nil {
		return err
	}
	return u.file(name, fi.Mode(), bytes.NewReader(data))
}

func unpackZip(file, dst string) error {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return fmt.Errorf("reading the zip archive: %w", err)
	}
	defer zr.Close()
	u := &unpacker{dst: dst}
	for _, f := range zr.File {
		mode := f.Mode()
		switch {
		case mode.IsDir() || strings.HasSuffix(f.Name, "/"):
			err = u.dir(f.Name)
		case mode&fs.ModeSymlink != 0:
			var target []byte
			target, err = readZipEntry(f)
			if err == nil {
				err = u.link(f.Name, string(target))
			}
		case mode.IsRegular():
			var rc io.ReadCloser
			rc, err = f.Open()
			if err == nil {
				err = u.file(f.Name, mode, rc)
				rc.Close()
			}
		default:
			err = fmt.Errorf("the archive entry %q is not a file, directory or link; strata refuses to unpack it", f.Name)
		}
		if err != nil {
			return err
		}
	}
	return u.check()
}

func readZipEntry(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(io.LimitReader(rc, 4096))
}
