package statemgr

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
)

// sessionApp returns the backend pid and application_name of s's session.
func sessionApp(t *testing.T, m *PG) (int32, string) {
	t.Helper()
	var pid int32
	var app string
	err := m.UseSession(context.Background(), func(c *pgx.Conn) error {
		return c.QueryRow(context.Background(), "SELECT pg_backend_pid(), current_setting('application_name')").Scan(&pid, &app)
	})
	if err != nil {
		t.Fatal(err)
	}
	return pid, app
}

// TestPGSessionShared: the managers of one session share its connection
// and each takes its own workspace's lock on it; a second manager of the
// same workspace is refused (advisory locks are re-entrant within a
// session, so the refusal is strata's), and other sessions see each lock
// until its manager releases it. The session keeps the lock's name while
// a lock is held and gets its own back after.
func TestPGSessionShared(t *testing.T) {
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	ctx := context.Background()
	s := NewPGSession(PGConfig{ConnStr: conn})
	defer s.Close()
	journal := func(ws string) string { return filepath.Join(dir, ws+".journal") }
	a, b := s.Manager("a", journal("a"), testVersion), s.Manager("b", journal("b"), testVersion)
	for _, m := range []*PG{a, b} {
		if _, _, err := m.Read(); err != nil {
			t.Fatal(err)
		}
	}
	pid, app := sessionApp(t, a)
	if app != "strata" {
		t.Errorf("application_name %q before any lock, want strata", app)
	}
	infoA := NewLockInfo("OperationTypeApply", testVersion)
	if err := a.Lock(ctx, infoA, 0); err != nil {
		t.Fatal(err)
	}
	if err := b.Lock(ctx, NewLockInfo("OperationTypePlan", testVersion), 0); err != nil {
		t.Fatal(err)
	}
	if pidB, app := sessionApp(t, b); pidB != pid || !strings.HasPrefix(app, "strata:"+strings.ReplaceAll(infoA.ID, "-", "")) {
		t.Errorf("session %d named %q, want session %d named after the first lock", pidB, app, pid)
	}
	again := s.Manager("a", journal("a"), testVersion)
	err := again.Lock(ctx, NewLockInfo("OperationTypePlan", testVersion), 0)
	var le *LockError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "already locked by this command") {
		t.Fatalf("second manager of workspace a on the same session: %v, want a lock error", err)
	}
	other := NewPG(PGConfig{ConnStr: conn}, "a", journal("a"), testVersion)
	defer other.Close()
	if err := other.Lock(ctx, NewLockInfo("OperationTypePlan", testVersion), 0); !errors.As(err, &le) || le.Info == nil || le.Info.ID != infoA.ID {
		t.Fatalf("another session locking a: %v, want a lock error naming %s", err, infoA.ID)
	}
	if err := a.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := other.Lock(ctx, NewLockInfo("OperationTypePlan", testVersion), 0); err != nil {
		t.Fatalf("another session locking a after its release: %v", err)
	}
	if err := other.Unlock(); err != nil {
		t.Fatal(err)
	}
	otherB := NewPG(PGConfig{ConnStr: conn}, "b", journal("b"), testVersion)
	defer otherB.Close()
	if err := otherB.Lock(ctx, NewLockInfo("OperationTypePlan", testVersion), 0); !errors.As(err, &le) {
		t.Fatalf("b's lock went with a's: %v", err)
	}
	if err := b.Unlock(); err != nil {
		t.Fatal(err)
	}
	if pidB, app := sessionApp(t, b); pidB != pid || app != "strata" {
		t.Errorf("after the unlocks: session %d named %q, want session %d named strata", pidB, app, pid)
	}
}

// TestPGSessionEnded: a session the server ended is replaced on next use
// while it holds no lock; while it holds one, the lock is lost, and using
// it is an error rather than a new session without the lock.
func TestPGSessionEnded(t *testing.T) {
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	ctx := context.Background()
	m := newPG(conn, "default", dir)
	defer m.Close()
	admin := newPG(conn, "default", dir)
	defer admin.Close()
	end := func(pid int32) {
		t.Helper()
		err := admin.UseSession(ctx, func(c *pgx.Conn) error {
			if _, err := c.Exec(ctx, "SELECT pg_terminate_backend($1, 5000)", pid); err != nil {
				return err
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	pid, _ := sessionApp(t, m)
	end(pid)
	if err := m.Write(stateWith(t, "terraform_data.a")); err == nil {
		// The client learns of the end on its next exchange.
		t.Log("the first write after the end succeeded")
	}
	if err := m.Write(stateWith(t, "terraform_data.b")); err != nil {
		t.Fatalf("write on a new session: %v", err)
	}
	if pid2, _ := sessionApp(t, m); pid2 == pid {
		t.Fatal("still on the ended session")
	}
	if err := m.Lock(ctx, NewLockInfo("OperationTypeApply", testVersion), 0); err != nil {
		t.Fatal(err)
	}
	pid, _ = sessionApp(t, m)
	end(pid)
	_ = m.Write(stateWith(t, "terraform_data.c")) // learns of the end
	if err := m.Write(stateWith(t, "terraform_data.d")); err == nil || !strings.Contains(err.Error(), "holding the state lock has ended") {
		t.Fatalf("write after the locked session ended: %v, want the lock-lost error", err)
	}
	if err := m.Unlock(); err == nil {
		t.Error("unlocking a lost lock reported no error")
	}
	if _, _, err := m.Read(); err != nil {
		t.Fatalf("read after the lost lock was released: %v", err)
	}
}
