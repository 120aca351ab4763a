package statemgr

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// The pg backend keeps each workspace's state in a row of a table shared
// with Terraform's pg backend, so that either tool reads what the other
// wrote and each respects the other's locks:
//
//	CREATE SEQUENCE public.global_states_id_seq AS bigint;
//	CREATE TABLE <schema>.states (
//	    id   bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY,
//	    name text UNIQUE,  -- the workspace
//	    data text          -- the state snapshot, JSON
//	);
//	CREATE UNIQUE INDEX states_by_name ON <schema>.states (name);
//
// The sequence is shared by every schema of the database, so that a row's
// id identifies it database-wide: the lock of a workspace is the
// session-level advisory lock whose bigint key is its row's id. The key -1
// is the creation lock, held by whoever works on a workspace that has no
// row yet, until the session ends. Locking an existing workspace takes its
// row's key and then checks that nobody holds the creation lock (someone
// may have just created a row they hold under it), as Terraform does.
//
// Advisory locks belong to the database session: a holder that dies loses
// its connection, and the server releases its lock.

// DefaultPGSchema is the schema of the pg backend's table when none is
// configured.
const DefaultPGSchema = "terraform_remote_state"

// DefaultWorkspace is the name of the workspace that always exists.
const DefaultWorkspace = "default"

// pgCreateLockKey is the advisory lock key of workspace creation.
const pgCreateLockKey int64 = -1

// pgTimeout bounds every exchange with the database but the wait for a
// lock, which -lock-timeout bounds.
const pgTimeout = 2 * time.Minute

// PGConfig is the configuration of the pg backend.
type PGConfig struct {
	// ConnStr is a libpq connection string, a postgres:// URL or
	// key=value pairs; what it leaves out comes from the PG* environment
	// variables, as with libpq.
	ConnStr string
	// SchemaName is the schema holding the states table; "" means
	// DefaultPGSchema. It is quoted, so its case matters.
	SchemaName string
	// SkipSchemaCreation, SkipTableCreation and SkipIndexCreation leave
	// the creation of the schema, the table (and its id sequence) and the
	// states_by_name index to the database administrator.
	SkipSchemaCreation bool
	SkipTableCreation  bool
	SkipIndexCreation  bool
}

// PG keeps a workspace's state in Postgres. Its journal is a local file,
// replayed into the remote state by the next Read.
type PG struct {
	Config PGConfig
	// Workspace is the workspace, the row's name.
	Workspace string
	// RemoteJournal is the local journal of an apply in progress; its
	// JournalPath is the file.
	RemoteJournal
	// Version is written into snapshots as terraform_version.
	Version string

	sess    *PGSession
	locked  bool // whether this manager holds the workspace's lock
	lockKey int64

	crypt  SnapshotCrypt
	read   []byte // the data last read from or written to the row
	plain  []byte // read, decrypted
	row    bool   // whether the row existed then
	serial uint64
}

// SetEncryption implements Encryptable: the row's data and the local
// journal are encrypted with t.
func (m *PG) SetEncryption(t *encryption.Target) {
	m.crypt.Target = t
	m.SetJournalEncryption(t)
}

// NewPG returns a manager for workspace's state in the pg backend, with
// a database session of its own: end it with Close.
func NewPG(cfg PGConfig, workspace, journalPath, version string) *PG {
	return NewPGSession(cfg).Manager(workspace, journalPath, version)
}

// Manager returns a manager for workspace's state that works through
// session s.
func (s *PGSession) Manager(workspace, journalPath, version string) *PG {
	if workspace == "" {
		workspace = DefaultWorkspace
	}
	m := &PG{Config: s.Config, Workspace: workspace, Version: version, sess: s}
	m.RemoteJournal = NewRemoteJournal(journalPath, m.write, func() uint64 { return m.serial })
	return m
}

// Close ends the manager's database session (shared with the other
// managers of its backend); a lock still held goes with it.
func (m *PG) Close() error { return m.sess.Close() }

// UseSession runs fn on the manager's database session.
func (m *PG) UseSession(ctx context.Context, fn func(*pgx.Conn) error) error {
	return m.sess.Use(ctx, fn)
}

// String implements Manager.
func (m *PG) String() string {
	return fmt.Sprintf("workspace %q of the pg backend (schema %q)", m.Workspace, m.Config.SchemaName)
}

// Exists implements Manager.
func (m *PG) Exists() bool { return len(m.read) > 0 }

func (m *PG) table() string { return pgTable(m.Config.SchemaName) }

// Setup opens the session, which creates the schema, table and index
// that the configuration does not skip. Every session does this when it
// opens; calling it first reports a bad configuration early.
func (m *PG) Setup(ctx context.Context) error {
	return m.sess.Use(ctx, func(*pgx.Conn) error { return nil })
}

// withConn runs fn on the session.
func (m *PG) withConn(ctx context.Context, fn func(*pgx.Conn) error) error {
	return m.sess.Use(ctx, fn)
}

// Lock implements Manager. The lock is an advisory lock of the session,
// held until Unlock (or the session's end); meanwhile the session's
// application_name carries the lock's ID, operation and time, so that a
// process refused the lock can name the holder.
func (m *PG) Lock(ctx context.Context, info *LockInfo, timeout time.Duration) error {
	if m.locked {
		return errors.New("the pg backend's state lock is already held by this command")
	}
	info.Path = m.String()
	app := encodeLockApp(info)
	deadline := time.Now().Add(timeout)
	delay := 50 * time.Millisecond
	for {
		var key, heldKey int64
		var held *LockInfo
		var waitErr error
		err := m.sess.Use(ctx, func(c *pgx.Conn) error {
			s := m.sess
			if err := s.setLockApp(ctx, c, app); err != nil {
				return err
			}
			var ok bool
			var err error
			if key, heldKey, ok, err = m.tryLock(ctx, c); err != nil {
				return err
			}
			if ok && s.holds(key) {
				// Taken again by another manager of this session (locks
				// are re-entrant within a session): this command holds it.
				if _, err := c.Exec(ctx, "SELECT pg_advisory_unlock($1)", key); err != nil {
					return err
				}
				ok, waitErr = false, fmt.Errorf("workspace %q is already locked by this command", m.Workspace)
			}
			if ok {
				s.held = append(s.held, key)
				m.locked, m.lockKey = true, key
				return nil
			}
			if waitErr == nil && !time.Now().Before(deadline) {
				waitErr = fmt.Errorf("workspace %q is already locked", m.Workspace)
				if heldKey == pgCreateLockKey {
					waitErr = fmt.Errorf("workspace %q is already locked: another process holds the pg backend's lock for workspace creation (key %d)", m.Workspace, pgCreateLockKey)
				}
			}
			if waitErr != nil {
				hctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				held = m.holder(hctx, c, heldKey)
				cancel()
			}
			return s.restoreApp(ctx, c)
		})
		if err != nil {
			return fmt.Errorf("pg backend: taking the state lock: %w", err)
		}
		if m.locked {
			return nil
		}
		if waitErr == nil {
			select {
			case <-ctx.Done():
				waitErr = ctx.Err()
			case <-time.After(delay):
			}
			if delay < time.Second {
				delay *= 2
			}
		}
		if waitErr != nil {
			return &LockError{Info: held, Err: waitErr}
		}
	}
}

// tryLock makes one attempt on session c. It returns the key taken, or
// the key someone else holds.
func (m *PG) tryLock(ctx context.Context, c *pgx.Conn) (key, held int64, ok bool, err error) {
	try := func(k int64) (bool, error) {
		var got bool
		err := c.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", k).Scan(&got)
		return got, err
	}
	unlock := func(k int64) error {
		_, err := c.Exec(ctx, "SELECT pg_advisory_unlock($1)", k)
		return err
	}
	id, found, err := m.rowID(ctx, c)
	if err != nil {
		return 0, 0, false, err
	}
	if !found {
		got, err := try(pgCreateLockKey)
		if err != nil || !got {
			return 0, pgCreateLockKey, false, err
		}
		// The row may have appeared between the look-up and the lock,
		// its creator now holding only the row's key.
		if id, found, err = m.rowID(ctx, c); err != nil || !found {
			return pgCreateLockKey, 0, err == nil, err
		}
		got, err = try(id)
		if err != nil || !got {
			_ = unlock(pgCreateLockKey)
			return 0, id, false, err
		}
		return id, 0, true, unlock(pgCreateLockKey)
	}
	got, err := try(id)
	if err != nil || !got {
		return 0, id, false, err
	}
	// Whoever holds the creation lock may hold this row without its key.
	got, err = try(pgCreateLockKey)
	if err != nil || !got {
		_ = unlock(id)
		return 0, pgCreateLockKey, false, err
	}
	return id, 0, true, unlock(pgCreateLockKey)
}

// rowID looks up the id of the workspace's row.
func (m *PG) rowID(ctx context.Context, c *pgx.Conn) (int64, bool, error) {
	var id int64
	err := c.QueryRow(ctx, "SELECT id FROM "+m.table()+" WHERE name = $1", m.Workspace).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	return id, err == nil, err
}

// pgHolder is the session holding an advisory lock.
type pgHolder struct {
	pid     int32
	app     string
	user    string
	addr    string
	started *time.Time
}

// findHolder returns the session holding the advisory lock key in this
// database, or nil when nobody does (or this user may not see it).
func findHolder(ctx context.Context, c *pgx.Conn, key int64) (*pgHolder, error) {
	hi, lo := int64(uint64(key)>>32), int64(uint64(key)&0xffffffff)
	var h pgHolder
	err := c.QueryRow(ctx, `SELECT a.pid, coalesce(a.application_name, ''), coalesce(a.usename::text, ''),
	        coalesce(host(a.client_addr), ''), a.backend_start
	    FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
	    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
	      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
	      AND l.classid::int8 = $1 AND l.objid::int8 = $2
	    LIMIT 1`, hi, lo).Scan(&h.pid, &h.app, &h.user, &h.addr, &h.started)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &h, nil
}

// holder describes who holds key, as well as the database tells.
func (m *PG) holder(ctx context.Context, c *pgx.Conn, key int64) *LockInfo {
	h, err := findHolder(ctx, c, key)
	if err != nil || h == nil {
		return nil
	}
	return h.info(m.String())
}

func (h *pgHolder) info(path string) *LockInfo {
	where := h.addr
	if where == "" {
		where = "local socket"
	}
	info := &LockInfo{
		ID:        strconv.Itoa(int(h.pid)),
		Operation: "unknown",
		Who:       fmt.Sprintf("%s@%s (Postgres backend pid %d)", h.user, where, h.pid),
		Path:      path,
		Info:      "held by a session that is not strata's (Terraform, or another client)",
	}
	if h.app != "" {
		info.Info += fmt.Sprintf(", application_name %q", h.app)
	}
	if h.started != nil {
		info.Created = h.started.UTC()
	}
	if id, op, created, ok := decodeLockApp(h.app); ok {
		info.ID, info.Operation, info.Created, info.Info = id, op, created, ""
	}
	return info
}

// encodeLockApp packs the lock's ID, time and operation into an
// application_name, which Postgres shows to every session and truncates
// at 63 bytes: "strata:<id without dashes>:<unix time, base 36>:<operation
// less its OperationType prefix>".
func encodeLockApp(info *LockInfo) string {
	id := info.ID
	if len(id) == 36 && strings.Count(id, "-") == 4 {
		id = strings.ReplaceAll(id, "-", "")
	}
	op := strings.TrimPrefix(info.Operation, "OperationType")
	s := "strata:" + id + ":" + strconv.FormatInt(info.Created.Unix(), 36) + ":" + op
	if len(s) > 63 {
		s = s[:63]
	}
	return s
}

func decodeLockApp(app string) (id, op string, created time.Time, ok bool) {
	parts := strings.SplitN(app, ":", 4)
	if len(parts) != 4 || parts[0] != "strata" {
		return "", "", time.Time{}, false
	}
	id = parts[1]
	if len(id) == 32 {
		id = id[:8] + "-" + id[8:12] + "-" + id[12:16] + "-" + id[16:20] + "-" + id[20:]
	}
	op = parts[3]
	if op != "" && op[0] >= 'A' && op[0] <= 'Z' {
		op = "OperationType" + op
	}
	if secs, err := strconv.ParseInt(parts[2], 36, 64); err == nil {
		created = time.Unix(secs, 0).UTC()
	}
	return id, op, created, true
}

// Unlock implements Manager: it releases the lock and keeps the session.
// When the release fails the session is ended, which releases the lock.
func (m *PG) Unlock() error {
	if !m.locked {
		return nil
	}
	m.locked = false
	ctx, cancel := context.WithTimeout(context.Background(), pgTimeout)
	defer cancel()
	err := m.sess.release(ctx, m.lockKey)
	if err != nil {
		return fmt.Errorf("pg backend: %w (the lock is released when the session ends)", err)
	}
	return nil
}

// Read implements Manager. A journal left by an interrupted apply is
// replayed into the remote state, under the lock: when this command does
// not hold it, Read takes it for the recovery, and leaves the journal
// alone if someone else holds it. A workspace other than "default" with
// no row is created, with an empty state, as Terraform does.
func (m *PG) Read() (*states.State, []Pending, error) {
	ctx, cancel := context.WithTimeout(context.Background(), pgTimeout)
	defer cancel()
	replay, release, err := m.LockForRecovery(ctx, m.locked, true, func(ctx context.Context) error {
		return m.Lock(ctx, NewLockInfo("OperationTypeRecover", m.Version), 0)
	}, m.Unlock)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	var s *states.State
	err = m.withConn(ctx, func(c *pgx.Conn) error {
		var err error
		if s, err = m.readSnapshot(ctx, c); err != nil {
			return err
		}
		if m.row || m.Workspace == DefaultWorkspace {
			return nil
		}
		if err := m.createWorkspace(ctx, c); err != nil {
			return err
		}
		s, err = m.readSnapshot(ctx, c)
		return err
	})
	if err != nil || !replay {
		return s, nil, err
	}
	return m.Recover(s)
}

// ReadStored reads the workspace's stored snapshot, without recovering a
// journal or creating the workspace: for readers of another
// configuration's state (terraform_remote_state). Exists then reports
// whether there was one.
func (m *PG) ReadStored(ctx context.Context) (*states.State, error) {
	var s *states.State
	err := m.withConn(ctx, func(c *pgx.Conn) error {
		var err error
		s, err = m.readSnapshot(ctx, c)
		return err
	})
	return s, err
}

func (m *PG) readSnapshot(ctx context.Context, c *pgx.Conn) (*states.State, error) {
	var data *string
	err := c.QueryRow(ctx, "SELECT data FROM "+m.table()+" WHERE name = $1", m.Workspace).Scan(&data)
	m.read, m.plain, m.row, m.serial = nil, nil, err == nil, 0
	if errors.Is(err, pgx.ErrNoRows) {
		return FreshState(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the state from %s: %w", m, err)
	}
	if data == nil || *data == "" {
		return FreshState(), nil
	}
	plain, err := m.crypt.Open([]byte(*data))
	if err != nil {
		return nil, fmt.Errorf("failed to load state from %s: %w", m, err)
	}
	s, err := statefile.Read(plain)
	if errors.Is(err, statefile.ErrEmpty) {
		return FreshState(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to load state from %s: %w", m, err)
	}
	m.read, m.plain, m.serial = []byte(*data), plain, s.Serial
	return s, nil
}

// createWorkspace adds the workspace's row with an empty state, unless
// someone else just did.
func (m *PG) createWorkspace(ctx context.Context, c *pgx.Conn) error {
	s := FreshState()
	s.TerraformVersion = m.Version
	s.Serial = 1
	data, err := statefile.Write(s)
	if err != nil {
		return err
	}
	if data, err = m.crypt.Target.EncryptState(data); err != nil {
		return err
	}
	if _, err := c.Exec(ctx, "INSERT INTO "+m.table()+" (name, data) VALUES ($1, $2) ON CONFLICT DO NOTHING", m.Workspace, string(data)); err != nil {
		return fmt.Errorf("creating %s: %w", m, err)
	}
	return nil
}

// Write implements Manager. The new snapshot replaces the row's data in
// one transaction, which first checks that the row still holds what this
// manager last read or wrote: a state changed meanwhile by someone who
// did not respect the lock is reported, not overwritten.
func (m *PG) Write(s *states.State) error {
	return m.write(s, false)
}

// write is Write; with evenEmpty an empty state is stored where none
// was (Write stores none).
func (m *PG) write(s *states.State, evenEmpty bool) error {
	plain, data, err := m.crypt.Seal(s, m.Version, m.plain, m.serial, evenEmpty || m.read != nil)
	if err != nil || data == nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), pgTimeout)
	defer cancel()
	err = m.withConn(ctx, func(c *pgx.Conn) error {
		tx, err := c.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(context.Background())
		var cur *string
		err = tx.QueryRow(ctx, "SELECT data FROM "+m.table()+" WHERE name = $1 FOR UPDATE", m.Workspace).Scan(&cur)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if now := derefString(cur); now != string(m.read) {
			return fmt.Errorf("the state in %s was changed by another process since strata read it (%s); nothing was written. Run the command again to work from the current state", m, describeSnapshot(now))
		}
		if _, err := tx.Exec(ctx, "INSERT INTO "+m.table()+" (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = EXCLUDED.data", m.Workspace, string(data)); err != nil {
			return err
		}
		return tx.Commit(ctx)
	})
	if err != nil {
		return fmt.Errorf("writing the state to %s: %w", m, err)
	}
	m.crypt.Written()
	m.read, m.plain, m.row, m.serial = data, plain, true, s.Serial
	return nil
}

func derefString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// describeSnapshot names a stored snapshot by serial and lineage.
func describeSnapshot(data string) string {
	if data == "" {
		return "it now holds no state"
	}
	s, err := statefile.Read([]byte(data))
	if err != nil {
		return "it now holds something unreadable"
	}
	return fmt.Sprintf("it now holds serial %d of lineage %s", s.Serial, s.Lineage)
}

// ForceUnlock implements Manager. An advisory lock can be released only
// by the session holding it, so ForceUnlock ends that session
// (pg_terminate_backend), which needs superuser, the holder's role or
// pg_signal_backend. id is the lock's ID as a lock error shows it: a
// strata lock's ID, or the backend pid of another client's session.
func (m *PG) ForceUnlock(id string, confirm func(*LockInfo) bool) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), pgTimeout)
	defer cancel()
	var removed bool
	err := m.withConn(ctx, func(c *pgx.Conn) error {
		key, found, err := m.rowID(ctx, c)
		if err != nil {
			return err
		}
		if !found {
			key = pgCreateLockKey
		}
		h, err := findHolder(ctx, c, key)
		if err != nil {
			return err
		}
		if h == nil {
			return fmt.Errorf("%s is not locked", m)
		}
		info := h.info(m.String())
		if id != info.ID && id != strconv.Itoa(int(h.pid)) {
			return fmt.Errorf("lock ID %q does not match existing lock ID %q", id, info.ID)
		}
		if confirm != nil && !confirm(info) {
			return nil
		}
		var ok bool
		if err := c.QueryRow(ctx, "SELECT pg_terminate_backend($1)", h.pid).Scan(&ok); err != nil {
			return fmt.Errorf("ending the session holding the lock: %w", err)
		}
		if !ok {
			return fmt.Errorf("the session holding the lock (pid %d) could not be ended", h.pid)
		}
		// The lock goes when the server has finished ending the session.
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if h2, err := findHolder(ctx, c, key); err == nil && (h2 == nil || h2.pid != h.pid) {
				break
			}
		}
		removed = true
		return nil
	})
	return removed, err
}

// Workspaces lists the workspaces stored in the backend: "default" first,
// whether or not it has a row, then the others by name.
func (m *PG) Workspaces(ctx context.Context) ([]string, error) {
	names := []string{DefaultWorkspace}
	err := m.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, "SELECT name FROM "+m.table()+" WHERE name <> $1 ORDER BY name", DefaultWorkspace)
		if err != nil {
			return err
		}
		more, err := pgx.CollectRows(rows, pgx.RowTo[string])
		names = append(names, more...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing the pg backend's workspaces: %w", err)
	}
	return names, nil
}

// DeleteWorkspace removes a workspace's row. The default workspace cannot
// be deleted.
func (m *PG) DeleteWorkspace(ctx context.Context, name string) error {
	if name == DefaultWorkspace {
		return errors.New("the default workspace cannot be deleted")
	}
	return m.withConn(ctx, func(c *pgx.Conn) error {
		_, err := c.Exec(ctx, "DELETE FROM "+m.table()+" WHERE name = $1", name)
		return err
	})
}
