// Package initwd prepares a working directory's modules: it installs the
// modules a configuration calls and writes the module manifest
// .terraform/modules/modules.json as Terraform does. Local paths are read
// in place; registry modules (the modules.v1 protocol, with
// getproviders' service discovery and credentials), git repositories
// (the git program), http(s) archives and pages pointing elsewhere, and
// absolute paths are installed into .terraform/modules/KEY, never
// writing outside it. Source addresses are parsed by
// addrs.ParseModuleSource.
//
// It imports addrs, configs, datadir and getproviders; only
// internal/command uses it (and sourcetest, its test servers, only
// tests).
package initwd
