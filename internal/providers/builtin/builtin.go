package builtin

import (
	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/builtin/terraform"
)

// Factories returns the factories of all built-in providers, keyed by
// provider address.
func Factories() map[addrs.Provider]providers.Factory {
	return FactoriesWith(Options{})
}

// FactoriesWith is Factories for a command: o gives the working directory,
// the environment and the encryption of the states terraform_remote_state
// reads (see terraform.Provider).
func FactoriesWith(o Options) map[addrs.Provider]providers.Factory {
	return map[addrs.Provider]providers.Factory{
		addrs.NewBuiltInProvider("terraform"): func() (providers.Interface, error) {
			return &terraform.Provider{RemoteStateEncryption: o.RemoteStateEncryption, WorkDir: o.WorkDir, Getenv: o.Getenv}, nil
		},
	}
}

// Options are what the built-in providers take from the command running
// them; the zero value is the process's directory and environment, and
// no state encryption.
type Options struct {
	// RemoteStateEncryption gives the encryption of the states
	// terraform_remote_state reads, by data source.
	RemoteStateEncryption func(key string) *encryption.Target
	// WorkDir is the absolute working directory.
	WorkDir string
	// Getenv reads the environment.
	Getenv func(string) string
}
