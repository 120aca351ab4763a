package statemgr

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// PGSession is the database session of a pg backend, shared by the
// managers of its workspaces: a command opens one connection, as
// Terraform's backend does, whether it reads one workspace, locks it and
// writes it, lists the others or uploads its run log. A connection costs
// the server a process and the client several round trips (more with
// TLS), which a command against a distant database feels.
//
// The session is opened on first use, prepared (schema, table and index)
// once, and used by one exchange at a time. The state locks are advisory
// locks of the session: while one is held, a session the server ended is
// an error (the lock went with it); otherwise the next use opens a new
// one.
type PGSession struct {
	// Config is the backend's configuration.
	Config PGConfig

	mu        sync.Mutex
	conn      *pgx.Conn
	app       string // the session's own application_name, restored after a lock
	setupDone bool
	held      []int64 // the keys of the state locks held on the session
}

// NewPGSession returns the session of the pg backend configured by cfg;
// nothing is opened before its first use.
func NewPGSession(cfg PGConfig) *PGSession {
	if cfg.SchemaName == "" {
		cfg.SchemaName = DefaultPGSchema
	}
	return &PGSession{Config: cfg}
}

// errPGLockLost is the error of a use of a session that ended while it
// held a state lock.
var errPGLockLost = errors.New("the database session holding the state lock has ended (its lock with it): the lock may have been forced open, or the connection lost")

// Use runs fn on the session, opening and preparing it first when needed.
func (s *PGSession) Use(ctx context.Context, fn func(*pgx.Conn) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.open(ctx)
	if err != nil {
		return err
	}
	return fn(c)
}

// open returns the session's connection, opening and preparing one when
// there is none or the server ended it. s.mu is held.
func (s *PGSession) open(ctx context.Context) (*pgx.Conn, error) {
	if s.conn != nil && !s.conn.IsClosed() {
		return s.conn, nil
	}
	if s.conn != nil && len(s.held) > 0 {
		return nil, errPGLockLost
	}
	c, err := s.dial(ctx)
	if err != nil {
		return nil, err
	}
	if !s.setupDone {
		if err := setupPG(ctx, c, s.Config); err != nil {
			c.Close(context.Background())
			return nil, err
		}
		s.setupDone = true
	}
	s.conn, s.app = c, c.Config().RuntimeParams["application_name"]
	return c, nil
}

// dial opens a connection of its own, named "strata" unless the
// connection string names it.
func (s *PGSession) dial(ctx context.Context) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(s.Config.ConnStr)
	if err != nil {
		return nil, fmt.Errorf("invalid pg backend connection string: %w", err)
	}
	if cfg.RuntimeParams["application_name"] == "" {
		cfg.RuntimeParams["application_name"] = "strata"
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = 30 * time.Second
	}
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connecting to the pg backend: %w", err)
	}
	return c, nil
}

// Close ends the session; the locks still held on it go with it.
func (s *PGSession) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil {
		return nil
	}
	c := s.conn
	s.conn, s.held = nil, nil
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return c.Close(ctx)
}

// holds reports whether a state lock of key is held on the session.
// s.mu is held.
func (s *PGSession) holds(key int64) bool {
	for _, k := range s.held {
		if k == key {
			return true
		}
	}
	return false
}

// setLockApp names the session after the lock about to be taken, which
// app encodes, unless it holds another lock already (then it keeps that
// one's name). s.mu is held.
func (s *PGSession) setLockApp(ctx context.Context, c *pgx.Conn, app string) error {
	if len(s.held) > 0 {
		return nil
	}
	_, err := c.Exec(ctx, "SELECT set_config('application_name', $1, false)", app)
	return err
}

// restoreApp gives the session its own name back when it holds no lock.
// s.mu is held.
func (s *PGSession) restoreApp(ctx context.Context, c *pgx.Conn) error {
	if len(s.held) > 0 {
		return nil
	}
	_, err := c.Exec(ctx, "SELECT set_config('application_name', $1, false)", s.app)
	return err
}

// release releases the state lock of key. When that fails the session is
// ended, so that the lock goes with it.
func (s *PGSession) release(ctx context.Context, key int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, k := range s.held {
		if k == key {
			s.held = append(s.held[:i], s.held[i+1:]...)
			break
		}
	}
	if s.conn == nil || s.conn.IsClosed() {
		return errPGLockLost
	}
	_, err := s.conn.Exec(ctx, "SELECT pg_advisory_unlock($1)", key)
	if err == nil {
		err = s.restoreApp(ctx, s.conn)
	}
	if err != nil {
		s.conn.Close(context.Background())
		s.held = nil
	}
	return err
}

// setupPG creates the schema, the id sequence, the table and the index,
// each only when missing (creating what exists needs privileges a user
// of a prepared database may lack), in one transaction serialised
// against other setups by a transaction-level advisory lock whose
// two-key form cannot collide with the bigint keys of workspace locks.
func setupPG(ctx context.Context, c *pgx.Conn, cfg PGConfig) error {
	if cfg.SkipSchemaCreation && cfg.SkipTableCreation && cfg.SkipIndexCreation {
		return nil
	}
	schema := pgx.Identifier{cfg.SchemaName}.Sanitize()
	table := pgTable(cfg.SchemaName)
	tx, err := c.Begin(ctx)
	if err != nil {
		return fmt.Errorf("preparing the pg backend: %w", err)
	}
	defer tx.Rollback(context.Background())
	fail := func(what string, err error) error {
		return fmt.Errorf("preparing the pg backend: %s: %w", what, err)
	}
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtext('strata pg backend setup'), hashtext($1))", cfg.SchemaName); err != nil {
		return fail("waiting for another setup", err)
	}
	exists := func(query string, arg string) (bool, error) {
		var ok bool
		err := tx.QueryRow(ctx, query, arg).Scan(&ok)
		return ok, err
	}
	if !cfg.SkipSchemaCreation {
		ok, err := exists("SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)", cfg.SchemaName)
		if err != nil {
			return fail("looking up the schema", err)
		}
		if !ok {
			if _, err := tx.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+schema); err != nil {
				return fail("creating schema "+schema, err)
			}
		}
	}
	if !cfg.SkipTableCreation {
		ok, err := exists("SELECT to_regclass($1) IS NOT NULL", table)
		if err != nil {
			return fail("looking up the states table", err)
		}
		if !ok {
			for _, stmt := range []string{
				"CREATE SEQUENCE IF NOT EXISTS public.global_states_id_seq AS bigint",
				"CREATE TABLE IF NOT EXISTS " + table + " (id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY, name text UNIQUE, data text)",
			} {
				if _, err := tx.Exec(ctx, stmt); err != nil {
					return fail("creating table "+table, err)
				}
			}
		}
	}
	if !cfg.SkipIndexCreation {
		ok, err := exists("SELECT to_regclass($1) IS NOT NULL", schema+".states_by_name")
		if err != nil {
			return fail("looking up index states_by_name", err)
		}
		if !ok {
			if _, err := tx.Exec(ctx, "CREATE UNIQUE INDEX IF NOT EXISTS states_by_name ON "+table+" (name)"); err != nil {
				return fail("creating index states_by_name", err)
			}
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fail("committing", err)
	}
	return nil
}

// pgTable is the quoted name of the states table in schema.
func pgTable(schema string) string {
	return pgx.Identifier{schema}.Sanitize() + ".states"
}
