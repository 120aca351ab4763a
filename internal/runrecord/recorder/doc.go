// Package recorder turns a plan and the engine's hook events into the
// entries of a run record (package runrecord; see website/docs/runs.md):
// one Recorder per command that plans or changes state. Everything it
// does on the apply's goroutines is a map update under a mutex and an
// append to the run log's buffer, which the runrecord.Writer writes out. It also holds the
// settings read from the environment (Enabled, RetentionFromEnv) and the
// ingestion of run logs with the completion (and sharing) of crashed
// runs (Ingest).
//
// A nil *Recorder records nothing, so that commands need not check
// whether recording is on.
package recorder

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/strata-dev/strata/internal/runrecord"
)

// Enabled reports whether commands record runs: STRATA_RUNS=0 (or
// false, off, no) turns recording off. getenv reads the environment.
func Enabled(getenv func(string) string) bool {
	switch strings.ToLower(getenv("STRATA_RUNS")) {
	case "0", "false", "off", "no":
		return false
	}
	return true
}

// RetentionFromEnv reads STRATA_RUNS_KEEP (a number of runs) and
// STRATA_RUNS_MAX_AGE (a Go duration such as 720h, or a number of days
// followed by d).
func RetentionFromEnv(getenv func(string) string) runrecord.Retention {
	r := runrecord.DefaultRetention
	if v := getenv("STRATA_RUNS_KEEP"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			r.Keep = n
		}
	}
	if v := getenv("STRATA_RUNS_MAX_AGE"); v != "" {
		if days, ok := strings.CutSuffix(v, "d"); ok {
			if n, err := strconv.Atoi(days); err == nil {
				r.MaxAge = time.Duration(n) * 24 * time.Hour
			}
		} else if dur, err := time.ParseDuration(v); err == nil {
			r.MaxAge = dur
		}
	}
	return r
}

// ThisHost is the host whose dead runs ingestion may complete. With the
// pg backend (shared not nil), the completed record of a crashed run is
// uploaded to its table as an ended run's is, so that the other working
// directories see it.
func ThisHost(shared *runrecord.Shared, r runrecord.Retention) runrecord.Host {
	name, _ := os.Hostname()
	h := runrecord.Host{Name: name, Alive: ProcessAlive}
	if shared != nil {
		h.Crashed = func(ctx context.Context, path string) error {
			ctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			return shared.Upload(ctx, path, r)
		}
	}
	return h
}

// Ingest moves the run logs in dir into the store, completes the records
// of runs whose process died (sharing them through shared, the pg
// backend's table, when not nil), and prunes old runs. What goes wrong
// goes to warn: records never stop a command.
func Ingest(ctx context.Context, store runrecord.Store, dir string, shared *runrecord.Shared, r runrecord.Retention, warn func(string)) {
	if warn == nil {
		warn = func(string) {}
	}
	h := ThisHost(shared, r)
	if err := runrecord.Ingest(ctx, store, dir, h); err != nil {
		warn(fmt.Sprintf("run records: ingesting run logs: %s", err))
	}
	// Runs left "running" in the database by a strata that wrote there
	// directly.
	if err := store.Recover(ctx, h.Name, h.Alive); err != nil {
		warn(fmt.Sprintf("run records: recovering crashed runs: %s", err))
	}
	if _, err := store.Prune(ctx, r); err != nil {
		warn(fmt.Sprintf("run records: pruning: %s", err))
	}
}
