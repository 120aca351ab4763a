package statemgr

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// Leaser is a Manager whose store can hold a lease: a lock apart from the
// state lock, held by a long-running process (strata watch) for as long
// as it runs, so that a second one on the same state is refused wherever
// it runs, while the state lock stays free for plan and apply.
type Leaser interface {
	// Lease takes the lease called name on this manager's state, without
	// waiting. When someone else holds it the error wraps ErrLeaseHeld
	// and describes the holder. release gives the lease back; a process
	// that dies loses it.
	Lease(ctx context.Context, name string) (release func() error, err error)
}

// ErrLeaseHeld is the error of Lease when another process holds the
// lease.
var ErrLeaseHeld = errors.New("the lease is held by another process")

// ErrLeaseUnsupported is the error of Lease when this configuration of
// the store has no leases (an s3 backend without use_lockfile).
var ErrLeaseUnsupported = errors.New("leases are not supported by this backend configuration")

var _ Leaser = (*PG)(nil)

// Lease implements Leaser with a session-level advisory lock on a session
// of its own, kept open until release: the two-key form, which cannot
// collide with the state lock's bigint keys, keyed by the lease's name and
// by the schema and workspace (hashed: two states whose hashes collide
// share a lease, which refuses a watcher in vain but never lets two
// watch one state). The session's application_name names the holder.
func (m *PG) Lease(ctx context.Context, name string) (func() error, error) {
	c, err := m.sess.dial(ctx)
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	app := fmt.Sprintf("strata %s: pid %d on %s", name, os.Getpid(), host)
	if len(app) > 63 {
		app = app[:63]
	}
	if _, err := c.Exec(ctx, "SELECT set_config('application_name', $1, false)", app); err != nil {
		c.Close(context.Background())
		return nil, fmt.Errorf("pg backend: %w", err)
	}
	k1, k2 := "strata lease "+name, m.Config.SchemaName+"\n"+m.Workspace
	var got bool
	if err := c.QueryRow(ctx, "SELECT pg_try_advisory_lock(hashtext($1), hashtext($2))", k1, k2).Scan(&got); err != nil {
		c.Close(context.Background())
		return nil, fmt.Errorf("pg backend: taking the %s lease: %w", name, err)
	}
	if !got {
		who := "another session"
		var pid int32
		var app, user, addr string
		var started time.Time
		err := c.QueryRow(ctx, `SELECT a.pid, coalesce(a.application_name, ''), coalesce(a.usename::text, ''), coalesce(host(a.client_addr), 'local socket'), a.backend_start
		    FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
		    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
		      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
		      AND l.classid::int8 = (hashtext($1)::int8 & 4294967295) AND l.objid::int8 = (hashtext($2)::int8 & 4294967295)
		    LIMIT 1`, k1, k2).Scan(&pid, &app, &user, &addr, &started)
		if err == nil {
			who = fmt.Sprintf("%q, session of %s@%s (Postgres backend pid %d) since %s", app, user, addr, pid, started.UTC().Format(time.RFC3339))
		}
		c.Close(context.Background())
		return nil, fmt.Errorf("%w: %s holds it for %s", ErrLeaseHeld, who, m)
	}
	return func() error {
		ctx, cancel := context.WithTimeout(context.Background(), pgTimeout)
		defer cancel()
		// Ending the session releases the lock too.
		_, err := c.Exec(ctx, "SELECT pg_advisory_unlock(hashtext($1), hashtext($2))", k1, k2)
		c.Close(ctx)
		return err
	}, nil
}

// LeaserOf returns the Leaser behind m, looking through wrappers that
// have an Unwrap method; ok is false when the store has no leases.
func LeaserOf(m Manager) (Leaser, bool) {
	for m != nil {
		if l, ok := m.(Leaser); ok {
			return l, true
		}
		u, ok := m.(interface{ Unwrap() Manager })
		if !ok {
			break
		}
		m = u.Unwrap()
	}
	return nil, false
}
