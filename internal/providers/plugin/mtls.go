package plugin

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"sync"
	"time"
)

// Mutual TLS with plugins, as go-plugin's AutoMTLS sets it up, with one
// difference: the client's certificate. strata hands the plugin a
// self-signed certificate in PLUGIN_CLIENT_CERT; the plugin answers with
// its own in the handshake line, and each side trusts only the other's.
// go-plugin makes a P-521 key for every plugin it starts; strata makes one
// P-256 key per process and uses it for every plugin. That is as safe
// (the key never leaves this process, and P-256 is what TLS uses most),
// and a P-521 signature costs the plugin about 3 ms to verify and strata
// about 2 ms to make, on every start (a command starts its providers once
// or twice each, a test suite thousands of times).

// clientCert is this process's certificate for plugins.
var clientCert = sync.OnceValues(func() (clientCertificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return clientCertificate{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return clientCertificate{}, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "localhost", Organization: []string{"strata"}},
		DNSNames:              []string{"localhost"},
		NotBefore:             now.Add(-30 * time.Second),
		NotAfter:              now.Add(262980 * time.Hour), // as go-plugin's
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment | x509.KeyUsageKeyAgreement | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return clientCertificate{}, err
	}
	return clientCertificate{
		pem:  string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		cert: tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key},
	}, nil
})

// clientCertificate is a certificate for plugins and its PEM form.
type clientCertificate struct {
	pem  string
	cert tls.Certificate
}

// tlsConfig is a new client TLS configuration presenting c; go-plugin adds
// the plugin's certificate to it as the only one trusted.
func (c clientCertificate) tlsConfig() *tls.Config {
	return &tls.Config{
		Certificates: []tls.Certificate{c.cert},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		MinVersion:   tls.VersionTLS12,
		ServerName:   "localhost",
	}
}
