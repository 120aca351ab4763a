package command

import (
	"fmt"
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
// configuration needs from local provider directories, and records them
// in the dependency lock file.
func installProviders(d *Deps, v *views.View, cfg *configs.Config, opts *initOptions) hcl.Diagnostics {
	locks, diags := depsfile.Load(depsfile.FileName)
	if diags.HasErrors() {
		return diags
	}
	dirs := opts.pluginDir
	if len(dirs) == 0 {
		mirrors, mdiags := providerMirrors(d)
		if mdiags.HasErrors() {
			return mdiags
		}
		// A package "terraform init" already installed counts as a
		// source too, so strata can share Terraform's installation.
		dirs = append(mirrors, providersDir)
	}
	newLocks := depsfile.Locks{}
	changed := false
	for _, p := range neededProviders(cfg) {
		if p.IsBuiltIn() {
			v.Outputf("- %s is built in to strata\n", p.String())
			continue
		}
		constraints, cstr, cdiags := providerConstraints(cfg, p)
		if cdiags.HasErrors() {
			return cdiags
		}
		lock := locks[p]
		locked := ""
		if lock != nil && !opts.upgrade {
			locked = lock.Version
			v.Outputf("- Reusing previous version of %s from the dependency lock file\n", p.ForDisplay())
		} else {
			v.Outputf("- Finding latest version of %s...\n", p.ForDisplay())
		}
		pkg, err := getproviders.Select(getproviders.Available(dirs, p), constraints, locked)
		if err != nil {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Failed to install provider",
				Detail: fmt.Sprintf("Error while installing %s: %s.\n\nstrata installs providers from local directories laid out as HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/: -plugin-dir, the filesystem_mirror paths of the CLI configuration, terraform.d/plugins and the other implied mirror directories, or a .terraform/providers that \"terraform init\" filled. It cannot download providers from a registry yet.",
					p.ForDisplay(), strings.TrimSuffix(err.Error(), ".")),
			}}
		}
		hash, err := getproviders.Hash(pkg.Dir)
		if err != nil {
			return errorDiag("Failed to checksum provider", err)
		}
		if opts.upgrade {
			// -upgrade selects afresh: earlier checksums no longer apply.
			lock = nil
		}
		if lock != nil && lock.Version == pkg.Version.String() && len(lock.Hashes) > 0 && !lock.HasHash(hash) {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Failed to install provider",
				Detail: fmt.Sprintf("Error while installing %s v%s: the local package for %s %s doesn't match any of the checksums previously recorded in the dependency lock file (this might be because the available checksums are for packages targeting different platforms); for more information: https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification",
					p.ForDisplay(), pkg.Version, p.String(), pkg.Version),
			}}
		}
		target := filepath.Join(providersDir, p.Hostname, p.Namespace, p.Type, pkg.Version.String(), getproviders.Platform())
		if abs(pkg.Dir) != abs(target) {
			v.Outputf("- Installing %s v%s...\n", p.ForDisplay(), pkg.Version)
			if _, err := getproviders.Install(pkg, providersDir); err != nil {
				return errorDiag("Failed to install provider", err)
			}
			v.Outputf("- Installed %s v%s (unauthenticated)\n", p.ForDisplay(), pkg.Version)
		} else {
			v.Outputf("- Using previously-installed %s v%s\n", p.ForDisplay(), pkg.Version)
		}
		nl := &depsfile.Lock{Provider: p, Version: pkg.Version.String(), Constraints: cstr, Hashes: []string{hash}}
		if lock != nil && lock.Version == nl.Version {
			for _, h := range lock.Hashes {
				if !nl.HasHash(h) {
					nl.Hashes = append(nl.Hashes, h)
				}
			}
		}
		if old := locks[p]; old == nil || old.Version != nl.Version || old.Constraints != nl.Constraints || len(old.Hashes) != len(nl.Hashes) || !old.HasHash(hash) {
			changed = true
		}
		newLocks[p] = nl
	}
	if len(newLocks) != len(locks) {
		changed = true
	}
	if !changed {
		return nil
	}
	if err := depsfile.Save(depsfile.FileName, newLocks); err != nil {
		return errorDiag("Failed to write the dependency lock file", err)
	}
	if len(locks) == 0 {
		v.Output("\nstrata has created a lock file [bold].terraform.lock.hcl[reset] to record the provider\nselections it made above. Include this file in your version control repository\nso that strata can guarantee to make the same selections by default when\nyou run \"strata init\" in the future.\n")
	}
	return nil
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
