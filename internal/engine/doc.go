// Package engine plans and applies changes: it builds a dependency graph of
// a configuration's variables, locals, resources and outputs, walks it with
// package dag, and drives each resource instance through the lifecycle of
// shared/seeds/003: upgrade, refresh, proposed new state, plan with
// validity checks, final plan and apply with compatibility checks.
//
// It imports configs, lang, plans, providers, states and addrs; only
// command imports it.
package engine
