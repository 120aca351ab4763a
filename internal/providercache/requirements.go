package providercache

import (
	"sort"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
)

// NeededProviders lists the providers a configuration uses: the
// required_providers of its modules and those their resources imply,
// sorted.
func NeededProviders(cfg *configs.Config) []addrs.Provider {
	seen := map[addrs.Provider]bool{}
	cfg.DeepEach(func(c *configs.Config) {
		for _, p := range ModuleProviders(c.Module) {
			seen[p] = true
		}
	})
	return sortedProviders(seen)
}

// ModuleProviders lists the providers one module uses, sorted.
func ModuleProviders(mod *configs.Module) []addrs.Provider {
	seen := map[addrs.Provider]bool{}
	for _, rp := range mod.RequiredProviders {
		seen[rp.Source] = true
	}
	for _, rs := range []map[string]*configs.Resource{mod.ManagedResources, mod.DataResources, mod.EphemeralResources} {
		for _, r := range rs {
			seen[mod.ProviderForLocalName(r.ProviderLocalName())] = true
		}
	}
	for _, p := range mod.ProviderConfigs {
		seen[mod.ProviderForLocalName(p.Name)] = true
	}
	return sortedProviders(seen)
}

func sortedProviders(seen map[addrs.Provider]bool) []addrs.Provider {
	out := make([]addrs.Provider, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// Constraints returns the version constraints the modules of the
// configuration place on a provider, combined, and as written in the
// lock file.
func Constraints(cfg *configs.Config, p addrs.Provider) (version.Constraints, string, hcl.Diagnostics) {
	var parts []string
	cfg.DeepEach(func(c *configs.Config) {
		for _, name := range sortedNames(c.Module.RequiredProviders) {
			rp := c.Module.RequiredProviders[name]
			if rp.Source == p && rp.Requirement.Required != nil {
				parts = append(parts, rp.Requirement.Required.String())
			}
		}
	})
	if len(parts) == 0 {
		return nil, "", nil
	}
	s, err := configs.NormalizeVersionConstraints(parts)
	if err != nil {
		return nil, "", errorDiag("Invalid version constraint", err)
	}
	c, err := version.NewConstraint(s)
	if err != nil {
		return nil, "", errorDiag("Invalid version constraint", err)
	}
	return c, s, nil
}

func sortedNames[T any](m map[string]T) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
