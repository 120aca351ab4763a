package runrecord

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// schemaVersion is stored as the database's user_version. Version 1 was
// a development schema (changes in their own table), never released: it
// is dropped and created again. Version 3 adds up_to_date, version 4 the
// indexes of queries across runs.
const schemaVersion = 4

const schemaSQL = `
CREATE TABLE IF NOT EXISTS runs (
	id TEXT PRIMARY KEY,
	command TEXT NOT NULL,
	args TEXT NOT NULL,
	started_at INTEGER NOT NULL,
	ended_at INTEGER NOT NULL,
	outcome TEXT NOT NULL,
	noop INTEGER NOT NULL,
	user TEXT NOT NULL,
	host TEXT NOT NULL,
	pid INTEGER NOT NULL,
	version TEXT NOT NULL,
	workspace TEXT NOT NULL,
	backend TEXT NOT NULL,
	config_hash TEXT NOT NULL,
	lineage_before TEXT NOT NULL,
	serial_before INTEGER NOT NULL,
	lineage_after TEXT NOT NULL,
	serial_after INTEGER NOT NULL,
	plan_file TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_started ON runs(started_at);
CREATE TABLE IF NOT EXISTS entries (
	run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	seq INTEGER NOT NULL,
	kind TEXT NOT NULL,
	address TEXT NOT NULL,
	deposed TEXT NOT NULL,
	type TEXT NOT NULL,
	module TEXT NOT NULL,
	provider TEXT NOT NULL,
	action TEXT NOT NULL,
	action_reason TEXT NOT NULL,
	replace_paths TEXT NOT NULL,
	import_id TEXT NOT NULL,
	moved_from TEXT NOT NULL,
	outcome TEXT NOT NULL,
	reason TEXT NOT NULL,
	diagnostics TEXT NOT NULL,
	started_at INTEGER NOT NULL,
	ended_at INTEGER NOT NULL,
	changes TEXT NOT NULL,
	PRIMARY KEY (run_id, seq)
);
CREATE INDEX IF NOT EXISTS entries_address ON entries(address);
CREATE INDEX IF NOT EXISTS entries_type ON entries(type, outcome, run_id);
CREATE INDEX IF NOT EXISTS entries_outcome ON entries(outcome, run_id);
CREATE TABLE IF NOT EXISTS up_to_date (
	run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	entries TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS up_to_date_run ON up_to_date(run_id);
`

// sqliteStore is the embedded Store: one SQLite database file.
type sqliteStore struct {
	db *sql.DB
	// cipher decrypts the sealed values of entries; nil: none.
	cipher Cipher
}

// An Option adjusts the store Open returns.
type Option func(*sqliteStore)

// WithCipher makes queries decrypt the encrypted values of entries with
// c; without it, a query that meets one fails with a *SealedError.
// Writing needs no Cipher: entries are stored as they come, encrypted or
// not.
func WithCipher(c Cipher) Option { return func(s *sqliteStore) { s.cipher = c } }

// Open opens (creating it and its directory when needed) the SQLite run
// record database at path. The file is written in WAL mode: a committed
// batch survives the process being killed.
func Open(path string, opts ...Option) (Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	// The file may hold attribute values: only its owner reads it, nor
	// its write-ahead log and shared memory, which SQLite creates with
	// the database file's mode.
	if f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600); err == nil {
		f.Close()
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		_ = os.Chmod(p, 0o600)
	}
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(OFF)&_pragma=foreign_keys(ON)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	s := &sqliteStore{db: db}
	for _, o := range opts {
		o(s)
	}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("run records in %s: %w", path, err)
	}
	return s, nil
}

func (s *sqliteStore) migrate() error {
	var v int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v > schemaVersion {
		return fmt.Errorf("the database was written by a newer strata (schema %d; this one knows %d)", v, schemaVersion)
	}
	if v == schemaVersion {
		return nil
	}
	if v == 1 {
		if _, err := s.db.Exec(`DROP TABLE IF EXISTS changes; DROP TABLE IF EXISTS entries; DROP TABLE IF EXISTS runs;`); err != nil {
			return err
		}
	}
	// From version 2 on, every change adds tables: schemaSQL creates
	// what is missing.
	if _, err := s.db.Exec(schemaSQL); err != nil {
		return err
	}
	_, err := s.db.Exec(fmt.Sprintf("PRAGMA user_version = %d", schemaVersion))
	return err
}

func (s *sqliteStore) Close() error { return s.db.Close() }

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func (s *sqliteStore) Write(ctx context.Context, b Batch) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if b.Whole {
		for _, r := range b.Runs {
			for _, q := range []string{`DELETE FROM entries WHERE run_id = ?`, `DELETE FROM up_to_date WHERE run_id = ?`} {
				if _, err := tx.ExecContext(ctx, q, r.ID); err != nil {
					return err
				}
			}
		}
	}
	for _, r := range b.Runs {
		args := r.Args
		if args == nil {
			args = []string{}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO runs (id, command, args, started_at, ended_at, outcome, noop, user, host, pid, version, workspace, backend, config_hash, lineage_before, serial_before, lineage_after, serial_after, plan_file)
			VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
			ON CONFLICT(id) DO UPDATE SET command=excluded.command, args=excluded.args, started_at=excluded.started_at, ended_at=excluded.ended_at, outcome=excluded.outcome, noop=excluded.noop,
			user=excluded.user, host=excluded.host, pid=excluded.pid, version=excluded.version, workspace=excluded.workspace, backend=excluded.backend, config_hash=excluded.config_hash,
			lineage_before=excluded.lineage_before, serial_before=excluded.serial_before, lineage_after=excluded.lineage_after, serial_after=excluded.serial_after, plan_file=excluded.plan_file`,
			r.ID, r.Command, jsonText(args), nanos(r.Started), nanos(r.Ended), r.Outcome, r.Noop, r.User, r.Host, r.PID, r.Version, r.Workspace, r.Backend, r.ConfigHash,
			r.LineageBefore, int64(r.SerialBefore), r.LineageAfter, int64(r.SerialAfter), r.PlanFile)
		if err != nil {
			return err
		}
	}
	// Up-to-date entries of a run go in one row, as a JSON array.
	upToDate := map[string][]compactEntry{}
	var upRuns []string
	for _, e := range b.UpToDate {
		if upToDate[e.RunID] == nil {
			upRuns = append(upRuns, e.RunID)
		}
		upToDate[e.RunID] = append(upToDate[e.RunID], newCompactEntry(e))
	}
	for _, id := range upRuns {
		if _, err := tx.ExecContext(ctx, `INSERT INTO up_to_date (run_id, entries) VALUES (?, ?)`, id, jsonText(upToDate[id])); err != nil {
			return err
		}
	}
	// Entries go in statements of up to entryChunk rows: the driver's
	// cost is mostly per statement. An entry written again without
	// changes keeps the stored ones.
	for start := 0; start < len(b.Entries); start += entryChunk {
		chunk := b.Entries[start:min(start+entryChunk, len(b.Entries))]
		args := make([]any, 0, len(chunk)*entryParams)
		for _, e := range chunk {
			paths := e.ReplacePaths
			if paths == nil {
				paths = []string{}
			}
			args = append(args, e.RunID, e.Seq, e.Kind, e.Address, e.Deposed, e.Type, e.Module, e.Provider, e.Action, e.ActionReason, jsonText(paths),
				e.Import, e.MovedFrom, string(e.Outcome), e.Reason, diagnosticsColumn(&e), nanos(e.Started), nanos(e.Ended), changesColumn(&e))
		}
		if _, err := tx.ExecContext(ctx, entryInsert(len(chunk)), args...); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// entryChunk is the most entries one INSERT writes; entryParams the
// parameters of each.
const (
	entryChunk  = 64
	entryParams = 19
)

var entryInserts sync.Map // rows → statement text

// entryInsert is the upsert of n entries. Within one statement a row may
// not be written twice, which Ingest's batches guarantee (a run log's
// writes of the same entry are coalesced when it is read).
func entryInsert(n int) string {
	if q, ok := entryInserts.Load(n); ok {
		return q.(string)
	}
	var b strings.Builder
	b.WriteString(`INSERT INTO entries (run_id, seq, kind, address, deposed, type, module, provider, action, action_reason, replace_paths, import_id, moved_from, outcome, reason, diagnostics, started_at, ended_at, changes) VALUES `)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,coalesce(?, '[]'))`)
	}
	b.WriteString(` ON CONFLICT(run_id, seq) DO UPDATE SET kind=excluded.kind, address=excluded.address, deposed=excluded.deposed, type=excluded.type, module=excluded.module, provider=excluded.provider,
		action=excluded.action, action_reason=excluded.action_reason, replace_paths=excluded.replace_paths, import_id=excluded.import_id, moved_from=excluded.moved_from,
		outcome=excluded.outcome, reason=excluded.reason, diagnostics=excluded.diagnostics, started_at=excluded.started_at, ended_at=excluded.ended_at,
		changes=CASE WHEN excluded.changes = '[]' AND changes != '[]' THEN changes ELSE excluded.changes END`)
	q := b.String()
	entryInserts.Store(n, q)
	return q
}

const runColumns = `id, command, args, started_at, ended_at, outcome, noop, user, host, pid, version, workspace, backend, config_hash, lineage_before, serial_before, lineage_after, serial_after, plan_file`

type scanner interface{ Scan(...any) error }

func scanRun(sc scanner) (Run, error) {
	var r Run
	var args string
	var started, ended, sb, sa int64
	err := sc.Scan(&r.ID, &r.Command, &args, &started, &ended, &r.Outcome, &r.Noop, &r.User, &r.Host, &r.PID, &r.Version, &r.Workspace, &r.Backend, &r.ConfigHash,
		&r.LineageBefore, &sb, &r.LineageAfter, &sa, &r.PlanFile)
	if err != nil {
		return r, err
	}
	_ = json.Unmarshal([]byte(args), &r.Args)
	r.Started, r.Ended = fromNanos(started), fromNanos(ended)
	r.SerialBefore, r.SerialAfter = uint64(sb), uint64(sa)
	return r, nil
}

func (s *sqliteStore) Runs(ctx context.Context, f RunFilter) ([]Run, error) {
	q := `SELECT ` + runColumns + ` FROM runs WHERE 1=1`
	var args []any
	if !f.Since.IsZero() {
		q += ` AND started_at >= ?`
		args = append(args, f.Since.UnixNano())
	}
	if f.Command != "" {
		q += ` AND command = ?`
		args = append(args, f.Command)
	}
	if f.Outcome != "" {
		q += ` AND outcome = ?`
		args = append(args, f.Outcome)
	}
	q += ` ORDER BY started_at DESC, id DESC`
	if f.Limit > 0 {
		q += fmt.Sprintf(` LIMIT %d`, f.Limit)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	var out []Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Counts, err = s.counts(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// compactEntry is how an up-to-date entry is stored: the rest of it is
// implied.
type compactEntry struct {
	Seq      int    `json:"s"`
	Address  string `json:"a"`
	Deposed  string `json:"d,omitempty"`
	Type     string `json:"t"`
	Module   string `json:"m,omitempty"`
	Provider string `json:"p"`
}

func newCompactEntry(e Entry) compactEntry {
	return compactEntry{Seq: e.Seq, Address: e.Address, Deposed: e.Deposed, Type: e.Type, Module: e.Module, Provider: e.Provider}
}

// entry is the up-to-date entry c stands for.
func (c compactEntry) entry(runID string) Entry {
	return Entry{RunID: runID, Seq: c.Seq, Kind: KindChange, Address: c.Address, Deposed: c.Deposed, Type: c.Type, Module: c.Module,
		Provider: c.Provider, Action: "no-op", Outcome: UpToDate, Changes: []AttrChange{}}
}

// upToDate returns a run's up-to-date entries.
func (s *sqliteStore) upToDate(ctx context.Context, runID string) ([]Entry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT entries FROM up_to_date WHERE run_id = ?`, runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var text string
		if err := rows.Scan(&text); err != nil {
			return nil, err
		}
		var cs []compactEntry
		if err := json.Unmarshal([]byte(text), &cs); err != nil {
			return nil, fmt.Errorf("up-to-date entries of run %s: %w", runID, err)
		}
		for _, c := range cs {
			out = append(out, c.entry(runID))
		}
	}
	return out, rows.Err()
}

func (s *sqliteStore) counts(ctx context.Context, runID string) (map[Outcome]int, error) {
	var n sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT sum(json_array_length(entries)) FROM up_to_date WHERE run_id = ?`, runID).Scan(&n); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT outcome, count(*) FROM entries WHERE run_id = ? AND kind = ? GROUP BY outcome`, runID, KindChange)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[Outcome]int{}
	if n.Int64 > 0 {
		m[UpToDate] = int(n.Int64)
	}
	for rows.Next() {
		var o string
		var n int
		if err := rows.Scan(&o, &n); err != nil {
			return nil, err
		}
		m[Outcome(o)] += n
	}
	return m, rows.Err()
}

// ErrAmbiguous is returned by Run for a prefix that matches several runs.
var ErrAmbiguous = errors.New("the run ID prefix matches more than one run")

func (s *sqliteStore) Run(ctx context.Context, id string) (*Run, error) {
	var rows *sql.Rows
	var err error
	if id == "" {
		rows, err = s.db.QueryContext(ctx, `SELECT `+runColumns+` FROM runs ORDER BY started_at DESC, id DESC LIMIT 1`)
	} else {
		rows, err = s.db.QueryContext(ctx, `SELECT `+runColumns+` FROM runs WHERE id = ? OR substr(id, 1, ?) = ? ORDER BY id = ? DESC LIMIT 2`, id, len(id), id, id)
	}
	if err != nil {
		return nil, err
	}
	var found []Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		found = append(found, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	switch {
	case len(found) == 0:
		return nil, nil
	case len(found) > 1 && found[0].ID != id:
		return nil, ErrAmbiguous
	}
	r := found[0]
	if r.Counts, err = s.counts(ctx, r.ID); err != nil {
		return nil, err
	}
	return &r, nil
}

const entryColumns = `seq, kind, address, deposed, type, module, provider, action, action_reason, replace_paths, import_id, moved_from, outcome, reason, diagnostics, started_at, ended_at, changes`

func (s *sqliteStore) Entries(ctx context.Context, runID string, f EntryFilter) ([]Entry, error) {
	where, wargs := entryWhere(f, false)
	q := `SELECT ` + entryColumns + ` FROM entries e WHERE run_id = ?` + where
	args := append([]any{runID}, wargs...)
	q += ` ORDER BY seq`
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	var out []Entry
	defer rows.Close()
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, fmt.Errorf("run %s: %w", runID, err)
		}
		e.RunID = runID
		if err := unsealEntry(&e, s.cipher); err != nil {
			return nil, err
		}
		if f.Address != "" && !Glob(f.Address, e.Address) {
			continue
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	ups, err := s.upToDate(ctx, runID)
	if err != nil {
		return nil, err
	}
	for _, e := range ups {
		if f.keeps(e) {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out, nil
}

// keeps applies the filter to an entry in Go, as the SQL does to rows.
func (f EntryFilter) keeps(e Entry) bool {
	if f.Type != "" && e.Type != f.Type {
		return false
	}
	if f.Module != "" && e.Module != f.Module && !strings.HasPrefix(e.Module, f.Module+".") {
		return false
	}
	if f.Kind != "" && e.Kind != f.Kind {
		return false
	}
	if len(f.Outcomes) > 0 && !slices.Contains(f.Outcomes, e.Outcome) {
		return false
	}
	return f.Address == "" || Glob(f.Address, e.Address)
}

func likeEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

func (s *sqliteStore) History(ctx context.Context, address, attr string) ([]HistoryItem, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.id, r.command, e.ended_at, r.started_at, r.user, e.kind, e.address, e.action, e.outcome, e.changes
		FROM entries e JOIN runs r ON r.id = e.run_id
		WHERE e.address = ? AND r.noop = 0 AND (e.kind = ? OR e.outcome IN (?, ?))
		ORDER BY r.started_at, r.id, e.kind = 'change', e.seq`, address, KindDrift, string(Updated), string(Unknown))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []HistoryItem
	for rows.Next() {
		var h HistoryItem
		var ended, started int64
		var outcome, changes string
		if err := rows.Scan(&h.RunID, &h.Command, &ended, &started, &h.User, &h.Kind, &h.Address, &h.Action, &outcome, &changes); err != nil {
			return nil, err
		}
		h.Outcome = Outcome(outcome)
		h.Time = fromNanos(ended)
		if h.Time.IsZero() {
			h.Time = fromNanos(started)
		}
		e := Entry{RunID: h.RunID}
		if err := fromColumns(&e, changes, ""); err != nil {
			return nil, fmt.Errorf("entry of run %s: %w", h.RunID, err)
		}
		if err := unsealEntry(&e, s.cipher); err != nil {
			return nil, err
		}
		for _, c := range e.Changes {
			if attr != "" && !underPath(c.Path, attr) {
				continue
			}
			item := h
			item.AttrChange = c
			out = append(out, item)
		}
	}
	return out, rows.Err()
}

// nullsAsNil turns the JSON nulls decoded into Before and After back
// into nil, as they were written.
func nullsAsNil(cs []AttrChange) {
	for i := range cs {
		if string(cs[i].Before) == "null" {
			cs[i].Before = nil
		}
		if string(cs[i].After) == "null" {
			cs[i].After = nil
		}
	}
}

// underPath reports whether the formatted path p is attr or under it.
func underPath(p, attr string) bool {
	if !strings.HasPrefix(p, attr) {
		return false
	}
	rest := p[len(attr):]
	return rest == "" || rest[0] == '.' || rest[0] == '['
}

func (s *sqliteStore) Recover(ctx context.Context, host string, alive func(pid int) bool) error {
	rows, err := s.db.QueryContext(ctx, `SELECT id, pid FROM runs WHERE outcome = ? AND host = ?`, RunRunning, host)
	if err != nil {
		return err
	}
	var dead []string
	for rows.Next() {
		var id string
		var pid int
		if err := rows.Scan(&id, &pid); err != nil {
			rows.Close()
			return err
		}
		if !alive(pid) {
			dead = append(dead, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range dead {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE entries SET outcome = ?, reason = 'the provider call was under way when the process died: the object may have changed' WHERE run_id = ? AND outcome = ? AND started_at != 0`, string(Unknown), id, string(Unprocessed))
		if err == nil {
			_, err = tx.ExecContext(ctx, `UPDATE entries SET reason = 'the run died before reaching it' WHERE run_id = ? AND outcome = ? AND started_at = 0`, id, string(Unprocessed))
		}
		if err == nil {
			_, err = tx.ExecContext(ctx, `UPDATE runs SET outcome = ? WHERE id = ?`, RunCrashed, id)
		}
		if err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

func (s *sqliteStore) Prune(ctx context.Context, r Retention) (int, error) {
	var n int64
	if r.Keep > 0 {
		res, err := s.db.ExecContext(ctx, `DELETE FROM runs WHERE id NOT IN (SELECT id FROM runs ORDER BY started_at DESC, id DESC LIMIT ?)`, r.Keep)
		if err != nil {
			return 0, err
		}
		k, _ := res.RowsAffected()
		n += k
	}
	if r.MaxAge > 0 {
		res, err := s.db.ExecContext(ctx, `DELETE FROM runs WHERE started_at < ?`, time.Now().Add(-r.MaxAge).UnixNano())
		if err != nil {
			return 0, err
		}
		k, _ := res.RowsAffected()
		n += k
	}
	return int(n), nil
}

// Delete implements Store.
func (s *sqliteStore) Delete(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM runs WHERE id = ?`, id)
	return err
}

// Glob reports whether s matches pattern, where * matches any run of
// characters and ? any one character; everything else (including the
// brackets of instance keys) matches itself.
func Glob(pattern, s string) bool {
	p, t := []rune(pattern), []rune(s)
	pi, ti, star, mark := 0, 0, -1, 0
	for ti < len(t) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == t[ti]):
			pi++
			ti++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, ti
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			ti = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// sqlGlob turns a Glob pattern into SQLite's GLOB, where brackets make
// a character class: a bracket in the pattern matches itself.
func sqlGlob(pattern string) string {
	return strings.ReplaceAll(pattern, "[", "[[]")
}

// entryWhere is the SQL condition (on entries e) and arguments of f,
// without its address pattern when glob is false.
func entryWhere(f EntryFilter, glob bool) (string, []any) {
	var q strings.Builder
	var args []any
	if f.Type != "" {
		q.WriteString(` AND e.type = ?`)
		args = append(args, f.Type)
	}
	if f.Module != "" {
		q.WriteString(` AND (e.module = ? OR e.module LIKE ? ESCAPE '\')`)
		args = append(args, f.Module, likeEscape(f.Module)+".%")
	}
	if f.Kind != "" {
		q.WriteString(` AND e.kind = ?`)
		args = append(args, f.Kind)
	}
	if len(f.Outcomes) > 0 {
		q.WriteString(` AND e.outcome IN (` + strings.TrimSuffix(strings.Repeat("?,", len(f.Outcomes)), ",") + `)`)
		for _, o := range f.Outcomes {
			args = append(args, string(o))
		}
	}
	if glob && f.Address != "" {
		q.WriteString(` AND e.address GLOB ?`)
		args = append(args, sqlGlob(f.Address))
	}
	return q.String(), args
}

// runWhere is the SQL condition (on runs r) and arguments of f.
func runWhere(f RunFilter) (string, []any) {
	var q strings.Builder
	var args []any
	if !f.Since.IsZero() {
		q.WriteString(` AND r.started_at >= ?`)
		args = append(args, f.Since.UnixNano())
	}
	if f.Command != "" {
		q.WriteString(` AND r.command = ?`)
		args = append(args, f.Command)
	}
	if f.Outcome != "" {
		q.WriteString(` AND r.outcome = ?`)
		args = append(args, f.Outcome)
	}
	return q.String(), args
}

func (s *sqliteStore) Query(ctx context.Context, qf Query) ([]QueryItem, error) {
	rw, rargs := runWhere(qf.Runs)
	ew, eargs := entryWhere(qf.Entries, true)
	q := `SELECT r.command, r.started_at, r.outcome, r.user, e.run_id, ` + prefixColumns("e.", entryColumns) + `
		FROM entries e JOIN runs r ON r.id = e.run_id WHERE 1=1` + rw + ew + `
		ORDER BY r.started_at DESC, r.id DESC, e.seq`
	if qf.Limit > 0 {
		q += fmt.Sprintf(` LIMIT %d`, qf.Limit)
	}
	rows, err := s.db.QueryContext(ctx, q, append(rargs, eargs...)...)
	if err != nil {
		return nil, err
	}
	var out []QueryItem
	for rows.Next() {
		var it QueryItem
		var runStarted int64
		e, err := scanEntry(rows, &it.Command, &runStarted, &it.RunOutcome, &it.User, &it.RunID)
		if err != nil {
			rows.Close()
			return nil, err
		}
		e.RunID = it.RunID
		if err := unsealEntry(&e, s.cipher); err != nil {
			rows.Close()
			return nil, err
		}
		it.Entry = e
		it.RunStarted = fromNanos(runStarted)
		out = append(out, it)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if !slices.Contains(qf.Entries.Outcomes, UpToDate) {
		return out, nil
	}
	// Up-to-date entries are stored compactly, a run's in one row: they
	// are filtered here.
	rows, err = s.db.QueryContext(ctx, `SELECT r.id, r.command, r.started_at, r.outcome, r.user, u.entries FROM up_to_date u JOIN runs r ON r.id = u.run_id WHERE 1=1`+rw, rargs...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var base QueryItem
		var runStarted int64
		var text string
		if err := rows.Scan(&base.RunID, &base.Command, &runStarted, &base.RunOutcome, &base.User, &text); err != nil {
			return nil, err
		}
		base.RunStarted = fromNanos(runStarted)
		var cs []compactEntry
		if err := json.Unmarshal([]byte(text), &cs); err != nil {
			return nil, fmt.Errorf("up-to-date entries of run %s: %w", base.RunID, err)
		}
		for _, c := range cs {
			e := c.entry(base.RunID)
			if qf.Entries.keeps(e) {
				it := base
				it.Entry = e
				out = append(out, it)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !a.RunStarted.Equal(b.RunStarted) {
			return a.RunStarted.After(b.RunStarted)
		}
		if a.RunID != b.RunID {
			return a.RunID > b.RunID
		}
		return a.Seq < b.Seq
	})
	if qf.Limit > 0 && len(out) > qf.Limit {
		out = out[:qf.Limit]
	}
	return out, nil
}

func prefixColumns(prefix, cols string) string {
	parts := strings.Split(cols, ", ")
	for i := range parts {
		parts[i] = prefix + parts[i]
	}
	return strings.Join(parts, ", ")
}

// scanEntry scans a row of the columns before, then entryColumns; values
// stored encrypted are left in the entry's Sealed fields.
func scanEntry(sc scanner, before ...any) (Entry, error) {
	var e Entry
	var paths, outcome, diagnostics, changes string
	var started, ended int64
	dest := append(before, &e.Seq, &e.Kind, &e.Address, &e.Deposed, &e.Type, &e.Module, &e.Provider, &e.Action, &e.ActionReason, &paths, &e.Import, &e.MovedFrom,
		&outcome, &e.Reason, &diagnostics, &started, &ended, &changes)
	if err := sc.Scan(dest...); err != nil {
		return e, err
	}
	_ = json.Unmarshal([]byte(paths), &e.ReplacePaths)
	e.Outcome = Outcome(outcome)
	e.Started, e.Ended = fromNanos(started), fromNanos(ended)
	return e, fromColumns(&e, changes, diagnostics)
}
