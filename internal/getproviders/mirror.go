package getproviders

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"

	"github.com/strata-dev/strata/internal/addrs"
)

// NetworkMirror is the provider network mirror protocol: at BASE,
// HOST/NAMESPACE/TYPE/index.json lists versions and
// HOST/NAMESPACE/TYPE/VERSION.json the archives of one version with their
// hashes.
type NetworkMirror struct {
	// BaseURL ends with a slash.
	BaseURL *url.URL
	// Client makes the requests; nil means http.DefaultClient.
	Client *http.Client
	// Credentials are the tokens sent to the hosts they are for: the
	// mirror's own, and the hosts its archives are on.
	Credentials Credentials
}

// NewNetworkMirror checks a network_mirror URL: https and a trailing slash
// added when missing.
func NewNetworkMirror(raw string, c *http.Client) (*NetworkMirror, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("invalid network mirror URL %q: %w", raw, err)
	}
	if u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("invalid network mirror URL %q: it must be an absolute https URL", raw)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return &NetworkMirror{BaseURL: u, Client: c}, nil
}

func (m *NetworkMirror) client() *http.Client {
	return m.Credentials.Client(m.Client)
}

func (m *NetworkMirror) url(p addrs.Provider, file string) *url.URL {
	return m.BaseURL.ResolveReference(&url.URL{Path: strings.ToLower(p.Hostname) + "/" + p.Namespace + "/" + p.Type + "/" + file})
}

func (m *NetworkMirror) queryErr(p addrs.Provider, err error) error {
	var se statusError
	if errors.As(err, &se) && unauthorized(se.code) {
		return ErrUnauthorized{Host: m.BaseURL.Host, HaveCredentials: m.Credentials.ForHost(m.BaseURL.Host) != ""}
	}
	return fmt.Errorf("failed to query provider mirror %s for %s: %w", m.BaseURL, p.ForDisplay(), err)
}

// AvailableVersions reads index.json.
func (m *NetworkMirror) AvailableVersions(ctx context.Context, p addrs.Provider) ([]*version.Version, []string, error) {
	var body struct {
		Versions map[string]any `json:"versions"`
	}
	found, err := getJSON(ctx, m.client(), m.url(p, "index.json").String(), &body)
	if err != nil {
		return nil, nil, m.queryErr(p, err)
	}
	if !found {
		return nil, nil, ErrProviderNotFound{Provider: p}
	}
	var out []*version.Version
	for s := range body.Versions {
		if v, err := version.NewVersion(s); err == nil {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GreaterThan(out[j]) })
	return out, nil, nil
}

// PackageMeta reads VERSION.json.
func (m *NetworkMirror) PackageMeta(ctx context.Context, p addrs.Provider, v *version.Version, platform string) (PackageMeta, error) {
	var body struct {
		Archives map[string]struct {
			URL    string   `json:"url"`
			Hashes []string `json:"hashes"`
		} `json:"archives"`
	}
	u := m.url(p, v.String()+".json")
	found, err := getJSON(ctx, m.client(), u.String(), &body)
	if err != nil {
		return PackageMeta{}, m.queryErr(p, err)
	}
	a, ok := body.Archives[platform]
	if !found || !ok {
		return PackageMeta{}, ErrPlatformNotSupported{Provider: p, Version: v, Platform: platform}
	}
	ref, err := url.Parse(a.URL)
	if err != nil {
		return PackageMeta{}, m.queryErr(p, fmt.Errorf("invalid archive URL %q: %w", a.URL, err))
	}
	meta := PackageMeta{Provider: p, Version: v, Platform: platform, URL: u.ResolveReference(ref).String()}
	if len(a.Hashes) > 0 {
		meta.Auth = &hashesAuth{hashes: a.Hashes}
	}
	return meta, nil
}

// ForDisplay names the mirror.
func (m *NetworkMirror) ForDisplay(addrs.Provider) string { return m.BaseURL.String() }
