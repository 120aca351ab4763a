package s3

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/strata-dev/strata/internal/encryption"
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

	crypt  statemgr.SnapshotCrypt
	read   []byte // the snapshot last read or written, as stored; nil when none
	plain  []byte // read, decrypted
	etag   string // its ETag, for the conditional write that replaces it
	found  bool   // whether an object existed then (maybe empty)
	serial uint64
}

var _ statemgr.Manager = (*Manager)(nil)

func newManager(st *store, ws, key, journal, version string) *Manager {
	m := &Manager{Workspace: ws, Key: key, Version: version, store: st}
	m.RemoteJournal = statemgr.NewRemoteJournal(journal, m.write, func() uint64 { return m.serial })
	return m
}

// String implements statemgr.Manager.
func (m *Manager) String() string {
	return fmt.Sprintf("workspace %q of the s3 backend (s3://%s/%s)", m.Workspace, m.store.cfg.Bucket, m.Key)
}

// Exists implements statemgr.Manager.
func (m *Manager) Exists() bool { return len(m.read) > 0 }

// SetEncryption implements statemgr.Encryptable: the state objects and
// the local journal are encrypted with t.
func (m *Manager) SetEncryption(t *encryption.Target) {
	m.crypt.Target = t
	m.SetJournalEncryption(t)
}

// ForgetSerial makes the next Write keep the serial of the snapshot it is
// given, for a migrated state copied into an empty workspace.
func (m *Manager) ForgetSerial() { m.serial = 0 }

// lockKey is the key of the lock object: the state's key plus ".tflock".
func (m *Manager) lockKey() string { return m.Key + ".tflock" }

// lockPath is the lock's Path, as Terraform records it: BUCKET/KEY.
func (m *Manager) lockPath() string { return m.store.cfg.Bucket + "/" + m.Key }

// locking reports whether the state is locked at all: with use_lockfile,
// dynamodb_table or both.
func (m *Manager) locking() bool { return m.store.cfg.UseLockfile || m.store.table != nil }

// Lock implements statemgr.Manager. With use_lockfile the lock is the
// object KEY.tflock holding the lock info, created only if it does not
// exist; with dynamodb_table it is an item of the table, created only if
// it does not exist; with both, both are taken, as Terraform takes them.
// While someone else holds either the attempt is retried until timeout.
// With neither nothing is locked, as with Terraform.
func (m *Manager) Lock(ctx context.Context, info *statemgr.LockInfo, timeout time.Duration) error {
	if !m.locking() {
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
		// ctx is checked between attempts, not during one (see tryLock).
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("s3 backend: taking the state lock: %w", err)
		}
		held, err := m.tryLock(ctx, info.ID, body)
		if err != nil {
			return err
		}
		if held == nil {
			m.lock = info
			return nil
		}
		var waitErr error
		if !time.Now().Before(deadline) {
			waitErr = fmt.Errorf("%s exists: %s holds the lock", held.where, held.who())
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

// holder is the lock someone else holds.
type holder struct {
	where string             // the lock object or item
	info  *statemgr.LockInfo // nil when it cannot be read
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

// tryLock makes one attempt to take lock id (body is its info): the lock
// file, then the DynamoDB item. It returns nil when every lock is taken,
// or the holder of the first one that is not (having released what it
// took).
//
// The attempt is not cut short when ctx is cancelled (SIGINT, SIGTERM):
// a conditional write cancelled in flight may have created the lock at
// the server all the same, and a caller told that it failed would never
// remove it, leaving a lock nobody holds that blocks every later command
// until force-unlock (a watch stopped while it read the state did that).
// requestTimeout bounds the attempt instead, and Lock checks ctx between
// attempts. For the same reason, a write whose answer was lost is
// retried by the client and then finds the lock it created: a lock that
// already holds id is ours; and a write that failed in a way that may
// have reached the server is undone if it did.
func (m *Manager) tryLock(ctx context.Context, id string, body []byte) (*holder, error) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), requestTimeout)
	defer cancel()
	lockObject := fmt.Sprintf("the lock object s3://%s/%s", m.store.cfg.Bucket, m.lockKey())
	if m.store.cfg.UseLockfile {
		_, err := m.store.put(rctx, m.lockKey(), body, condition{absent: true})
		if err != nil && !preconditionFailed(err) {
			m.dropLockObject(id)
			return nil, fmt.Errorf("s3 backend: taking the state lock: %w", err)
		}
		if err != nil {
			h := &holder{where: lockObject}
			obj, gerr := m.store.get(rctx, m.lockKey())
			var info statemgr.LockInfo
			if gerr == nil && obj != nil && json.Unmarshal(obj.data, &info) == nil {
				h.info = &info
			}
			if h.info == nil || h.info.ID != id {
				return h, nil
			}
		}
	}
	if t := m.store.table; t != nil {
		info, held, err := t.lock(rctx, m.lockPath(), body)
		if held && info != nil && info.ID == id {
			held = false
		}
		if err != nil || held {
			if m.store.cfg.UseLockfile {
				_ = m.store.remove(rctx, m.lockKey())
			}
		}
		if err != nil {
			m.dropLockItem(id)
			return nil, err
		}
		if held {
			return &holder{where: fmt.Sprintf("the lock item %q of DynamoDB table %s", m.lockPath(), t.name), info: info}, nil
		}
	}
	return nil, nil
}

// dropLockItem removes the DynamoDB lock item if it holds lock id (see
// dropLockObject).
func (m *Manager) dropLockItem(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	if cur, err := m.store.table.info(ctx, m.lockPath()); err == nil && cur != nil && cur.ID == id {
		_ = m.store.table.remove(ctx, m.lockPath())
	}
}

// dropLockObject removes the lock object if it holds lock id: after a
// write whose outcome is unknown, so that a lock this manager does not
// know it holds is not left behind.
func (m *Manager) dropLockObject(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	obj, err := m.store.get(ctx, m.lockKey())
	if err != nil || obj == nil {
		return
	}
	var info statemgr.LockInfo
	if json.Unmarshal(obj.data, &info) == nil && info.ID == id {
		_ = m.store.remove(ctx, m.lockKey())
	}
}

// Unlock implements statemgr.Manager: the lock item and the lock object
// are removed, after checking that each is still this manager's (someone
// may have forced the lock open and taken it since).
func (m *Manager) Unlock() error {
	if m.lock == nil {
		return nil
	}
	id := m.lock.ID
	m.lock = nil
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	var errs []error
	if t := m.store.table; t != nil {
		if err := t.unlock(ctx, m.lockPath(), id); err != nil {
			errs = append(errs, fmt.Errorf("s3 backend: releasing the state lock: %w", err))
		}
	}
	if m.store.cfg.UseLockfile {
		errs = append(errs, m.unlockFile(ctx, id))
	}
	return errors.Join(errs...)
}

// unlockFile removes the lock object, if it holds lock id.
func (m *Manager) unlockFile(ctx context.Context, id string) error {
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

// ForceUnlock implements statemgr.Manager: it removes the lock object and
// the DynamoDB lock item, provided id is the ID they record. Whether their
// holder still runs cannot be known from the bucket: as with Terraform,
// use it only for a lock whose holder is gone.
func (m *Manager) ForceUnlock(id string, confirm func(*statemgr.LockInfo) bool) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	if !m.store.cfg.UseLockfile && m.store.table != nil {
		return m.forceUnlockItem(ctx, id, confirm)
	}
	removed, err := m.forceUnlockFile(ctx, id, confirm)
	var nl *notLocked
	if m.store.table == nil || (err != nil && !errors.As(err, &nl)) || (err == nil && !removed) {
		return removed, err
	}
	// With both locks, the item goes too; it may be all that is left.
	if !removed {
		return m.forceUnlockItem(ctx, id, confirm)
	}
	if info, err := m.store.table.info(ctx, m.lockPath()); err == nil && info != nil && info.ID == id {
		return true, m.store.table.remove(ctx, m.lockPath())
	}
	return true, nil
}

// notLocked is the error of ForceUnlock when there is no lock.
type notLocked struct{ what string }

func (e *notLocked) Error() string { return e.what }

// forceUnlockItem removes the DynamoDB lock item, provided it holds id.
func (m *Manager) forceUnlockItem(ctx context.Context, id string, confirm func(*statemgr.LockInfo) bool) (bool, error) {
	t := m.store.table
	info, err := t.info(ctx, m.lockPath())
	if err != nil {
		return false, err
	}
	if info == nil {
		return false, &notLocked{fmt.Sprintf("%s is not locked (DynamoDB table %s has no lock item %q)", m, t.name, m.lockPath())}
	}
	if info.ID != id {
		return false, fmt.Errorf("lock ID %q does not match existing lock ID %q", id, info.ID)
	}
	if confirm != nil && !confirm(info) {
		return false, nil
	}
	return true, t.remove(ctx, m.lockPath())
}

// forceUnlockFile removes the lock object, provided it holds id.
func (m *Manager) forceUnlockFile(ctx context.Context, id string, confirm func(*statemgr.LockInfo) bool) (bool, error) {
	obj, err := m.store.get(ctx, m.lockKey())
	if err != nil {
		return false, fmt.Errorf("reading the lock object s3://%s/%s: %w", m.store.cfg.Bucket, m.lockKey(), err)
	}
	if obj == nil {
		return false, &notLocked{fmt.Sprintf("%s is not locked (there is no s3://%s/%s)", m, m.store.cfg.Bucket, m.lockKey())}
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
	replay, release, err := m.LockForRecovery(ctx, m.lock != nil, m.locking(), func(ctx context.Context) error {
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
	m.read, m.plain, m.etag, m.found, m.serial = nil, nil, "", false, 0
	obj, err := m.store.get(ctx, m.Key)
	if err != nil {
		return nil, fmt.Errorf("reading the state from %s: %w", m, err)
	}
	if obj == nil {
		return statemgr.FreshState(), nil
	}
	m.found, m.etag = true, obj.etag
	if t := m.store.table; t != nil {
		if obj, err = m.checkDigest(ctx, t, obj); err != nil {
			return nil, err
		}
		m.etag = obj.etag
	}
	if len(bytes.TrimSpace(obj.data)) == 0 {
		return statemgr.FreshState(), nil
	}
	plain, err := m.crypt.Open(obj.data)
	if err != nil {
		return nil, fmt.Errorf("failed to load state from %s: %w", m, err)
	}
	s, err := statefile.Read(plain)
	if errors.Is(err, statefile.ErrEmpty) {
		return statemgr.FreshState(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to load state from %s: %w", m, err)
	}
	m.read, m.plain, m.serial = obj.data, plain, s.Serial
	return s, nil
}

// checkDigest compares the object read with the digest Terraform's
// DynamoDB locking records, reading it again while they differ (the
// object may not have caught up yet), for up to digestWait.
func (m *Manager) checkDigest(ctx context.Context, t *lockTable, obj *object) (*object, error) {
	deadline := time.Now().Add(digestWait)
	for {
		want, err := t.digest(ctx, m.lockPath())
		if err != nil {
			return nil, err
		}
		got := md5Hex(obj.data)
		if want == "" || want == got {
			return obj, nil
		}
		if !time.Now().Before(deadline) {
			return nil, fmt.Errorf("the state in %s does not have the expected content: its MD5 is %s, but DynamoDB table %s records %s for %q. The object is older than the last state written, or was written by something that did not update the digest; if it is right, set the Digest of the item %q to %s", m, got, t.name, want, m.lockPath()+"-md5", m.lockPath()+"-md5", got)
		}
		time.Sleep(time.Second)
		next, err := m.store.get(ctx, m.Key)
		if err != nil {
			return nil, fmt.Errorf("reading the state from %s: %w", m, err)
		}
		if next == nil {
			return obj, nil
		}
		obj = next
	}
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
	if data, err = m.crypt.Target.EncryptState(data); err != nil {
		return err
	}
	_, err = m.store.put(ctx, m.Key, data, condition{absent: true})
	if preconditionFailed(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("creating %s: %w", m, err)
	}
	if t := m.store.table; t != nil {
		return t.setDigest(ctx, m.lockPath(), data)
	}
	return nil
}

// Write implements statemgr.Manager. The new snapshot replaces the object
// only if it is still the one this manager last read or wrote (a
// conditional put, If-Match its ETag, or If-None-Match when there was
// none): a state changed meanwhile by someone who did not respect the
// lock is reported, not overwritten.
func (m *Manager) Write(s *states.State) error {
	return m.write(s, false)
}

// write is Write; with evenEmpty an empty state is stored where none
// was (Write stores none).
func (m *Manager) write(s *states.State, evenEmpty bool) error {
	plain, data, err := m.crypt.Seal(s, m.Version, m.plain, m.serial, evenEmpty || m.read != nil)
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
	m.crypt.Written()
	m.read, m.plain, m.etag, m.found, m.serial = data, plain, etag, true, s.Serial
	if t := m.store.table; t != nil {
		if err := t.setDigest(ctx, m.lockPath(), data); err != nil {
			return fmt.Errorf("writing the state to %s: %w", m, err)
		}
	}
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
