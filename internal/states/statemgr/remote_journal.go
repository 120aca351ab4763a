package statemgr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/states"
)

// RemoteJournal is the crash-safety journal of a manager whose snapshot
// is not a local file (PG, HTTP, and any other remote backend's manager).
// The journal is a local file: a remote write per resource would make
// apply as slow as the network. The state reached is also written to the
// store every TF_STATE_PERSIST_INTERVAL seconds (20 by default), the
// journal restarting on top of it, and the next Read replays a journal
// left by an interrupted apply into the store.
//
// A manager embeds a RemoteJournal made by NewRemoteJournal, which gives
// it Manager's BeginJournal and EndJournal, and calls Recover from its
// Read.
type RemoteJournal struct {
	// JournalPath is the local file holding the journal of an apply in
	// progress; "" for a manager that only reads (terraform_remote_state).
	JournalPath string
	// PersistInterval is how often the state reached is written to the
	// store during an apply (see PersistInterval); zero means
	// DefaultPersistInterval.
	PersistInterval time.Duration

	// write stores a snapshot; evenEmpty stores an empty state where
	// none was stored.
	write   func(s *states.State, evenEmpty bool) error
	serial  func() uint64
	journal *Journal
	// enc encrypts the journal's records; see SetJournalEncryption.
	enc *encryption.Target
}

// SetJournalEncryption makes the journal encrypt its records with t, as
// the manager's snapshots are.
func (r *RemoteJournal) SetJournalEncryption(t *encryption.Target) { r.enc = t }

// NewRemoteJournal returns the journal at path of a manager that writes
// snapshots with write and whose last read or written snapshot has the
// serial that serial returns. write(s, false) is the manager's Write;
// write(s, true) also stores an empty state where none was stored, as
// the end of an apply does.
func NewRemoteJournal(path string, write func(s *states.State, evenEmpty bool) error, serial func() uint64) RemoteJournal {
	return RemoteJournal{JournalPath: path, write: write, serial: serial}
}

// BeginJournal implements Manager: the journal's header names base's
// lineage and the serial of the snapshot last read, and the state reached
// is written to the store at intervals too.
func (r *RemoteJournal) BeginJournal(base *states.State) (*Journal, error) {
	j, err := openJournal(r.JournalPath, base.Lineage, r.serial(), r.enc)
	if err != nil {
		return nil, err
	}
	r.journal = j
	every := r.PersistInterval
	if every <= 0 {
		every = DefaultPersistInterval
	}
	j.startCheckpoints(base, every, func(s *states.State) (uint64, error) {
		if err := r.write(s, false); err != nil {
			return 0, err
		}
		return s.Serial, nil
	})
	return j, nil
}

// EndJournal implements Manager: the final snapshot is written to the
// store once, then the local journal is removed. When the write fails the
// journal stays for the next command to recover. As with Terraform (and
// the local backend), an empty final state is stored even where no state
// was: an apply, destroy or refresh leaves serial 1 behind.
func (r *RemoteJournal) EndJournal(final *states.State) error {
	if err := endJournal(r.journal, func() error { return r.write(final, true) }); err != nil {
		return err
	}
	r.journal = nil
	return nil
}

// LockForRecovery prepares a Read: it reports whether a journal is left
// to replay and, when the manager does not hold the lock (locked false)
// but can take one (canLock), takes it with lock for the recovery. A lock
// held by someone else means the journal is in use: its owner recovers
// it, and replay is false. Call release when the Read is done.
func (r *RemoteJournal) LockForRecovery(ctx context.Context, locked, canLock bool, lock func(context.Context) error, unlock func() error) (replay bool, release func(), err error) {
	release = func() {}
	replay = fileExists(r.JournalPath)
	if !replay || locked || !canLock {
		return replay, release, nil
	}
	err = lock(ctx)
	var le *LockError
	if errors.As(err, &le) {
		return false, release, nil
	}
	if err != nil {
		return false, release, err
	}
	return true, func() { _ = unlock() }, nil
}

// Recover replays the journal into s, the snapshot just read from the
// store, writes the result to the store when the journal changed
// anything, and removes the journal. It returns the state and the
// operations the journal shows were in flight.
func (r *RemoteJournal) Recover(s *states.State) (*states.State, []Pending, error) {
	s, pending, replayed, err := replayJournal(r.JournalPath, s, r.enc)
	if err != nil {
		return nil, nil, err
	}
	if replayed {
		if err := r.write(s, false); err != nil {
			return nil, nil, fmt.Errorf("recovering the state journal %s: %w", r.JournalPath, err)
		}
	}
	if err := os.Remove(r.JournalPath); err == nil {
		syncDir(filepath.Dir(r.JournalPath))
	}
	return s, pending, nil
}

// openJournal creates the journal file at path with a header naming the
// snapshot (lineage and serial) its records extend, synced to disk.
func openJournal(path, lineage string, serial uint64, enc *encryption.Target) (*Journal, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("cannot create state journal: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot create state journal: %w", err)
	}
	head, _ := json.Marshal(journalHeader{Journal: 1, Lineage: lineage, Serial: serial})
	if _, err := f.Write(append(head, '\n')); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, err
	}
	syncDir(filepath.Dir(path))
	return &Journal{path: path, f: f, enc: enc}, nil
}
