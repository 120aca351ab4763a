// Package testtls starts TLS test servers on 127.0.0.1 that all present
// one fixed, self-signed certificate (valid for 127.0.0.1, ::1 and
// localhost until 2125). A test gives the client that certificate through
// CertPEM (SSL_CERT_FILE); because it never changes, a file holding it is
// the same on every run, which lets the tests that compare strata with
// terraform record terraform's runs against these servers.
//
// Only tests import it.
package testtls

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
)

// CertPEM is the servers' certificate, PEM-encoded.
const CertPEM = `-----BEGIN CERTIFICATE-----
MIIBzTCCAXSgAwIBAgIBATAKBggqhkjOPQQDAjArMRUwEwYDVQQKEwxzdHJhdGEg
dGVzdHMxEjAQBgNVBAMTCTEyNy4wLjAuMTAgFw0yNTAxMDEwMDAwMDBaGA8yMTI1
MDEwMTAwMDAwMFowKzEVMBMGA1UEChMMc3RyYXRhIHRlc3RzMRIwEAYDVQQDEwkx
MjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQEWFh6HlT4rGTVGMRH
EHYe/f1CnsIkmKzSU//xx+WjxvhRbEZrr91LwNBN6QM54wM9/YZLeuzumvlgCEOa
sxb6o4GGMIGDMA4GA1UdDwEB/wQEAwIChDATBgNVHSUEDDAKBggrBgEFBQcDATAP
BgNVHRMBAf8EBTADAQH/MB0GA1UdDgQWBBR75mW+VzN//XaB8SNkIGivHF4uPzAs
BgNVHREEJTAjgglsb2NhbGhvc3SHBH8AAAGHEAAAAAAAAAAAAAAAAAAAAAEwCgYI
KoZIzj0EAwIDRwAwRAIgECAYUzy+LRFL4xPQcWdbEVKypPF3IqX54vOBwxQwBzgC
IHT82eOPu6OuKXlRtjLYZiu8oLRUnmoQFfsgTv+ELLVW
-----END CERTIFICATE-----
`

// keyPEM is the certificate's private key. It protects nothing: anyone may
// read it here, and only tests trust the certificate.
const keyPEM = `-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIKSU5NpaQ+nxf+WY16AMCtfKA2rKdgfaBjqmuMKibjecoAoGCCqGSM49
AwEHoUQDQgAEBFhYeh5U+Kxk1RjERxB2Hv39Qp7CJJis0lP/8cflo8b4UWxGa6/d
S8DQTekDOeMDPf2GS3rs7pr5YAhDmrMW+g==
-----END EC PRIVATE KEY-----
`

// NewServer starts an https server for handler with the fixed certificate.
// The caller closes it.
func NewServer(handler http.Handler) *httptest.Server {
	cert, err := tls.X509KeyPair([]byte(CertPEM), []byte(keyPEM))
	if err != nil {
		panic("testtls: " + err.Error())
	}
	s := httptest.NewUnstartedServer(handler)
	s.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	s.StartTLS()
	return s
}
