// Package runrecord keeps the run records: one Run per command that plans
// or changes state, with one Entry per resource instance the run
// considered (its planned action, its outcome and each changed attribute)
// and one per drift found by refresh, after Chef's Action Collection and
// Puppet's per-attribute change reports.
//
// Records are written as the run goes, through a Writer that appends them
// to the run's log file (CreateLog) within Window, so that the apply's own
// goroutines only append to a buffer and a killed run keeps its record up
// to the crash; Ingest later moves run logs into a Store. Storage is behind
// the Store interface; Open gives the embedded SQLite store (a file under
// the data directory).
//
// It imports only lang/marks of strata's (values are diffed as go-cty
// values) and must not import internal/command or internal/engine.
package runrecord
