package recorder

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/strata-dev/strata/internal/runrecord"
)

// Records says where a working directory keeps its run records, for
// the queries (runs, history).
type Records struct {
	// DBPath is the database, LogDir the directory of run logs.
	DBPath, LogDir string
	// Shared, when not nil, is the pg backend's table of run logs: the
	// logs of the runs of other working directories are brought in first.
	Shared *runrecord.Shared
	// Cipher, when not nil, decrypts the values of the records.
	Cipher    runrecord.Cipher
	Retention runrecord.Retention
	Warn      func(string)
}

// OpenForQuery opens the run records after moving the run logs that wait
// into them (those of the runs shared through the pg backend first), or
// returns nil (and no error) when none were ever written: a query does
// not create the database.
func OpenForQuery(ctx context.Context, rs Records) (runrecord.Store, error) {
	warn := rs.Warn
	if warn == nil {
		warn = func(string) {}
	}
	if rs.Shared != nil {
		var local runrecord.Store
		if _, err := os.Stat(rs.DBPath); err == nil {
			local, _ = runrecord.Open(rs.DBPath)
		}
		if _, err := rs.Shared.Download(ctx, rs.LogDir, local); err != nil {
			warn(fmt.Sprintf("run records: reading the runs shared through the pg backend: %s", err))
		}
		if local != nil {
			local.Close()
		}
	}
	if _, err := os.Stat(rs.DBPath); errors.Is(err, os.ErrNotExist) {
		ended, running, _ := runrecord.Logs(rs.LogDir)
		if len(ended)+len(running) == 0 {
			return nil, nil
		}
	}
	var opts []runrecord.Option
	if rs.Cipher != nil {
		opts = append(opts, runrecord.WithCipher(rs.Cipher))
	}
	store, err := runrecord.Open(rs.DBPath, opts...)
	if err != nil {
		return nil, err
	}
	Ingest(ctx, store, rs.LogDir, rs.Shared, rs.Retention, warn)
	return store, nil
}
