package testtls

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"testing"
)

// A client trusting only CertPEM reaches the server by its IP address and
// as localhost.
func TestNewServerIsTrustedThroughCertPEM(t *testing.T) {
	s := NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer s.Close()
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM([]byte(CertPEM)) {
		t.Fatal("CertPEM holds no certificate")
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	_, port, _ := net.SplitHostPort(s.Listener.Addr().String())
	for _, url := range []string{s.URL, "https://localhost:" + port} {
		resp, err := client.Get(url)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != "ok" {
			t.Errorf("GET %s: %q", url, body)
		}
	}
	// Another client's default roots do not trust it.
	if _, err := http.Get(s.URL); err == nil {
		t.Error("a client without CertPEM trusted the server")
	}
}
