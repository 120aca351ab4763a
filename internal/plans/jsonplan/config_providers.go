package jsonplan

import (
	"sort"
	"strings"

	"github.com/hashicorp/go-version"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
)

// providerConfig is one entry of a configuration's "provider_config". The
// keys are Terraform's: NAME or NAME.ALIAS in the root module, and
// MODULE:NAME or MODULE:NAME.ALIAS (module.a.module.b:aws) in a module.
type providerConfig struct {
	Name              string         `json:"name,omitempty"`
	FullName          string         `json:"full_name,omitempty"`
	Alias             string         `json:"alias,omitempty"`
	VersionConstraint string         `json:"version_constraint,omitempty"`
	ModuleAddress     string         `json:"module_address,omitempty"`
	Expressions       map[string]any `json:"expressions,omitempty"`

	// parentKey is the key of the configuration a module's entry stands
	// for: one passed in by the module block, or the default
	// configuration inherited from the caller. Such entries are left out
	// of the document, and resources refer to parentKey instead.
	parentKey string
}

// moduleProviderKey is the key of a provider configuration (NAME or
// NAME.ALIAS) of the module at path.
func moduleProviderKey(path addrs.Module, name string) string {
	if path.IsRoot() {
		return name
	}
	return path.String() + ":" + name
}

// resourceProviderKey is the provider configuration a resource names in
// its module: NAME.ALIAS from its provider argument, or the local name
// its type implies.
func resourceProviderKey(r *configs.Resource) string {
	if r.ProviderRef != nil {
		return r.ProviderRef.String()
	}
	return r.ProviderLocalName()
}

// marshalProviderConfigs collects the provider configurations of every
// module in the tree, as Terraform does: provider blocks; required
// providers without a block; the default configuration of every provider
// a module uses without either; and, in a called module, the
// configurations its module block passes in. Parents come before their
// children, so that a child's entry can find the entry it stands for.
func marshalProviderConfigs(cfg *configs.Config) map[string]*providerConfig {
	m := map[string]*providerConfig{}
	cfg.DeepEach(func(c *configs.Config) {
		mod := c.Module
		reqs := providerRequirements(mod)
		if c.Call != nil {
			for _, pp := range c.Call.Providers {
				fqn := mod.ProviderForLocalName(pp.InChild.Name)
				m[moduleProviderKey(c.Path, pp.InChild.String())] = &providerConfig{
					Name:          pp.InChild.String(),
					FullName:      fqn.String(),
					ModuleAddress: c.Path.String(),
					parentKey:     sourceProviderKey(m, moduleProviderKey(c.Parent.Path, pp.InParent.String()), fqn.String()),
				}
			}
		}
		for _, key := range sortedKeys(mod.ProviderConfigs) {
			pc := mod.ProviderConfigs[key]
			fqn := mod.ProviderForLocalName(pc.Name)
			m[moduleProviderKey(c.Path, key)] = &providerConfig{
				Name:              pc.Name,
				FullName:          fqn.String(),
				Alias:             pc.Alias,
				VersionConstraint: constraintString(reqs[fqn]),
				ModuleAddress:     c.Path.String(),
				Expressions:       marshalExpressions(pc.Config, nil),
			}
		}
		add := func(name string, fqn addrs.Provider) {
			key := moduleProviderKey(c.Path, name)
			if _, ok := m[key]; ok {
				return
			}
			pc := &providerConfig{Name: name, FullName: fqn.String(), VersionConstraint: constraintString(reqs[fqn]), ModuleAddress: c.Path.String()}
			if c.Parent != nil {
				// As in Terraform, the caller's configuration this one
				// stands for is looked up by the same local name (the
				// caller may know the provider by another), and when it
				// has none of that name, the entry stays the module's own.
				pc.parentKey = sourceProviderKey(m, moduleProviderKey(c.Parent.Path, name), fqn.String())
			}
			m[key] = pc
		}
		for _, name := range sortedKeys(mod.RequiredProviders) {
			rp := mod.RequiredProviders[name]
			for _, alias := range rp.ConfigurationAliases {
				key := moduleProviderKey(c.Path, alias.String())
				if _, ok := m[key]; !ok {
					m[key] = &providerConfig{Name: name, FullName: rp.Source.String(), VersionConstraint: constraintString(reqs[rp.Source]), ModuleAddress: c.Path.String()}
				}
			}
			add(name, rp.Source)
		}
		for _, fqn := range sortedProviders(reqs) {
			add(fqn.Type, fqn)
		}
	})
	return m
}

// providerRequirements returns the providers a module itself requires,
// with their version constraints: those in required_providers, those its
// provider blocks configure and those its resources use.
func providerRequirements(mod *configs.Module) map[addrs.Provider]version.Constraints {
	reqs := map[addrs.Provider]version.Constraints{}
	for _, rp := range mod.RequiredProviders {
		reqs[rp.Source] = append(reqs[rp.Source], rp.Requirement.Required...)
	}
	for _, rs := range []map[string]*configs.Resource{mod.ManagedResources, mod.DataResources, mod.EphemeralResources} {
		for _, r := range rs {
			fqn := mod.ProviderForLocalName(r.ProviderLocalName())
			if _, ok := reqs[fqn]; !ok {
				reqs[fqn] = nil
			}
		}
	}
	for _, pc := range mod.ProviderConfigs {
		fqn := mod.ProviderForLocalName(pc.Name)
		if _, ok := reqs[fqn]; !ok {
			reqs[fqn] = nil
		}
	}
	return reqs
}

func sortedProviders(reqs map[addrs.Provider]version.Constraints) []addrs.Provider {
	ret := make([]addrs.Provider, 0, len(reqs))
	for p := range reqs {
		ret = append(ret, p)
	}
	sort.Slice(ret, func(i, j int) bool { return ret[i].String() < ret[j].String() })
	return ret
}

// sourceProviderKey follows the entries a module's configuration stands
// for, from key up towards the root, while they are of the provider
// fullName, and returns the last one found: the configuration actually
// used. It returns "" when there is no entry at key.
func sourceProviderKey(m map[string]*providerConfig, key, fullName string) string {
	found := ""
	for key != "" {
		pc, ok := m[key]
		if !ok || pc.FullName != fullName {
			break
		}
		found, key = key, pc.parentKey
	}
	return found
}

// normalizeProviderKeys points every resource in the module tree whose
// provider configuration stands for another at that other one.
func normalizeProviderKeys(mod *configModule, pcs map[string]*providerConfig) {
	for _, r := range mod.Resources {
		if pc, ok := pcs[r.ProviderConfigKey]; ok {
			if _, ok := pcs[pc.parentKey]; ok {
				r.ProviderConfigKey = pc.parentKey
			}
		}
	}
	for _, call := range mod.ModuleCalls {
		normalizeProviderKeys(call.Module, pcs)
	}
}

// constraintString renders version constraints as Terraform does in the
// plan: in the normalized form of the dependency lock file (full
// three-part versions, duplicates removed, sorted by version and then
// operator). A constraint that does not parse is left as written.
func constraintString(cs version.Constraints) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	s, err := configs.NormalizeVersionConstraints(parts)
	if err != nil {
		return strings.Join(parts, ", ")
	}
	return s
}
