package command

import (
	"context"
	"net/http"
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/cliconfig"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/datadir"
	"github.com/strata-dev/strata/internal/depsfile"
	"github.com/strata-dev/strata/internal/getproviders"
	"github.com/strata-dev/strata/internal/initwd"
	"github.com/strata-dev/strata/internal/moduletest"
	"github.com/strata-dev/strata/internal/providercache"
)

// providersDir is where init installs providers and every command finds
// them, in the data directory.
func providersDir(d *Deps) string { return d.dataDir("providers") }

// installModules installs the modules of the configuration whose root
// module is root and those of the run blocks of its test files in the
// working directory and testDir (see initwd.InstallModules), printing its
// progress on v.
func installModules(ctx context.Context, d *Deps, v *views.View, root *configs.Module, upgrade bool, testDir string) hcl.Diagnostics {
	runs, testFiles, diags := moduletest.RunModules(d.newParser(), ".", testDir)
	addSources(v, testFiles)
	if diags.HasErrors() {
		return append(hcl.Diagnostics{initConfigProblems()}, diags...)
	}
	reg, client, rdiags := moduleSources(d)
	if rdiags.HasErrors() {
		return rdiags
	}
	files, idiags := initwd.InstallModules(ctx, root, initwd.Options{
		WorkDir:     d.Dir,
		DataDir:     datadir.PathEnv(d.Getenv),
		Environ:     d.Environ,
		Upgrade:     upgrade,
		Output:      v.InitOutput,
		Log:         rawLogger(v),
		TestModules: testModules(runs),
		Registry:    reg,
		HTTPClient:  client,
	})
	diags = append(diags, idiags...)
	// Diagnostics about the modules' own files need their sources for
	// snippets, beside the root module's.
	addSources(v, files)
	return diags
}

// moduleSources returns what module installation needs to reach module
// registries and download packages: service discovery with the CLI
// configuration's host blocks, and the tokens of its credentials blocks and
// TF_TOKEN_ variables, each sent only to its own host.
func moduleSources(d *Deps) (*getproviders.Registry, *http.Client, hcl.Diagnostics) {
	cli, diags := cliconfig.Load(d.Getenv)
	if diags.HasErrors() {
		return nil, nil, diags
	}
	creds := cli.Tokens(d.environ())
	reg := getproviders.NewRegistry(cli.Hosts, creds, d.Getenv)
	reg.Client = d.httpClient()
	return reg, creds.Client(d.httpClient()), nil
}

// addSources adds files to the sources v shows snippets from.
func addSources(v *views.View, files map[string]*hcl.File) {
	if len(files) == 0 {
		return
	}
	all := make(map[string]*hcl.File, len(v.Files)+len(files))
	for name, f := range files {
		all[name] = f
	}
	for name, f := range v.Files {
		all[name] = f
	}
	v.SetFiles(all)
}

// testModules are the modules of run blocks as initwd installs them.
func testModules(runs []moduletest.RunModule) []initwd.TestModule {
	var out []initwd.TestModule
	for _, r := range runs {
		out = append(out, initwd.TestModule{Key: r.Key, Call: r.Call})
	}
	return out
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
	readonly := opts.lockfile == "readonly"
	if readonly && opts.upgrade {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "The -upgrade flag conflicts with -lockfile=readonly."}}
	}
	locks, diags := depsfile.LoadIn(d.Dir, depsfile.FileName)
	if diags.HasErrors() {
		return diags
	}
	cli, cdiags := cliconfig.Load(d.Getenv)
	if cdiags.HasErrors() {
		return cdiags
	}
	var source getproviders.Source
	cacheDir := ""
	creds := cli.Tokens(d.environ())
	if len(opts.pluginDir) > 0 {
		source = getproviders.DirSource(opts.pluginDir)
	} else {
		var sdiags hcl.Diagnostics
		if source, sdiags = cliconfig.ProviderSource(cli, d.Getenv, creds, providersDir(d), d.Dir, d.httpClient()); sdiags.HasErrors() {
			return sdiags
		}
		cacheDir = cli.PluginCacheDir
	}
	inst := &providercache.Installer{
		Source:       source,
		Client:       creds.Client(d.httpClient()),
		Dir:          providersDir(d),
		CacheDir:     cacheDir,
		MayBreakLock: cli.PluginCacheMayBreakLock,
		Upgrade:      opts.upgrade,
		Unmanaged:    unmanagedProviders(d.Getenv),
		Log:          v.InitLog,
	}
	newLocks, idiags := inst.EnsureProviders(ctx, cfg, locks, cli.DevOverrides)
	diags = append(diags, idiags...)
	if idiags.HasErrors() {
		return diags
	}
	diags = append(diags, cli.DevOverrideWarning(true)...)
	update, sdiags := providercache.SaveLocks(d.abs(depsfile.FileName), locks, newLocks, readonly)
	diags = append(diags, sdiags...)
	switch update {
	case providercache.LocksCreated:
		v.LockFileCreated()
	case providercache.LocksUpdated:
		const changes = "strata has made some changes to the provider dependency selections recorded\nin the .terraform.lock.hcl file. Review those changes and commit them to your\nversion control system if they represent changes you intended to make."
		v.InitOutput("dependencies_lock_changes_info", changes+"\n", changes)
	default:
		return diags
	}
	return append(diags, inst.IncompleteLockWarning(newLocks)...)
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

// copyFromModule copies the module at source into the working directory
// for init -from-module, which must hold no configuration files yet.
func copyFromModule(ctx context.Context, d *Deps, v *views.View, source string) hcl.Diagnostics {
	if diags := initwd.FromModuleTarget(d.Dir); diags.HasErrors() {
		return diags
	}
	v.CopyingConfiguration(source)
	reg, client, rdiags := moduleSources(d)
	if rdiags.HasErrors() {
		return rdiags
	}
	if diags := initwd.FromModule(ctx, source, d.Dir, reg, client, d.Environ); diags.HasErrors() {
		return diags
	}
	if v.Stream == nil {
		v.Raw("\n")
	}
	return nil
}
