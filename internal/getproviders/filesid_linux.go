package getproviders

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
)

// filesID identifies the content of the files under dir without reading
// them: each file's name, device, inode, size, modification and change
// times. Writing a file, or replacing it, sets its change time to the
// kernel's clock, which nobody can set back, so an unchanged ID means
// unchanged files (but for a rewrite of the same size within the clock's
// tick of a few milliseconds). ok is false when the directory cannot be
// read.
func filesID(dir string) (id string, ok bool) {
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		st, isStat := info.Sys().(*syscall.Stat_t)
		if !isStat {
			return fmt.Errorf("no stat data for %s", path)
		}
		fmt.Fprintf(&b, "%s\x00%d %d %d %d.%d %d.%d %o\n", path, st.Dev, st.Ino, st.Size,
			st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec, st.Mode)
		return nil
	})
	return b.String(), err == nil
}
