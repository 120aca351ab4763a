package runrecord

import (
	"context"
	"time"
)

// Store keeps run records. Write applies a batch in one transaction;
// the queries read what is committed. The SQLite store (Open) is the
// embedded one; a shared one (such as the pg backend's database) would
// implement the same interface.
type Store interface {
	// Write stores the batch's runs and entries, replacing those with the
	// same ID (runs) or run ID and Seq (entries), all or nothing.
	Write(ctx context.Context, b Batch) error
	// Runs lists runs, latest first.
	Runs(ctx context.Context, f RunFilter) ([]Run, error)
	// Run returns one run, the latest when id is "", or (nil, nil) when
	// there is none. A unique prefix of an ID finds its run.
	Run(ctx context.Context, id string) (*Run, error)
	// Entries lists a run's entries in order, with their changes.
	Entries(ctx context.Context, runID string, f EntryFilter) ([]Entry, error)
	// History lists the stored changes of one resource instance (and
	// attribute path and the paths under it, when attr is not ""), oldest
	// first, from runs that changed something (not noop runs).
	History(ctx context.Context, address, attr string) ([]HistoryItem, error)
	// Query lists the entries of many runs, latest run first, each with
	// its run. Up-to-date entries are listed only when the filter's
	// Outcomes name them.
	Query(ctx context.Context, q Query) ([]QueryItem, error)
	// Recover marks runs of this host left "running" by a process that
	// is gone as crashed, and their in-flight entries as unknown.
	Recover(ctx context.Context, host string, alive func(pid int) bool) error
	// Prune deletes runs beyond the retention, returning how many.
	Prune(ctx context.Context, r Retention) (int, error)
	// Delete deletes one run (by its full ID) and its entries; deleting
	// a run that does not exist is not an error.
	Delete(ctx context.Context, id string) error
	Close() error
}

// Batch is what Write stores.
type Batch struct {
	Runs    []Run
	Entries []Entry
	// UpToDate are entries with nothing to do, stored compactly (only
	// their identity: the action is no-op, the outcome up_to_date); they
	// are never written again.
	UpToDate []Entry
	// Whole is true when the batch holds the whole record of its runs:
	// the entries stored before for them are replaced.
	Whole bool
}

// RunFilter selects runs; zero fields select everything.
type RunFilter struct {
	Limit   int
	Since   time.Time
	Command string
	Outcome string
}

// EntryFilter selects entries; zero fields select everything.
type EntryFilter struct {
	// Outcomes keeps entries with one of these outcomes.
	Outcomes []Outcome
	// Type keeps entries of this resource type.
	Type string
	// Module keeps entries in this module instance ("module.a").
	Module string
	// Address keeps entries whose address matches this glob (* and ?).
	Address string
	// Kind keeps entries of this kind (change, drift).
	Kind string
}

// Retention bounds how many runs are kept: the newest Keep runs (0: no
// limit) that are younger than MaxAge (0: no limit).
type Retention struct {
	Keep   int
	MaxAge time.Duration
}

// DefaultRetention keeps the last 1,000 runs.
var DefaultRetention = Retention{Keep: 1000}

// Query selects entries across runs: the runs by Runs (its Limit is
// ignored), their entries by Entries; Limit bounds the entries listed
// (0: no limit).
type Query struct {
	Runs    RunFilter
	Entries EntryFilter
	Limit   int
}

// QueryItem is an entry and the run it belongs to.
type QueryItem struct {
	Entry
	Command    string    `json:"command"`
	RunStarted time.Time `json:"run_started_at"`
	RunOutcome string    `json:"run_outcome"`
	User       string    `json:"user"`
}
