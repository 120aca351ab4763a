// Package backendbase holds what every backend implementation shares:
// the description of a backend type (Info: its name and the arguments of
// its block), the Settings a backend is configured from (the arguments
// set, with the environment variables that stand in for the others), and
// the order of workspace lists.
//
// It is a leaf below internal/backend and its implementations
// (internal/backend/local, pg, http, s3, inmem); of strata's packages it
// imports statemgr only. Commands use internal/backend, not this package.
package backendbase
