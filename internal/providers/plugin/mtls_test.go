package plugin

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"strings"
	"testing"
)

// The plugin is given strata's certificate and serves mutual TLS (it says
// so in its log, and calls succeed only if both ends agree), with one
// P-256 certificate for every plugin this process starts.
func TestMutualTLS(t *testing.T) {
	t.Setenv("TF_LOG", "INFO")
	for _, name := range []string{"stratav5", "stratafw"} {
		var buf syncBuffer
		p := start(t, name, WithLogOutput(&buf))
		configure(t, p, "t-")
		_ = p.Close(context.Background())
		if !strings.Contains(buf.String(), "configuring server automatic mTLS") {
			t.Errorf("%s did not set up mutual TLS; its log:\n%s", name, buf.String())
		}
	}
	a, err := clientCert()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := clientCert()
	if a.pem != b.pem {
		t.Error("a second certificate was made")
	}
	key, ok := a.cert.PrivateKey.(*ecdsa.PrivateKey)
	if !ok || key.Curve != elliptic.P256() {
		t.Errorf("client key is %T, want a P-256 ECDSA key", a.cert.PrivateKey)
	}
	if a.tlsConfig() == b.tlsConfig() {
		t.Error("clients share a TLS configuration, which go-plugin changes per plugin")
	}
}
