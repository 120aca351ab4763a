package getproviders

import (
	"fmt"
	"net/http"
	"strings"
)

// Credentials are the API tokens of private registries and mirrors, by
// host name as Terraform compares them (see NormalizeHost). A token is sent
// as "Authorization: Bearer TOKEN" only in requests to its own host: service
// discovery, the registry API, the mirror's documents, and package
// downloads served by that same host. Downloads from other hosts get no
// token.
type Credentials map[string]string

// NormalizeHost is the form of a host name that credentials are keyed by:
// lower case, without the default HTTPS port.
func NormalizeHost(host string) string {
	return strings.TrimSuffix(strings.ToLower(host), ":443")
}

// ForHost returns the token for host, or "".
func (c Credentials) ForHost(host string) string {
	return c[NormalizeHost(host)]
}

// Client returns a client that makes its requests through base (nil means
// http.DefaultClient) and adds each request's token, by the host of its
// URL. With no credentials it returns base itself.
func (c Credentials) Client(base *http.Client) *http.Client {
	if base == nil {
		base = http.DefaultClient
	}
	if len(c) == 0 {
		return base
	}
	cl := *base
	rt := cl.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	cl.Transport = &authTransport{base: rt, creds: c}
	return &cl
}

type authTransport struct {
	base  http.RoundTripper
	creds Credentials
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	tok := t.creds.ForHost(req.URL.Host)
	if tok == "" || req.Header.Get("Authorization") != "" {
		return t.base.RoundTrip(req)
	}
	// A RoundTripper must not change the request it is given.
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+tok)
	return t.base.RoundTrip(r)
}

// ErrUnauthorized means a host answered 401 Unauthorized or 403 Forbidden.
type ErrUnauthorized struct {
	Host string
	// HaveCredentials is set when strata sent a token, which the host
	// therefore rejected.
	HaveCredentials bool
	// Status is the HTTP status line ("401 Unauthorized"), when known.
	Status string
}

func (e ErrUnauthorized) Error() string {
	if e.HaveCredentials {
		return fmt.Sprintf("host %s rejected the given authentication credentials", e.Host)
	}
	return fmt.Sprintf("host %s requires authentication credentials", e.Host)
}

// statusError is an unsuccessful HTTP response.
type statusError struct {
	url    string
	status string
	code   int
}

func (e statusError) Error() string {
	return fmt.Sprintf("GET %s: unsuccessful request: %s", e.url, e.status)
}

func unauthorized(code int) bool {
	return code == http.StatusUnauthorized || code == http.StatusForbidden
}

// TokenVariable is the TF_TOKEN_ environment variable that holds the
// token of host.
func TokenVariable(host string) string {
	host = strings.ReplaceAll(NormalizeHost(host), "-", "__")
	return "TF_TOKEN_" + strings.ReplaceAll(host, ".", "_")
}
