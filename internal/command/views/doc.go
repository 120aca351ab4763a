// Package views renders everything strata shows the user: diagnostics,
// plans, apply progress, outputs and state. Commands write only through a
// View, never to os.Stdout directly. colorstring markup is used only here
// and resolved by View according to -no-color.
//
// It imports addrs, plans, states, configs (for source snippets) and
// engine/hooks, but never the engine itself.
package views
