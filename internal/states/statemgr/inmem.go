package statemgr

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// InmemStore holds the workspaces of an inmem backend: state kept in the
// memory of the strata process only, as Terraform's inmem backend keeps
// it, for testing tools that drive the CLI. Every command starts with
// empty workspaces and everything is gone when it exits.
type InmemStore struct {
	mu         sync.Mutex
	workspaces map[string]*inmemWorkspace
}

type inmemWorkspace struct {
	data   []byte // the snapshot, nil when nothing is stored
	serial uint64
	lock   *LockInfo
}

// NewInmemStore returns a store with the default workspace. A non-empty
// lockID starts the default workspace locked with that ID, as the inmem
// backend's lock_id argument does, so that lock errors and force-unlock
// can be tested.
func NewInmemStore(lockID, version string) *InmemStore {
	st := &InmemStore{workspaces: map[string]*inmemWorkspace{DefaultWorkspace: {}}}
	if lockID != "" {
		info := NewLockInfo("test", version)
		info.ID, info.Info = lockID, "test config"
		st.workspaces[DefaultWorkspace].lock = info
	}
	return st
}

// Workspaces lists the store's workspaces.
func (st *InmemStore) Workspaces() []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]string, 0, len(st.workspaces))
	for name := range st.workspaces {
		out = append(out, name)
	}
	return out
}

// DeleteWorkspace removes a workspace and its state.
func (st *InmemStore) DeleteWorkspace(name string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	delete(st.workspaces, name)
}

// Manager returns the state manager of a workspace, creating the
// workspace when it does not exist yet.
func (st *InmemStore) Manager(workspace, version string) *Inmem {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.workspaces[workspace] == nil {
		st.workspaces[workspace] = &inmemWorkspace{}
	}
	return &Inmem{store: st, Workspace: workspace, Version: version}
}

// Inmem is the state manager of one workspace of an InmemStore.
type Inmem struct {
	store *InmemStore
	// Workspace is the workspace's name.
	Workspace string
	// Version is recorded as terraform_version in snapshots.
	Version string
	held    bool
	journal *Journal
}

var _ Manager = (*Inmem)(nil)

func (m *Inmem) ws() *inmemWorkspace {
	if w := m.store.workspaces[m.Workspace]; w != nil {
		return w
	}
	w := &inmemWorkspace{}
	m.store.workspaces[m.Workspace] = w
	return w
}

// Lock implements Manager. A lock held by anyone else, within timeout, is
// a *LockError.
func (m *Inmem) Lock(ctx context.Context, info *LockInfo, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		m.store.mu.Lock()
		w := m.ws()
		if w.lock == nil {
			info.Path = ""
			w.lock, m.held = info, true
			m.store.mu.Unlock()
			return nil
		}
		held := *w.lock
		m.store.mu.Unlock()
		if time.Now().After(deadline) {
			return &LockError{Info: &held, Err: errors.New("state locked")}
		}
		select {
		case <-ctx.Done():
			return &LockError{Info: &held, Err: ctx.Err()}
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Unlock implements Manager.
func (m *Inmem) Unlock() error {
	m.store.mu.Lock()
	defer m.store.mu.Unlock()
	if m.held {
		m.ws().lock, m.held = nil, false
	}
	return nil
}

// Read implements Manager.
func (m *Inmem) Read() (*states.State, []Pending, error) {
	m.store.mu.Lock()
	data := m.ws().data
	m.store.mu.Unlock()
	if data == nil {
		return FreshState(), nil, nil
	}
	s, err := statefile.Read(data)
	if err != nil {
		return nil, nil, err
	}
	return s, nil, nil
}

// Write implements Manager.
func (m *Inmem) Write(s *states.State) error {
	m.store.mu.Lock()
	defer m.store.mu.Unlock()
	w := m.ws()
	data, err := EncodeSnapshot(s, m.Version, w.data, w.serial, w.data != nil)
	if err != nil || data == nil {
		return err
	}
	w.data, w.serial = data, s.Serial
	return nil
}

// BeginJournal implements Manager. The journal is a temporary file: the
// state it protects lives no longer than the process anyway, but apply
// records its progress the same way for every backend.
func (m *Inmem) BeginJournal(base *states.State) (*Journal, error) {
	m.store.mu.Lock()
	serial := m.ws().serial
	m.store.mu.Unlock()
	path := filepath.Join(os.TempDir(), fmt.Sprintf("strata-inmem-%d-%s.journal", os.Getpid(), m.Workspace))
	j, err := openJournal(path, base.Lineage, serial, nil)
	if err != nil {
		return nil, err
	}
	m.journal = j
	return j, nil
}

// EndJournal implements Manager.
func (m *Inmem) EndJournal(final *states.State) error {
	if err := endJournal(m.journal, func() error { return m.Write(final) }); err != nil {
		return err
	}
	m.journal = nil
	return nil
}

// ForceUnlock implements Manager: the lock of the workspace is removed
// when id is its ID.
func (m *Inmem) ForceUnlock(id string, confirm func(*LockInfo) bool) (bool, error) {
	m.store.mu.Lock()
	defer m.store.mu.Unlock()
	w := m.ws()
	if w.lock == nil {
		return false, errors.New("state not locked")
	}
	if w.lock.ID != id {
		return false, fmt.Errorf("invalid lock id %q: the state is locked with ID %q", id, w.lock.ID)
	}
	if confirm != nil && !confirm(w.lock) {
		return false, nil
	}
	w.lock = nil
	return true, nil
}

// Exists implements Manager.
func (m *Inmem) Exists() bool {
	m.store.mu.Lock()
	defer m.store.mu.Unlock()
	return m.ws().data != nil
}

// String implements Manager.
func (m *Inmem) String() string {
	return fmt.Sprintf("workspace %q of the inmem backend", m.Workspace)
}
