package getproviders

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestRegistryDiscoveryRetryAndTimeout: a failing discovery request is
// tried again TF_REGISTRY_DISCOVERY_RETRY times, and each API request is
// bounded by TF_REGISTRY_CLIENT_TIMEOUT seconds.
func TestRegistryDiscoveryRetryAndTimeout(t *testing.T) {
	var calls atomic.Int32
	failFirst := int32(1)
	var slow atomic.Bool
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		if slow.Load() {
			time.Sleep(1500 * time.Millisecond)
		}
		if n <= failFirst {
			http.Error(w, "try again", http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"providers.v1": "/v1/providers/"}`))
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	base := &url.URL{Scheme: "https", Host: u.Host, Path: "/.well-known/terraform.json"}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

	r := NewRegistry(nil, Credentials{}, env(nil))
	if r.DiscoveryRetries != 1 || r.Timeout != 10*time.Second {
		t.Fatalf("defaults: %d retries, %s", r.DiscoveryRetries, r.Timeout)
	}
	r.Client = srv.Client()
	if _, err := r.discover(context.Background(), base); err != nil {
		t.Fatalf("one failure with one retry: %v", err)
	}
	if got := calls.Load(); got != 2 {
		t.Errorf("%d requests, want 2", got)
	}

	calls.Store(0)
	r = NewRegistry(nil, Credentials{}, env(map[string]string{"TF_REGISTRY_DISCOVERY_RETRY": "0"}))
	r.Client = srv.Client()
	if _, err := r.discover(context.Background(), base); err == nil || !strings.Contains(err.Error(), "502") {
		t.Fatalf("no retries: %v, want the 502", err)
	}

	calls.Store(10) // no more failures
	slow.Store(true)
	r = NewRegistry(nil, Credentials{}, env(map[string]string{"TF_REGISTRY_CLIENT_TIMEOUT": "1", "TF_REGISTRY_DISCOVERY_RETRY": "0"}))
	r.Client = srv.Client()
	if _, err := r.discover(context.Background(), base); err == nil {
		t.Fatal("a request slower than TF_REGISTRY_CLIENT_TIMEOUT succeeded")
	}
}
