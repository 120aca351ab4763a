// Package initwd prepares a working directory's modules: it installs the
// modules a configuration calls (local paths in place, git::file://
// repositories cloned into .terraform/modules) and writes the module
// manifest .terraform/modules/modules.json as Terraform does.
//
// It imports addrs and configs; only internal/command uses it.
package initwd
