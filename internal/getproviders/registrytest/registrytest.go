// Package registrytest serves a provider registry and a provider network
// mirror on 127.0.0.1 over TLS, for tests of provider installation: service
// discovery, the versions and download endpoints of the registry protocol
// with signed SHA256SUMS, and the index.json/VERSION.json documents of the
// network mirror protocol. Its knobs break one thing at a time so tests can
// check each error.
//
// Only tests import it.
package registrytest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	"golang.org/x/mod/sumdb/dirhash"

	"github.com/strata-dev/strata/internal/testtls"
)

// Package is one provider version to publish for some platforms.
type Package struct {
	Namespace, Type, Version string
	// Platforms such as "linux_amd64".
	Platforms []string
	// Files are the archive's files (executable), by name. Nil means a
	// single terraform-provider-TYPE_vVERSION holding a short script that
	// differs per platform.
	Files map[string][]byte
}

// Server is a registry and network mirror for a fixed set of packages.
type Server struct {
	*httptest.Server
	// Host is 127.0.0.1:PORT, the hostname of provider source addresses
	// served here.
	Host string
	// CertFile is a PEM file holding the server's certificate, for
	// SSL_CERT_FILE.
	CertFile string
	// KeyID is the signing key's ID as Terraform prints it.
	KeyID string

	mu       sync.Mutex
	pkgs     []Package
	archives map[string][]byte // by file name
	sums     map[string][]byte // SHA256SUMS by namespace/type/version
	sigs     map[string][]byte
	armored  string
	breaks   map[string]bool
	requests []string
	token    string
	auth     map[string]string // Authorization header by path
}

// Breakages a test can switch on with Break.
const (
	// BadSignature signs SHA256SUMS with another key.
	BadSignature = "signature"
	// BadArchive serves archives whose bytes differ from SHA256SUMS.
	BadArchive = "archive"
	// BadMirrorHash lists a wrong hash for archives in the mirror.
	BadMirrorHash = "mirror-hash"
)

// New starts a server publishing pkgs; it is closed when the test ends.
func New(t testing.TB, pkgs ...Package) *Server {
	t.Helper()
	s := &Server{pkgs: pkgs, archives: map[string][]byte{}, sums: map[string][]byte{}, sigs: map[string][]byte{}, breaks: map[string]bool{}}
	// The keys are the same on every run (so is what terraform prints of
	// them), which lets tests record terraform's runs against the server.
	signer, err := openpgp.NewEntity("strata test", "", "test@example.com", fixedKeyConfig("strata test"))
	if err != nil {
		t.Fatal(err)
	}
	other, err := openpgp.NewEntity("someone else", "", "other@example.com", fixedKeyConfig("someone else"))
	if err != nil {
		t.Fatal(err)
	}
	s.KeyID = signer.PrimaryKey.KeyIdString()
	var ab bytes.Buffer
	w, err := armor.Encode(&ab, openpgp.PublicKeyType, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := signer.Serialize(w); err != nil {
		t.Fatal(err)
	}
	w.Close()
	s.armored = ab.String()
	for _, pkg := range pkgs {
		var sums bytes.Buffer
		names := []string{}
		for _, plat := range pkg.Platforms {
			name := ArchiveName(pkg, plat)
			s.archives[name] = zipOf(t, pkg, plat)
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			sum := sha256.Sum256(s.archives[name])
			fmt.Fprintf(&sums, "%x  %s\n", sum, name)
		}
		key := pkg.Namespace + "/" + pkg.Type + "/" + pkg.Version
		s.sums[key] = sums.Bytes()
		var sig, bad bytes.Buffer
		if err := openpgp.DetachSign(&sig, signer, bytes.NewReader(sums.Bytes()), nil); err != nil {
			t.Fatal(err)
		}
		if err := openpgp.DetachSign(&bad, other, bytes.NewReader(sums.Bytes()), nil); err != nil {
			t.Fatal(err)
		}
		s.sigs[key] = sig.Bytes()
		s.sigs[key+"#bad"] = bad.Bytes()
	}
	s.Server = testtls.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	s.Host = strings.TrimPrefix(s.URL, "https://")
	s.CertFile = filepath.Join(t.TempDir(), "cert.pem")
	if err := os.WriteFile(s.CertFile, []byte(testtls.CertPEM), 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

// fixedKeyConfig makes openpgp.NewEntity generate the same EdDSA key for
// seed on every run: its random bytes come from a counter hashed with
// seed, and its creation time is fixed.
func fixedKeyConfig(seed string) *packet.Config {
	return &packet.Config{
		Algorithm: packet.PubKeyAlgoEdDSA,
		Rand:      &seededReader{seed: seed},
		Time:      func() time.Time { return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) },
	}
}

// seededReader reads SHA-256(seed, n) for n = 0, 1, ...: not random,
// only the same every time.
type seededReader struct {
	seed string
	n    int
	buf  []byte
}

func (r *seededReader) Read(p []byte) (int, error) {
	for len(r.buf) < len(p) {
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", r.seed, r.n)))
		r.n++
		r.buf = append(r.buf, sum[:]...)
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// Break switches on one of the breakages.
func (s *Server) Break(what string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.breaks[what] = true
}

// RequireToken makes service discovery, the registry API and the mirror's
// JSON documents answer 401 Unauthorized unless a request carries
// "Authorization: Bearer token". Archives and checksum files stay open,
// as many registries serve them from elsewhere.
func (s *Server) RequireToken(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.token = token
}

// Authorization returns the Authorization header of the last request for
// path, or "".
func (s *Server) Authorization(path string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.auth[path]
}

// Requests returns the paths requested so far.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// MirrorURL is the base URL of the network mirror.
func (s *Server) MirrorURL() string { return s.URL + "/mirror/" }

// ArchiveName is the zip file name of pkg for a platform.
func ArchiveName(pkg Package, platform string) string {
	return fmt.Sprintf("terraform-provider-%s_%s_%s.zip", pkg.Type, pkg.Version, platform)
}

// Archive returns the archive bytes served for pkg and platform.
func (s *Server) Archive(pkg Package, platform string) []byte {
	return s.archives[ArchiveName(pkg, platform)]
}

func zipOf(t testing.TB, pkg Package, platform string) []byte {
	files := pkg.Files
	if files == nil {
		files = map[string][]byte{
			"terraform-provider-" + pkg.Type + "_v" + pkg.Version: []byte("#!/bin/sh\necho " + pkg.Type + " " + pkg.Version + " " + platform + "\n"),
		}
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		h := &zip.FileHeader{Name: n, Method: zip.Deflate}
		h.SetMode(0o755)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(files[n])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func (s *Server) find(ns, typ, ver string) (Package, bool) {
	for _, p := range s.pkgs {
		if p.Namespace == ns && p.Type == typ && (ver == "" || p.Version == ver) {
			return p, true
		}
	}
	return Package{}, false
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.URL.Path)
	if s.auth == nil {
		s.auth = map[string]string{}
	}
	s.auth[r.URL.Path] = r.Header.Get("Authorization")
	breaks := map[string]bool{}
	for k, v := range s.breaks {
		breaks[k] = v
	}
	token := s.token
	s.mu.Unlock()
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	open := parts[0] == "dl" || strings.HasSuffix(r.URL.Path, ".zip")
	if token != "" && !open && r.Header.Get("Authorization") != "Bearer "+token {
		w.WriteHeader(http.StatusUnauthorized)
		writeJSON(w, map[string]any{"errors": []string{"Unauthorized"}})
		return
	}
	switch {
	case r.URL.Path == "/.well-known/terraform.json":
		writeJSON(w, map[string]string{"providers.v1": "/v1/providers/"})
	case len(parts) == 5 && parts[0] == "v1" && parts[1] == "providers" && parts[4] == "versions":
		s.versions(w, parts[2], parts[3])
	case len(parts) == 8 && parts[0] == "v1" && parts[1] == "providers" && parts[5] == "download":
		s.download(w, parts[2], parts[3], parts[4], parts[6]+"_"+parts[7])
	case len(parts) == 5 && parts[0] == "dl":
		s.file(w, parts[1]+"/"+parts[2]+"/"+parts[3], parts[4], breaks)
	case len(parts) == 5 && parts[0] == "mirror":
		s.mirror(w, parts[2], parts[3], parts[4], breaks)
	default:
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

type platform struct {
	OS   string `json:"os"`
	Arch string `json:"arch"`
}

func platforms(pkg Package) []platform {
	var out []platform
	for _, p := range pkg.Platforms {
		os, arch, _ := strings.Cut(p, "_")
		out = append(out, platform{os, arch})
	}
	return out
}

func (s *Server) versions(w http.ResponseWriter, ns, typ string) {
	if _, ok := s.find(ns, typ, ""); !ok {
		w.WriteHeader(http.StatusNotFound)
		writeJSON(w, map[string]any{"errors": []string{"Not Found"}})
		return
	}
	type ver struct {
		Version   string     `json:"version"`
		Protocols []string   `json:"protocols"`
		Platforms []platform `json:"platforms"`
	}
	var vs []ver
	for _, p := range s.pkgs {
		if p.Namespace == ns && p.Type == typ {
			vs = append(vs, ver{p.Version, []string{"5.0", "6.0"}, platforms(p)})
		}
	}
	writeJSON(w, map[string]any{"versions": vs})
}

func (s *Server) download(w http.ResponseWriter, ns, typ, ver, plat string) {
	pkg, ok := s.find(ns, typ, ver)
	if !ok || s.Archive(pkg, plat) == nil {
		w.WriteHeader(http.StatusNotFound)
		writeJSON(w, map[string]any{"errors": []string{"Not Found"}})
		return
	}
	name := ArchiveName(pkg, plat)
	sum := sha256.Sum256(s.archives[name])
	os, arch, _ := strings.Cut(plat, "_")
	base := "/dl/" + ns + "/" + typ + "/" + ver + "/"
	writeJSON(w, map[string]any{
		"protocols":             []string{"5.0", "6.0"},
		"os":                    os,
		"arch":                  arch,
		"filename":              name,
		"download_url":          s.URL + base + name,
		"shasums_url":           s.URL + base + "SHA256SUMS",
		"shasums_signature_url": s.URL + base + "SHA256SUMS.sig",
		"shasum":                hex.EncodeToString(sum[:]),
		"signing_keys": map[string]any{
			"gpg_public_keys": []map[string]any{{
				"key_id":          s.KeyID,
				"ascii_armor":     s.armored,
				"trust_signature": "",
				"source":          "Strata Test",
				"source_url":      nil,
			}},
		},
	})
}

func (s *Server) file(w http.ResponseWriter, key, name string, breaks map[string]bool) {
	switch name {
	case "SHA256SUMS":
		w.Write(s.sums[key])
	case "SHA256SUMS.sig":
		if breaks[BadSignature] {
			w.Write(s.sigs[key+"#bad"])
		} else {
			w.Write(s.sigs[key])
		}
	default:
		data, ok := s.archives[name]
		if !ok {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		if breaks[BadArchive] {
			data = append(append([]byte(nil), data...), 0)
		}
		w.Write(data)
	}
}

func (s *Server) mirror(w http.ResponseWriter, ns, typ, name string, breaks map[string]bool) {
	if strings.HasSuffix(name, ".zip") {
		s.file(w, "", name, breaks)
		return
	}
	if name == "index.json" {
		vs := map[string]any{}
		for _, p := range s.pkgs {
			if p.Namespace == ns && p.Type == typ {
				vs[p.Version] = map[string]any{}
			}
		}
		if len(vs) == 0 {
			http.NotFound(w, nil)
			return
		}
		writeJSON(w, map[string]any{"versions": vs})
		return
	}
	pkg, ok := s.find(ns, typ, strings.TrimSuffix(name, ".json"))
	if !ok || !strings.HasSuffix(name, ".json") {
		http.NotFound(w, nil)
		return
	}
	archives := map[string]any{}
	for _, plat := range pkg.Platforms {
		zname := ArchiveName(pkg, plat)
		h1, err := hashZipBytes(s.archives[zname])
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		if breaks[BadMirrorHash] {
			h1 = "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
		}
		archives[plat] = map[string]any{"url": zname, "hashes": []string{h1}}
	}
	writeJSON(w, map[string]any{"archives": archives})
}

func hashZipBytes(data []byte) (string, error) {
	f, err := os.CreateTemp("", "registrytest-*.zip")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	f.Write(data)
	f.Close()
	return dirhash.HashZip(f.Name(), dirhash.Hash1)
}
