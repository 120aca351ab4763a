package builtin

import (
	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/builtin/terraform"
)

// Factories returns the factories of all built-in providers, keyed by
// provider address.
func Factories() map[addrs.Provider]providers.Factory {
	return map[addrs.Provider]providers.Factory{
		addrs.NewBuiltInProvider("terraform"): func() (providers.Interface, error) { return terraform.New(), nil },
	}
}
