// Package states models a state snapshot: the resource instance objects
// strata manages, each stored in its raw, provider-returned form (Src) so
// that the provider can upgrade it, plus the root module's output values.
//
// SyncState wraps a State for concurrent use during graph walks.
// It imports only addrs; statefile and statemgr build on it.
package states
