package providercache

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/depsfile"
	"github.com/strata-dev/strata/internal/getproviders"
)

// Installer installs one provider after another from a source into Dir,
// as Terraform's provider installer does, reporting its progress lines
// through Log.
type Installer struct {
	// Source lists and describes the available packages.
	Source getproviders.Source
	// Client downloads packages, with the tokens of the hosts that
	// serve them; nil means http.DefaultClient.
	Client *http.Client
	// Dir is where packages are installed: .terraform/providers.
	Dir string
	// CacheDir is the plugin cache directory, or "".
	CacheDir string
	// MayBreakLock trusts the plugin cache for providers the lock file
	// has no checksums for yet.
	MayBreakLock bool
	// Upgrade selects versions afresh, ignoring the lock file.
	Upgrade bool
	// Unmanaged are the providers strata does not install because a
	// process already serving them is handed over (TF_REATTACH_PROVIDERS).
	Unmanaged map[addrs.Provider]bool
	// Log reports one progress line: human is the text for a terminal
	// (colorstring markup allowed, ending in a newline), plain the
	// message of a -json "log" line.
	Log func(human, plain string)
	// community is set once a package signed by someone other than
	// HashiCorp was installed.
	community bool
	// incomplete lists the providers installed whose lock entry holds
	// only the checksum computed here, for this platform.
	incomplete []addrs.Provider
}

func (in *Installer) log(human, plain string) {
	if in.Log != nil {
		in.Log(human, plain)
	}
}

// selection is what the query phase of an installation chose for one
// provider.
type selection struct {
	provider addrs.Provider
	// cstr is the configuration's version constraints, as written.
	cstr string
	// prior is the provider's entry in the lock file before init, or nil.
	prior   *depsfile.Lock
	version *version.Version
	// reuse is set when the installed package matches the checksums the
	// lock file records for version: there is nothing to fetch.
	reuse bool
}

// query selects the version of p to install: the locked one unless
// -upgrade, else the newest the constraints allow among those the source
// has. As in Terraform, it prints "Reusing previous version..." or
// "Finding ..." for the provider; init queries every provider before it
// installs any.
func (in *Installer) query(ctx context.Context, p addrs.Provider, constraints version.Constraints, cstr string, lock *depsfile.Lock) (*selection, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	sel := &selection{provider: p, cstr: cstr, prior: lock}
	if in.Upgrade {
		// -upgrade selects afresh.
		lock = nil
	}
	var locked *version.Version
	if lock != nil {
		lv, err := version.NewVersion(lock.Version)
		if err != nil {
			return nil, errorDiag("Invalid dependency lock file", fmt.Errorf("the version %q recorded for %s is not a valid version", lock.Version, p.ForDisplay()))
		}
		// As in Terraform, the line comes before the constraint check
		// that may fail.
		in.log(fmt.Sprintf("- Reusing previous version of %s from the dependency lock file\n", p.ForDisplay()), p.ForDisplay()+": Reusing previous version from the dependency lock file")
		if constraints != nil && !constraints.Check(lv) {
			return nil, queryFailed(p, fmt.Errorf("locked provider %s %s does not match configured version constraint %s; must use strata init -upgrade to allow selection of new versions", p.String(), lv, cstr))
		}
		locked = lv
		// A package already installed that matches the lock file needs
		// no source at all.
		if in.installedMatches(p, lv, sel.prior) {
			sel.version, sel.reuse = lv, true
			return sel, nil
		}
	} else if cstr == "" {
		in.log(fmt.Sprintf("- Finding latest version of %s...\n", p.ForDisplay()), p.ForDisplay()+": Finding latest version...")
	} else {
		in.log(fmt.Sprintf("- Finding %s versions matching %q...\n", p.ForDisplay(), cstr), fmt.Sprintf("Finding matching versions for provider: %s, version_constraint: %q", p.ForDisplay(), cstr))
	}
	available, warnings, err := in.Source.AvailableVersions(ctx, p)
	if len(warnings) > 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Additional provider information from registry",
			Detail:   fmt.Sprintf("The remote registry returned warnings for %s:\n- %s", p.String(), strings.Join(warnings, "\n- ")),
		})
	}
	if err != nil {
		return nil, append(diags, queryFailed(p, err)...)
	}
	sel.version = selectVersion(available, constraints, locked)
	if sel.version == nil {
		if locked != nil {
			return nil, append(diags, queryFailed(p, fmt.Errorf("the previously-selected version %s is no longer available", locked))...)
		}
		return nil, append(diags, queryFailed(p, fmt.Errorf("no available releases match the given constraints %s", cstr))...)
	}
	// With -upgrade selecting the version locked before, the checksums
	// recorded for it still hold: as in Terraform, a package already
	// installed that matches them is kept.
	if in.Upgrade && sel.prior != nil && sel.prior.Version == sel.version.String() {
		sel.reuse = in.installedMatches(p, sel.version, sel.prior)
	}
	return sel, diags
}

// install installs the version sel selected, unless the installed package
// can be kept, and returns the provider's new lock entry.
func (in *Installer) install(ctx context.Context, sel *selection) (*depsfile.Lock, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	p, selected, prior, cstr := sel.provider, sel.version, sel.prior, sel.cstr
	if sel.reuse {
		in.alreadyInstalled(p, selected)
		return &depsfile.Lock{Provider: p, Version: selected.String(), Constraints: keptConstraints(prior, selected, cstr), Hashes: prior.Hashes}, nil
	}
	platform := getproviders.Platform()
	meta, err := in.Source.PackageMeta(ctx, p, selected, platform)
	var unsupported getproviders.ErrPlatformNotSupported
	if errors.As(err, &unsupported) {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Incompatible provider version",
			Detail: fmt.Sprintf("Provider %s v%s does not have a package available for your current platform, %s.\n\nProvider releases are separate from strata releases, so not all providers are available for all platforms. Other versions of this provider may have different platforms supported.",
				p.ForDisplay(), selected, platform),
		})
	}
	if err != nil {
		return nil, append(diags, installFailed(p, selected, err)...)
	}
	// The checksums recorded for the selected version still hold, with
	// -upgrade too when it selects the version locked before: the package
	// must match one, and the lock entry keeps them all (those of other
	// platforms included), as in Terraform.
	var allowed []string
	if prior != nil && prior.Version == selected.String() {
		allowed = prior.Hashes
	}
	target := getproviders.PackageDir(in.Dir, meta)
	var dir string
	var res getproviders.AuthResult
	switch {
	case meta.Dir != "" && abs(meta.Dir) == abs(target):
		dir = target
		in.alreadyInstalled(p, selected)
		if err := getproviders.VerifyDir(meta, allowed); err != nil {
			return nil, append(diags, installFailed(p, selected, err)...)
		}
	case in.CacheDir != "":
		cached := getproviders.PackageDir(in.CacheDir, meta)
		if in.cacheUsable(p, cached, allowed) {
			in.log(fmt.Sprintf("- Using %s v%s from the shared cache directory\n", p.ForDisplay(), selected), fmt.Sprintf("%s v%s: Using from the shared cache directory", p.ForDisplay(), selected))
		} else {
			in.installing(p, selected)
			if cached, res, err = getproviders.InstallPackage(ctx, in.Client, meta, in.CacheDir, allowed); err != nil {
				return nil, append(diags, installFailed(p, selected, err)...)
			}
			in.installed(p, selected, res)
		}
		if err := getproviders.Link(cached, target); err != nil {
			return nil, append(diags, installFailed(p, selected, err)...)
		}
		dir = cached
	default:
		in.installing(p, selected)
		if dir, res, err = getproviders.InstallPackage(ctx, in.Client, meta, in.Dir, allowed); err != nil {
			return nil, append(diags, installFailed(p, selected, err)...)
		}
		in.installed(p, selected, res)
	}
	h1, err := getproviders.Hash(dir)
	if err != nil {
		return nil, append(diags, errorDiag("Failed to checksum provider", err)...)
	}
	nl := &depsfile.Lock{Provider: p, Version: selected.String(), Constraints: keptConstraints(prior, selected, cstr)}
	add := func(h string) {
		if !nl.HasHash(h) {
			nl.Hashes = append(nl.Hashes, h)
		}
	}
	add(h1)
	if res.Signed {
		for _, h := range res.Hashes {
			add(h)
		}
	}
	for _, h := range allowed {
		add(h)
	}
	if len(nl.Hashes) == 1 && nl.Hashes[0] == h1 {
		in.incomplete = append(in.incomplete, p)
	}
	return nl, diags
}

// keptConstraints is what the lock entry records as the constraints: as
// in Terraform, those recorded before while the version stays the same
// (even when the configuration's constraints changed), else the
// configuration's. Recorded constraints that are not in normalized form
// (which Terraform would refuse) are replaced.
func keptConstraints(prior *depsfile.Lock, selected *version.Version, cstr string) string {
	if prior == nil || prior.Version != selected.String() {
		return cstr
	}
	if norm, err := configs.NormalizeVersionConstraints([]string{prior.Constraints}); err != nil || norm != prior.Constraints {
		return cstr
	}
	return prior.Constraints
}

// installedMatches reports whether the package installed in Dir for v, on
// this platform, matches one of the checksums prior records.
func (in *Installer) installedMatches(p addrs.Provider, v *version.Version, prior *depsfile.Lock) bool {
	installed := getproviders.PackageDir(in.Dir, getproviders.PackageMeta{Provider: p, Version: v, Platform: getproviders.Platform()})
	if prior == nil || !getproviders.HasExecutable(installed, p.Type) {
		return false
	}
	h, err := getproviders.Hash(installed)
	return err == nil && prior.HasHash(h)
}

// alreadyInstalled prints that an installed package is kept.
func (in *Installer) alreadyInstalled(p addrs.Provider, v *version.Version) {
	in.log(fmt.Sprintf("- Using previously-installed %s v%s\n", p.ForDisplay(), v), fmt.Sprintf("%s v%s: Using previously-installed provider version", p.ForDisplay(), v))
}

// installing prints the line that starts one installation.
func (in *Installer) installing(p addrs.Provider, v *version.Version) {
	in.log(fmt.Sprintf("- Installing %s v%s...\n", p.ForDisplay(), v), fmt.Sprintf("Installing provider version: %s v%s...", p.ForDisplay(), v))
}

// installed prints the line that ends one installation.
func (in *Installer) installed(p addrs.Provider, v *version.Version, res getproviders.AuthResult) {
	// Terraform's -json message runs the key ID into the summary.
	plain := strings.Replace(res.Summary, ", key ID ", "key_id: ", 1)
	in.log(fmt.Sprintf("- Installed %s v%s (%s)\n", p.ForDisplay(), v, res.Summary), fmt.Sprintf("Installed provider version: %s v%s (%s)", p.ForDisplay(), v, plain))
	if res.Signed && res.Summary != "signed by HashiCorp" {
		in.community = true
	}
}

// cacheUsable reports whether the plugin cache's package can be linked as
// it is: it must match a checksum the lock file records, unless
// plugin_cache_may_break_dependency_lock_file allows trusting it blindly
// for a provider not locked yet.
func (in *Installer) cacheUsable(p addrs.Provider, cached string, allowed []string) bool {
	if !getproviders.HasExecutable(cached, p.Type) {
		return false
	}
	if len(allowed) == 0 {
		return in.MayBreakLock
	}
	h, err := getproviders.Hash(cached)
	if err != nil {
		return false
	}
	for _, a := range allowed {
		if a == h {
			return true
		}
	}
	return false
}

// selectVersion picks locked when it is available, otherwise the newest
// version the constraints allow; without constraints pre-releases are
// never chosen.
func selectVersion(available []*version.Version, constraints version.Constraints, locked *version.Version) *version.Version {
	for _, av := range available {
		if locked != nil {
			if av.Equal(locked) {
				return av
			}
			continue
		}
		if constraints == nil {
			if av.Prerelease() == "" {
				return av
			}
			continue
		}
		if constraints.Check(av) {
			return av
		}
	}
	return nil
}

// queryFailed is Terraform's error for a provider whose versions could not
// be listed.
func queryFailed(p addrs.Provider, err error) hcl.Diagnostics {
	advice := fmt.Sprintf("To see which modules are currently depending on %s and what versions are specified, run the following command:\n    strata providers", p.ForDisplay())
	var nf getproviders.ErrProviderNotFound
	var ua getproviders.ErrUnauthorized
	if errors.As(err, &ua) {
		advice = unauthorizedAdvice(ua)
	} else if errors.As(err, &nf) && !nf.Registry {
		// As in Terraform, the list of directories searched is all.
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to query available provider packages",
			Detail:   fmt.Sprintf("Could not retrieve the list of available versions for provider %s: %s", p.ForDisplay(), err),
		}}
	} else if errors.As(err, &nf) {
		advice = fmt.Sprintf("All modules should specify their required_providers so that external consumers will get the correct providers when using a module. To see which modules are currently depending on %s, run the following command:\n    strata providers", p.ForDisplay())
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Failed to query available provider packages",
		Detail:   fmt.Sprintf("Could not retrieve the list of available versions for provider %s: %s\n\n%s", p.ForDisplay(), err, advice),
	}}
}

// unauthorizedAdvice says how to give strata a token for a host that asked
// for one, or rejected the one given.
func unauthorizedAdvice(ua getproviders.ErrUnauthorized) string {
	if ua.HaveCredentials {
		return fmt.Sprintf("The token strata sent to %s is not valid there, or does not allow access to this provider. Check the token set for %s in the %s environment variable, in a credentials block of the CLI configuration, or in the credentials.tfrc.json file that \"terraform login\" writes.", ua.Host, ua.Host, getproviders.TokenVariable(ua.Host))
	}
	return fmt.Sprintf("%s is a private registry or mirror. Give strata an API token for it in one of these ways:\n- set the environment variable %s to the token;\n- add a block credentials %q { token = \"...\" } to the CLI configuration file (TF_CLI_CONFIG_FILE or ~/.terraformrc);\n- run \"terraform login %s\", which saves the token in ~/.terraform.d/credentials.tfrc.json.", ua.Host, getproviders.TokenVariable(ua.Host), ua.Host, ua.Host)
}

func installFailed(p addrs.Provider, v *version.Version, err error) hcl.Diagnostics {
	detail := fmt.Sprintf("Error while installing %s v%s: %s", p.ForDisplay(), v, err)
	var ua getproviders.ErrUnauthorized
	if errors.As(err, &ua) {
		detail += "\n\n" + unauthorizedAdvice(ua)
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Failed to install provider",
		Detail:   detail,
	}}
}
