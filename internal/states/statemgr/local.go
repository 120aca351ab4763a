package statemgr

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// Local stores state in a local file.
type Local struct {
	// Path is the state file read at the start.
	Path string
	// OutPath is where new snapshots are written; defaults to Path.
	OutPath string
	// BackupPath receives the snapshot being replaced on the first write;
	// "" means OutPath + ".backup", "-" disables backups.
	BackupPath string
	// Dir is the directory relative paths are read and written in,
	// absolute; empty means the process's working directory. The paths
	// stay as given in messages and the lock information.
	Dir string
	// Version is written into snapshots as terraform_version.
	Version string
	// AllowEmpty reads an empty file as no state rather than refusing it
	// (see EmptyStateError): init sets it for the files a state migration
	// empties on purpose, as Terraform does.
	AllowEmpty bool

	lock  *fileLock
	crypt SnapshotCrypt
	read  []byte // the snapshot (decrypted) last read from or written to OutPath
	// forgot: read was dropped by ForgetRead, and is read again from
	// OutPath if Write needs it.
	forgot   bool
	serial   uint64
	backedUp bool
	journal  *Journal
}

// NewLocal returns a manager for the state file at path.
func NewLocal(path, outPath, backupPath, version string) *Local {
	if outPath == "" {
		outPath = path
	}
	return &Local{Path: path, OutPath: outPath, BackupPath: backupPath, Version: version}
}

// SetEncryption implements Encryptable: the state file, its backup and
// the journal are encrypted with t.
func (m *Local) SetEncryption(t *encryption.Target) { m.crypt.Target = t }

// File is the state file Path names, resolved against Dir.
func (m *Local) File() string { return m.abs(m.Path) }

// abs is p resolved against Dir.
func (m *Local) abs(p string) string {
	if m.Dir == "" || p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(m.Dir, p)
}

func (m *Local) backupPath() string {
	switch m.BackupPath {
	case "-":
		return ""
	case "":
		return m.OutPath + ".backup"
	}
	return m.BackupPath
}

// Lock takes the state lock, waiting up to timeout for another holder to
// release it.
func (m *Local) Lock(ctx context.Context, info *LockInfo, timeout time.Duration) error {
	l, err := acquire(ctx, lockInfoPath(m.abs(m.OutPath)), m.OutPath, info, timeout)
	if err != nil {
		return err
	}
	m.lock = l
	return nil
}

// Unlock releases the state lock, if held.
func (m *Local) Unlock() error {
	if m.lock == nil {
		return nil
	}
	err := m.lock.release()
	m.lock = nil
	return err
}

// Read returns the current state, or an empty state with a new lineage
// when there is no file. A journal left by an interrupted apply is first
// replayed into the snapshot; operations it shows were in flight are
// returned as pending so that the user can be told about them.
func (m *Local) Read() (*states.State, []Pending, error) {
	s, err := m.readSnapshot()
	if err != nil {
		return nil, nil, err
	}
	jpath := journalPath(m.abs(m.OutPath))
	if m.lock == nil && fileExists(jpath) {
		// Without the state lock (show, output, -lock=false) the journal
		// may belong to an apply running now: recovering it would rewrite
		// the state under that apply and unlink the journal it appends to.
		// Recover only when nobody holds the lock, and hold it meanwhile.
		l, _, err := tryAcquire(lockInfoPath(m.abs(m.OutPath)), m.OutPath, NewLockInfo("OperationTypeRecover", m.Version))
		if err == nil && l == nil {
			return s, nil, nil // held: the journal is in use
		}
		if l != nil {
			defer l.release()
		}
	}
	s, pending, replayed, err := replayJournal(jpath, s, m.crypt.Target)
	if err != nil {
		return nil, nil, err
	}
	if replayed {
		if err := m.Write(s); err != nil {
			return nil, nil, fmt.Errorf("recovering the state journal: %w", err)
		}
	}
	// The journal is consumed, even one with no records after its header.
	if err := os.Remove(jpath); err == nil {
		syncDir(filepath.Dir(m.abs(m.OutPath)))
	}
	return s, pending, nil
}

func (m *Local) readSnapshot() (*states.State, error) {
	src, err := os.ReadFile(m.abs(m.Path))
	if errors.Is(err, fs.ErrNotExist) {
		return FreshState(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading state file %s: %w", m.Path, err)
	}
	if len(bytes.TrimSpace(src)) > 0 {
		if src, err = m.crypt.Open(src); err != nil {
			return nil, fmt.Errorf("failed to load state from %s: %w", m.Path, err)
		}
	}
	s, err := statefile.Read(src)
	if errors.Is(err, statefile.ErrEmpty) && m.AllowEmpty {
		return FreshState(), nil
	}
	if errors.Is(err, statefile.ErrEmpty) {
		// Unlike Terraform, which reads such a file as "no state" and
		// would plan to create everything again, and then overwrite it.
		return nil, &EmptyStateError{Path: m.Path}
	}
	if err != nil {
		return nil, fmt.Errorf("failed to load state from %s: %w", m.Path, err)
	}
	if m.Path == m.OutPath {
		m.read = src
	}
	m.serial = s.Serial
	return s, nil
}

// Write saves s as the new snapshot, unless it is identical to the
// snapshot on disk. The serial is increased on every real write.
func (m *Local) Write(s *states.State) error {
	return m.write(s, false)
}

// write is Write; with evenEmpty an empty state is written where no file
// was (Write leaves it unwritten).
func (m *Local) write(s *states.State, evenEmpty bool) error {
	if m.forgot {
		m.forgot = false
		if src, err := os.ReadFile(m.abs(m.OutPath)); err == nil && len(bytes.TrimSpace(src)) > 0 {
			if plain, err := m.crypt.Open(src); err == nil {
				m.read = plain
			}
		}
	}
	data, out, err := m.crypt.Seal(s, m.Version, m.read, m.serial, evenEmpty || m.read != nil || fileExists(m.abs(m.OutPath)))
	if err != nil || data == nil {
		return err
	}
	if err := m.backup(); err != nil {
		return err
	}
	if err := WriteFileAtomic(m.abs(m.OutPath), out, 0o600); err != nil {
		return err
	}
	m.crypt.Written()
	m.read, m.serial = data, s.Serial
	return nil
}

// ForgetRead drops the snapshot kept since Read, for a command that will
// not write (plan): it is as large as the state file, and was kept for
// the whole operation only for Write to compare with. Should Write come
// after all, it reads the file again. See ReadForgetter.
func (m *Local) ForgetRead() {
	if m.read != nil {
		m.read, m.forgot = nil, true
	}
}

// backup copies the snapshot being replaced, once per manager.
func (m *Local) backup() error {
	path := m.backupPath()
	if m.backedUp || path == "" {
		return nil
	}
	old, err := os.ReadFile(m.abs(m.OutPath))
	if errors.Is(err, fs.ErrNotExist) {
		m.backedUp = true
		return nil
	}
	if err != nil {
		return err
	}
	if err := WriteFileAtomic(m.abs(path), old, 0o600); err != nil {
		return fmt.Errorf("writing state backup %s: %w", path, err)
	}
	m.backedUp = true
	return nil
}

// WriteFileAtomic replaces path with data: it writes a temporary file in
// the same directory, syncs it, renames it over path and syncs the
// directory, so that path always holds either the old or the new content.
func WriteFileAtomic(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Chmod(mode); err != nil {
		return fail(err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(dir)
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// EmptyStateError is the error for a local state file that exists but is
// empty or holds only whitespace: what an interrupted write or a full disk
// leaves behind. It is never read as "no state", which would plan to
// create every object again; the file is left as it is.
type EmptyStateError struct{ Path string }

func (e *EmptyStateError) Error() string {
	return fmt.Sprintf("the state file %s is empty: it exists but holds no state, not even an empty one. "+
		"A write that was interrupted, or a disk that filled up, can leave such a file. strata does not read it as \"no state\", "+
		"which would plan to create every object again. Restore the state from %s.backup or from your backups, "+
		"or delete the file if there really is no state", e.Path, e.Path)
}
