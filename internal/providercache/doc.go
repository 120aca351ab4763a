// Package providercache installs providers into a working directory's
// .terraform/providers, as Terraform's provider installer does: it works
// out which providers a configuration needs and their version
// constraints, selects versions (honouring the dependency lock file),
// installs packages from a getproviders.Source through the optional plugin
// cache, and returns the lock entries to record.
//
// It imports addrs, configs, depsfile and getproviders; only
// internal/command uses it.
package providercache
