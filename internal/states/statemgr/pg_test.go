package statemgr

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/strata-dev/strata/internal/states/statefile"
	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
)

// newPG returns a manager of workspace in the database conn, with its
// journal in dir.
func newPG(conn, workspace, dir string) *PG {
	return NewPG(PGConfig{ConnStr: conn}, workspace, filepath.Join(dir, "pg-"+workspace+".tfstate.journal"), testVersion)
}

// pgQuery runs a query returning one row of strings.
func pgQuery(t *testing.T, conn, query string, args ...any) []string {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	rows, err := c.Query(ctx, query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			t.Fatal(err)
		}
		var cols []string
		for _, v := range vals {
			if v == nil {
				cols = append(cols, "NULL")
			} else {
				cols = append(cols, strings.TrimSpace(strings.ReplaceAll(toString(v), "\n", " ")))
			}
		}
		out = append(out, strings.TrimSpace(strings.Join(cols, " | ")))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func toString(v any) string {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return fmt.Sprint(v)
}

// rowData returns the data column of a workspace's row, "" for none.
func rowData(t *testing.T, conn, schema, name string) string {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var data *string
	err = c.QueryRow(ctx, "SELECT data FROM "+pgx.Identifier{schema}.Sanitize()+".states WHERE name = $1", name).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) || data == nil {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return *data
}

// TestPGTableLayout: the schema, sequence, table and index are those
// Terraform's pg backend creates, so that either tool can use them.
func TestPGTableLayout(t *testing.T) {
	conn := pgtest.ConnString(t)
	m := newPG(conn, "default", t.TempDir())
	if err := m.Setup(context.Background()); err != nil {
		t.Fatal(err)
	}
	cols := pgQuery(t, conn, `SELECT column_name, data_type, coalesce(column_default, '') FROM information_schema.columns
		WHERE table_schema = 'terraform_remote_state' AND table_name = 'states' ORDER BY ordinal_position`)
	want := []string{
		"id | bigint | nextval('global_states_id_seq'::regclass)",
		"name | text |",
		"data | text |",
	}
	if diff := cmp.Diff(want, cols); diff != "" {
		t.Errorf("wrong columns (-want +got)\n%s", diff)
	}
	idx := pgQuery(t, conn, `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'terraform_remote_state' ORDER BY indexname`)
	wantIdx := []string{
		"states_by_name | CREATE UNIQUE INDEX states_by_name ON terraform_remote_state.states USING btree (name)",
		"states_name_key | CREATE UNIQUE INDEX states_name_key ON terraform_remote_state.states USING btree (name)",
		"states_pkey | CREATE UNIQUE INDEX states_pkey ON terraform_remote_state.states USING btree (id)",
	}
	if diff := cmp.Diff(wantIdx, idx); diff != "" {
		t.Errorf("wrong indexes (-want +got)\n%s", diff)
	}
	seq := pgQuery(t, conn, `SELECT data_type FROM information_schema.sequences WHERE sequence_schema = 'public' AND sequence_name = 'global_states_id_seq'`)
	if diff := cmp.Diff([]string{"bigint"}, seq); diff != "" {
		t.Errorf("wrong sequence (-want +got)\n%s", diff)
	}
	// Setting up again changes nothing.
	if err := newPG(conn, "default", t.TempDir()).Setup(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestPGRoundtrip: what Write stores, a new manager reads; the row holds
// the state file's bytes; identical writes keep the serial.
func TestPGRoundtrip(t *testing.T) {
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	m := newPG(conn, "default", dir)
	s, pending, err := m.Read()
	if err != nil {
		t.Fatal(err)
	}
	if !s.Empty() || len(pending) != 0 || m.Exists() {
		t.Fatalf("fresh backend: state %v, pending %v, exists %v", ids(t, s), pending, m.Exists())
	}
	// An empty state is not stored.
	if err := m.Write(s); err != nil {
		t.Fatal(err)
	}
	if rows := pgQuery(t, conn, "SELECT name FROM terraform_remote_state.states"); len(rows) != 0 {
		t.Fatalf("an empty state created rows: %v", rows)
	}
	s = stateWith(t, "terraform_data.a", "terraform_data.b")
	if err := m.Write(s); err != nil {
		t.Fatal(err)
	}
	if s.Serial != 1 || !m.Exists() {
		t.Fatalf("serial %d, exists %v after the first write", s.Serial, m.Exists())
	}
	want, err := statefile.Write(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := rowData(t, conn, DefaultPGSchema, "default"); got != string(want) {
		t.Errorf("row data differs from the state file:\n%s\nwant:\n%s", got, want)
	}
	if err := m.Write(s); err != nil || s.Serial != 1 {
		t.Fatalf("an identical write: serial %d, %v", s.Serial, err)
	}

	m2 := newPG(conn, "default", dir)
	got, _, err := m2.Read()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ids(t, s), ids(t, got)); diff != "" {
		t.Errorf("wrong state read back (-want +got)\n%s", diff)
	}
	if got.Lineage != s.Lineage || got.Serial != 1 {
		t.Errorf("read lineage %s serial %d, want %s 1", got.Lineage, got.Serial, s.Lineage)
	}
	got.SetObject(addr(t, "terraform_data.b"), nil, builtin)
	if err := m2.Write(got); err != nil {
		t.Fatal(err)
	}
	if got.Serial != 2 {
		t.Errorf("serial %d after a change, want 2", got.Serial)
	}
}

// TestPGSchemaOptions: schema_name and the skip_*_creation options.
func TestPGSchemaOptions(t *testing.T) {
	conn := pgtest.ConnString(t)
	ctx := context.Background()

	// A schema name is quoted: its case is kept.
	m := NewPG(PGConfig{ConnStr: conn, SchemaName: "Team_A"}, "default", filepath.Join(t.TempDir(), "j"), testVersion)
	s := stateWith(t, "terraform_data.a")
	if _, _, err := m.Read(); err != nil {
		t.Fatal(err)
	}
	if err := m.Write(s); err != nil {
		t.Fatal(err)
	}
	if rowData(t, conn, "Team_A", "default") == "" {
		t.Fatal("no row in schema Team_A")
	}

	// Skipping the schema's creation fails clearly when it is missing,
	// and works once an administrator has created it.
	cfg := PGConfig{ConnStr: conn, SchemaName: "prepared", SkipSchemaCreation: true}
	err := NewPG(cfg, "default", "", testVersion).Setup(ctx)
	if err == nil || !strings.Contains(err.Error(), `"prepared"`) {
		t.Fatalf("missing schema: %v", err)
	}
	pgQuery(t, conn, "CREATE SCHEMA prepared")
	if err := NewPG(cfg, "default", "", testVersion).Setup(ctx); err != nil {
		t.Fatal(err)
	}

	// Skipping the table's creation: the table must exist.
	cfg = PGConfig{ConnStr: conn, SchemaName: "notable", SkipTableCreation: true, SkipIndexCreation: true}
	if _, _, err := NewPG(cfg, "default", "", testVersion).Read(); err == nil {
		t.Fatal("read a missing table")
	}
	if rows := pgQuery(t, conn, "SELECT nspname FROM pg_namespace WHERE nspname = 'notable'"); len(rows) != 1 {
		t.Fatal("the schema was not created")
	}

	// Skipping the index: the table's own unique constraint keeps names
	// unique, and writes work.
	cfg = PGConfig{ConnStr: conn, SchemaName: "noindex", SkipIndexCreation: true}
	m = NewPG(cfg, "default", "", testVersion)
	if _, _, err := m.Read(); err != nil {
		t.Fatal(err)
	}
	if err := m.Write(stateWith(t, "terraform_data.a")); err != nil {
		t.Fatal(err)
	}
	if rows := pgQuery(t, conn, "SELECT indexname FROM pg_indexes WHERE schemaname = 'noindex' AND indexname = 'states_by_name'"); len(rows) != 0 {
		t.Errorf("skip_index_creation created %v", rows)
	}
}

// TestPGWorkspaces: each workspace is a row named after it; a workspace
// other than default is created, empty, when first used.
func TestPGWorkspaces(t *testing.T) {
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	def := newPG(conn, "default", dir)
	if _, _, err := def.Read(); err != nil {
		t.Fatal(err)
	}
	if err := def.Write(stateWith(t, "terraform_data.a")); err != nil {
		t.Fatal(err)
	}
	staging := newPG(conn, "staging", dir)
	s, _, err := staging.Read()
	if err != nil {
		t.Fatal(err)
	}
	if !s.Empty() || s.Serial != 1 {
		t.Fatalf("new workspace: %v serial %d", ids(t, s), s.Serial)
	}
	if err := staging.Write(stateWith(t, "terraform_data.b")); err != nil {
		t.Fatal(err)
	}
	rows := pgQuery(t, conn, "SELECT name FROM terraform_remote_state.states ORDER BY name")
	if diff := cmp.Diff([]string{"default", "staging"}, rows); diff != "" {
		t.Errorf("wrong rows (-want +got)\n%s", diff)
	}
	for ws, want := range map[string]string{"default": "terraform_data.a", "staging": "terraform_data.b"} {
		s, _, err := newPG(conn, ws, dir).Read()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]string{want: want}, ids(t, s)); diff != "" {
			t.Errorf("workspace %s: wrong state (-want +got)\n%s", ws, diff)
		}
	}
	list, err := def.Workspaces(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"default", "staging"}, list); diff != "" {
		t.Errorf("wrong workspaces (-want +got)\n%s", diff)
	}
	if err := def.DeleteWorkspace(context.Background(), "default"); err == nil {
		t.Error("deleted the default workspace")
	}
	if err := def.DeleteWorkspace(context.Background(), "staging"); err != nil {
		t.Fatal(err)
	}
	if list, _ := def.Workspaces(context.Background()); len(list) != 1 {
		t.Errorf("workspaces after delete: %v", list)
	}
}

// TestPGLockHeld: a second writer fails fast with a lock error naming the
// holder, before and after the workspace's row exists; -lock-timeout
// waits for the holder to finish.
func TestPGLockHeld(t *testing.T) {
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	ctx := context.Background()
	for _, stage := range []string{"no row yet", "row exists"} {
		t.Run(stage, func(t *testing.T) {
			holder := newPG(conn, "default", dir)
			info := NewLockInfo("OperationTypeApply", testVersion)
			if err := holder.Lock(ctx, info, 0); err != nil {
				t.Fatal(err)
			}
			if _, _, err := holder.Read(); err != nil {
				t.Fatal(err)
			}
			other := newPG(conn, "default", dir)
			start := time.Now()
			err := other.Lock(ctx, NewLockInfo("OperationTypePlan", testVersion), 0)
			if time.Since(start) > 5*time.Second {
				t.Errorf("the lock error took %s", time.Since(start))
			}
			var le *LockError
			if !errors.As(err, &le) {
				t.Fatalf("second Lock: %v, want a *LockError", err)
			}
			if le.Info == nil || le.Info.ID != info.ID || le.Info.Operation != "OperationTypeApply" || !strings.Contains(le.Info.Who, "postgres@") {
				t.Fatalf("the lock error does not name the holder: %+v", le.Info)
			}
			if le.Info.Created.Unix() != info.Created.Unix() {
				t.Errorf("holder's lock time %s, want %s", le.Info.Created, info.Created)
			}
			if msg := le.Error(); !strings.Contains(msg, info.ID) || !strings.Contains(msg, "already locked") {
				t.Errorf("lock error message: %s", msg)
			}

			// -lock-timeout: the holder writes and finishes meanwhile.
			go func() {
				time.Sleep(500 * time.Millisecond)
				if err := holder.Write(stateWith(t, "terraform_data.a")); err != nil {
					t.Error(err)
				}
				_ = holder.Unlock()
			}()
			start = time.Now()
			if err := other.Lock(ctx, NewLockInfo("OperationTypePlan", testVersion), 20*time.Second); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d < 400*time.Millisecond {
				t.Errorf("the lock was taken after %s, before the holder released it", d)
			}
			s, _, err := other.Read()
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := ids(t, s)["terraform_data.a"]; !ok {
				t.Error("the holder's write is not seen")
			}
			if err := other.Unlock(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestPGCreationLock: whoever works on a workspace with no row holds the
// creation lock, as Terraform does, and so excludes everyone until done.
func TestPGCreationLock(t *testing.T) {
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	ctx := context.Background()
	def := newPG(conn, "default", dir)
	if _, _, err := def.Read(); err != nil {
		t.Fatal(err)
	}
	if err := def.Write(stateWith(t, "terraform_data.a")); err != nil {
		t.Fatal(err)
	}
	// A workspace with no row: Lock before Read, as commands do.
	creator := NewPG(PGConfig{ConnStr: conn}, "fresh", filepath.Join(dir, "fresh.journal"), testVersion)
	info := NewLockInfo("OperationTypeApply", testVersion)
	if err := creator.Lock(ctx, info, 0); err != nil {
		t.Fatal(err)
	}
	defer creator.Unlock()
	if got := pgQuery(t, conn, "SELECT objid::int8 FROM pg_locks WHERE database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND locktype = 'advisory' AND classid::int8 = 4294967295"); len(got) != 1 {
		t.Fatalf("the creation lock (-1) is not held: %v", got)
	}
	// Its row is created on read, under the creation lock.
	if _, _, err := creator.Read(); err != nil {
		t.Fatal(err)
	}
	for _, ws := range []string{"default", "fresh"} {
		err := newPG(conn, ws, dir).Lock(ctx, NewLockInfo("OperationTypePlan", testVersion), 0)
		var le *LockError
		if !errors.As(err, &le) || le.Info == nil || le.Info.ID != info.ID {
			t.Errorf("workspace %s during creation: %v", ws, err)
		}
	}
	if err := creator.Unlock(); err != nil {
		t.Fatal(err)
	}
	m := newPG(conn, "fresh", dir)
	if err := m.Lock(ctx, NewLockInfo("OperationTypePlan", testVersion), 0); err != nil {
		t.Fatal(err)
	}
	// The row's own key (its id) is held now.
	id := pgQuery(t, conn, "SELECT id FROM terraform_remote_state.states WHERE name = 'fresh'")
	held := pgQuery(t, conn, "SELECT objid::int8 FROM pg_locks WHERE database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND locktype = 'advisory' AND classid = 0 AND objsubid = 1")
	if diff := cmp.Diff(id, held); diff != "" {
		t.Errorf("wrong advisory lock held (-row id +locked)\n%s", diff)
	}
	_ = m.Unlock()
}

// TestPGHelperProcess is not a test: TestPGLockReleasedOnKill runs the test
// binary as a lock holder to kill.
func TestPGHelperProcess(t *testing.T) {
	conn := os.Getenv("STRATA_PG_HELPER_CONN")
	if conn == "" {
		t.Skip("helper process for TestPGLockReleasedOnKill")
	}
	m := NewPG(PGConfig{ConnStr: conn}, "default", filepath.Join(t.TempDir(), "j"), testVersion)
	info := NewLockInfo("OperationTypeApply", testVersion)
	info.ID = os.Getenv("STRATA_PG_HELPER_ID")
	if err := m.Lock(context.Background(), info, 0); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("locked\n")
	time.Sleep(time.Minute)
}

// TestPGLockReleasedOnKill: a holder killed with SIGKILL loses its
// session, and the database releases its lock.
func TestPGLockReleasedOnKill(t *testing.T) {
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	ctx := context.Background()
	m := newPG(conn, "default", dir)
	if _, _, err := m.Read(); err != nil {
		t.Fatal(err)
	}
	if err := m.Write(stateWith(t, "terraform_data.a")); err != nil {
		t.Fatal(err)
	}
	const id = "0b7d6c2e-4f5a-4e1b-9c3d-2a1b0c9d8e7f"
	cmd := exec.Command(os.Args[0], "-test.run=^TestPGHelperProcess$", "-test.v")
	cmd.Env = append(os.Environ(), "STRATA_PG_HELPER_CONN="+conn, "STRATA_PG_HELPER_ID="+id)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "locked" {
	}
	err = m.Lock(ctx, NewLockInfo("OperationTypePlan", testVersion), 0)
	var le *LockError
	if !errors.As(err, &le) || le.Info == nil || le.Info.ID != id {
		t.Fatalf("while the helper holds the lock: %v", err)
	}
	_ = cmd.Process.Signal(os.Kill)
	_ = cmd.Wait()
	start := time.Now()
	if err := m.Lock(ctx, NewLockInfo("OperationTypeApply", testVersion), 30*time.Second); err != nil {
		t.Fatalf("the killed holder's lock was not released: %v", err)
	}
	t.Logf("lock free %s after the kill", time.Since(start).Round(time.Millisecond))
	s, _, err := m.Read()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ids(t, s)["terraform_data.a"]; !ok {
		t.Error("the state was damaged")
	}
	_ = m.Unlock()
}

// TestPGJournalRecovery: an apply that died leaves its local journal; the
// next Read replays it into the database under the lock and reports the
// operations left in flight. While another process holds the lock, its
// journal is left alone.
func TestPGJournalRecovery(t *testing.T) {
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	ctx := context.Background()
	m := newPG(conn, "default", dir)
	if err := m.Lock(ctx, NewLockInfo("OperationTypeApply", testVersion), 0); err != nil {
		t.Fatal(err)
	}
	base, _, err := m.Read()
	if err != nil {
		t.Fatal(err)
	}
	base.SetObject(addr(t, "terraform_data.a"), obj("a"), builtin)
	if err := m.Write(base); err != nil {
		t.Fatal(err)
	}
	j, err := m.BeginJournal(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Set(addr(t, "terraform_data.b"), "", obj("b"), builtin); err != nil {
		t.Fatal(err)
	}
	if err := j.Intent(addr(t, "terraform_data.c"), "", "create"); err != nil {
		t.Fatal(err)
	}
	if err := j.Set(addr(t, "terraform_data.a"), "", nil, builtin); err != nil {
		t.Fatal(err)
	}

	// Another process reading meanwhile leaves the journal alone.
	s, pending, err := newPG(conn, "default", dir).Read()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"terraform_data.a": "a"}, ids(t, s)); diff != "" || len(pending) != 0 {
		t.Errorf("read during the apply: pending %v, state (-want +got)\n%s", pending, diff)
	}
	if _, err := os.Stat(m.JournalPath); err != nil {
		t.Fatal("the journal of a running apply was consumed")
	}

	// The apply dies: its session ends, its journal stays.
	j.f.Close()
	_ = m.Unlock()

	next := newPG(conn, "default", dir)
	s, pending, err = next.Read()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"terraform_data.b": "b"}, ids(t, s)); diff != "" {
		t.Errorf("wrong recovered state (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]Pending{{Addr: "terraform_data.c", Action: "create"}}, pending); diff != "" {
		t.Errorf("wrong pending operations (-want +got)\n%s", diff)
	}
	if _, err := os.Stat(m.JournalPath); err == nil {
		t.Error("the journal was not removed")
	}
	stored, _, err := newPG(conn, "default", dir).Read()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"terraform_data.b": "b"}, ids(t, stored)); diff != "" || stored.Serial != 2 {
		t.Errorf("the recovery was not written to the database: serial %d (-want +got)\n%s", stored.Serial, diff)
	}
	if rows := pgQuery(t, conn, "SELECT count(*) FROM pg_locks WHERE database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND locktype = 'advisory'"); rows[0] != "0" {
		t.Errorf("the recovery left advisory locks: %v", rows)
	}
}

// TestPGApplyJournal: BeginJournal and EndJournal: the snapshot is written
// once at the end and the local journal removed.
func TestPGApplyJournal(t *testing.T) {
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	m := newPG(conn, "default", filepath.Join(dir, ".terraform"))
	if err := m.Lock(context.Background(), NewLockInfo("OperationTypeApply", testVersion), 0); err != nil {
		t.Fatal(err)
	}
	defer m.Unlock()
	s, _, err := m.Read()
	if err != nil {
		t.Fatal(err)
	}
	j, err := m.BeginJournal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"terraform_data.a", "terraform_data.b"} {
		if err := j.Set(addr(t, a), "", obj(a), builtin); err != nil {
			t.Fatal(err)
		}
		s.SetObject(addr(t, a), obj(a), builtin)
	}
	if got := rowData(t, conn, DefaultPGSchema, "default"); got != "" {
		t.Fatalf("the database was written during the apply: %s", got)
	}
	if err := m.EndJournal(s); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(m.JournalPath); err == nil {
		t.Error("the journal was not removed")
	}
	got, _, err := newPG(conn, "default", dir).Read()
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0)
	for k := range ids(t, got) {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if diff := cmp.Diff([]string{"terraform_data.a", "terraform_data.b"}, keys); diff != "" {
		t.Errorf("wrong stored state (-want +got)\n%s", diff)
	}
}

// TestPGWriteConflict: a state changed by someone who ignored the lock is
// reported, not overwritten.
func TestPGWriteConflict(t *testing.T) {
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	a, b := newPG(conn, "default", dir), newPG(conn, "default", dir)
	for _, m := range []*PG{a, b} {
		if _, _, err := m.Read(); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Write(stateWith(t, "terraform_data.b")); err != nil {
		t.Fatal(err)
	}
	err := a.Write(stateWith(t, "terraform_data.a"))
	if err == nil || !strings.Contains(err.Error(), "changed by another process") {
		t.Fatalf("conflicting write: %v", err)
	}
	s, _, err := newPG(conn, "default", dir).Read()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ids(t, s)["terraform_data.b"]; !ok {
		t.Error("the other process's state was overwritten")
	}
}

// TestPGForceUnlock: force-unlock ends the holder's session when given the
// lock's ID, and only then.
func TestPGForceUnlock(t *testing.T) {
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	ctx := context.Background()
	m := newPG(conn, "default", dir)
	if _, err := m.ForceUnlock("x", nil); err == nil || !strings.Contains(err.Error(), "not locked") {
		t.Fatalf("force-unlock with no lock: %v", err)
	}
	holder := newPG(conn, "default", dir)
	info := NewLockInfo("OperationTypeApply", testVersion)
	if err := holder.Lock(ctx, info, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := m.ForceUnlock("wrong", nil); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("force-unlock with a wrong ID: %v", err)
	}
	if removed, err := m.ForceUnlock(info.ID, func(*LockInfo) bool { return false }); removed || err != nil {
		t.Fatalf("declined force-unlock: %v %v", removed, err)
	}
	var asked *LockInfo
	removed, err := m.ForceUnlock(info.ID, func(i *LockInfo) bool { asked = i; return true })
	if err != nil || !removed {
		t.Fatalf("force-unlock: %v %v", removed, err)
	}
	if asked == nil || asked.ID != info.ID {
		t.Errorf("confirmation shown %+v", asked)
	}
	if err := m.Lock(ctx, NewLockInfo("OperationTypeApply", testVersion), 0); err != nil {
		t.Fatalf("lock after force-unlock: %v", err)
	}
	_ = m.Unlock()
	if err := holder.Write(stateWith(t, "terraform_data.a")); err == nil {
		t.Error("the unlocked holder could still write")
	}
}

// TestLockAppEncoding: the lock information carried in application_name
// survives the round trip and Postgres's 63-byte limit.
func TestLockAppEncoding(t *testing.T) {
	created := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	tests := map[string]struct {
		id, op string
		wantOp string
	}{
		"apply":            {id: "0b7d6c2e-4f5a-4e1b-9c3d-2a1b0c9d8e7f", op: "OperationTypeApply", wantOp: "OperationTypeApply"},
		"state command":    {id: "0b7d6c2e-4f5a-4e1b-9c3d-2a1b0c9d8e7f", op: "state-replace-provider", wantOp: "state-replace-provid"},
		"non-uuid lock id": {id: "abc", op: "OperationTypePlan", wantOp: "OperationTypePlan"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			app := encodeLockApp(&LockInfo{ID: tc.id, Operation: tc.op, Created: created})
			if len(app) > 63 {
				t.Fatalf("%q is %d bytes long", app, len(app))
			}
			id, op, when, ok := decodeLockApp(app)
			if !ok || id != tc.id || !strings.HasPrefix(tc.op, op) && op != tc.wantOp || !when.Equal(created) {
				t.Errorf("decoded %q %q %s %v from %q", id, op, when, ok, app)
			}
		})
	}
	if _, _, _, ok := decodeLockApp("psql"); ok {
		t.Error("decoded another program's application_name")
	}
}

// TestPGJournalCheckpoints: during an apply the state reached is written
// to the database at intervals and the journal restarted on top of it, so
// that losing the journal loses at most one interval, and a crash after a
// checkpoint still recovers every change.
func TestPGJournalCheckpoints(t *testing.T) {
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	m := newPG(conn, "default", dir)
	m.PersistInterval = PersistInterval(func(k string) string { return map[string]string{"TF_STATE_PERSIST_INTERVAL": "1"}[k] })
	if err := m.Lock(context.Background(), NewLockInfo("OperationTypeApply", testVersion), 0); err != nil {
		t.Fatal(err)
	}
	base, _, err := m.Read()
	if err != nil {
		t.Fatal(err)
	}
	j, err := m.BeginJournal(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Set(addr(t, "terraform_data.a"), "", obj("a"), builtin); err != nil {
		t.Fatal(err)
	}
	if err := j.Intent(addr(t, "terraform_data.b"), "", "create"); err != nil {
		t.Fatal(err)
	}
	// Wait for a checkpoint: the database has a, the journal restarts.
	deadline := time.Now().Add(10 * time.Second)
	for rowData(t, conn, DefaultPGSchema, "default") == "" {
		if time.Now().After(deadline) {
			t.Fatal("no checkpoint was written")
		}
		time.Sleep(100 * time.Millisecond)
	}
	mid, _, err := newPG(conn, "default", dir).Read()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"terraform_data.a": "a"}, ids(t, mid)); diff != "" {
		t.Errorf("checkpoint (-want +got)\n%s", diff)
	}
	if err := j.Set(addr(t, "terraform_data.c"), "", obj("c"), builtin); err != nil {
		t.Fatal(err)
	}

	// The apply dies after the checkpoint: b never finished, c did.
	j.stopCheckpoints()
	j.f.Close()
	_ = m.Unlock()
	next := newPG(conn, "default", dir)
	s, pending, err := next.Read()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"terraform_data.a": "a", "terraform_data.c": "c"}, ids(t, s)); diff != "" {
		t.Errorf("recovered state (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]Pending{{Addr: "terraform_data.b", Action: "create"}}, pending); diff != "" {
		t.Errorf("the intent that was running at the checkpoint is lost (-want +got)\n%s", diff)
	}
}

// TestPGLease: a second lease on the same workspace is refused, naming
// the holder, while the state lock stays free; other workspaces, other
// schemas and other lease names are independent; release gives it back.
func TestPGLease(t *testing.T) {
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	ctx := context.Background()
	holder := newPG(conn, "default", dir)
	release, err := holder.Lease(ctx, "watch")
	if err != nil {
		t.Fatal(err)
	}
	_, err = newPG(conn, "default", dir).Lease(ctx, "watch")
	if !errors.Is(err, ErrLeaseHeld) || !strings.Contains(err.Error(), "strata watch: pid ") || !strings.Contains(err.Error(), `workspace "default"`) {
		t.Fatalf("second lease: %v, want ErrLeaseHeld naming the holder", err)
	}
	// The state lock is not the lease.
	other := newPG(conn, "default", dir)
	if err := other.Lock(ctx, NewLockInfo("OperationTypeApply", testVersion), 0); err != nil {
		t.Fatalf("the lease blocks the state lock: %v", err)
	}
	if err := other.Unlock(); err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]*PG{
		"other workspace": newPG(conn, "staging", dir),
		"other schema":    NewPG(PGConfig{ConnStr: conn, SchemaName: "team_b"}, "default", filepath.Join(dir, "b"), testVersion),
	} {
		r, err := m.Lease(ctx, "watch")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := r(); err != nil {
			t.Fatal(err)
		}
	}
	if r, err := newPG(conn, "default", dir).Lease(ctx, "other"); err != nil {
		t.Fatalf("another lease name: %v", err)
	} else {
		_ = r()
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	r, err := newPG(conn, "default", dir).Lease(ctx, "watch")
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	_ = r()
	if l, ok := LeaserOf(holder); !ok || l != Leaser(holder) {
		t.Fatal("LeaserOf does not find the pg manager")
	}
	if _, ok := LeaserOf(NewLocal(filepath.Join(dir, "s"), "", "", testVersion)); ok {
		t.Fatal("LeaserOf finds a lease on a local state")
	}
}
