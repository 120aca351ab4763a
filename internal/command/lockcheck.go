package command

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/cliconfig"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/datadir"
	"github.com/strata-dev/strata/internal/depsfile"
	"github.com/strata-dev/strata/internal/providercache"
	"github.com/strata-dev/strata/internal/providers/plugin"
)

// uninstalledProviders lists, as Terraform does before it starts any
// provider, the providers the dependency lock file selects whose package
// is not installed in the working directory.
func uninstalledProviders(d *Deps) []string {
	locks, diags := depsfile.Load(depsfile.FileName)
	if diags.HasErrors() {
		return nil
	}
	found, _ := plugin.FindInstalled(".")
	have := map[string]bool{}
	for _, inst := range found {
		have[inst.Provider.String()+" "+inst.Version.String()] = true
	}
	unmanaged := unmanagedProviders(d.Getenv)
	dev := devOverridden(d)
	var problems []string
	for _, p := range sortedProviderKeys(locks) {
		l := locks[p]
		if p.IsBuiltIn() || unmanaged[p] || dev[p.String()] || have[p.String()+" "+l.Version] {
			continue
		}
		problems = append(problems, fmt.Sprintf("%s: there is no package for %s %s cached in %s", p, p, l.Version, datadir.Join("providers")))
	}
	return problems
}

// uninstalledDiags reports uninstalled providers as plan, apply and the
// other operations do.
func uninstalledDiags(problems []string) hcl.Diagnostics {
	if len(problems) == 0 {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Required plugins are not installed",
		Detail:   "The installed provider plugins are not consistent with the packages selected in the dependency lock file:\n  - " + strings.Join(problems, "\n  - ") + "\n\nstrata uses external plugins to integrate with a variety of different infrastructure services. To download the plugins required for this configuration, run:\n  strata init",
	}}
}

func devOverridden(d *Deps) map[string]bool {
	dev := map[string]bool{}
	if cli, cdiags := cliconfig.Load(d.Getenv); !cdiags.HasErrors() {
		for p := range cli.DevOverrides {
			dev[p.String()] = true
		}
	}
	return dev
}

func sortedProviderKeys(locks depsfile.Locks) []addrs.Provider {
	out := make([]addrs.Provider, 0, len(locks))
	for p := range locks {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// checkDependencyLocks reports, as Terraform does before plan, apply,
// refresh, destroy, import and console, the providers the configuration
// needs that the dependency lock file selects no version of, or a version
// its constraints no longer allow. Built-in providers, reattached ones and
// those with development overrides need no selection.
func checkDependencyLocks(d *Deps, cfg *configs.Config) hcl.Diagnostics {
	locks, diags := depsfile.Load(depsfile.FileName)
	if diags.HasErrors() {
		return diags
	}
	unmanaged := unmanagedProviders(d.Getenv)
	dev := devOverridden(d)
	var problems []string
	for _, p := range providercache.NeededProviders(cfg) {
		if p.IsBuiltIn() || unmanaged[p] || dev[p.String()] {
			continue
		}
		lock := locks[p]
		if lock == nil {
			problems = append(problems, fmt.Sprintf("provider %s: required by this configuration but no version is selected", p))
			continue
		}
		constraints, cstr, _ := providercache.Constraints(cfg, p)
		v, err := version.NewVersion(lock.Version)
		if err == nil && len(constraints) > 0 && !constraints.Check(v) {
			problems = append(problems, fmt.Sprintf("provider %s: locked version selection %s doesn't match the updated version constraints %q", p, lock.Version, cstr))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	advice := "To update the locked dependency selections to match a changed configuration, run:\n  strata init -upgrade"
	if len(locks) == 0 {
		advice = "To make the initial dependency selections that will initialize the dependency lock file, run:\n  strata init"
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Inconsistent dependency lock file",
		Detail:   "The following dependency selections recorded in the lock file are inconsistent with the current configuration:\n  - " + strings.Join(problems, "\n  - ") + "\n\n" + advice,
	}}
}

// missingProviders reports, as Terraform's validation does before it
// starts, each provider the configuration needs that is not available.
func missingProviders(d *Deps, cfg *configs.Config) hcl.Diagnostics {
	factories := d.Providers(".")
	var diags hcl.Diagnostics
	for _, p := range providercache.NeededProviders(cfg) {
		if _, ok := factories[p]; ok || p.IsBuiltIn() {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing required provider",
			Detail:   fmt.Sprintf("This configuration requires provider %s, but that provider isn't available. You may be able to install it automatically by running:\n  strata init", p),
		})
	}
	return diags
}
