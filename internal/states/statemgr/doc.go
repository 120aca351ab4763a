// Package statemgr persists state snapshots and guards them with locks.
// Manager is what commands use; internal/backend chooses the
// implementation from the configured backend.
//
// Local keeps the state in a file: it writes atomically (temporary file,
// fsync, rename, fsync of the directory), keeps a backup of the previous
// snapshot, takes an OS lock while a command runs, and keeps an
// append-only journal during apply so that a crash loses nothing a
// provider finished.
//
// PG keeps each workspace's state in a row of the table Terraform's pg
// backend uses, locked with Postgres advisory locks that the server
// releases when their holder's session ends. HTTP keeps the state behind
// a URL, locked with LOCK/UNLOCK requests. Both embed RemoteJournal: the
// journal is a local file replayed into the store by the next command.
// Inmem keeps it in the process's memory, for tests.
//
// It imports states, statefile, addrs and encryption.
package statemgr
