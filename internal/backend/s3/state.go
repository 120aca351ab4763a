package s3

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// Manager keeps a workspace's state in an object of the bucket, locked
// with a lock object beside it (use_lockfile), as Terraform's s3 backend
// does: the same keys, the same JSON in both. Its journal is a local
// file, replayed into the object by the next Read.
type Manager struct {
	// RemoteJournal is the local journal of an apply in progress.
	statemgr.RemoteJournal
	// Workspace is the workspace; Key its state object's key.
	Workspace string
	Key       string
	// Version is written into snapshots as terraform_version.
	Version string

	store *store
	lock  *statemgr.LockInfo // the lock this manager holds; nil when none

	read   []byte // the snapshot last read or written; nil when none
	etag   string // its ETag, for the conditional write that replaces it
	found  bool   // whether an object existed then (maybe empty)
	serial uint64
}

var _ statemgr.Manager = (*Manager)(nil)

func newManager(st *store, ws, key, journal, version string) *Manager {
	m := &Manager{Workspace: ws, Key: key, Version: version, store: st}
	m.RemoteJournal = statemgr.NewRemoteJournal(journal, m.Write, func() uint64 { return m.serial })
	return m
}

// String implements statemgr.Manager.
func (m *Manager) String() string {
	return fmt.Sprintf("workspace %q of the s3 backend (s3://%s/%s)", m.Workspace, m.store.cfg.Bucket, m.Key)
}

// Exists implements statemgr.Manager.
func (m *Manager) Exists() bool { return len(m.read) > 0 }

// ForgetSerial makes the next Write keep the serial of the snapshot it is
// given, for a migrated state copied into an empty workspace.
func (m *Manager) ForgetSerial() { m.serial = 0 }

// lockKey is the key of the lock object: the state's key plus ".tflock".
func (m *Manager) lockKey() string { return m.Key + ".tflock" }

// lockPath is the lock's Path, as Terraform records it: BUCKET/KEY.
func (m *Manager) lockPath() string { return m.store.cfg.Bucket + "/" + m.Key }

// Lock implements statemgr.Manager. With use_lockfile the lock is the
// object KEY.tflock holding the lock info, created only if it does not
// exist; while someone else's is there the attempt is retried until
// timeout. Without use_lockfile nothing is locked, as with Terraform.
func (m *Manager) Lock(ctx context.Context, info *statemgr.LockInfo, timeout time.Duration) error {
	if !m.store.cfg.UseLockfile {
		return nil
	}
	if m.lock != nil {
		return errors.New("the s3 backend's state lock is already held by this command")
	}
	info.Path = m.lockPath()
	body, err := json.Marshal(info)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	delay := 250 * time.Millisecond
	for {
		held, err := m.tryLock(ctx, body)
		if err != nil {
			return err
		}
		if held == nil {
			m.lock = info
			return nil
		}
		var waitErr error
		if !time.Now().Before(deadline) {
			waitErr = fmt.Errorf("the lock object s3://%s/%s exists: %s holds the lock", m.store.cfg.Bucket, m.lockKey(), held.who())
		} else {
			select {
			case <-ctx.Done():
				waitErr = ctx.Err()
			case <-time.After(delay):
			}
			if delay < 2*time.Second {
				delay *= 2
			}
		}
		if waitErr != nil {
			return &statemgr.LockError{Info: held.info, Err: waitErr}
		}
	}
}

// holder is the lock object someone else wrote.
type holder struct {
	info *statemgr.LockInfo // nil when it cannot be read
}

func (h *holder) who() string {
	if h.info == nil {
		return "someone"
	}
	if h.info.ID == "" {
		return "someone"
	}
	return "lock " + h.info.ID
}

// tryLock makes one attempt. It returns nil when the lock is taken, or
// the holder.
func (m *Manager) tryLock(ctx context.Context, body []byte) (*holder, error) {
	rctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	_, err := m.store.put(rctx, m.lockKey(), body, condition{absent: true})
	if err == nil {
		return nil, nil
	}
	if !preconditionFailed(err) {
		return nil, fmt.Errorf("s3 backend: taking the state lock: %w", err)
	}
	obj, gerr := m.store.get(rctx, m.lockKey())
	if gerr != nil || obj == nil {
		// Released meanwhile, or unreadable: try again.
		return &holder{}, nil
	}
	var info statemgr.LockInfo
	if json.Unmarshal(obj.data, &info) != nil {
		return &holder{}, nil
	}
	return &holder{info: &info}, nil
}

// Unlock implements statemgr.Manager: the lock object is removed, after
// checking that it is still this manager's (someone may have forced the
// lock open and taken it since).
func (m *Manager) Unlock() error {
	if m.lock == nil {
		return nil
	}
	id := m.lock.ID
	m.lock = nil
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	obj, err := m.store.get(ctx, m.lockKey())
	if err != nil {
		return fmt.Errorf("s3 backend: releasing the state lock: %w", err)
	}
	if obj == nil {
		return fmt.Errorf("s3 backend: releasing the state lock: the lock object s3://%s/%s is gone (was the lock forced open?)", m.store.cfg.Bucket, m.lockKey())
	}
	var info statemgr.LockInfo
	if err := json.Unmarshal(obj.data, &info); err == nil && info.ID != id {
		return fmt.Errorf("s3 backend: releasing the state lock: lock ID %q does not match the existing lock ID %q; it was left in place", id, info.ID)
	}
	if err := m.store.remove(ctx, m.lockKey()); err != nil {
		return fmt.Errorf("s3 backend: releasing the state lock: %w", err)
	}
	return nil
}

// ForceUnlock implements statemgr.Manager: it removes the lock object,
// provided id is the ID it records. Whether its holder still runs cannot
// be known from the bucket: as with Terraform, use it only for a lock
// whose holder is gone.
func (m *Manager) ForceUnlock(id string, confirm func(*statemgr.LockInfo) bool) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	obj, err := m.store.get(ctx, m.lockKey())
	if err != nil {
		return false, fmt.Errorf("reading the lock object s3://%s/%s: %w", m.store.cfg.Bucket, m.lockKey(), err)
	}
	if obj == nil {
		return false, fmt.Errorf("%s is not locked (there is no s3://%s/%s)", m, m.store.cfg.Bucket, m.lockKey())
	}
	var info statemgr.LockInfo
	if err := json.Unmarshal(obj.data, &info); err != nil {
		return false, fmt.Errorf("the lock object s3://%s/%s cannot be read (%v); if no command is running, delete it", m.store.cfg.Bucket, m.lockKey(), err)
	}
	if info.ID != id {
		return false, fmt.Errorf("lock ID %q does not match existing lock ID %q", id, info.ID)
	}
	if confirm != nil && !confirm(&info) {
		return false, nil
	}
	if err := m.store.remove(ctx, m.lockKey()); err != nil {
		return false, err
	}
	return true, nil
}

// Read implements statemgr.Manager. A journal left by an interrupted
// apply is replayed into the state object under the lock: when this
// command does not hold it, Read takes it for the recovery (with
// use_lockfile), and leaves the journal alone if someone else holds it.
// A workspace other than default with no state object is created with an
// empty state, as Terraform does.
func (m *Manager) Read() (*states.State, []statemgr.Pending, error) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	replay, release, err := m.LockForRecovery(ctx, m.lock != nil, m.store.cfg.UseLockfile, func(ctx context.Context) error {
		return m.Lock(ctx, statemgr.NewLockInfo("OperationTypeRecover", m.Version), 0)
	}, m.Unlock)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	s, err := m.readSnapshot(ctx)
	if err != nil {
		return nil, nil, err
	}
	if !m.found && m.Workspace != statemgr.DefaultWorkspace {
		if err := m.createWorkspace(ctx); err != nil {
			return nil, nil, err
		}
		if s, err = m.readSnapshot(ctx); err != nil {
			return nil, nil, err
		}
	}
	if !replay {
		return s, nil, nil
	}
	return m.Recover(s)
}

// ReadStored reads the stored snapshot, without recovering a journal or
// creating the workspace: for terraform_remote_state. found reports
// whether there was a state object.
func (m *Manager) ReadStored(ctx context.Context) (*states.State, bool, error) {
	s, err := m.readSnapshot(ctx)
	return s, m.found && len(m.read) > 0, err
}

func (m *Manager) readSnapshot(ctx context.Context) (*states.State, error) {
	m.read, m.etag, m.found, m.serial = nil, "", false, 0
	obj, err := m.store.get(ctx, m.Key)
	if err != nil {
		return nil, fmt.Errorf("reading the state from %s: %w", m, err)
	}
	if obj == nil {
		return statemgr.FreshState(), nil
	}
	m.found, m.etag = true, obj.etag
	if len(bytes.TrimSpace(obj.data)) == 0 {
		return statemgr.FreshState(), nil
	}
	s, err := statefile.Read(obj.data)
	if errors.Is(err, statefile.ErrEmpty) {
		return statemgr.FreshState(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to load state from %s: %w", m, err)
	}
	m.read, m.serial = obj.data, s.Serial
	return s, nil
}

// createWorkspace writes an empty state (serial 1, as Terraform's) unless
// someone else just did.
func (m *Manager) createWorkspace(ctx context.Context) error {
	s := statemgr.FreshState()
	s.TerraformVersion = m.Version
	s.Serial = 1
	data, err := statefile.Write(s)
	if err != nil {
		return err
	}
	if _, err := m.store.put(ctx, m.Key, data, condition{absent: true}); err != nil && !preconditionFailed(err) {
		return fmt.Errorf("creating %s: %w", m, err)
	}
	return nil
}

// Write implements statemgr.Manager. The new snapshot replaces the object
// only if it is still the one this manager last read or wrote (a
// conditional put, If-Match its ETag, or If-None-Match when there was
// none): a state changed meanwhile by someone who did not respect the
// lock is reported, not overwritten.
func (m *Manager) Write(s *states.State) error {
	data, err := statemgr.EncodeSnapshot(s, m.Version, m.read, m.serial, m.read != nil)
	if err != nil || data == nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	cond := condition{absent: !m.found, etag: m.etag}
	etag, err := m.store.put(ctx, m.Key, data, cond)
	if preconditionFailed(err) {
		what := "it now holds another snapshot"
		if obj, gerr := m.store.get(ctx, m.Key); gerr == nil {
			what = describeSnapshot(obj)
		}
		return fmt.Errorf("writing the state to %s: the state was changed by another process since strata read it (%s); nothing was written. Run the command again to work from the current state", m, what)
	}
	if err != nil {
		return fmt.Errorf("writing the state to %s: %w", m, err)
	}
	m.read, m.etag, m.found, m.serial = data, etag, true, s.Serial
	return nil
}

// describeSnapshot names a stored snapshot by serial and lineage.
func describeSnapshot(obj *object) string {
	if obj == nil {
		return "it has been deleted"
	}
	s, err := statefile.Read(obj.data)
	if err != nil {
		return "it now holds something unreadable"
	}
	return fmt.Sprintf("it now holds serial %d of lineage %s", s.Serial, s.Lineage)
}
