package statemgr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ErrNotLocked is returned by ForceUnlock when there is no lock
// information beside the state.
var ErrNotLocked = errors.New("LocalState not locked")

// ErrLockInUse is the error inside the *LockError that ForceUnlock returns
// when the lock's holder is still running.
var ErrLockInUse = errors.New("the lock is held by a running process")

// ForceUnlock removes the lock information a process left beside the state
// when it died holding the lock, provided id is the ID it records. Such a
// lock no longer blocks anyone (the OS lock died with its holder), but its
// information file stays until removed.
//
// While it checks, ForceUnlock holds the lock itself, so nobody can take it
// meanwhile; confirm, when not nil, is then asked whether to go on, and a
// false answer leaves everything as it was. removed reports whether the
// file was removed.
//
// A lock whose holder is still running is never removed: ForceUnlock
// returns a *LockError wrapping ErrLockInUse with the holder's information.
func (m *Local) ForceUnlock(id string, confirm func(*LockInfo) bool) (removed bool, err error) {
	path := lockInfoPath(m.abs(m.OutPath))
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return false, ErrNotLocked
	}
	if err != nil {
		return false, fmt.Errorf("cannot open lock file %s: %w", path, err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return false, &LockError{Info: readLockInfo(f), Err: ErrLockInUse}
		}
		return false, fmt.Errorf("cannot lock %s: %w", path, err)
	}
	defer func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }()
	// A holder that released between our open and flock removed the file
	// we hold: there is nothing stale to remove any more.
	fst, err1 := f.Stat()
	pst, err2 := os.Stat(path)
	if err1 != nil || err2 != nil || !os.SameFile(fst, pst) {
		return false, ErrNotLocked
	}
	info := readLockInfo(f)
	if info == nil {
		return false, fmt.Errorf("the lock information in %s cannot be read; if no command is running, delete the file", path)
	}
	if info.ID != id {
		return false, fmt.Errorf("lock ID %q does not match existing lock ID %q", id, info.ID)
	}
	if confirm != nil && !confirm(info) {
		return false, nil
	}
	if err := os.Remove(path); err != nil {
		return false, err
	}
	syncDir(filepath.Dir(path))
	return true, nil
}
