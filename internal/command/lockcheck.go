package command

import (
	"path/filepath"

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
	locks, diags := depsfile.LoadIn(d.Dir, depsfile.FileName)
	if diags.HasErrors() {
		return nil
	}
	found, _ := plugin.FindInstalled(providersDir(d))
	have := map[string]string{}
	for _, inst := range found {
		have[inst.Provider.String()+" "+inst.Version.String()] = filepath.Dir(inst.Path)
	}
	installed := func(p addrs.Provider, version string) string { return have[p.String()+" "+version] }
	return providercache.Uninstalled(locks, installed, selfManaged(d), filepath.Join(datadir.PathEnv(d.Getenv), "providers"))
}

// requiredPlugins reports, as Terraform does whenever it opens the
// backend (plan, apply, output, show, graph, providers, the state and
// workspace commands...), the providers the dependency lock file selects
// whose package is missing or altered, as the single error "Required
// plugins are not installed"; nil when every package is in place.
func requiredPlugins(d *Deps) hcl.Diagnostics {
	return providercache.UninstalledDiags(uninstalledProviders(d), inAutomation(d))
}

// backendPlugins is what Terraform checks when it opens the backend, for
// a command that then needs no state manager (graph, providers): the
// backend's configuration (a backend block init has not set up), then
// the provider packages (requiredPlugins).
func backendPlugins(d *Deps, mod *configs.Module) hcl.Diagnostics {
	if _, diags := resolveBackend(d, mod); diags.HasErrors() {
		return diags
	}
	return requiredPlugins(d)
}

// eachUninstalled reports the same problems as requiredPlugins, each as
// an error of its own with no detail, as Terraform does where it needs
// the providers without opening the backend: validate, show FILE, test,
// and before it applies a saved plan.
func eachUninstalled(d *Deps) hcl.Diagnostics {
	return providercache.UninstalledEach(uninstalledProviders(d))
}

// selfManaged reports the providers strata neither installs nor locks:
// those TF_REATTACH_PROVIDERS hands over running and those with a
// development override in the CLI configuration.
func selfManaged(d *Deps) func(addrs.Provider) bool {
	unmanaged := unmanagedProviders(d.Getenv)
	dev := map[string]bool{}
	if cli, cdiags := cliconfig.Load(d.Getenv); !cdiags.HasErrors() {
		for p := range cli.DevOverrides {
			dev[p.String()] = true
		}
	}
	return func(p addrs.Provider) bool { return unmanaged[p] || dev[p.String()] }
}

// checkDependencyLocks reports, as Terraform does before plan, apply,
// refresh, destroy, import and console, the providers the configuration
// needs that the dependency lock file selects no version of, or a version
// its constraints no longer allow.
func checkDependencyLocks(d *Deps, cfg *configs.Config) hcl.Diagnostics {
	locks, diags := depsfile.LoadIn(d.Dir, depsfile.FileName)
	if diags.HasErrors() {
		return diags
	}
	return providercache.CheckLocks(cfg, locks, selfManaged(d))
}

// missingProviders reports, as Terraform's validation does before it
// starts, each provider the configuration needs that is not available.
func missingProviders(d *Deps, cfg *configs.Config) hcl.Diagnostics {
	factories := d.Providers(".")
	return providercache.Missing(cfg, func(p addrs.Provider) bool { _, ok := factories[p]; return ok })
}

// savedPlanProviderDiags reports, as Terraform does before it applies a
// saved plan, a lock file that no longer matches the plan's configuration
// or the selections the plan was made with (planLockFile, the plan's copy),
// and then each provider package that is missing or altered, as an error
// of its own.
func savedPlanProviderDiags(d *Deps, cfg *configs.Config, planLockFile []byte) hcl.Diagnostics {
	locks, diags := depsfile.LoadIn(d.Dir, depsfile.FileName)
	if diags.HasErrors() {
		return diags
	}
	planLocks, pdiags := depsfile.Parse(planLockFile, depsfile.FileName)
	if pdiags.HasErrors() {
		return pdiags
	}
	if ld := providercache.CheckSavedPlanLocks(cfg, locks, planLocks, selfManaged(d)); ld.HasErrors() {
		return ld
	}
	return append(diags, eachUninstalled(d)...)
}
