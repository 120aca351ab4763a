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
	return FactoriesWith(nil)
}

// FactoriesWith is Factories with remoteState giving the encryption of
// the states terraform_remote_state reads, by data source (see
// terraform.Provider).
func FactoriesWith(remoteState func(key string) *encryption.Target) map[addrs.Provider]providers.Factory {
	return map[addrs.Provider]providers.Factory{
		addrs.NewBuiltInProvider("terraform"): func() (providers.Interface, error) {
			return &terraform.Provider{RemoteStateEncryption: remoteState}, nil
		},
	}
}
