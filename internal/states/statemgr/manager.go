package statemgr

import (
	"context"
	"os"
	"time"

	"github.com/strata-dev/strata/internal/states"
)

// Manager is a place a workspace's state is kept: a local file (Local) or
// a row in a Postgres table (PG). Commands work through it without knowing
// which.
//
// A Manager is used by one goroutine at a time: lock, read, journal the
// apply, write the final snapshot, unlock.
type Manager interface {
	// Lock takes the state lock for info's operation, retrying for up to
	// timeout while someone else holds it. A lock held by someone else
	// is a *LockError naming the holder, where it can be known.
	Lock(ctx context.Context, info *LockInfo, timeout time.Duration) error
	// Unlock releases the lock, if held.
	Unlock() error
	// Read returns the current state, after replaying a journal left by
	// an interrupted apply; the operations that journal shows were in
	// flight are returned as pending. With no stored state it returns an
	// empty state with a new lineage.
	Read() (*states.State, []Pending, error)
	// Write stores s as the new snapshot unless it is identical to the
	// stored one, increasing the serial on every real write.
	Write(s *states.State) error
	// BeginJournal starts the crash-safety journal of an apply whose
	// changes go on top of base, the snapshot last read.
	BeginJournal(base *states.State) (*Journal, error)
	// EndJournal writes final as the snapshot and removes the journal;
	// when the snapshot cannot be written the journal stays for the next
	// command to recover.
	EndJournal(final *states.State) error
	// ForceUnlock removes a lock left behind, provided id is its ID;
	// confirm, when not nil, is asked first. What can be removed depends
	// on the store: see each implementation.
	ForceUnlock(id string, confirm func(*LockInfo) bool) (removed bool, err error)
	// Exists reports whether a non-empty snapshot is stored, as of the
	// last Read or Write.
	Exists() bool
	// String names the place for messages: a path, or a backend and
	// workspace.
	String() string
}

var (
	_ Manager = (*Local)(nil)
	_ Manager = (*PG)(nil)
)

// Exists implements Manager: the state file exists and is not empty.
func (m *Local) Exists() bool {
	st, err := os.Stat(m.abs(m.Path))
	return err == nil && st.Size() > 0
}

// String implements Manager: the path new snapshots are written to.
func (m *Local) String() string { return m.OutPath }

// ReadForgetter is a Manager that keeps the snapshot it read, to compare
// with on Write, and can drop it for an operation that will not write
// (plan): a plan of 100,000 resources kept its 85 MB to the end.
type ReadForgetter interface {
	ForgetRead()
}

// ForgetRead calls ForgetRead on m, or on the manager it wraps, if that
// is a ReadForgetter.
func ForgetRead(m Manager) {
	for m != nil {
		if f, ok := m.(ReadForgetter); ok {
			f.ForgetRead()
			return
		}
		u, ok := m.(interface{ Unwrap() Manager })
		if !ok {
			return
		}
		m = u.Unwrap()
	}
}
