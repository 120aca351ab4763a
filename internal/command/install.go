package command

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/depsfile"
	"github.com/strata-dev/strata/internal/getproviders"
)

// providersDir is where init installs providers and every command finds
// them.
var providersDir = filepath.Join(".terraform", "providers")

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
	cli, cdiags := loadCLIConfig(d.Getenv)
	if cdiags.HasErrors() {
		return cdiags
	}
	var source getproviders.Source
	cacheDir := ""
	creds := cli.credentials(os.Environ())
	if len(opts.pluginDir) > 0 {
		source = getproviders.DirSource(opts.pluginDir)
	} else {
		var sdiags hcl.Diagnostics
		if source, sdiags = providerSource(cli, d.Getenv, creds); sdiags.HasErrors() {
			return sdiags
		}
		cacheDir = cli.PluginCacheDir
	}
	inst := &installer{ctx: ctx, v: v, source: source, client: creds.Client(nil), cacheDir: cacheDir, mayBreakLock: cli.PluginCacheMayBreakLock, upgrade: opts.upgrade}
	newLocks := depsfile.Locks{}
	changed := false
	for _, p := range neededProviders(cfg) {
		if p.IsBuiltIn() {
			v.InitLog(fmt.Sprintf("- %s is built in to strata\n", p.String()), p.String()+" is built in to strata")
			continue
		}
		if dir, ok := cli.DevOverrides[p]; ok {
			v.InitLog(fmt.Sprintf("- Skipping %s: development override in %s\n", p.ForDisplay(), dir), fmt.Sprintf("%s: Skipping, development override in %s", p.ForDisplay(), dir))
			if old := locks[p]; old != nil {
				newLocks[p] = old
			}
			continue
		}
		constraints, cstr, cdiags := providerConstraints(cfg, p)
		if cdiags.HasErrors() {
			return cdiags
		}
		nl, idiags := inst.install(p, constraints, cstr, locks[p])
		diags = append(diags, idiags...)
		if idiags.HasErrors() {
			return diags
		}
		if old := locks[p]; old == nil || old.Version != nl.Version || old.Constraints != nl.Constraints || !sameHashes(old.Hashes, nl.Hashes) {
			changed = true
		}
		newLocks[p] = nl
	}
	if inst.community {
		const partner = "Partner and community providers are signed by their developers.\n" +
			"If you'd like to know more about provider signing, you can read about it here:\n" +
			"https://developer.hashicorp.com/terraform/cli/plugins/signing"
		v.InitLog("\n"+partner+"\n", partner)
	}
	diags = append(diags, cli.devOverrideWarning(true)...)
	if len(newLocks) != len(locks) {
		changed = true
	}
	if !changed {
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

func sameHashes(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	set := map[string]bool{}
	for _, h := range a {
		set[h] = true
	}
	for _, h := range b {
		if !set[h] {
			return false
		}
	}
	return true
}

// providerConstraints returns the version constraints the modules of the
// configuration place on a provider, combined.
func providerConstraints(cfg *configs.Config, p addrs.Provider) (version.Constraints, string, hcl.Diagnostics) {
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
	s := strings.Join(parts, ", ")
	c, err := version.NewConstraint(s)
	if err != nil {
		return nil, "", errorDiag("Invalid version constraint", err)
	}
	return c, s, nil
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

func sortedNames[T any](m map[string]T) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
