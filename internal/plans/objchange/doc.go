// Package objchange holds the pure functions that strata's planning engine
// uses to reason about how a resource instance object changes across the
// provider calls of a plan/apply cycle:
//
//   - ProposedNew merges the configuration with the prior state to build the
//     "proposed new state" handed to a provider's PlanResourceChange.
//   - AssertPlanValid checks a provider's planned state against the
//     configuration and prior state it was given.
//   - AssertObjectCompatible checks that a later object (the final planned
//     state, or the new state returned by ApplyResourceChange) keeps every
//     value that an earlier planned state already knew.
//
// All functions are driven by a configschema.Block and work recursively
// through nested blocks and nested attribute objects of every nesting mode.
// They never call providers and have no side effects. Values are expected to
// be unmarked; the assertion functions strip any marks before comparing.
//
// Errors returned by the assertion functions are cty.PathError values (so
// callers can recover the path with errors.As) whose messages start with the
// path rendered by FormatPath, for example:
//
//	.input: planned value cty.StringVal("b") does not match config value cty.StringVal("a")
package objchange
