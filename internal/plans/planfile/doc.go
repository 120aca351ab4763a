// Package planfile writes and reads saved plans (`strata plan -out=FILE`).
// A plan file is a zip archive holding everything `strata apply FILE`
// needs to do exactly what was reviewed: the planned changes with their
// values, unknowns and sensitive marks, the previous-run and prior states,
// the variable values, a snapshot of the configuration files and the
// dependency lock file. A manifest records strata's version and a SHA-256
// checksum of every other entry, so that a truncated or altered file, or
// one made by another version, is refused. website/docs/plan-file.md
// documents the format.
//
// It imports plans, statefile, addrs and lang/marks.
package planfile
