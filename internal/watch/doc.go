// Package watch runs strata watch: the engine's plan, and with
// -converge its apply, on a schedule and on events, so that drift is found
// while it happens rather than when someone next runs a plan.
//
// It owns the loop (Watcher), the per-instance refresh schedule with
// jitter, per-type and per-address intervals, back-off and quarantine
// (Scheduler), the event sources (configuration files through fsnotify,
// an explicit trigger), the event stream (Events) and the optional status
// endpoint (health, current drift, Prometheus metrics). It has no engine of
// its own: a Runner, implemented by the command layer, loads the
// configuration and state and runs the engine's plan and apply, with the
// state lock, the journal and the run record, exactly as plan and apply
// do.
//
// Only internal/command imports it.
package watch
