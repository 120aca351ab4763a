package providercache

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/depsfile"
	"github.com/strata-dev/strata/internal/getproviders"
)

// Locker computes the lock file entries of providers for several
// platforms without installing anything, as "providers lock" does: each
// platform's package is fetched and checksummed, and the signed checksums
// a registry publishes for every platform are kept too.
type Locker struct {
	// Source lists the versions and packages: the origin registries, or
	// the mirror given on the command line.
	Source getproviders.Source
	// Client downloads packages; nil means http.DefaultClient.
	Client *http.Client
	// Platforms are the OS_ARCH platforms to checksum, in order.
	Platforms []string
	// Log reports one progress line: human for a terminal (colorstring
	// markup allowed, ending in a newline), plain without markup.
	Log func(human, plain string)
}

func (l *Locker) log(human, plain string) {
	if l.Log != nil {
		l.Log(human, plain)
	}
}

// OnlyProviders parses the provider source addresses given to "providers
// lock", each of which cfg must need.
func OnlyProviders(cfg *configs.Config, args []string) ([]addrs.Provider, hcl.Diagnostics) {
	needed := NeededProviders(cfg)
	var only []addrs.Provider
	for _, arg := range args {
		p, err := addrs.ParseProviderSource(arg)
		if err != nil {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider source string",
				Detail:   `The "source" attribute must be in the format "[hostname/][namespace/]name"`,
			}}
		}
		if !containsProvider(needed, p) {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider argument",
				Detail:   fmt.Sprintf("The provider %s is not required by the current configuration.", p.String()),
			}}
		}
		only = append(only, p)
	}
	return only, nil
}

// ParsePlatforms checks -platform values (OS_ARCH); none means this
// platform.
func ParsePlatforms(given []string) ([]string, hcl.Diagnostics) {
	if len(given) == 0 {
		return []string{getproviders.Platform()}, nil
	}
	var out []string
	for _, p := range given {
		parts := strings.Split(p, "_")
		if len(parts) != 2 || parts[0] == "" || parts[1] == "" {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid target platform",
				Detail:   fmt.Sprintf("The string %q given in the -platform option is not a valid target platform: must be two words separated by an underscore.", p),
			}}
		}
		out = append(out, p)
	}
	return out, nil
}

// Lock returns the new lock entries for the providers of cfg (only those
// in only, when it is not empty) and whether they differ from locks. A
// provider already locked keeps its version, which must still meet the
// configuration's constraints.
func (l *Locker) Lock(ctx context.Context, cfg *configs.Config, only []addrs.Provider, locks depsfile.Locks) (depsfile.Locks, bool, hcl.Diagnostics) {
	out := depsfile.Locks{}
	for p, lock := range locks {
		out[p] = lock
	}
	changed := false
	var failures []string
	for _, p := range NeededProviders(cfg) {
		if p.IsBuiltIn() || (len(only) > 0 && !containsProvider(only, p)) {
			continue
		}
		constraints, cstr, diags := Constraints(cfg, p)
		if diags.HasErrors() {
			return out, false, diags
		}
		nl, err := l.lockOne(ctx, p, constraints, cstr, locks[p])
		if err != nil {
			failures = append(failures, fmt.Sprintf("- %s: %s", p, strings.TrimSuffix(err.Error(), ".")))
			continue
		}
		if prior := locks[p]; prior == nil || prior.Version != nl.Version || !sameHashes(prior.Hashes, nl.Hashes) {
			changed = true
		}
		out[p] = nl
	}
	if len(failures) > 0 {
		platform := getproviders.Platform()
		if len(l.Platforms) > 0 {
			platform = l.Platforms[0]
		}
		return out, false, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Could not retrieve providers for locking",
			Detail: fmt.Sprintf("strata failed to fetch the requested providers for %s in order to calculate their checksums: some providers could not be installed:\n%s.",
				platform, strings.Join(failures, "\n")),
		}}
	}
	return out, changed, nil
}

func containsProvider(list []addrs.Provider, p addrs.Provider) bool {
	for _, q := range list {
		if q == p {
			return true
		}
	}
	return false
}

// lockOne selects p's version and checksums it for every platform. As
// Terraform's, it asks the source for p's versions first, a locked
// provider's too, whose version must still be among them.
func (l *Locker) lockOne(ctx context.Context, p addrs.Provider, constraints version.Constraints, cstr string, prior *depsfile.Lock) (*depsfile.Lock, error) {
	available, _, err := l.Source.AvailableVersions(ctx, p)
	var notFound getproviders.ErrProviderNotFound
	if errors.As(err, &notFound) && !notFound.Registry {
		// A mirror directory without the provider has no versions of
		// it, as Terraform's -fs-mirror sees it.
		available, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	var selected *version.Version
	if prior != nil {
		lv, err := version.NewVersion(prior.Version)
		if err != nil {
			return nil, fmt.Errorf("the version %q recorded in the lock file is not a valid version", prior.Version)
		}
		if constraints != nil && !constraints.Check(lv) {
			return nil, fmt.Errorf("locked provider %s %s does not match configured version constraint %s; must use strata init -upgrade to allow selection of new versions", p.String(), lv, cstr)
		}
		if !slices.ContainsFunc(available, lv.Equal) {
			return nil, fmt.Errorf("the previously-selected version %s is no longer available", lv)
		}
		selected = lv
	} else {
		if selected = selectVersion(available, constraints, nil); selected == nil {
			return nil, fmt.Errorf("no available releases match the given constraints%s", prefixSpace(cstr))
		}
	}
	platformHashes := make([][]string, len(l.Platforms))
	for i, platform := range l.Platforms {
		l.log(fmt.Sprintf("- Fetching %s %s for %s...\n", p.ForDisplay(), selected, platform), fmt.Sprintf("Fetching %s %s for %s...", p.ForDisplay(), selected, platform))
		hashes, summary, err := l.checksum(ctx, p, selected, platform)
		if err != nil {
			return nil, err
		}
		human := summary
		if k := strings.Index(summary, "key ID "); k >= 0 {
			// Terraform colours the key on its own: a reset before and
			// two after it.
			human = summary[:k+len("key ID ")] + "[reset][bold]" + summary[k+len("key ID "):] + "[reset][reset]"
		}
		l.log(fmt.Sprintf("- Retrieved %s %s for %s (%s)\n", p.ForDisplay(), selected, platform, human), fmt.Sprintf("Retrieved %s %s for %s (%s)", p.ForDisplay(), selected, platform, summary))
		platformHashes[i] = hashes
	}
	nl := &depsfile.Lock{Provider: p, Version: selected.String(), Constraints: keptConstraints(prior, selected, cstr)}
	same := prior != nil && prior.Version == selected.String()
	if same {
		nl.Hashes = append(nl.Hashes, prior.Hashes...)
	}
	for i, platform := range l.Platforms {
		msg := "This was a new provider and the checksums for this platform are now tracked in the lock file"
		if same {
			msg = "All checksums for this platform were already tracked in the lock file"
			for _, h := range platformHashes[i] {
				if !prior.HasHash(h) {
					msg = "Additional checksums for this platform are now tracked in the lock file"
					break
				}
			}
		}
		for _, h := range platformHashes[i] {
			if !nl.HasHash(h) {
				nl.Hashes = append(nl.Hashes, h)
			}
		}
		l.log(fmt.Sprintf("- Obtained %s checksums for %s; %s\n", p.ForDisplay(), platform, msg), fmt.Sprintf("Obtained %s checksums for %s; %s", p.ForDisplay(), platform, msg))
	}
	return nl, nil
}

// checksum fetches the package of p at v for platform and returns its
// checksums (the "h1:" of its contents, and the signed "zh:" of every
// platform when the source signs them) and how it was authenticated.
func (l *Locker) checksum(ctx context.Context, p addrs.Provider, v *version.Version, platform string) ([]string, string, error) {
	meta, err := l.Source.PackageMeta(ctx, p, v, platform)
	if err != nil {
		return nil, "", err
	}
	if meta.Dir != "" {
		h, err := getproviders.Hash(meta.Dir)
		return []string{h}, "unauthenticated", err
	}
	archive, res, err := getproviders.FetchArchive(ctx, l.Client, meta)
	if err != nil {
		return nil, "", err
	}
	defer os.Remove(archive)
	h1, err := getproviders.ArchiveHash(archive)
	if err != nil {
		return nil, "", err
	}
	hashes := []string{h1}
	if res.Signed {
		hashes = append(hashes, res.Hashes...)
	}
	return hashes, res.Summary, nil
}

// prefixSpace is s after a space, or nothing when s is empty.
func prefixSpace(s string) string {
	if s == "" {
		return ""
	}
	return " " + s
}
