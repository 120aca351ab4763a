// Package backend is where commands get state from: the backend a
// working directory configures (a `backend` block, as init recorded it)
// or the default local one.
//
// A Backend gives the state manager (statemgr.Manager: read, write,
// journal, lock, unlock, force-unlock) of each workspace, lists the
// workspaces and deletes them. Each backend type is described by a Type
// in the registry (Lookup): the arguments of its block (the schema init
// records and hashes), whether it keeps a single state, and how a Backend
// is configured from the arguments set, with environment variables
// (PG_*, TF_HTTP_*, AWS_*) for the others. Config is the decoded block, with
// init's -backend-config options merged in; Saved is its record in
// .terraform/terraform.tfstate. terraform_remote_state reads other
// configurations' states through the same types (StateReader).
//
// Each implementation is a package of its own: local, pg, http, s3 and
// inmem. Adding a backend (as s3 was added) is exactly one new package here,
// internal/backend/NAME, exporting `Info` (a backendbase.Info: name and
// schema) and `New(*backendbase.Settings) (*Backend, hcl.Diagnostics)`
// whose *Backend implements Backend (and StateReader, to be readable by
// terraform_remote_state), plus one line in the registry in registry.go.
// A remote backend's state manager, in its package too, implements
// statemgr.Manager with what every manager shares: statemgr.FreshState
// when nothing is stored, statemgr.EncodeSnapshot for the bytes to store
// (serial and lineage rules), statemgr.LockInfo and LockError for its
// lock, and an embedded statemgr.RemoteJournal for the journal of an
// apply. Nothing outside
// this package compares backend type names.
//
// It imports statemgr, states, statefile and its implementations; the
// engine, plans and providers do not import it (the terraform provider's
// terraform_remote_state does).
package backend
