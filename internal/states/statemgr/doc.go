// Package statemgr persists state snapshots and guards them with locks.
// Local keeps the state in a file: it writes atomically (temporary file,
// fsync, rename, fsync of the directory), keeps a backup of the previous
// snapshot, takes an OS lock while a command runs, and keeps an
// append-only journal during apply so that a crash loses nothing a
// provider finished.
//
// It imports states and statefile.
package statemgr
