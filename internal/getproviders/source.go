package getproviders

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"

	"github.com/strata-dev/strata/internal/addrs"
)

// A Source lists the versions of providers it offers and describes where
// the package of one version for one platform is and how to check it.
type Source interface {
	// AvailableVersions lists p's versions, newest first, with any
	// warnings the source sends about p.
	AvailableVersions(ctx context.Context, p addrs.Provider) ([]*version.Version, []string, error)
	// PackageMeta describes the package of p at v for platform.
	PackageMeta(ctx context.Context, p addrs.Provider, v *version.Version, platform string) (PackageMeta, error)
	// ForDisplay names the source in messages.
	ForDisplay(p addrs.Provider) string
}

// PackageMeta is where one provider package is and how to authenticate it.
// Exactly one of Dir and URL is set.
type PackageMeta struct {
	Provider addrs.Provider
	Version  *version.Version
	Platform string
	// Dir is an unpacked package directory on this machine.
	Dir string
	// URL is a zip archive to download.
	URL string
	// Auth checks a downloaded archive; nil accepts it unauthenticated.
	Auth Authenticator
}

// ErrProviderNotFound means a source has no provider of that name.
type ErrProviderNotFound struct {
	Provider addrs.Provider
	Host     string
	Registry bool
	// Dirs are the local directories searched.
	Dirs []string
}

func (e ErrProviderNotFound) Error() string {
	if e.Registry {
		return fmt.Sprintf("provider registry %s does not have a provider named %s", e.Host, e.Provider.ForDisplay())
	}
	msg := fmt.Sprintf("provider %s was not found in any of the search locations", e.Provider.String())
	if len(e.Dirs) > 0 {
		// Indented, as in Terraform.
		msg += "\n\n  - " + strings.Join(e.Dirs, "\n  - ")
	}
	return msg
}

// ErrPlatformNotSupported means a version has no package for a platform.
type ErrPlatformNotSupported struct {
	Provider addrs.Provider
	Version  *version.Version
	Platform string
}

func (e ErrPlatformNotSupported) Error() string {
	return fmt.Sprintf("provider %s %s is not available for %s", e.Provider.ForDisplay(), e.Version, e.Platform)
}

// ErrHostUnreachable means service discovery or a query of a host failed.
type ErrHostUnreachable struct {
	Host string
	Err  error
}

func (e ErrHostUnreachable) Error() string {
	return fmt.Sprintf("could not connect to %s: %s", e.Host, e.Err)
}

func (e ErrHostUnreachable) Unwrap() error { return e.Err }

// Selector restricts a source to the providers that match Include (all when
// empty) and none of Exclude: patterns such as "example.com/*/*" or
// "hashicorp/aws", as the CLI configuration's provider_installation
// blocks write them.
type Selector struct {
	Source           Source
	Include, Exclude []string
	// Skip excludes further providers, for the implied direct source.
	Skip func(addrs.Provider) bool
}

// Matches reports whether the selector applies to p.
func (s Selector) Matches(p addrs.Provider) bool {
	if s.Skip != nil && s.Skip(p) {
		return false
	}
	for _, pat := range s.Exclude {
		if PatternMatches(pat, p) {
			return false
		}
	}
	if len(s.Include) == 0 {
		return true
	}
	for _, pat := range s.Include {
		if PatternMatches(pat, p) {
			return true
		}
	}
	return false
}

// ValidatePattern checks an include or exclude pattern.
func ValidatePattern(pat string) error {
	parts := strings.Split(pat, "/")
	if len(parts) < 1 || len(parts) > 3 {
		return fmt.Errorf("invalid provider address pattern %q: expected [HOSTNAME/]NAMESPACE/TYPE with * wildcards", pat)
	}
	for _, p := range parts {
		if p == "" {
			return fmt.Errorf("invalid provider address pattern %q: empty part", pat)
		}
	}
	return nil
}

// PatternMatches reports whether p matches an include/exclude pattern:
// HOSTNAME/NAMESPACE/TYPE, NAMESPACE/TYPE (on the default registry) or
// TYPE, each part an exact name (case-insensitive) or "*".
func PatternMatches(pat string, p addrs.Provider) bool {
	parts := strings.Split(pat, "/")
	want := []string{p.Hostname, p.Namespace, p.Type}
	switch len(parts) {
	case 1:
		parts = []string{addrs.DefaultRegistryHost, "hashicorp", parts[0]}
	case 2:
		parts = []string{addrs.DefaultRegistryHost, parts[0], parts[1]}
	case 3:
	default:
		return false
	}
	for i, part := range parts {
		if part != "*" && !strings.EqualFold(part, want[i]) {
			return false
		}
	}
	return true
}

// MultiSource combines sources in order, each restricted by its selector,
// as the CLI configuration's provider_installation block lists them.
type MultiSource []Selector

// AvailableVersions merges the versions of every source that applies to p.
func (m MultiSource) AvailableVersions(ctx context.Context, p addrs.Provider) ([]*version.Version, []string, error) {
	seen := map[string]bool{}
	var out []*version.Version
	var warnings []string
	var notFound error
	applies := false
	for _, s := range m {
		if !s.Matches(p) {
			continue
		}
		applies = true
		vs, ws, err := s.Source.AvailableVersions(ctx, p)
		warnings = append(warnings, ws...)
		if nf, ok := err.(ErrProviderNotFound); ok {
			if notFound == nil || nf.Registry {
				notFound = nf
			}
			continue
		}
		if err != nil {
			return nil, warnings, err
		}
		for _, v := range vs {
			if !seen[v.String()] {
				seen[v.String()] = true
				out = append(out, v)
			}
		}
	}
	if !applies {
		return nil, nil, fmt.Errorf("no provider installation method in the CLI configuration applies to %s", p.ForDisplay())
	}
	if len(out) == 0 {
		if notFound == nil {
			notFound = ErrProviderNotFound{Provider: p}
		}
		return nil, warnings, notFound
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GreaterThan(out[j]) })
	return out, warnings, nil
}

// PackageMeta asks each applicable source in turn for the package.
func (m MultiSource) PackageMeta(ctx context.Context, p addrs.Provider, v *version.Version, platform string) (PackageMeta, error) {
	for _, s := range m {
		if !s.Matches(p) {
			continue
		}
		meta, err := s.Source.PackageMeta(ctx, p, v, platform)
		switch err.(type) {
		case nil:
			return meta, nil
		case ErrProviderNotFound, ErrPlatformNotSupported:
			continue
		default:
			return PackageMeta{}, err
		}
	}
	return PackageMeta{}, ErrPlatformNotSupported{Provider: p, Version: v, Platform: platform}
}

// ForDisplay names the first source that applies to p.
func (m MultiSource) ForDisplay(p addrs.Provider) string {
	for _, s := range m {
		if s.Matches(p) {
			return s.Source.ForDisplay(p)
		}
	}
	return "no source"
}

// DirSource offers the unpacked packages of local mirror directories.
type DirSource []string

// AvailableVersions lists the versions found for the running platform.
func (d DirSource) AvailableVersions(_ context.Context, p addrs.Provider) ([]*version.Version, []string, error) {
	pkgs := Available(d, p)
	if len(pkgs) == 0 {
		return nil, nil, ErrProviderNotFound{Provider: p, Dirs: d}
	}
	out := make([]*version.Version, len(pkgs))
	for i, pkg := range pkgs {
		out[i] = pkg.Version
	}
	return out, nil, nil
}

// PackageMeta finds the package of a version for a platform: an unpacked
// directory, or a zip archive (given as a file:// URL).
func (d DirSource) PackageMeta(_ context.Context, p addrs.Provider, v *version.Version, platform string) (PackageMeta, error) {
	for _, root := range d {
		for _, pkg := range packagesIn(root, p, platform) {
			if !pkg.Version.Equal(v) {
				continue
			}
			meta := PackageMeta{Provider: p, Version: v, Platform: platform, Dir: pkg.Dir}
			if pkg.Archive != "" {
				abs, err := filepath.Abs(pkg.Archive)
				if err != nil {
					return PackageMeta{}, err
				}
				meta.Dir, meta.URL = "", (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
			}
			return meta, nil
		}
	}
	return PackageMeta{}, ErrPlatformNotSupported{Provider: p, Version: v, Platform: platform}
}

// ForDisplay lists the directories.
func (d DirSource) ForDisplay(addrs.Provider) string { return strings.Join(d, ", ") }
