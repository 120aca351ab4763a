package command

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
)

// httpStateServer is an in-memory server of the http backend's protocol
// (GET/POST/DELETE of the state, LOCK/UNLOCK), with basic auth, on
// 127.0.0.1.
type httpStateServer struct {
	mu    sync.Mutex
	data  []byte
	lock  []byte // the holder's lock info JSON
	user  string
	pass  string
	posts int
	url   string
	// sent is every body a request carried (states, lock infos), in
	// order.
	sent [][]byte
	// failPosts makes the server refuse states (500).
	failPosts bool
}

func newHTTPStateServer(t *testing.T, user, pass string) *httpStateServer {
	t.Helper()
	s := &httpStateServer{user: user, pass: pass}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	s.url = srv.URL + "/state"
	return s
}

func lockInfoID(b []byte) string {
	var li struct{ ID string }
	_ = json.Unmarshal(b, &li)
	return li.ID
}

func (s *httpStateServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u, p, _ := r.BasicAuth(); s.user != "" && (u != s.user || p != s.pass) {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	body, _ := io.ReadAll(r.Body)
	if len(body) > 0 {
		s.sent = append(s.sent, body)
	}
	switch r.Method {
	case http.MethodGet:
		if s.data == nil {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Write(s.data)
	case http.MethodPost:
		if s.failPosts {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		if s.lock != nil && r.URL.Query().Get("ID") != lockInfoID(s.lock) {
			w.WriteHeader(http.StatusConflict)
			w.Write(s.lock)
			return
		}
		s.data = body
		s.posts++
	case http.MethodDelete:
		s.data = nil
	case "LOCK":
		if s.lock != nil {
			w.WriteHeader(http.StatusLocked)
			w.Write(s.lock)
			return
		}
		s.lock = body
	case "UNLOCK":
		if s.lock != nil && lockInfoID(s.lock) != lockInfoID(body) {
			w.WriteHeader(http.StatusConflict)
			w.Write(s.lock)
			return
		}
		s.lock = nil
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

// state returns the stored state's serial, lineage and resource count.
func (s *httpStateServer) state(t *testing.T) (doc struct {
	Serial    uint64
	Lineage   string
	Resources []json.RawMessage
}, locked bool) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.data != nil {
		if err := json.Unmarshal(s.data, &doc); err != nil {
			t.Fatalf("stored state: %v\n%s", err, s.data)
		}
	}
	return doc, s.lock != nil
}

// received returns every body the server was sent, by "request body #i", and
// what it holds: everything the backend stored on it.
func (s *httpStateServer) received() map[string][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := map[string][]byte{"stored state": s.data, "lock": s.lock}
	for i, b := range s.sent {
		m[fmt.Sprintf("request body #%d", i)] = b
	}
	return m
}

func (s *httpStateServer) setFailPosts(fail bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failPosts = fail
}

func (s *httpStateServer) setLock(info string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lock = []byte(info)
}

// httpBackendConfig is a configuration using the http backend at addr
// (with locking at the same address), plus body.
func httpBackendConfig(addr, body string) string {
	return fmt.Sprintf("terraform {\n  backend \"http\" {\n    address        = %q\n    lock_address   = %q\n    unlock_address = %q\n  }\n}\n\n", addr, addr, addr) + body
}

// TestE2EHTTPBackend: init, apply, a plan with no changes, credentials
// from TF_HTTP_*, and a lock held by someone else reported with its
// holder.
func TestE2EHTTPBackend(t *testing.T) {
	t.Parallel()
	srv := newHTTPStateServer(t, "ci", "s3cret")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), httpBackendConfig(srv.url, `
resource "terraform_data" "a" {
  input = "one"
}
resource "terraform_data" "b" {
  input = terraform_data.a.output
}
output "b" {
  value = terraform_data.b.output
}
`))
	env := []string{"TF_HTTP_USERNAME=ci", "TF_HTTP_PASSWORD=s3cret"}
	run := func(want int, args ...string) result {
		t.Helper()
		r := runEnv(t, dir, env, strataBin, append(args, "-no-color")...)
		if r.code != want {
			t.Fatalf("strata %s: exit %d, want %d\n%s%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
		}
		return r
	}
	run(0, "init")
	// Without credentials the server refuses.
	if r := strata(t, dir, "plan", "-no-color"); r.code == 0 || !strings.Contains(r.stderr, "401") {
		t.Errorf("plan without credentials: exit %d\n%s", r.code, r.stderr)
	}
	run(0, "apply", "-auto-approve")
	doc, locked := srv.state(t)
	if doc.Serial == 0 || len(doc.Resources) != 2 || locked {
		t.Fatalf("after apply: serial %d, %d resources, locked %v", doc.Serial, len(doc.Resources), locked)
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
		t.Error("a local state file was written")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".terraform", "*.journal")); len(m) != 0 {
		t.Errorf("journal left behind: %v", m)
	}
	r := run(0, "plan", "-detailed-exitcode")
	if !strings.Contains(flat(r.stdout), "No changes.") {
		t.Errorf("plan after apply:\n%s", r.stdout)
	}
	if r := run(0, "output", "-raw", "b"); r.stdout != "one" {
		t.Errorf("output b = %q", r.stdout)
	}
	if after, _ := srv.state(t); after.Serial != doc.Serial {
		t.Errorf("plan wrote the state: serial %d -> %d", doc.Serial, after.Serial)
	}

	// Someone else's lock: the holder is named.
	srv.setLock(`{"ID":"11111111-2222-3333-4444-555555555555","Operation":"OperationTypeApply","Who":"bob@ci-runner","Version":"1.11.4","Created":"2025-01-02T03:04:05Z","Path":"","Info":""}`)
	r = runEnv(t, dir, env, strataBin, "apply", "-auto-approve", "-no-color")
	if r.code == 0 || !strings.Contains(r.stderr, "bob@ci-runner") || !strings.Contains(r.stderr, "11111111-2222-3333-4444-555555555555") {
		t.Errorf("apply under another's lock: exit %d\n%s", r.code, r.stderr)
	}
	run(0, "force-unlock", "-force", "11111111-2222-3333-4444-555555555555")
	if _, locked := srv.state(t); locked {
		t.Error("force-unlock left the lock")
	}

	// The http backend has only the default workspace.
	r = runEnv(t, dir, append(env, "TF_WORKSPACE=other"), strataBin, "plan", "-no-color")
	if r.code == 0 || !strings.Contains(r.stderr, "Workspaces not supported") {
		t.Errorf("plan in workspace other: exit %d\n%s", r.code, r.stderr)
	}
}

// TestE2EHTTPBadConfig: a missing or malformed address is reported.
func TestE2EHTTPBadConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ block, want string }{
		{``, "address is required"},
		{`address = "ftp://example.com/x"`, "must be an http or https URL"},
		{`address = "http://127.0.0.1:1/x"
    nope = 1`, `An argument named "nope" is not expected here`},
		{`address = "http://127.0.0.1:1/x"
    retry_max = 1.5`, "retry_max must be a whole number"},
	} {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "terraform {\n  backend \"http\" {\n    "+tc.block+"\n  }\n}\n")
		r := runEnv(t, dir, []string{"TF_HTTP_ADDRESS="}, strataBin, "init", "-no-color")
		if r.code == 0 || !strings.Contains(flat(r.stderr), tc.want) {
			t.Errorf("%s: exit %d, want an error containing %q\n%s", tc.block, r.code, tc.want, r.stderr)
		}
	}
	// TF_HTTP_ADDRESS fills in the address.
	srv := newHTTPStateServer(t, "", "")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "terraform {\n  backend \"http\" {}\n}\nresource \"terraform_data\" \"a\" {}\n")
	if r := runEnv(t, dir, []string{"TF_HTTP_ADDRESS=" + srv.url}, strataBin, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init with TF_HTTP_ADDRESS: %s", r.stderr)
	}
	if r := runEnv(t, dir, []string{"TF_HTTP_ADDRESS=" + srv.url}, strataBin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("apply with TF_HTTP_ADDRESS: %s", r.stderr)
	}
	if doc, _ := srv.state(t); len(doc.Resources) != 1 {
		t.Errorf("TF_HTTP_ADDRESS: %d resources stored", len(doc.Resources))
	}
}

// TestE2EHTTPTerraformInterop: terraform and strata share an http
// backend: a state either writes, the other reads and plans no changes
// from.
func TestE2EHTTPTerraformInterop(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	srv := newHTTPStateServer(t, "", "")
	body := `
resource "terraform_data" "a" {
  input = "one"
}
resource "terraform_data" "b" {
  input = { name = terraform_data.a.output, n = 2 }
}
output "b" {
  value = terraform_data.b.output
}
`
	tfDir, stDir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(tfDir, "main.tf"), httpBackendConfig(srv.url, body))
	writeFile(t, filepath.Join(stDir, "main.tf"), httpBackendConfig(srv.url, body))
	terraform := func(want int, args ...string) result {
		t.Helper()
		r := runIn(t, tfDir, "", tf, append(args, "-no-color", "-input=false")...)
		if r.code != want {
			t.Fatalf("terraform %s: exit %d, want %d\n%s%s", args[0], r.code, want, r.stdout, r.stderr)
		}
		return r
	}
	terraform(0, "init")
	terraform(0, "apply", "-auto-approve")
	before, locked := srv.state(t)
	if locked || len(before.Resources) != 2 {
		t.Fatalf("terraform's apply: %d resources, locked %v", len(before.Resources), locked)
	}

	// terraform to strata.
	mustStrata(t, stDir, 0, "init", "-no-color")
	r := mustStrata(t, stDir, 0, "plan", "-no-color", "-detailed-exitcode")
	if !strings.Contains(flat(r.stdout), "No changes.") {
		t.Fatalf("strata plans changes on a state terraform wrote:\n%s", r.stdout)
	}

	// strata to terraform.
	changed := strings.Replace(body, `"one"`, `"two"`, 1) + "resource \"terraform_data\" \"c\" {}\n"
	writeFile(t, filepath.Join(stDir, "main.tf"), httpBackendConfig(srv.url, changed))
	writeFile(t, filepath.Join(tfDir, "main.tf"), httpBackendConfig(srv.url, changed))
	mustStrata(t, stDir, 0, "apply", "-auto-approve", "-no-color")
	after, locked := srv.state(t)
	if after.Lineage != before.Lineage || after.Serial <= before.Serial || len(after.Resources) != 3 || locked {
		t.Fatalf("strata's write: lineage %s serial %d (%d resources, locked %v), terraform's: %s %d", after.Lineage, after.Serial, len(after.Resources), locked, before.Lineage, before.Serial)
	}
	terraform(0, "plan", "-detailed-exitcode")
	if r := runIn(t, tfDir, "", tf, "output", "-json", "b"); r.code != 0 || !strings.Contains(r.stdout, `"two"`) {
		t.Errorf("terraform reads output b = %s", r.stdout)
	}

	// Each reads the other's lock info: a lock as strata takes it stops
	// terraform, which names the holder.
	srv.setLock(`{"ID":"aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee","Operation":"OperationTypeApply","Who":"strata-holder@host","Version":"1.11.4","Created":"2025-01-02T03:04:05Z","Path":"","Info":""}`)
	r = terraform(1, "plan")
	if !strings.Contains(r.stderr, "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee") {
		t.Errorf("terraform under a held lock:\n%s", r.stderr)
	}
}

// TestE2EHTTPWorkspaceCommands: the http backend has one state, so the
// workspace commands other than show fail as Terraform's do, with its
// plain message and exit code 1.
func TestE2EHTTPWorkspaceCommands(t *testing.T) {
	t.Parallel()
	tf, hasTF := referenceTerraform()
	cmds := [][]string{
		{"workspace", "list"}, {"workspace", "show"}, {"workspace", "new", "x"}, {"workspace", "select", "default"},
		{"workspace", "select", "x"}, {"workspace", "select", "-or-create", "x"}, {"workspace", "delete", "x"},
	}
	run := func(bin string) []string {
		srv := newHTTPStateServer(t, "", "")
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), httpBackendConfig(srv.url, "resource \"terraform_data\" \"a\" {}\n"))
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: %s", bin, r.stderr)
		}
		var out []string
		for _, c := range cmds {
			r := runIn(t, dir, "", bin, c...)
			out = append(out, fmt.Sprintf("%s: exit %d\n%s%s", strings.Join(c, " "), r.code, r.stdout, r.stderr))
		}
		return out
	}
	got := run(strataBin)
	want := []string{
		"workspace list: exit 1\n\x1b[31mworkspaces not supported\x1b[0m\x1b[0m\n",
		"workspace show: exit 0\ndefault\n",
		"workspace new x: exit 1\n\x1b[31mFailed to get configured named states: workspaces not supported\x1b[0m\x1b[0m\n",
		"workspace select default: exit 1\n\x1b[31mworkspaces not supported\x1b[0m\x1b[0m\n",
		"workspace select x: exit 1\n\x1b[31mworkspaces not supported\x1b[0m\x1b[0m\n",
		"workspace select -or-create x: exit 1\n\x1b[31mworkspaces not supported\x1b[0m\x1b[0m\n",
		"workspace delete x: exit 1\n\x1b[31mworkspaces not supported\x1b[0m\x1b[0m\n",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong result (-want +got):\n%s", diff)
	}
	if hasTF == nil {
		if diff := cmp.Diff(run(tf), got); diff != "" {
			t.Errorf("differs from terraform (-terraform +strata):\n%s", diff)
		}
	}
}

// TestE2EInitSelectedWorkspace: init opens the selected workspace's state
// last, as Terraform's does: TF_WORKSPACE naming a local or pg workspace
// that does not exist yet creates it, and with the http backend (one state)
// any workspace but default is an error, after the backend is
// configured.
func TestE2EInitSelectedWorkspace(t *testing.T) {
	t.Parallel()
	tf, hasTF := referenceTerraform()
	type outcome struct {
		Code    int
		Stderr  string
		Created bool
		Backend bool
	}
	conn := pgtest.ConnString(t)
	runs := 0
	run := func(bin, backend string) outcome {
		dir := t.TempDir()
		body := "resource \"terraform_data\" \"a\" {}\n"
		runs++
		schema := fmt.Sprintf("selected_%d", runs)
		switch backend {
		case "http":
			body = httpBackendConfig(newHTTPStateServer(t, "", "").url, body)
		case "pg":
			body = fmt.Sprintf("terraform {\n  backend \"pg\" {\n    conn_str    = %q\n    schema_name = %q\n  }\n}\n", conn, schema) + body
		}
		writeFile(t, filepath.Join(dir, "main.tf"), body)
		r := runEnv(t, dir, []string{"TF_WORKSPACE=w9"}, bin, "init", "-no-color")
		_, err := os.Stat(filepath.Join(dir, "terraform.tfstate.d", "w9"))
		created := err == nil
		if backend == "pg" {
			_, created = readPGState(t, conn, schema, "w9")
		}
		_, berr := os.Stat(filepath.Join(dir, ".terraform", "terraform.tfstate"))
		return outcome{Code: r.code, Stderr: strings.TrimSpace(r.stderr), Created: created, Backend: berr == nil}
	}
	want := map[string]outcome{
		"none": {Code: 0, Created: true},
		"pg":   {Code: 0, Created: true, Backend: true},
		"http": {Code: 1, Stderr: "Error: Error loading state: workspaces not supported", Backend: true},
	}
	// In a fixed order: the temporary directories are numbered in order of
	// creation, and the recorded terraform run's key holds its directory.
	for _, backend := range []string{"none", "pg", "http"} {
		w := want[backend]
		got := run(strataBin, backend)
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", backend, diff)
		}
		if hasTF == nil {
			if diff := cmp.Diff(run(tf, backend), got); diff != "" {
				t.Errorf("%s differs from terraform (-terraform +strata):\n%s", backend, diff)
			}
		}
	}
}
