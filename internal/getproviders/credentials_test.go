package getproviders

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCredentialsClient: a token goes only to its own host, and a request
// that already says who it is keeps its header.
func TestCredentialsClient(t *testing.T) {
	t.Parallel()
	got := map[string]string{}
	handler := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { got[name+r.URL.Path] = r.Header.Get("Authorization") }
	}
	mine := httptest.NewServer(handler("mine"))
	defer mine.Close()
	other := httptest.NewServer(handler("other"))
	defer other.Close()
	creds := Credentials{NormalizeHost(strings.TrimPrefix(mine.URL, "http://")): "tok"}
	c := creds.Client(nil)
	for _, u := range []string{mine.URL + "/a", other.URL + "/b"} {
		resp, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	req, _ := http.NewRequest(http.MethodGet, mine.URL+"/c", nil)
	req.Header.Set("Authorization", "Basic x")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	want := map[string]string{"mine/a": "Bearer tok", "other/b": "", "mine/c": "Basic x"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got Authorization %q, want %q", k, got[k], v)
		}
	}
	if Credentials(nil).Client(nil) != http.DefaultClient {
		t.Errorf("no credentials should mean the plain client")
	}
}

func TestNormalizeHost(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"Example.COM": "example.com", "example.com:443": "example.com", "example.com:8443": "example.com:8443"} {
		if got := NormalizeHost(in); got != want {
			t.Errorf("NormalizeHost(%q) = %q, want %q", in, got, want)
		}
	}
}
