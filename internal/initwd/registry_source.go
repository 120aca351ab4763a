package initwd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"

	"github.com/hashicorp/go-version"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/getproviders"
)

// moduleRegistry speaks the module registry protocol (modules.v1): the
// versions of a module, and where a version's package is. Service
// discovery, the CLI configuration's host overrides, tokens, retries and
// timeouts are the provider registry client's.
type moduleRegistry struct {
	reg *getproviders.Registry
}

// errModuleNotFound means the registry does not know the module.
var errModuleNotFound = errors.New("module not found")

// endpoint returns the URL of rel below the module's base URL on its
// host's modules.v1 service.
func (m *moduleRegistry) endpoint(ctx context.Context, s addrs.ModuleSourceRegistry, rel string) (*url.URL, error) {
	base, err := m.reg.ServiceURL(ctx, s.Host, "modules.v1")
	var unauthorized getproviders.ErrUnauthorized
	if errors.As(err, &unauthorized) && unauthorized.Status != "" {
		// Terraform's words when discovery itself is refused.
		return nil, fmt.Errorf("failed to request discovery document: %s", unauthorized.Status)
	}
	if err != nil {
		return nil, err
	}
	ref, err := url.Parse(url.PathEscape(s.Namespace) + "/" + url.PathEscape(s.Name) + "/" + url.PathEscape(s.TargetSystem) + "/" + rel)
	if err != nil {
		return nil, err
	}
	return base.ResolveReference(ref), nil
}

// request makes a GET request to the registry's API.
func (m *moduleRegistry) request(ctx context.Context, u *url.URL) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := m.reg.APIClient().Do(req)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusOK, http.StatusNoContent:
		return resp, nil
	case http.StatusNotFound:
		resp.Body.Close()
		return nil, errModuleNotFound
	case http.StatusUnauthorized, http.StatusForbidden:
		resp.Body.Close()
		return nil, getproviders.ErrUnauthorized{Host: u.Host, HaveCredentials: m.reg.Credentials.ForHost(u.Host) != ""}
	default:
		resp.Body.Close()
		return nil, fmt.Errorf("GET %s: unsuccessful request: %s", u.Redacted(), resp.Status)
	}
}

// versions lists the module's versions, newest first; versions that do
// not parse are left out, as Terraform leaves them out.
func (m *moduleRegistry) versions(ctx context.Context, s addrs.ModuleSourceRegistry) ([]*version.Version, error) {
	u, err := m.endpoint(ctx, s, "versions")
	if err != nil {
		return nil, err
	}
	resp, err := m.request(ctx, u)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var body struct {
		Modules []struct {
			Versions []struct {
				Version string `json:"version"`
			} `json:"versions"`
		} `json:"modules"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(&body); err != nil {
		return nil, fmt.Errorf("GET %s: invalid response: %w", u.Redacted(), err)
	}
	if len(body.Modules) == 0 {
		return nil, errModuleNotFound
	}
	var out []*version.Version
	for _, v := range body.Modules[0].Versions {
		if pv, err := version.NewVersion(v.Version); err == nil {
			out = append(out, pv)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GreaterThan(out[j]) })
	return out, nil
}

// location asks where a version's package is: the download endpoint's
// X-Terraform-Get header, an address relative to the endpoint or any
// remote source.
func (m *moduleRegistry) location(ctx context.Context, s addrs.ModuleSourceRegistry, v *version.Version) (addrs.ModuleSourceRemote, error) {
	u, err := m.endpoint(ctx, s, url.PathEscape(v.Original())+"/download")
	if err != nil {
		return addrs.ModuleSourceRemote{}, err
	}
	resp, err := m.request(ctx, u)
	if err != nil {
		return addrs.ModuleSourceRemote{}, err
	}
	defer resp.Body.Close()
	loc := resp.Header.Get("X-Terraform-Get")
	if loc == "" {
		// Some registries answer 200 with the location in the body.
		var body struct {
			Location string `json:"location"`
		}
		if json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&body) == nil {
			loc = body.Location
		}
	}
	if loc == "" {
		return addrs.ModuleSourceRemote{}, fmt.Errorf("failed to get download URL for %s: the registry answered %s without an X-Terraform-Get header", s.PackageAddr(), u.Redacted())
	}
	return resolvePackageAddr(u, loc)
}

// selectVersion returns the newest version that meets the constraints,
// or nil. With no constraints, prereleases are never chosen; with some,
// go-version's rule applies: a prerelease only when a constraint names a
// prerelease of the same version.
func selectVersion(vs []*version.Version, constraints version.Constraints) *version.Version {
	for _, v := range vs {
		if constraints == nil {
			if v.Prerelease() == "" {
				return v
			}
			continue
		}
		if constraints.Check(v) {
			return v
		}
	}
	return nil
}
