// Package providers defines Interface, the one set of operations through
// which the engine talks to every provider — built-in ones running in
// process and plugins speaking the Terraform plugin protocol alike. The
// operations and their request and response structs mirror the protocol's
// RPCs (version 6 names).
//
// It imports only configschema; it must never import configs,
// states, plans or the engine.
package providers
