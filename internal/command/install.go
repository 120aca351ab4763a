package command

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/cliconfig"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/depsfile"
	"github.com/strata-dev/strata/internal/getproviders"
	"github.com/strata-dev/strata/internal/initwd"
	"github.com/strata-dev/strata/internal/providercache"
)

// providersDir is where init installs providers and every command finds
// them.
var providersDir = filepath.Join(".terraform", "providers")

// installModules installs the modules of the configuration whose root
// module is root (see initwd.InstallModules), printing its progress on v.
func installModules(ctx context.Context, v *views.View, root *configs.Module, upgrade bool) hcl.Diagnostics {
	files, diags := initwd.InstallModules(ctx, root, initwd.Options{
		Upgrade: upgrade,
		Output:  v.InitOutput,
		Log:     rawLogger(v),
	})
	// Diagnostics about the modules' own files need their sources for
	// snippets, beside the root module's.
	if len(files) > 0 {
		all := make(map[string]*hcl.File, len(v.Files)+len(files))
		for name, f := range files {
			all[name] = f
		}
		for name, f := range v.Files {
			all[name] = f
		}
		v.SetFiles(all)
	}
	return diags
}

// rawLogger prints progress lines as they are: a "log" message with
// -json, else a line of text that colorstring does not read.
func rawLogger(v *views.View) func(string) {
	return func(line string) {
		if v.Stream != nil {
			v.Stream.Log(line)
			return
		}
		v.Raw(line + "\n")
	}
}

// installProviders selects, verifies and installs the providers the
// configuration needs, from -plugin-dir or from the sources the CLI
// configuration describes (local mirrors, network mirrors, registries),
// through the plugin cache when one is set, and records them in the
// dependency lock file.
func installProviders(ctx context.Context, d *Deps, v *views.View, cfg *configs.Config, opts *initOptions) hcl.Diagnostics {
	locks, diags := depsfile.Load(depsfile.FileName)
	if diags.HasErrors() {
		return diags
	}
	cli, cdiags := cliconfig.Load(d.Getenv)
	if cdiags.HasErrors() {
		return cdiags
	}
	var source getproviders.Source
	cacheDir := ""
	creds := cli.Tokens(os.Environ())
	if len(opts.pluginDir) > 0 {
		source = getproviders.DirSource(opts.pluginDir)
	} else {
		var sdiags hcl.Diagnostics
		if source, sdiags = cliconfig.ProviderSource(cli, d.Getenv, creds, providersDir); sdiags.HasErrors() {
			return sdiags
		}
		cacheDir = cli.PluginCacheDir
	}
	inst := &providercache.Installer{
		Source:       source,
		Client:       creds.Client(nil),
		Dir:          providersDir,
		CacheDir:     cacheDir,
		MayBreakLock: cli.PluginCacheMayBreakLock,
		Upgrade:      opts.upgrade,
		Log:          v.InitLog,
	}
	newLocks, idiags := inst.EnsureProviders(ctx, cfg, locks, cli.DevOverrides)
	diags = append(diags, idiags...)
	if idiags.HasErrors() {
		return diags
	}
	if inst.Community() {
		const partner = "Partner and community providers are signed by their developers.\n" +
			"If you'd like to know more about provider signing, you can read about it here:\n" +
			"https://developer.hashicorp.com/terraform/cli/plugins/signing"
		v.InitLog("\n"+partner+"\n", partner)
	}
	diags = append(diags, cli.DevOverrideWarning(true)...)
	if !providercache.LocksChanged(locks, newLocks) {
		return diags
	}
	if err := depsfile.Save(depsfile.FileName, newLocks); err != nil {
		return append(diags, errorDiag("Failed to write the dependency lock file", err)...)
	}
	if len(locks) == 0 {
		const lockInfo = "strata has created a lock file %s.terraform.lock.hcl%s to record the provider\nselections it made above. Include this file in your version control repository\nso that strata can guarantee to make the same selections by default when\nyou run \"strata init\" in the future."
		v.InitOutput("lock_info", "\n"+fmt.Sprintf(lockInfo, "[bold]", "[reset]")+"\n", fmt.Sprintf(lockInfo, "", ""))
	}
	return diags
}

// devOverrideWarnings loads the CLI configuration for the warning about
// development overrides; a broken file is reported by init.
func devOverrideWarnings(d *Deps) hcl.Diagnostics {
	cfg, _ := cliconfig.Load(d.Getenv)
	return cfg.DevOverrideWarning(false)
}

func sortedNames[T any](m map[string]T) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
