// Package plans holds the model of a plan: the changes proposed for each
// resource instance and output, with their actions and the reasons for them.
//
// It imports addrs and states only; the engine, planfile, jsonplan, the
// run recorder and command import it.
package plans
