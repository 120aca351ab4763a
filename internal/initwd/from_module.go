package initwd

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// CopyModule copies the module at source into dst, for init
// -from-module: a directory on this machine (a relative or absolute path,
// or a file:// URL) or a git repository on this machine
// (git::file:///path/repo.git, with //subdir and ?ref= as for module
// calls). Hidden files and directories (.git, .terraform...) are not
// copied. Sources that need the network are refused.
func CopyModule(ctx context.Context, source, dst string) error {
	getter, rest := splitForcedGetter(source)
	switch {
	case getter == "git" && strings.HasPrefix(rest, "file://"):
		gs, err := parseGitFileSource(source)
		if err != nil {
			return err
		}
		tmp, err := os.MkdirTemp("", "strata-from-module-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		pkg := filepath.Join(tmp, "pkg")
		inst := &moduleInstaller{ctx: ctx}
		if err := inst.gitClone(gs, pkg); err != nil {
			return err
		}
		return copyTree(filepath.Join(pkg, filepath.FromSlash(gs.subdir)), dst)
	case getter == "" && strings.HasPrefix(rest, "file://"):
		u, err := url.Parse(rest)
		if err != nil {
			return err
		}
		return copyTree(u.Path, dst)
	case getter == "" && (IsLocalPath(rest) || filepath.IsAbs(rest)):
		return copyTree(rest, dst)
	default:
		return fmt.Errorf("strata can copy a module only from a directory or a git repository on this machine (git::file://...); %q needs the network", source)
	}
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
