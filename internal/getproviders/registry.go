package getproviders

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-version"

	"github.com/strata-dev/strata/internal/addrs"
)

// Registry is the provider registry protocol (providers.v1) of every host,
// found by service discovery at https://HOST/.well-known/terraform.json.
type Registry struct {
	// Client makes the requests; nil means http.DefaultClient.
	Client *http.Client
	// Services overrides discovery for some hosts: host → service ID →
	// URL, from the CLI configuration's host blocks.
	Services map[string]map[string]string
	// Credentials are the tokens sent to the hosts they are for.
	Credentials Credentials
	// DiscoveryRetries is how many times a failed discovery request
	// (no answer, or a server error) is tried again.
	DiscoveryRetries int
	// Timeout bounds each request to the registry's API (not package
	// downloads); 0 means none.
	Timeout time.Duration

	mu        sync.Mutex
	discovery map[string]map[string]any
}

// NewRegistry returns the registry source for services (from the CLI
// configuration's host blocks) and credentials, with the settings
// Terraform reads from the environment: TF_REGISTRY_DISCOVERY_RETRY,
// retries of a failed discovery request (default 1), and
// TF_REGISTRY_CLIENT_TIMEOUT, seconds allowed per API request (default 10).
func NewRegistry(services map[string]map[string]string, creds Credentials, getenv func(string) string) *Registry {
	r := &Registry{Services: services, Credentials: creds, DiscoveryRetries: 1, Timeout: 10 * time.Second}
	if n, err := strconv.Atoi(getenv("TF_REGISTRY_DISCOVERY_RETRY")); err == nil && n >= 0 {
		r.DiscoveryRetries = n
	}
	if n, err := strconv.Atoi(getenv("TF_REGISTRY_CLIENT_TIMEOUT")); err == nil && n > 0 {
		r.Timeout = time.Duration(n) * time.Second
	}
	return r
}

func (r *Registry) client() *http.Client {
	c := r.Credentials.Client(r.Client)
	if r.Timeout > 0 {
		withTimeout := *c
		withTimeout.Timeout = r.Timeout
		c = &withTimeout
	}
	return c
}

// unauthorized turns a 401 or 403 answer from host into ErrUnauthorized.
func (r *Registry) unauthorized(host string, err error) error {
	var se statusError
	if errors.As(err, &se) && unauthorized(se.code) {
		return ErrUnauthorized{Host: host, HaveCredentials: r.Credentials.ForHost(host) != "", Status: se.status}
	}
	return err
}

// ServiceURL returns the base URL of a host's service, such as
// "providers.v1" or "modules.v1", found by service discovery (cached per
// host) unless the CLI configuration's host block overrides it. A host
// that does not offer the service is ErrServiceNotOffered; one that cannot
// be reached, ErrHostUnreachable; a 401 or 403, ErrUnauthorized.
func (r *Registry) ServiceURL(ctx context.Context, host, service string) (*url.URL, error) {
	return r.serviceURL(ctx, host, service)
}

// APIClient is the client for a registry's API: it sends each host its
// token and gives up after the configured timeout.
func (r *Registry) APIClient() *http.Client { return r.client() }

// ErrServiceNotOffered means a host's discovery document does not list
// a service.
type ErrServiceNotOffered struct{ Host, Service string }

func (e ErrServiceNotOffered) Error() string {
	switch e.Service {
	case "providers.v1":
		return fmt.Sprintf("host %s does not offer a Terraform provider registry", e.Host)
	case "modules.v1":
		// Terraform's words for modules.
		return fmt.Sprintf("host %s does not provide a modules service", e.Host)
	default:
		return fmt.Sprintf("host %s does not offer the service %s", e.Host, e.Service)
	}
}

func (r *Registry) serviceURL(ctx context.Context, host, service string) (*url.URL, error) {
	if svc, ok := r.Services[host][service]; ok {
		return url.Parse(svc)
	}
	r.mu.Lock()
	doc, ok := r.discovery[host]
	r.mu.Unlock()
	base := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	if !ok {
		var err error
		doc, err = r.discover(ctx, base)
		if err != nil {
			if uerr := r.unauthorized(host, err); uerr != err {
				return nil, uerr
			}
			return nil, ErrHostUnreachable{Host: host, Err: err}
		}
		r.mu.Lock()
		if r.discovery == nil {
			r.discovery = map[string]map[string]any{}
		}
		r.discovery[host] = doc
		r.mu.Unlock()
	}
	s, ok := doc[service].(string)
	if !ok {
		return nil, ErrServiceNotOffered{Host: host, Service: service}
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("host %s advertises an invalid %s URL %q: %w", host, service, s, err)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return base.ResolveReference(u), nil
}

// discover fetches a host's discovery document, trying again up to
// DiscoveryRetries times when the host does not answer or fails.
func (r *Registry) discover(ctx context.Context, u *url.URL) (map[string]any, error) {
	for attempt := 0; ; attempt++ {
		doc, retry, err := r.discoverOnce(ctx, u)
		if err == nil || !retry || attempt >= r.DiscoveryRetries || ctx.Err() != nil {
			return doc, err
		}
	}
}

// discoverOnce makes one discovery request; retry says whether a failure
// may be worth trying again.
func (r *Registry) discoverOnce(ctx context.Context, u *url.URL) (map[string]any, bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, false, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := r.client().Do(req)
	if err != nil {
		return nil, true, fmt.Errorf("failed to request discovery document: %w", err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return map[string]any{}, false, nil
	case http.StatusUnauthorized, http.StatusForbidden:
		return nil, false, statusError{url: u.String(), status: resp.Status, code: resp.StatusCode}
	default:
		return nil, resp.StatusCode >= 500, fmt.Errorf("failed to request discovery document: %s", resp.Status)
	}
	doc := map[string]any{}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&doc); err != nil {
		return nil, false, fmt.Errorf("failed to decode discovery document: %w", err)
	}
	return doc, false, nil
}

// getJSON fetches u into v; a 404 is reported as found=false.
func getJSON(ctx context.Context, c *http.Client, u string, v any) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return false, nil
	}
	if resp.StatusCode != http.StatusOK {
		return false, statusError{url: u, status: resp.Status, code: resp.StatusCode}
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(v); err != nil {
		return false, fmt.Errorf("GET %s: invalid response: %w", u, err)
	}
	return true, nil
}

func (r *Registry) endpoint(ctx context.Context, p addrs.Provider, rel string) (string, error) {
	base, err := r.serviceURL(ctx, p.Hostname, "providers.v1")
	if err != nil {
		return "", err
	}
	ref, err := url.Parse(url.PathEscape(p.Namespace) + "/" + url.PathEscape(p.Type) + "/" + rel)
	if err != nil {
		return "", err
	}
	return base.ResolveReference(ref).String(), nil
}

// AvailableVersions asks the registry for p's versions.
func (r *Registry) AvailableVersions(ctx context.Context, p addrs.Provider) ([]*version.Version, []string, error) {
	u, err := r.endpoint(ctx, p, "versions")
	if err != nil {
		return nil, nil, err
	}
	var body struct {
		Versions []struct {
			Version string `json:"version"`
		} `json:"versions"`
		Warnings []string `json:"warnings"`
	}
	found, err := getJSON(ctx, r.client(), u, &body)
	if uerr := r.unauthorized(p.Hostname, err); uerr != err {
		return nil, nil, uerr
	}
	if err != nil {
		return nil, nil, ErrHostUnreachable{Host: p.Hostname, Err: err}
	}
	if !found {
		return nil, nil, ErrProviderNotFound{Provider: p, Host: p.Hostname, Registry: true}
	}
	var out []*version.Version
	for _, v := range body.Versions {
		pv, err := version.NewVersion(v.Version)
		if err != nil {
			continue // Terraform ignores versions it cannot parse, too
		}
		out = append(out, pv)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GreaterThan(out[j]) })
	return out, body.Warnings, nil
}

// PackageMeta asks the registry where the package is and how it is signed.
func (r *Registry) PackageMeta(ctx context.Context, p addrs.Provider, v *version.Version, platform string) (PackageMeta, error) {
	osName, arch, _ := strings.Cut(platform, "_")
	u, err := r.endpoint(ctx, p, url.PathEscape(v.String())+"/download/"+osName+"/"+arch)
	if err != nil {
		return PackageMeta{}, err
	}
	var body struct {
		Filename            string `json:"filename"`
		DownloadURL         string `json:"download_url"`
		SHASumsURL          string `json:"shasums_url"`
		SHASumsSignatureURL string `json:"shasums_signature_url"`
		SHASum              string `json:"shasum"`
		SigningKeys         struct {
			GPGPublicKeys []struct {
				KeyID          string `json:"key_id"`
				ASCIIArmor     string `json:"ascii_armor"`
				TrustSignature string `json:"trust_signature"`
			} `json:"gpg_public_keys"`
		} `json:"signing_keys"`
	}
	found, err := getJSON(ctx, r.client(), u, &body)
	if uerr := r.unauthorized(p.Hostname, err); uerr != err {
		return PackageMeta{}, uerr
	}
	if err != nil {
		return PackageMeta{}, ErrHostUnreachable{Host: p.Hostname, Err: err}
	}
	if !found {
		return PackageMeta{}, ErrPlatformNotSupported{Provider: p, Version: v, Platform: platform}
	}
	base, _ := url.Parse(u)
	resolve := func(field, s string) (string, error) {
		if s == "" {
			return "", fmt.Errorf("registry response for %s %s has no %s", p.ForDisplay(), v, field)
		}
		ref, err := url.Parse(s)
		if err != nil {
			return "", fmt.Errorf("registry response for %s %s has an invalid %s: %w", p.ForDisplay(), v, field, err)
		}
		return base.ResolveReference(ref).String(), nil
	}
	meta := PackageMeta{Provider: p, Version: v, Platform: platform}
	auth := &signedChecksums{client: r.client(), filename: body.Filename}
	if meta.URL, err = resolve("download_url", body.DownloadURL); err != nil {
		return meta, err
	}
	if auth.sumsURL, err = resolve("shasums_url", body.SHASumsURL); err != nil {
		return meta, err
	}
	if auth.sigURL, err = resolve("shasums_signature_url", body.SHASumsSignatureURL); err != nil {
		return meta, err
	}
	if auth.filename == "" {
		auth.filename = strings.TrimSuffix(meta.URL[strings.LastIndex(meta.URL, "/")+1:], "?")
	}
	sum, err := hex.DecodeString(body.SHASum)
	if err != nil || len(sum) != len(auth.sha256) {
		return meta, fmt.Errorf("registry response for %s %s has an invalid shasum %q", p.ForDisplay(), v, body.SHASum)
	}
	copy(auth.sha256[:], sum)
	for _, k := range body.SigningKeys.GPGPublicKeys {
		auth.keys = append(auth.keys, signingKey{armor: k.ASCIIArmor, trust: k.TrustSignature})
	}
	if len(auth.keys) == 0 {
		return meta, errors.New("registry response has no signing keys for " + p.ForDisplay() + " " + v.String())
	}
	meta.Auth = auth
	return meta, nil
}

// ForDisplay names the registry host.
func (r *Registry) ForDisplay(p addrs.Provider) string { return "registry " + p.Hostname }
