package command

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/strata-dev/strata/internal/backend/s3/s3test"
)

// The s3 backend's end-to-end tests run strata (and terraform, when
// installed) against a real S3-compatible server: see package s3test for
// where it comes from.

// s3Env gives the processes of t (and of its subtests) the server's
// credentials, with setTestEnv, and returns the server and a new bucket.
func s3Env(t *testing.T) (*s3test.Server, string) {
	t.Helper()
	srv := s3test.Get(t)
	setTestEnv(t, srv.Env()...)
	return srv, srv.NewBucket(t)
}

// s3StateDoc is a state object's serial, lineage and resources; ok is
// false when there is no object.
type s3StateDoc struct {
	Serial           uint64
	Lineage          string
	TerraformVersion string `json:"terraform_version"`
	Resources        []json.RawMessage
}

func readS3State(t *testing.T, srv *s3test.Server, bucket, key string) (s3StateDoc, bool) {
	t.Helper()
	data, ok := srv.Object(t, bucket, key)
	if !ok {
		return s3StateDoc{}, false
	}
	var doc s3StateDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("s3://%s/%s is not a state: %v\n%s", bucket, key, err, data)
	}
	return doc, true
}

// noS3Lock fails t when a lock object is left at key.
func noS3Lock(t *testing.T, srv *s3test.Server, bucket, key string) {
	t.Helper()
	if data, ok := srv.Object(t, bucket, key+".tflock"); ok {
		t.Fatalf("lock object left behind: %s", data)
	}
}

// TestE2ES3Backend: init, apply, a plan with no changes, the state
// commands and destroy, with the state in the bucket, laid out as
// Terraform lays it out, and none on disk.
func TestE2ES3Backend(t *testing.T) {
	t.Parallel()
	srv, bucket := s3Env(t)
	const key = "team/app.tfstate"
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), srv.Block(bucket, key, "")+`
resource "terraform_data" "a" {
  input = "hello"
}
resource "terraform_data" "b" {
  input = terraform_data.a.output
}
output "b" {
  value = terraform_data.b.output
}
`)
	mustStrata(t, dir, 0, "init", "-no-color")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	doc, ok := readS3State(t, srv, bucket, key)
	if !ok || len(doc.Resources) != 2 || doc.Serial != 1 || doc.TerraformVersion != "1.11.4" {
		t.Fatalf("the state object: %+v (found %v)", doc, ok)
	}
	noS3Lock(t, srv, bucket, key)
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
		t.Error("a local state file was written")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".terraform", "*.journal")); len(m) != 0 {
		t.Errorf("journal left behind: %v", m)
	}
	r := mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	if !strings.Contains(flat(r.stdout), "No changes.") {
		t.Fatalf("plan after apply:\n%s", r.stdout)
	}
	if r := mustStrata(t, dir, 0, "output", "-raw", "b"); r.stdout != "hello" {
		t.Errorf("output b = %q", r.stdout)
	}
	if r := mustStrata(t, dir, 0, "state", "list"); r.stdout != "terraform_data.a\nterraform_data.b\n" {
		t.Errorf("state list:\n%s", r.stdout)
	}
	pulled := mustStrata(t, dir, 0, "state", "pull").stdout
	if stored, _ := srv.Object(t, bucket, key); strings.TrimSpace(pulled) != strings.TrimSpace(string(stored)) {
		t.Fatalf("state pull is not the stored object:\n%s\nstored:\n%s", pulled, stored)
	}
	mustStrata(t, dir, 0, "state", "rm", "terraform_data.b")
	if doc, _ := readS3State(t, srv, bucket, key); len(doc.Resources) != 1 || doc.Serial != 2 {
		t.Errorf("after state rm: %+v", doc)
	}
	// Pushing back the pulled (older) state is refused, and forced works.
	writeFile(t, filepath.Join(dir, "pulled.tfstate"), pulled)
	mustStrata(t, dir, 1, "state", "push", "pulled.tfstate")
	mustStrata(t, dir, 0, "state", "push", "-force", "pulled.tfstate")
	if doc, _ := readS3State(t, srv, bucket, key); len(doc.Resources) != 2 || doc.Serial != 3 || !strings.Contains(pulled, doc.Lineage) {
		t.Errorf("after state push -force: %+v", doc)
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	mustStrata(t, dir, 0, "destroy", "-auto-approve", "-no-color")
	if doc, _ := readS3State(t, srv, bucket, key); len(doc.Resources) != 0 {
		t.Errorf("after destroy: %+v", doc)
	}
	noS3Lock(t, srv, bucket, key)
}

// TestE2ES3Workspaces: each workspace is an object under
// workspace_key_prefix (env: by default), listed, selected and deleted by
// the workspace commands.
func TestE2ES3Workspaces(t *testing.T) {
	t.Parallel()
	srv, bucket := s3Env(t)
	tests := map[string]struct {
		extra  string
		prefix string
	}{
		"default prefix": {"", "env:"},
		"custom prefix":  {"    workspace_key_prefix = \"workspaces/x\"\n", "workspaces/x"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			key := strings.ReplaceAll(name, " ", "-") + "/state.tfstate"
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), srv.Block(bucket, key, tc.extra)+`
resource "terraform_data" "a" {
  input = terraform.workspace
}
`)
			mustStrata(t, dir, 0, "init", "-no-color")
			mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
			mustStrata(t, dir, 0, "workspace", "new", "-no-color", "blue")
			wsKey := tc.prefix + "/blue/" + key
			// A new workspace is an empty state, serial 1, as Terraform
			// writes it.
			if doc, ok := readS3State(t, srv, bucket, wsKey); !ok || doc.Serial != 1 || len(doc.Resources) != 0 {
				t.Fatalf("new workspace blue at %s: %+v (found %v)", wsKey, doc, ok)
			}
			mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
			if doc, _ := readS3State(t, srv, bucket, wsKey); len(doc.Resources) != 1 || !strings.Contains(string(doc.Resources[0]), `"blue"`) {
				t.Fatalf("workspace blue: %+v", doc)
			}
			if r := runEnv(t, dir, []string{"TF_WORKSPACE=green"}, strataBin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
				t.Fatalf("apply in green: %s%s", r.stdout, r.stderr)
			}
			if r := mustStrata(t, dir, 0, "workspace", "list"); r.stdout != "  default\n* blue\n  green\n\n" {
				t.Fatalf("list: %q", r.stdout)
			}
			mustStrata(t, dir, 0, "workspace", "select", "-no-color", "default")
			mustStrata(t, dir, 0, "workspace", "delete", "-force", "-no-color", "blue")
			if _, ok := srv.Object(t, bucket, wsKey); ok {
				t.Fatal("the state object of the deleted workspace is still there")
			}
			if r := mustStrata(t, dir, 0, "workspace", "list"); r.stdout != "* default\n  green\n\n" {
				t.Fatalf("list after delete: %q", r.stdout)
			}
			if doc, _ := readS3State(t, srv, bucket, key); len(doc.Resources) != 1 || !strings.Contains(string(doc.Resources[0]), `"default"`) {
				t.Fatalf("default workspace: %+v", doc)
			}
		})
	}
}

// s3LockJSON is a lock object as Terraform writes it.
func s3LockJSON(id, bucket, key string) []byte {
	return []byte(fmt.Sprintf(`{"ID":%q,"Operation":"OperationTypeApply","Info":"","Who":"someone@elsewhere","Version":"1.11.4","Created":"2026-11-26T16:32:48.658905799Z","Path":"%s/%s"}`, id, bucket, key))
}

// TestE2ES3Lock: a lock object someone else holds makes a second writer
// fail fast, naming the holder; -lock-timeout waits for it; -lock=false
// ignores it; force-unlock removes it only given its ID.
func TestE2ES3Lock(t *testing.T) {
	t.Parallel()
	srv, bucket := s3Env(t)
	const key = "locked.tfstate"
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), srv.Block(bucket, key, "")+`resource "terraform_data" "a" { input = 1 }`)
	mustStrata(t, dir, 0, "init", "-no-color")
	const id = "4e0b1f63-3a2e-4d5c-9f7a-0123456789ab"
	srv.Put(t, bucket, key+".tflock", s3LockJSON(id, bucket, key))
	start := time.Now()
	r := mustStrata(t, dir, 1, "apply", "-auto-approve", "-no-color")
	if time.Since(start) > 10*time.Second {
		t.Fatal("the lock error was not immediate")
	}
	for _, want := range []string{"Error acquiring the state lock", id, "OperationTypeApply", "someone@elsewhere", bucket + "/" + key} {
		if !strings.Contains(flat(r.stderr), want) {
			t.Errorf("lock error lacks %q:\n%s", want, r.stderr)
		}
	}
	if _, ok := srv.Object(t, bucket, key); ok {
		t.Fatal("apply wrote state without the lock")
	}
	// -lock=false ignores the lock.
	mustStrata(t, dir, 0, "plan", "-no-color", "-lock=false")
	// force-unlock needs the lock's ID.
	r = mustStrata(t, dir, 1, "force-unlock", "-no-color", "-force", "not-the-id")
	if !strings.Contains(flat(r.stderr), "does not match existing lock ID") {
		t.Errorf("force-unlock with a wrong ID:\n%s", r.stderr)
	}
	// -lock-timeout waits for the holder to go.
	go func() {
		time.Sleep(time.Second)
		r := strata(t, dir, "force-unlock", "-no-color", "-force", id)
		if r.code != 0 || !strings.Contains(r.stdout, "successfully unlocked") {
			t.Errorf("force-unlock: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	}()
	start = time.Now()
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color", "-lock-timeout=60s")
	if time.Since(start) < 900*time.Millisecond {
		t.Error("apply did not wait for the lock")
	}
	if doc, ok := readS3State(t, srv, bucket, key); !ok || len(doc.Resources) != 1 {
		t.Errorf("after the waiting apply: %+v", doc)
	}
	noS3Lock(t, srv, bucket, key)
	r = mustStrata(t, dir, 1, "force-unlock", "-no-color", "-force", id)
	if !strings.Contains(flat(r.stderr), "is not locked") {
		t.Errorf("force-unlock of a free state:\n%s", r.stderr)
	}
}

// startApplyEnv starts strata apply on dir and waits until it is
// creating.
func startS3Apply(t *testing.T, dir string, out *syncBuffer) *exec.Cmd {
	t.Helper()
	return startApply(t, dir, out)
}

// TestE2ES3ConcurrentApplies: while one apply runs, another process
// fails on the lock, naming the running one; the first completes.
func TestE2ES3ConcurrentApplies(t *testing.T) {
	t.Parallel()
	const n = 600
	srv, bucket := s3Env(t)
	const key = "concurrent.tfstate"
	dir, other := t.TempDir(), t.TempDir()
	for _, d := range []string{dir, other} {
		writeFile(t, filepath.Join(d, "main.tf"), srv.Block(bucket, key, "")+chainConfig(n))
		mustStrata(t, d, 0, "init", "-no-color")
	}
	var out syncBuffer
	first := startS3Apply(t, dir, &out)
	r := strata(t, other, "apply", "-auto-approve", "-no-color")
	if err := first.Wait(); err != nil {
		t.Fatalf("the first apply: %v\n%s", err, out.String())
	}
	if r.code != 1 || !strings.Contains(flat(r.stderr), "Error acquiring the state lock") || !strings.Contains(flat(r.stderr), "OperationTypeApply") {
		t.Fatalf("the concurrent apply: exit %d\n%s", r.code, r.stderr)
	}
	if doc, _ := readS3State(t, srv, bucket, key); len(doc.Resources) != n {
		t.Fatalf("%d resources stored, want %d", len(doc.Resources), n)
	}
	noS3Lock(t, srv, bucket, key)
	mustStrata(t, other, 0, "plan", "-no-color", "-detailed-exitcode")
}

var lockIDPattern = regexp.MustCompile(`ID:\s+([0-9a-f-]{36})`)

// TestE2ES3KillMidApply: kill -9 of the lock holder mid-apply leaves its
// lock object (nothing in the bucket can tell that its holder died): the
// next command is refused, naming the lock; force-unlock with that ID
// frees it, and the next command replays the local journal into the
// bucket, so that nothing a provider finished is lost.
func TestE2ES3KillMidApply(t *testing.T) {
	t.Parallel()
	const n = 400
	srv, bucket := s3Env(t)
	const key = "killed.tfstate"
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), srv.Block(bucket, key, "")+chainConfig(n))
	mustStrata(t, dir, 0, "init", "-no-color")
	var out syncBuffer
	cmd := startS3Apply(t, dir, &out)
	time.Sleep(200 * time.Millisecond)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()

	journal := filepath.Join(dir, ".terraform", "s3-default.tfstate.journal")
	if _, err := os.Stat(journal); err != nil {
		t.Skipf("no journal after the kill (%v): the apply had finished or not started", err)
	}
	r := mustStrata(t, dir, 1, "plan", "-no-color")
	m := lockIDPattern.FindStringSubmatch(r.stderr)
	if !strings.Contains(flat(r.stderr), "Error acquiring the state lock") || m == nil {
		t.Fatalf("plan under the dead holder's lock:\n%s", r.stderr)
	}
	if _, err := os.Stat(journal); err != nil {
		t.Fatal("the journal was consumed without the lock")
	}
	mustStrata(t, dir, 0, "force-unlock", "-force", "-no-color", m[1])
	r = strata(t, dir, "plan", "-no-color", "-detailed-exitcode")
	if r.code != 0 && r.code != 2 {
		t.Fatalf("plan after force-unlock: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(journal); err == nil {
		t.Fatal("the journal was not consumed")
	}
	doc, _ := readS3State(t, srv, bucket, key)
	if len(doc.Resources) == 0 {
		t.Fatal("a journal existed but nothing was recovered into the bucket")
	}
	toAdd := strings.Count(r.stdout, "will be created")
	if len(doc.Resources)+toAdd != n {
		t.Fatalf("%d in state + %d to create != %d resources", len(doc.Resources), toAdd, n)
	}
	t.Logf("killed after %d of %d creates", len(doc.Resources), n)
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	noS3Lock(t, srv, bucket, key)
}

// countingProxy forwards to the server and counts the writes of each key.
type countingProxy struct {
	mu   sync.Mutex
	puts map[string]int
}

func (p *countingProxy) count(key string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.puts[key]
}

// newCountingProxy starts a reverse proxy to srv that keeps the Host
// header the client signed.
func newCountingProxy(t *testing.T, srv *s3test.Server) (*countingProxy, string) {
	t.Helper()
	target, err := url.Parse(srv.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	p := &countingProxy{puts: map[string]int{}}
	rp := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		r.Out.Host = r.In.Host // what the client signed
	}}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut {
			p.mu.Lock()
			p.puts[r.URL.Path]++
			p.mu.Unlock()
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return p, ts.URL
}

// TestE2ES3BoundedWrites: an apply writes the state object once at the
// end plus one checkpoint per TF_STATE_PERSIST_INTERVAL, not once per
// resource as Terraform does.
func TestE2ES3BoundedWrites(t *testing.T) {
	t.Parallel()
	const n = 300
	srv, bucket := s3Env(t)
	proxy, endpoint := newCountingProxy(t, srv)
	via := *srv
	via.Endpoint = endpoint
	const key = "bounded.tfstate"
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), via.Block(bucket, key, "")+chainConfig(n))
	mustStrata(t, dir, 0, "init", "-no-color")
	start := time.Now()
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	elapsed := time.Since(start)
	writes := proxy.count("/" + bucket + "/" + key)
	// One final write, plus at most one checkpoint per 20 s interval.
	if limit := 1 + int(elapsed/(20*time.Second)); writes < 1 || writes > limit {
		t.Errorf("the apply of %d resources in %s wrote the state %d times, want 1 to %d", n, elapsed.Round(time.Millisecond), writes, limit)
	}
	if locks := proxy.count("/" + bucket + "/" + key + ".tflock"); locks != 1 {
		t.Errorf("the apply took the lock %d times, want 1", locks)
	}
	if doc, _ := readS3State(t, srv, bucket, key); len(doc.Resources) != n {
		t.Fatalf("%d resources stored, want %d", len(doc.Resources), n)
	}
}

// TestE2EMigrateStateLocalS3Local: local state of two workspaces moves to
// s3 and back with init, keeping lineage and serial.
func TestE2EMigrateStateLocalS3Local(t *testing.T) {
	t.Parallel()
	srv, bucket := s3Env(t)
	const key = "migrated.tfstate"
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `resource "terraform_data" "a" {
  input = terraform.workspace
}
`)
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	mustStrata(t, dir, 0, "workspace", "new", "-no-color", "w2")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color", "-replace=terraform_data.a")
	mustStrata(t, dir, 0, "workspace", "select", "-no-color", "default")
	local := map[string]string{"default": filepath.Join(dir, "terraform.tfstate"), "w2": filepath.Join(dir, "terraform.tfstate.d", "w2", "terraform.tfstate")}
	remote := map[string]string{"default": key, "w2": "env:/w2/" + key}
	before := map[string]stateHead{}
	for ws, p := range local {
		before[ws] = readStateHead(t, p)
	}

	writeFile(t, filepath.Join(dir, "backend.tf"), srv.Block(bucket, key, ""))
	r := mustStrata(t, dir, 0, "init", "-no-color", "-migrate-state", "-force-copy")
	if !strings.Contains(flat(r.stdout), `Successfully configured the backend "s3"!`) {
		t.Errorf("init -migrate-state:\n%s", r.stdout)
	}
	for ws := range local {
		doc, ok := readS3State(t, srv, bucket, remote[ws])
		if !ok || doc.Lineage != before[ws].Lineage || doc.Serial != before[ws].Serial || len(doc.Resources) != 1 {
			t.Errorf("workspace %s in s3: %+v, want lineage %s serial %d", ws, doc, before[ws].Lineage, before[ws].Serial)
		}
		noS3Lock(t, srv, bucket, remote[ws])
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	if r := runEnv(t, dir, []string{"TF_WORKSPACE=w2"}, strataBin, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Fatalf("plan in w2 after the migration: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A change made in s3, then back to local.
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color", "-replace=terraform_data.a")
	inS3, _ := readS3State(t, srv, bucket, key)
	os.Remove(filepath.Join(dir, "backend.tf"))
	r = mustStrata(t, dir, 0, "init", "-no-color", "-migrate-state", "-force-copy")
	if !strings.Contains(flat(r.stdout), `Successfully unset the backend "s3". strata will now operate locally.`) {
		t.Errorf("init -migrate-state back:\n%s", r.stdout)
	}
	if h := readStateHead(t, local["default"]); h.Lineage != inS3.Lineage || h.Serial != inS3.Serial {
		t.Errorf("default back in local: %+v, want %s %d", h, inS3.Lineage, inS3.Serial)
	}
	if h := readStateHead(t, local["w2"]); h != before["w2"] {
		t.Errorf("w2 back in local: %+v, want %+v", h, before["w2"])
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
}

// TestE2ERemoteStateS3: terraform_remote_state reads the outputs of
// states kept in s3 (any workspace) with the config arguments of the
// backend block; a missing state is an error. Terraform, when installed,
// reads the same values with the same configuration.
func TestE2ERemoteStateS3(t *testing.T) {
	t.Parallel()
	srv, bucket := s3Env(t)
	const key = "producer.tfstate"
	producer := t.TempDir()
	writeFile(t, filepath.Join(producer, "main.tf"), srv.Block(bucket, key, "")+`
output "name" {
  value = "s3-${terraform.workspace}"
}
`)
	mustStrata(t, producer, 0, "init", "-no-color")
	mustStrata(t, producer, 0, "apply", "-auto-approve", "-no-color")
	mustStrata(t, producer, 0, "workspace", "new", "-no-color", "w2")
	mustStrata(t, producer, 0, "apply", "-auto-approve", "-no-color")

	config := func(k string) string {
		return fmt.Sprintf(`{
    bucket                      = %q
    key                         = %q
    region                      = %q
    use_path_style              = true
    skip_credentials_validation = true
    skip_requesting_account_id  = true
    skip_metadata_api_check     = true
    endpoints                   = { s3 = %q }
  }`, bucket, k, s3test.Region, srv.Endpoint)
	}
	consumer := t.TempDir()
	writeFile(t, filepath.Join(consumer, "main.tf"), fmt.Sprintf(`data "terraform_remote_state" "d" {
  backend = "s3"
  config  = %[1]s
}
data "terraform_remote_state" "w2" {
  backend   = "s3"
  workspace = "w2"
  config    = %[1]s
}
output "values" {
  value = [data.terraform_remote_state.d.outputs.name, data.terraform_remote_state.w2.outputs.name]
}
`, config(key)))
	mustStrata(t, consumer, 0, "apply", "-auto-approve", "-no-color")
	want := `["s3-default","s3-w2"]`
	if r := mustStrata(t, consumer, 0, "output", "-json", "values"); flat(r.stdout) != want {
		t.Errorf("values = %s, want %s", r.stdout, want)
	}
	if tf, err := referenceTerraform(); err == nil {
		tfDir := t.TempDir()
		writeFile(t, filepath.Join(tfDir, "main.tf"), string(readFile(t, filepath.Join(consumer, "main.tf"))))
		for _, args := range [][]string{{"init"}, {"apply", "-auto-approve"}} {
			if r := runIn(t, tfDir, "", tf, append(args, "-no-color", "-input=false")...); r.code != 0 {
				t.Fatalf("terraform %s: %s%s", args[0], r.stdout, r.stderr)
			}
		}
		if r := runIn(t, tfDir, "", tf, "output", "-json", "values"); flat(r.stdout) != want {
			t.Errorf("terraform reads values = %s, want %s", r.stdout, want)
		}
	}
	missing := t.TempDir()
	writeFile(t, filepath.Join(missing, "main.tf"), fmt.Sprintf("data \"terraform_remote_state\" \"x\" {\n  backend = \"s3\"\n  workspace = \"nope\"\n  config = %s\n}\n", config(key)))
	if r := mustStrata(t, missing, 1, "plan", "-no-color"); !strings.Contains(flat(r.stderr), "Unable to find remote state") {
		t.Errorf("missing workspace:\n%s", r.stderr)
	}
	if _, ok := srv.Object(t, bucket, "env:/nope/"+key); ok {
		t.Error("reading a missing workspace created it")
	}
}

// TestE2ES3TerraformInterop: terraform and strata share a bucket and key:
// a state either writes, the other reads and plans no changes from; the
// workspaces either creates, the other lists; and each is refused while
// the other holds the lock.
func TestE2ES3TerraformInterop(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	srv, bucket := s3Env(t)
	const key = "shared/state.tfstate"
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
	block := srv.Block(bucket, key, "")
	tfDir, stDir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(tfDir, "main.tf"), block+body)
	writeFile(t, filepath.Join(stDir, "main.tf"), block+body)
	terraform := func(want int, args ...string) result {
		t.Helper()
		if args[0] != "workspace" {
			args = append(args, "-no-color", "-input=false")
		}
		r := runIn(t, tfDir, "", tf, args...)
		if r.code != want {
			t.Fatalf("terraform %s: exit %d, want %d\n%s%s", args[0], r.code, want, r.stdout, r.stderr)
		}
		return r
	}
	terraform(0, "init")
	terraform(0, "apply", "-auto-approve")
	before, _ := readS3State(t, srv, bucket, key)

	// terraform to strata.
	mustStrata(t, stDir, 0, "init", "-no-color")
	r := mustStrata(t, stDir, 0, "plan", "-no-color", "-detailed-exitcode")
	if !strings.Contains(flat(r.stdout), "No changes.") {
		t.Fatalf("strata plans changes on a state terraform wrote:\n%s", r.stdout)
	}
	if a, b := readFile(t, filepath.Join(stDir, ".terraform", "terraform.tfstate")), readFile(t, filepath.Join(tfDir, ".terraform", "terraform.tfstate")); string(a) != string(b) {
		t.Errorf("init records the backend otherwise:\nstrata:\n%s\nterraform:\n%s", a, b)
	}

	// strata to terraform.
	changed := strings.Replace(body, `"one"`, `"two"`, 1) + "resource \"terraform_data\" \"c\" {}\n"
	writeFile(t, filepath.Join(stDir, "main.tf"), block+changed)
	writeFile(t, filepath.Join(tfDir, "main.tf"), block+changed)
	mustStrata(t, stDir, 0, "apply", "-auto-approve", "-no-color")
	after, _ := readS3State(t, srv, bucket, key)
	if after.Lineage != before.Lineage || after.Serial <= before.Serial || len(after.Resources) != 3 {
		t.Fatalf("strata's write: lineage %s serial %d (%d resources), terraform's: %s %d", after.Lineage, after.Serial, len(after.Resources), before.Lineage, before.Serial)
	}
	terraform(0, "plan", "-detailed-exitcode")
	if r := runIn(t, tfDir, "", tf, "output", "-json", "b"); r.code != 0 || !strings.Contains(r.stdout, `"two"`) {
		t.Errorf("terraform reads output b = %s", r.stdout)
	}

	// Workspaces: strata's are terraform's, and the other way round.
	mustStrata(t, stDir, 0, "workspace", "new", "-no-color", "from-strata")
	mustStrata(t, stDir, 0, "apply", "-auto-approve", "-no-color")
	terraform(0, "workspace", "new", "from-terraform")
	terraform(0, "apply", "-auto-approve")
	if r := terraform(0, "workspace", "list"); !strings.Contains(r.stdout, "from-strata") {
		t.Errorf("terraform's workspace list:\n%s", r.stdout)
	}
	if r := runEnv(t, tfDir, []string{"TF_WORKSPACE=from-strata"}, tf, "plan", "-no-color", "-input=false", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("terraform plan in strata's workspace: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := mustStrata(t, stDir, 0, "workspace", "list"); !strings.Contains(r.stdout, "from-terraform") {
		t.Errorf("strata's workspace list:\n%s", r.stdout)
	}
	if r := runEnv(t, stDir, []string{"TF_WORKSPACE=from-terraform"}, strataBin, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Errorf("strata plan in terraform's workspace: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	terraform(0, "workspace", "select", "default")
	mustStrata(t, stDir, 0, "workspace", "select", "-no-color", "default")

	// Each tool's lock stops the other, with the holder named.
	slow := func(name string) string {
		return "\nresource \"terraform_data\" \"" + name + "\" {\n  provisioner \"local-exec\" {\n    command = \"sleep 5\"\n  }\n}\n"
	}
	holdWith := func(bin, dir, config string) (*exec.Cmd, *syncBuffer) {
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		cmd := exec.Command(bin, "apply", "-auto-approve", "-no-color", "-input=false")
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null"), testEnvFor(t)...)
		out := &syncBuffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill() })
		deadline := time.Now().Add(60 * time.Second)
		for !strings.Contains(out.String(), "Provisioning with 'local-exec'") && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		return cmd, out
	}
	holder, out := holdWith(tf, tfDir, block+changed+slow("slow"))
	r = mustStrata(t, stDir, 1, "plan", "-no-color")
	if !strings.Contains(flat(r.stderr), "Error acquiring the state lock") || !strings.Contains(flat(r.stderr), "OperationTypeApply") || !strings.Contains(r.stderr, "Version:   1.11") {
		t.Errorf("strata under terraform's lock:\n%s", r.stderr)
	}
	if err := holder.Wait(); err != nil {
		t.Fatalf("terraform apply: %v\n%s", err, out.String())
	}
	noS3Lock(t, srv, bucket, key)
	writeFile(t, filepath.Join(stDir, "main.tf"), block+changed+"resource \"terraform_data\" \"slow\" {}\n")
	mustStrata(t, stDir, 0, "plan", "-no-color", "-detailed-exitcode")

	writeFile(t, filepath.Join(tfDir, "main.tf"), block+changed+"resource \"terraform_data\" \"slow\" {}\nresource \"terraform_data\" \"slow2\" {}\n")
	holder, out = holdWith(strataBin, stDir, block+changed+"resource \"terraform_data\" \"slow\" {}\n"+slow("slow2"))
	r = terraform(1, "plan")
	if !strings.Contains(flat(r.stderr), "Error acquiring the state lock") || !strings.Contains(flat(r.stderr), "OperationTypeApply") {
		t.Errorf("terraform under strata's lock:\n%s", r.stderr)
	}
	if err := holder.Wait(); err != nil {
		t.Fatalf("strata apply: %v\n%s", err, out.String())
	}
	noS3Lock(t, srv, bucket, key)
	terraform(0, "apply", "-auto-approve")
	writeFile(t, filepath.Join(stDir, "main.tf"), block+changed+"resource \"terraform_data\" \"slow\" {}\nresource \"terraform_data\" \"slow2\" {}\n")
	mustStrata(t, stDir, 0, "plan", "-no-color", "-detailed-exitcode")
}

// TestE2ES3DynamoDB: with dynamodb_table, the lock is an item of the
// table and every write records the state's MD5 beside it, as Terraform
// keeps them: a held item refuses a second writer, force-unlock removes
// it, a state that does not match its digest is refused, and Terraform
// (when installed) reads what strata writes and respects its lock.
func TestE2ES3DynamoDB(t *testing.T) {
	t.Parallel()
	srv, bucket := s3Env(t)
	table := srv.NewTable(t)
	const key = "dynamo/state.tfstate"
	lockID := bucket + "/" + key
	block := srv.DynamoDBBlock(bucket, key, table, false)
	body := "resource \"terraform_data\" \"a\" {\n  input = \"one\"\n}\n"
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), block+body)
	mustStrata(t, dir, 0, "init", "-no-color")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	checkDigest := func() {
		t.Helper()
		data, ok := srv.Object(t, bucket, key)
		digest, found := srv.Item(t, table, lockID+"-md5", "Digest")
		if sum := md5.Sum(data); !ok || !found || digest != hex.EncodeToString(sum[:]) {
			t.Fatalf("digest %q (found %v) for a state object of MD5 %x (found %v)", digest, found, md5.Sum(data), ok)
		}
		if info, held := srv.Item(t, table, lockID, "Info"); held {
			t.Fatalf("lock item left behind: %s", info)
		}
	}
	checkDigest()
	if _, ok := srv.Object(t, bucket, key+".tflock"); ok {
		t.Fatal("a lock object was written without use_lockfile")
	}

	// A held lock item.
	const id = "0c7ab0f2-97d1-4b7e-8a1c-3f5e2d9b4a10"
	srv.PutItem(t, table, lockID, "Info", string(s3LockJSON(id, bucket, key)))
	r := mustStrata(t, dir, 1, "apply", "-auto-approve", "-no-color")
	for _, want := range []string{"Error acquiring the state lock", id, "someone@elsewhere", "DynamoDB table " + table} {
		if !strings.Contains(flat(r.stderr), want) {
			t.Errorf("lock error lacks %q:\n%s", want, r.stderr)
		}
	}
	mustStrata(t, dir, 1, "force-unlock", "-force", "-no-color", "wrong")
	mustStrata(t, dir, 0, "force-unlock", "-force", "-no-color", id)
	writeFile(t, filepath.Join(dir, "main.tf"), block+strings.Replace(body, `"one"`, `"two"`, 1))
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	checkDigest()

	if tf, err := referenceTerraform(); err == nil {
		tfDir := t.TempDir()
		writeFile(t, filepath.Join(tfDir, "main.tf"), block+strings.Replace(body, `"one"`, `"two"`, 1))
		for _, args := range [][]string{{"init"}, {"plan", "-detailed-exitcode"}} {
			if r := runIn(t, tfDir, "", tf, append(args, "-no-color", "-input=false")...); r.code != 0 {
				t.Fatalf("terraform %s on strata's state: exit %d\n%s%s", args[0], r.code, r.stdout, r.stderr)
			}
		}
		writeFile(t, filepath.Join(tfDir, "main.tf"), block+strings.Replace(body, `"one"`, `"three"`, 1))
		if r := runIn(t, tfDir, "", tf, "apply", "-auto-approve", "-no-color", "-input=false"); r.code != 0 {
			t.Fatalf("terraform apply: %s%s", r.stdout, r.stderr)
		}
		writeFile(t, filepath.Join(dir, "main.tf"), block+strings.Replace(body, `"one"`, `"three"`, 1))
		mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
		// strata's lock item stops terraform.
		srv.PutItem(t, table, lockID, "Info", string(s3LockJSON(id, bucket, key)))
		if r := runIn(t, tfDir, "", tf, "plan", "-no-color", "-input=false"); r.code != 1 || !strings.Contains(flat(r.stderr), "Error acquiring the state lock") {
			t.Errorf("terraform under a held lock item: exit %d\n%s", r.code, r.stderr)
		}
		mustStrata(t, dir, 0, "force-unlock", "-force", "-no-color", id)
	}

	// A state object that is not the one the digest names is refused.
	srv.PutItem(t, table, lockID+"-md5", "Digest", "00000000000000000000000000000000")
	r = mustStrata(t, dir, 1, "plan", "-no-color")
	if !strings.Contains(flat(r.stderr), "does not have the expected content") {
		t.Errorf("plan with a wrong digest:\n%s", r.stderr)
	}
}

// TestE2ES3BadConfig: a bucket that does not exist, refused credentials
// and a missing region stop init with the backend named, as Terraform's
// init stops.
func TestE2ES3BadConfig(t *testing.T) {
	t.Parallel()
	srv, bucket := s3Env(t)
	tests := map[string]struct {
		block string
		env   []string
		want  []string
	}{
		"no such bucket": {
			block: srv.Block("strata-test-missing-bucket", "k", ""),
			want:  []string{`Error: Failed to configure the backend "s3"`, `S3 bucket "strata-test-missing-bucket" does not exist`},
		},
		"wrong secret": {
			block: srv.Block(bucket, "k", ""),
			env:   []string{"AWS_SECRET_ACCESS_KEY=not-the-secret"},
			want:  []string{`Error: Failed to configure the backend "s3"`, "StatusCode: 403"},
		},
		"no region": {
			block: strings.Replace(srv.Block(bucket, "k", ""), "region ", "# region ", 1),
			env:   []string{"AWS_REGION=", "AWS_DEFAULT_REGION="},
			want:  []string{"Error: Missing region value", `The "region" attribute or the "AWS_REGION" or "AWS_DEFAULT_REGION" environment variables must be set.`},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), tc.block)
			r := runEnv(t, dir, tc.env, strataBin, "init", "-no-color")
			if r.code != 1 {
				t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(flat(r.stderr), w) {
					t.Errorf("init output lacks %q:\n%s", w, r.stderr)
				}
			}
		})
	}
}

// TestE2ES3Encryption: with an encryption block, the state object (and a
// workspace's) holds no secret, the other commands read it, and a killed
// apply's local journal is encrypted too.
func TestE2ES3Encryption(t *testing.T) {
	t.Parallel()
	srv, bucket := s3Env(t)
	const key = "enc/state.tfstate"
	const secret = "s3-secret-value-4f1c"
	block := strings.Replace(srv.Block(bucket, key, ""), "terraform {\n", `terraform {
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = "a passphrase long enough for pbkdf2"
      iterations = 200000
      hash_function = "sha256"
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.k
    }
    state {
      method = method.aes_gcm.m
    }
  }
`, 1)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), block+`
resource "terraform_data" "a" {
  input = "`+secret+`"
}
output "a" {
  value = terraform_data.a.output
}
`)
	mustStrata(t, dir, 0, "init", "-no-color")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	mustStrata(t, dir, 0, "workspace", "new", "-no-color", "w2")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	for _, k := range []string{key, "env:/w2/" + key} {
		data, ok := srv.Object(t, bucket, k)
		if !ok || bytes.Contains(data, []byte(secret)) || !bytes.Contains(data, []byte("encrypted_data")) {
			t.Errorf("s3://%s/%s is not encrypted (found %v):\n%s", bucket, k, ok, data)
		}
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	if r := mustStrata(t, dir, 0, "output", "-raw", "a"); r.stdout != secret {
		t.Errorf("output a = %q", r.stdout)
	}
}
