// Package statecmd is the commands that edit or show the state directly:
// `strata state list|show|mv|rm|pull|push|replace-provider`, `taint` and
// `untaint`. Each opens the state through one helper (Env.open: find the
// state of -state or of the selected workspace, arrange its timestamped
// backup, lock it, read it) and writes it back through the state manager.
//
// What they need of the rest of the CLI (output streams, argument errors,
// the working directory's backend, provider schemas) comes in an Env that
// package command builds from its Deps. It imports addrs, states,
// statefile, statemgr, configschema, marks and command/views; only
// package command imports it.
package statecmd
