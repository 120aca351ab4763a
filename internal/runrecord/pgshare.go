package runrecord

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Shared keeps the run logs of the working directories of one pg backend
// in a table of its database and schema (strata_run_logs), so that each
// sees the runs of all: a run uploads its log when it ends, and a query
// first downloads the logs it has not seen into its own directory, where
// Ingest moves them into its database as it does its own.
type Shared struct {
	// Schema is the pg backend's schema ("" for terraform_remote_state).
	Schema string
	// Session runs fn on the pg backend's session of the command
	// (statemgr.PG.UseSession).
	Session func(ctx context.Context, fn func(*pgx.Conn) error) error
}

func (s Shared) table() string {
	schema := s.Schema
	if schema == "" {
		schema = "terraform_remote_state"
	}
	return pgx.Identifier{schema, "strata_run_logs"}.Sanitize()
}

// with runs fn on the session, after creating the table when missing.
func (s Shared) with(ctx context.Context, fn func(*pgx.Conn) error) error {
	return s.Session(ctx, func(c *pgx.Conn) error {
		if _, err := c.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+s.table()+` (id text PRIMARY KEY, started_at timestamptz NOT NULL, data bytea NOT NULL)`); err != nil {
			return err
		}
		return fn(c)
	})
}

// Upload stores the log of an ended run (DIR/ID.log) and deletes the
// runs beyond the retention's Keep newest.
func (s Shared) Upload(ctx context.Context, path string, r Retention) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	rl, err := readLog(path)
	if err != nil {
		return err
	}
	return s.with(ctx, func(c *pgx.Conn) error {
		if _, err := c.Exec(ctx, `INSERT INTO `+s.table()+` (id, started_at, data) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
			rl.run.ID, rl.run.Started, data); err != nil {
			return err
		}
		if r.Keep > 0 {
			if _, err := c.Exec(ctx, `DELETE FROM `+s.table()+` WHERE id NOT IN (SELECT id FROM `+s.table()+` ORDER BY started_at DESC, id DESC LIMIT $1)`, r.Keep); err != nil {
				return err
			}
		}
		if r.MaxAge > 0 {
			if _, err := c.Exec(ctx, `DELETE FROM `+s.table()+` WHERE started_at < $1`, time.Now().Add(-r.MaxAge)); err != nil {
				return err
			}
		}
		return nil
	})
}

// Download writes into dir, as logs of ended runs for Ingest, the logs
// of the table whose runs s does not hold, returning how many.
func (s Shared) Download(ctx context.Context, dir string, local Store) (int, error) {
	known := map[string]bool{}
	if local != nil {
		runs, err := local.Runs(ctx, RunFilter{})
		if err != nil {
			return 0, err
		}
		for _, r := range runs {
			if r.Outcome != RunRunning {
				known[r.ID] = true
			}
		}
	}
	n := 0
	err := s.with(ctx, func(c *pgx.Conn) error {
		// The IDs first: only the logs this directory lacks are fetched, so
		// that a query does not read every run's log each time.
		idRows, err := c.Query(ctx, `SELECT id FROM `+s.table()+` ORDER BY id`)
		if err != nil {
			return err
		}
		var missing []string
		for idRows.Next() {
			var id string
			if err := idRows.Scan(&id); err != nil {
				idRows.Close()
				return err
			}
			if known[id] || strings.ContainsAny(id, `/\`) {
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, id+endedSuffix)); err == nil {
				continue
			}
			missing = append(missing, id)
		}
		idRows.Close()
		if err := idRows.Err(); err != nil {
			return err
		}
		if len(missing) == 0 {
			return nil
		}
		rows, err := c.Query(ctx, `SELECT id, data FROM `+s.table()+` WHERE id = ANY($1) ORDER BY id`, missing)
		if err != nil {
			return err
		}
		defer rows.Close()
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		for rows.Next() {
			var id string
			var data []byte
			if err := rows.Scan(&id, &data); err != nil {
				return err
			}
			path := filepath.Join(dir, id+endedSuffix)
			tmp := path + ".tmp"
			if err := os.WriteFile(tmp, data, 0o600); err != nil {
				return err
			}
			if err := os.Rename(tmp, path); err != nil {
				return err
			}
			n++
		}
		if err := rows.Err(); err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		return nil
	})
	return n, err
}
