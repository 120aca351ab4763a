package runrecord

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkQuery1000Runs answers "which local_file resources did any run
// in the last 7 days update?" over 1,000 runs of 2,000 entries each (two
// million rows, every instance changed in every run: the worst case; one
// in ten a local_file, one run in four in the last week), and "what
// happened to this address?" over the same runs. The goal is under a
// second for an answer of the CLI's default -limit (1,000 entries).
//
//	go test ./internal/runrecord -run '^$' -bench Query1000Runs -benchtime 3x
func BenchmarkQuery1000Runs(b *testing.B) {
	const runs, perRun = 1000, 2000
	// The database takes minutes to make: it is kept between runs of the
	// benchmark, for a day.
	path := filepath.Join(os.TempDir(), fmt.Sprintf("strata-bench-runs-v%d.db", schemaVersion))
	if fi, err := os.Stat(path); err == nil && time.Since(fi.ModTime()) > 24*time.Hour {
		os.Remove(path)
	}
	_, err := os.Stat(path)
	fresh := err != nil
	s, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	db := s.(*sqliteStore).db
	var newest int64
	_ = db.QueryRow(`SELECT coalesce(max(started_at), 0) FROM runs`).Scan(&newest)
	now := time.Unix(0, newest)
	if fresh || newest == 0 {
		now = time.Now()
		setup := []string{`DROP INDEX entries_address`, `DROP INDEX entries_type`, `DROP INDEX entries_outcome`}
		for _, q := range setup {
			if _, err := db.Exec(q); err != nil {
				b.Fatal(err)
			}
		}
	}
	// The rows are made by SQLite itself: writing two million through
	// Write would take much longer. Indexes are made after the rows.
	for _, q := range []string{
		fmt.Sprintf(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM n WHERE i < %d)
		INSERT INTO runs SELECT printf('run%%04d', i), CASE WHEN i %% 3 = 0 THEN 'plan' ELSE 'apply' END, '[]', %d - i * %d, %d - i * %d + 1000000000, 'succeeded', 0,
			'u', 'h', 1, '0.1.0', 'default', 'local', '', '', 0, '', 0, '' FROM n`, runs-1, now.UnixNano(), int64(28*24*time.Hour)/runs, now.UnixNano(), int64(28*24*time.Hour)/runs),
		fmt.Sprintf(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM n WHERE i < %d)
		INSERT INTO entries SELECT r.id, n.i, 'change', CASE WHEN n.i %% 10 = 0 THEN printf('local_file.f%%d', n.i) ELSE printf('terraform_data.d%%d', n.i) END, '',
			CASE WHEN n.i %% 10 = 0 THEN 'local_file' ELSE 'terraform_data' END, '', 'p', 'update', '', '[]', '', '',
			CASE WHEN n.i %% 7 = 0 THEN 'failed' ELSE 'updated' END, '', '', 0, 0, '[{"path":"content","before":"a","after":"b"}]'
			FROM runs r, n`, perRun-1),
		schemaSQL,
		`ANALYZE`,
	} {
		if !fresh && newest != 0 {
			break
		}
		if _, err := db.Exec(q); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	ctx := context.Background()
	queries := map[string]struct {
		q    Query
		want int
	}{
		// As the CLI asks, with its default -limit.
		"type-status-since": {Query{Runs: RunFilter{Since: now.Add(-7 * 24 * time.Hour)}, Entries: EntryFilter{Type: "local_file", Outcomes: []Outcome{Updated}}, Limit: 1000}, 1000},
		// All 42,921 answers (-limit=0): most of the time is decoding them.
		"type-status-since-all": {Query{Runs: RunFilter{Since: now.Add(-7 * 24 * time.Hour)}, Entries: EntryFilter{Type: "local_file", Outcomes: []Outcome{Updated}}}, 251 * 171},
		"address":               {Query{Entries: EntryFilter{Address: "local_file.f1230"}}, 1000},
		"address-glob":          {Query{Runs: RunFilter{Command: "plan"}, Entries: EntryFilter{Address: "local_file.f12*", Outcomes: []Outcome{Failed}}}, 334},
	}
	for name, tt := range queries {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				items, err := s.Query(ctx, tt.q)
				if err != nil {
					b.Fatal(err)
				}
				if len(items) != tt.want {
					b.Fatalf("%d items, want %d", len(items), tt.want)
				}
			}
		})
	}
}
