// Package plans holds the model of a plan: the changes proposed for each
// resource instance and output, with their actions and the reasons for them.
//
// It imports addrs, states and configschema; the engine and command import it.
package plans
