// Package configs loads a configuration directory (*.tf and *.tf.json files)
// into a Module: variables, locals, outputs, resources, provider
// configurations and the terraform block. It reports problems as
// hcl.Diagnostics with source ranges and keeps the parsed files so that
// diagnostics can show source snippets.
//
// It imports addrs and configschema only.
package configs
