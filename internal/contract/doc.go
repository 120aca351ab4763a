// Package contract collects the violations of the provider protocol's
// contract that strata tolerates (the plan and apply invariants of
// website/docs/lifecycle.md, which Terraform only logs for providers on
// the legacy SDK) and the differences a verification read after apply
// finds, so that a run can report them once, as a summary, instead of
// hiding them in a debug log.
//
// It is a leaf: it imports nothing of strata's, and the engine (which
// finds violations) and the views (which show them) both import it.
package contract
