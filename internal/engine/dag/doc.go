// Package dag is a small, generic directed-graph library used by the engine
// to order resource operations and to run them in parallel.
//
// # Edge direction
//
// An edge From -> To means "From depends on To": To must be walked (and must
// succeed) before From is started. Consequently:
//
//   - DependsOn(v) lists v's direct dependencies (its out edges);
//   - Dependents(v) lists the vertices that directly depend on v (its in
//     edges);
//   - Descendants(v) is the transitive closure of DependsOn: everything v
//     needs, directly or indirectly (useful for -target: a targeted vertex
//     plus its Descendants is the minimal set that must be walked);
//   - Ancestors(v) is the transitive closure of Dependents: everything that
//     is affected when v changes.
//
// # Determinism
//
// Every query returns vertices in insertion order (the order in which the
// vertices were first added; a vertex that is removed and added again moves
// to the end). Walk starts ready vertices in insertion order and returns its
// diagnostics sorted by insertion order, so its output does not depend on
// goroutine scheduling.
//
// # Concurrency
//
// A Graph is not safe for concurrent mutation. Walk takes a snapshot of the
// graph's structure before calling any callback, so later changes to the
// graph do not affect a running walk, but the callbacks of a walk must not
// mutate the graph concurrently with each other without external locking.
package dag
