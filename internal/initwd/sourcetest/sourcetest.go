// Package sourcetest serves module sources on 127.0.0.1 for tests of
// module installation: a module registry (service discovery, versions and
// download with X-Terraform-Get) over TLS, plain files such as archives,
// pages that point elsewhere with X-Terraform-Get or a terraform-get meta
// tag, and git repositories through git http-backend. Every path is served
// both over https (Server.URL) and over http (Server.PlainURL).
//
// Only tests import it.
package sourcetest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/ulikunitz/xz"

	"github.com/strata-dev/strata/internal/testtls"
)

// T is what the server needs of a test; testing.TB has it.
type T interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Cleanup(func())
	TempDir() string
}

// Server serves module sources.
type Server struct {
	// TLS serves everything over https; its certificate is in CertFile.
	TLS *httptest.Server
	// Plain serves the same paths over http.
	Plain *httptest.Server
	// Host is 127.0.0.1:PORT of the https server: the hostname of
	// registry addresses served here.
	Host string
	// URL is https://Host, PlainURL http://127.0.0.1:PORT.
	URL, PlainURL string
	// CertFile is a PEM file holding the TLS server's certificate, for
	// SSL_CERT_FILE.
	CertFile string
	// GitRoot is the directory of the bare repositories served under
	// /git/.
	GitRoot string

	t        T
	mu       sync.Mutex
	modules  map[string]map[string]string // ns/name/provider → version → X-Terraform-Get
	files    map[string][]byte
	getters  map[string]getter
	requests []string
	token    string
	auth     map[string]string
	git      http.Handler
}

type getter struct {
	target string
	meta   bool
}

// New starts the servers; they are closed when the test ends.
func New(t T) *Server {
	t.Helper()
	s := &Server{
		t:       t,
		modules: map[string]map[string]string{},
		files:   map[string][]byte{},
		getters: map[string]getter{},
		auth:    map[string]string{},
		GitRoot: filepath.Join(t.TempDir(), "git"),
	}
	if err := os.MkdirAll(s.GitRoot, 0o755); err != nil {
		t.Fatal(err)
	}
	if execPath, err := exec.Command("git", "--exec-path").Output(); err == nil {
		s.git = &cgi.Handler{
			Path: filepath.Join(strings.TrimSpace(string(execPath)), "git-http-backend"),
			Root: "/git/",
			Env:  []string{"GIT_PROJECT_ROOT=" + s.GitRoot, "GIT_HTTP_EXPORT_ALL=1"},
			// A missing repository is logged there; the client gets a 404.
			Stderr: io.Discard,
		}
	}
	s.TLS = testtls.NewServer(http.HandlerFunc(s.serve))
	s.Plain = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.TLS.Close)
	t.Cleanup(s.Plain.Close)
	s.URL, s.PlainURL = s.TLS.URL, s.Plain.URL
	s.Host = strings.TrimPrefix(s.URL, "https://")
	s.CertFile = filepath.Join(t.TempDir(), "cert.pem")
	if err := os.WriteFile(s.CertFile, []byte(testtls.CertPEM), 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

// AddModule publishes a version of a registry module ("ns/name/provider")
// whose download answers with X-Terraform-Get: get, which may be relative
// to the download URL.
func (s *Server) AddModule(module, version, get string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.modules[module] == nil {
		s.modules[module] = map[string]string{}
	}
	s.modules[module][version] = get
}

// AddFile serves data at path.
func (s *Server) AddFile(path string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[path] = data
}

// AddGetter serves at path a page pointing at target, as go-getter's
// HTTP getter follows: an X-Terraform-Get header, or with meta an HTML
// page holding <meta name="terraform-get" content="target">.
func (s *Server) AddGetter(path, target string, meta bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.getters[path] = getter{target, meta}
}

// RequireToken makes the registry's API (discovery, versions, download)
// answer 401 Unauthorized unless a request carries "Authorization: Bearer
// token".
func (s *Server) RequireToken(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.token = token
}

// Requests returns the paths requested so far, with their query strings.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// Authorization returns the Authorization header of the last request for
// path, or "".
func (s *Server) Authorization(path string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.auth[path]
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.URL.RequestURI())
	s.auth[r.URL.Path] = r.Header.Get("Authorization")
	token := s.token
	data, isFile := s.files[r.URL.Path]
	g, isGetter := s.getters[r.URL.Path]
	s.mu.Unlock()

	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	api := r.URL.Path == "/.well-known/terraform.json" || (len(parts) > 1 && parts[0] == "v1" && parts[1] == "modules")
	if api && token != "" && r.Header.Get("Authorization") != "Bearer "+token {
		w.WriteHeader(http.StatusUnauthorized)
		writeJSON(w, map[string]any{"errors": []string{"Unauthorized"}})
		return
	}
	switch {
	case r.URL.Path == "/.well-known/terraform.json":
		writeJSON(w, map[string]string{"modules.v1": "/v1/modules/"})
	case len(parts) == 6 && parts[0] == "v1" && parts[1] == "modules" && parts[5] == "versions":
		s.versions(w, strings.Join(parts[2:5], "/"))
	case len(parts) == 7 && parts[0] == "v1" && parts[1] == "modules" && parts[6] == "download":
		s.download(w, strings.Join(parts[2:5], "/"), parts[5])
	case parts[0] == "git" && s.git != nil:
		s.git.ServeHTTP(w, r)
	case isFile:
		w.Write(data)
	case isGetter:
		if g.meta {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, "<html><head>\n<meta name=\"terraform-get\" content=\"%s\">\n</head><body>module</body></html>\n", html.EscapeString(g.target))
			return
		}
		w.Header().Set("X-Terraform-Get", g.target)
		w.WriteHeader(http.StatusNoContent)
	default:
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func (s *Server) versions(w http.ResponseWriter, module string) {
	s.mu.Lock()
	vs, ok := s.modules[module]
	var list []map[string]any
	for v := range vs {
		list = append(list, map[string]any{"version": v, "root": map[string]any{}, "submodules": []any{}})
	}
	s.mu.Unlock()
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		writeJSON(w, map[string]any{"errors": []string{"Not Found"}})
		return
	}
	sort.Slice(list, func(i, j int) bool { return list[i]["version"].(string) < list[j]["version"].(string) })
	writeJSON(w, map[string]any{"modules": []any{map[string]any{"source": module, "versions": list}}})
}

func (s *Server) download(w http.ResponseWriter, module, version string) {
	s.mu.Lock()
	get, ok := s.modules[module][version]
	s.mu.Unlock()
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		writeJSON(w, map[string]any{"errors": []string{"Not Found"}})
		return
	}
	w.Header().Set("X-Terraform-Get", get)
	w.WriteHeader(http.StatusNoContent)
}

// Repo is a git repository served at /git/NAME.git, built by a work tree
// whose commits are pushed to the served bare repository.
type Repo struct {
	s    *Server
	name string
	work string
}

// NewRepo creates an empty repository served at /git/name.git, whose
// default branch is main.
func (s *Server) NewRepo(name string) *Repo {
	s.t.Helper()
	r := &Repo{s: s, name: name, work: filepath.Join(s.t.TempDir(), name)}
	s.runGit("", "init", "-q", "--bare", "-b", "main", r.Bare())
	s.runGit("", "init", "-q", "-b", "main", r.work)
	s.runGit(r.work, "remote", "add", "origin", r.Bare())
	return r
}

// Bare is the served bare repository's directory.
func (r *Repo) Bare() string { return filepath.Join(r.s.GitRoot, r.name+".git") }

// Path is the repository's URL path, /git/NAME.git.
func (r *Repo) Path() string { return "/git/" + r.name + ".git" }

// Commit replaces the work tree's files with files (path → content),
// commits on the current branch, pushes every branch and tag, and returns
// the commit's id.
func (r *Repo) Commit(files map[string]string) string {
	r.s.t.Helper()
	entries, _ := os.ReadDir(r.work)
	for _, e := range entries {
		if e.Name() != ".git" {
			os.RemoveAll(filepath.Join(r.work, e.Name()))
		}
	}
	for name, content := range files {
		p := filepath.Join(r.work, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.s.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			r.s.t.Fatal(err)
		}
	}
	r.s.runGit(r.work, "add", "-A")
	r.s.runGit(r.work, "-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-q", "--allow-empty", "-m", "commit")
	r.Push()
	return strings.TrimSpace(r.s.runGit(r.work, "rev-parse", "HEAD"))
}

// Git runs git in the work tree, for branches and tags; call Push after.
func (r *Repo) Git(args ...string) string {
	r.s.t.Helper()
	return r.s.runGit(r.work, args...)
}

// Push pushes every branch and tag to the served repository.
func (r *Repo) Push() {
	r.s.t.Helper()
	r.s.runGit(r.work, "push", "-q", "--force", "--all", "origin")
	r.s.runGit(r.work, "push", "-q", "--force", "--tags", "origin")
}

func (s *Server) runGit(dir string, args ...string) string {
	s.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"), fixedGitDates...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Entry is one member of an archive built by Tar or Zip.
type Entry struct {
	Name string
	// Body is a regular file's content.
	Body string
	// Link makes the entry a symbolic link to Link.
	Link string
	// Dir makes the entry a directory.
	Dir bool
}

// Files turns path → content into entries sorted by name.
func Files(files map[string]string) []Entry {
	var out []Entry
	for n, b := range files {
		out = append(out, Entry{Name: n, Body: b})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// TarGz returns a gzip-compressed tar archive of entries.
func TarGz(t T, entries []Entry) []byte {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	gz.Write(Tar(t, entries))
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TarXz returns an xz-compressed tar archive of entries.
func TarXz(t T, entries []Entry) []byte {
	t.Helper()
	var b bytes.Buffer
	xw, err := xz.NewWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	xw.Write(Tar(t, entries))
	if err := xw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Tar returns an uncompressed tar archive of entries.
func Tar(t T, entries []Entry) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, e := range entries {
		h := &tar.Header{Name: e.Name, Mode: 0o644, Size: int64(len(e.Body)), Typeflag: tar.TypeReg}
		switch {
		case e.Link != "":
			h.Typeflag, h.Linkname, h.Size = tar.TypeSymlink, e.Link, 0
		case e.Dir:
			h.Typeflag, h.Mode, h.Size = tar.TypeDir, 0o755, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte(e.Body))
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Zip returns a zip archive of entries.
func Zip(t T, entries []Entry) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate}
		body := e.Body
		switch {
		case e.Link != "":
			h.SetMode(os.ModeSymlink | 0o777)
			body = e.Link
		case e.Dir:
			h.Name = strings.TrimSuffix(e.Name, "/") + "/"
			h.SetMode(os.ModeDir | 0o755)
		default:
			h.SetMode(0o644)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if !e.Dir {
			w.Write([]byte(body))
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
