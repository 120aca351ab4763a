package statemgr

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// stateServer is an in-memory server of the http backend's protocol: a
// state and a lock per path.
type stateServer struct {
	mu        sync.Mutex
	data      map[string][]byte
	locks     map[string][]byte // the lock info JSON by path
	user      string            // basic auth, when set
	pass      string
	noContent bool // answer GET of a missing state with 204, not 404
	fail      int  // fail this many requests with 500 first
	log       []string
}

func newStateServer(t *testing.T) (*stateServer, *httptest.Server) {
	s := &stateServer{data: map[string][]byte{}, locks: map[string][]byte{}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv
}

func (s *stateServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, r.Method+" "+r.URL.RequestURI())
	if s.fail > 0 {
		s.fail--
		http.Error(w, "try again", http.StatusInternalServerError)
		return
	}
	if s.user != "" {
		u, p, ok := r.BasicAuth()
		if !ok || u != s.user || p != s.pass {
			http.Error(w, "who are you", http.StatusUnauthorized)
			return
		}
	}
	body, _ := io.ReadAll(r.Body)
	key := r.URL.Path
	lockID := func(b []byte) string {
		var li LockInfo
		_ = json.Unmarshal(b, &li)
		return li.ID
	}
	switch r.Method {
	case http.MethodGet:
		d, ok := s.data[key]
		if !ok {
			if s.noContent {
				w.WriteHeader(http.StatusNoContent)
			} else {
				http.NotFound(w, r)
			}
			return
		}
		w.Write(d)
	case http.MethodPost, http.MethodPut:
		if l, ok := s.locks[key]; ok && r.URL.Query().Get("ID") != lockID(l) {
			w.WriteHeader(http.StatusConflict)
			w.Write(l)
			return
		}
		s.data[key] = body
	case http.MethodDelete:
		delete(s.data, key)
	case "LOCK":
		if l, ok := s.locks[key]; ok {
			w.WriteHeader(http.StatusLocked)
			w.Write(l)
			return
		}
		s.locks[key] = body
	case "UNLOCK":
		l, ok := s.locks[key]
		if ok && lockID(l) != lockID(body) {
			w.WriteHeader(http.StatusConflict)
			w.Write(l)
			return
		}
		delete(s.locks, key)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

func (s *stateServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

func (s *stateServer) nlocks() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.locks)
}

func (s *stateServer) setFail(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = n
}

func newHTTPMgr(t *testing.T, url, dir string, mod func(*HTTPConfig)) *HTTP {
	t.Helper()
	cfg := HTTPConfig{
		Address:       url + "/state",
		LockAddress:   url + "/state",
		UnlockAddress: url + "/state",
		RetryMax:      2,
		RetryWaitMin:  time.Millisecond,
		RetryWaitMax:  time.Millisecond,
	}
	if mod != nil {
		mod(&cfg)
	}
	m, err := NewHTTP(cfg, filepath.Join(dir, "http.tfstate.journal"), testVersion)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestHTTPRoundtrip(t *testing.T) {
	for _, noContent := range []bool{false, true} {
		srv, ts := newStateServer(t)
		srv.noContent = noContent
		dir := t.TempDir()
		m := newHTTPMgr(t, ts.URL, dir, nil)
		s, pending, err := m.Read()
		if err != nil || len(pending) != 0 {
			t.Fatal(err, pending)
		}
		if !s.Empty() || s.Lineage == "" || m.Exists() {
			t.Fatalf("missing state (204: %v) read as %+v", noContent, s)
		}
		if err := m.Lock(context.Background(), NewLockInfo("OperationTypeApply", testVersion), 0); err != nil {
			t.Fatal(err)
		}
		s.SetObject(addr(t, "terraform_data.a"), obj("a"), builtin)
		if err := m.Write(s); err != nil {
			t.Fatal(err)
		}
		if err := m.Write(s); err != nil { // unchanged: not sent
			t.Fatal(err)
		}
		if err := m.Unlock(); err != nil {
			t.Fatal(err)
		}
		got, _, err := newHTTPMgr(t, ts.URL, dir, nil).Read()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]string{"terraform_data.a": "a"}, ids(t, got)); diff != "" || got.Serial != 1 || got.Lineage != s.Lineage {
			t.Errorf("read back serial %d lineage %s (want 1 %s)\n%s", got.Serial, got.Lineage, s.Lineage, diff)
		}
		var posts []string
		for _, r := range srv.requests() {
			if strings.HasPrefix(r, "POST") {
				posts = append(posts, r)
			}
		}
		if len(posts) != 1 || !strings.HasPrefix(posts[0], "POST /state?ID=") {
			t.Errorf("wanted one POST with the lock ID: %v", posts)
		}
		if srv.nlocks() != 0 {
			t.Error("lock left behind")
		}
		if err := m.Delete(context.Background()); err != nil {
			t.Fatal(err)
		}
		srv.mu.Lock()
		_, ok := srv.data["/state"]
		srv.mu.Unlock()
		if ok {
			t.Error("DELETE left the state")
		}
	}
}

func TestHTTPLockHeld(t *testing.T) {
	srv, ts := newStateServer(t)
	dir := t.TempDir()
	ctx := context.Background()
	holder := newHTTPMgr(t, ts.URL, dir, nil)
	info := NewLockInfo("OperationTypeApply", testVersion)
	info.Who = "alice@example"
	if err := holder.Lock(ctx, info, 0); err != nil {
		t.Fatal(err)
	}
	other := newHTTPMgr(t, ts.URL, dir, nil)
	start := time.Now()
	err := other.Lock(ctx, NewLockInfo("OperationTypePlan", testVersion), 300*time.Millisecond)
	var le *LockError
	if !errors.As(err, &le) || le.Info == nil {
		t.Fatalf("want a lock error naming the holder, got %v", err)
	}
	if le.Info.ID != info.ID || le.Info.Who != "alice@example" || le.Info.Operation != "OperationTypeApply" {
		t.Errorf("holder reported as %+v", le.Info)
	}
	if time.Since(start) < 300*time.Millisecond {
		t.Error("did not wait for -lock-timeout")
	}
	if !strings.Contains(err.Error(), info.ID) {
		t.Errorf("message does not name the lock: %s", err)
	}
	// Writing under someone else's lock is refused by the server.
	s := stateWith(t, "terraform_data.x")
	if err := other.Write(s); err == nil || !strings.Contains(err.Error(), "409") {
		t.Errorf("write under another's lock: %v", err)
	}

	// The lock is released while other waits for it.
	go func() {
		time.Sleep(200 * time.Millisecond)
		holder.Unlock()
	}()
	if err := other.Lock(ctx, NewLockInfo("OperationTypePlan", testVersion), 5*time.Second); err != nil {
		t.Fatalf("lock not taken after release: %v", err)
	}
	if err := other.Unlock(); err != nil {
		t.Fatal(err)
	}
	if srv.nlocks() != 0 {
		t.Error("lock left behind")
	}

	// A left lock is force-unlocked by ID.
	if err := holder.Lock(ctx, NewLockInfo("OperationTypeApply", testVersion), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := other.ForceUnlock("wrong", nil); err == nil {
		t.Error("force-unlock with a wrong ID succeeded")
	}
	var asked *LockInfo
	removed, err := other.ForceUnlock(holder.lockID, func(li *LockInfo) bool { asked = li; return true })
	if err != nil || !removed || asked == nil || asked.ID != holder.lockID {
		t.Fatalf("force-unlock: %v %v %+v", removed, err, asked)
	}
	if srv.nlocks() != 0 {
		t.Error("force-unlock left the lock")
	}
}

func TestHTTPNoLockAddress(t *testing.T) {
	srv, ts := newStateServer(t)
	m := newHTTPMgr(t, ts.URL, t.TempDir(), func(c *HTTPConfig) { c.LockAddress, c.UnlockAddress = "", "" })
	if err := m.Lock(context.Background(), NewLockInfo("OperationTypeApply", testVersion), 0); err != nil {
		t.Fatal(err)
	}
	if err := m.Write(stateWith(t, "terraform_data.a")); err != nil {
		t.Fatal(err)
	}
	if err := m.Unlock(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"POST /state"}, srv.requests()); diff != "" {
		t.Errorf("requests (-want +got)\n%s", diff)
	}
}

func TestHTTPAuth(t *testing.T) {
	srv, ts := newStateServer(t)
	srv.user, srv.pass = "u", "p"
	dir := t.TempDir()
	if _, _, err := newHTTPMgr(t, ts.URL, dir, nil).Read(); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("no credentials: %v", err)
	}
	bad := newHTTPMgr(t, ts.URL, dir, func(c *HTTPConfig) { c.Username, c.Password = "u", "wrong" })
	if err := bad.Lock(context.Background(), NewLockInfo("OperationTypeApply", testVersion), 0); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("bad credentials: %v", err)
	}
	good := newHTTPMgr(t, ts.URL, dir, func(c *HTTPConfig) { c.Username, c.Password = "u", "p" })
	if err := good.Lock(context.Background(), NewLockInfo("OperationTypeApply", testVersion), 0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := good.Read(); err != nil {
		t.Fatal(err)
	}
	if err := good.Write(stateWith(t, "terraform_data.a")); err != nil {
		t.Fatal(err)
	}
	if err := good.Unlock(); err != nil {
		t.Fatal(err)
	}
}

func TestHTTPRetries(t *testing.T) {
	srv, ts := newStateServer(t)
	srv.setFail(2)
	m := newHTTPMgr(t, ts.URL, t.TempDir(), nil)
	if _, _, err := m.Read(); err != nil {
		t.Fatalf("two 500s with retry_max 2: %v", err)
	}
	srv.setFail(3)
	if _, _, err := m.Read(); err == nil || !strings.Contains(err.Error(), "500") {
		t.Fatalf("three 500s with retry_max 2: %v", err)
	}
	srv.setFail(1)
	none := newHTTPMgr(t, ts.URL, t.TempDir(), func(c *HTTPConfig) { c.RetryMax = 0 })
	if _, _, err := none.Read(); err == nil {
		t.Fatal("a 500 with retry_max 0 was retried")
	}
}

func TestHTTPConfigErrors(t *testing.T) {
	for _, cfg := range []HTTPConfig{
		{},
		{Address: "ftp://x/y"},
		{Address: "http://x/", LockAddress: "::"},
		{Address: "http://x/", RetryMax: -1},
		{Address: "http://x/", ClientCertificatePEM: "x"},
	} {
		if _, err := NewHTTP(cfg, "j", testVersion); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

// TestHTTPJournal: the apply's journal is local, the snapshot sent once at
// EndJournal; a journal left by a crash is replayed into the remote state
// under the lock by the next Read.
func TestHTTPJournal(t *testing.T) {
	srv, ts := newStateServer(t)
	dir := t.TempDir()
	ctx := context.Background()
	m := newHTTPMgr(t, ts.URL, dir, nil)
	if err := m.Lock(ctx, NewLockInfo("OperationTypeApply", testVersion), 0); err != nil {
		t.Fatal(err)
	}
	base, _, err := m.Read()
	if err != nil {
		t.Fatal(err)
	}
	base.SetObject(addr(t, "terraform_data.a"), obj("a"), builtin)
	if err := m.Write(base); err != nil {
		t.Fatal(err)
	}
	j, err := m.BeginJournal(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Set(addr(t, "terraform_data.b"), "", obj("b"), builtin); err != nil {
		t.Fatal(err)
	}
	if err := j.Intent(addr(t, "terraform_data.c"), "", "create"); err != nil {
		t.Fatal(err)
	}
	// A reader meanwhile leaves the journal alone: the lock is held.
	s, pending, err := newHTTPMgr(t, ts.URL, dir, nil).Read()
	if err != nil || len(pending) != 0 {
		t.Fatal(err, pending)
	}
	if diff := cmp.Diff(map[string]string{"terraform_data.a": "a"}, ids(t, s)); diff != "" {
		t.Errorf("read during the apply\n%s", diff)
	}
	if _, err := os.Stat(m.JournalPath); err != nil {
		t.Fatal("the journal of a running apply was consumed")
	}

	// The apply dies; its lock is released (force-unlock).
	j.f.Close()
	_ = m.Unlock()
	next := newHTTPMgr(t, ts.URL, dir, nil)
	s, pending, err = next.Read()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"terraform_data.a": "a", "terraform_data.b": "b"}, ids(t, s)); diff != "" {
		t.Errorf("wrong recovered state\n%s", diff)
	}
	if diff := cmp.Diff([]Pending{{Addr: "terraform_data.c", Action: "create"}}, pending); diff != "" {
		t.Errorf("wrong pending operations\n%s", diff)
	}
	if _, err := os.Stat(m.JournalPath); err == nil {
		t.Error("the journal was not removed")
	}
	stored, _, _ := newHTTPMgr(t, ts.URL, dir, nil).Read()
	if stored.Serial != 2 || len(ids(t, stored)) != 2 {
		t.Errorf("recovery not stored: serial %d %v", stored.Serial, ids(t, stored))
	}
	if srv.nlocks() != 0 {
		t.Error("recovery left the lock")
	}

	// A whole apply: one POST, at the end.
	before := len(srv.requests())
	if err := next.Lock(ctx, NewLockInfo("OperationTypeApply", testVersion), 0); err != nil {
		t.Fatal(err)
	}
	base, _, _ = next.Read()
	j, err = next.BeginJournal(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"terraform_data.d", "terraform_data.e", "terraform_data.f"} {
		if err := j.Set(addr(t, a), "", obj(a), builtin); err != nil {
			t.Fatal(err)
		}
		base.SetObject(addr(t, a), obj(a), builtin)
	}
	if err := next.EndJournal(base); err != nil {
		t.Fatal(err)
	}
	next.Unlock()
	posts := 0
	for _, r := range srv.requests()[before:] {
		if strings.HasPrefix(r, "POST") {
			posts++
		}
	}
	if posts != 1 {
		t.Errorf("%d POSTs during the apply, want 1", posts)
	}
	if _, err := os.Stat(next.JournalPath); err == nil {
		t.Error("EndJournal left the journal")
	}
}

// TestHTTPLockCancelledInFlight: a lock whose context is cancelled after
// the server has locked the state, before the answer arrives, leaves no
// lock nobody knows they hold: the manager holds it and unlocks it.
func TestHTTPLockCancelledInFlight(t *testing.T) {
	srv, _ := newStateServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		if r.Method == "LOCK" {
			cancel() // SIGTERM as the server answers
			time.Sleep(200 * time.Millisecond)
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	}))
	defer front.Close()
	m := newHTTPMgr(t, front.URL, t.TempDir(), nil)
	err := m.Lock(ctx, NewLockInfo("OperationTypePlan", testVersion), 0)
	if err == nil {
		if err := m.Unlock(); err != nil {
			t.Fatal(err)
		}
	}
	if srv.nlocks() != 0 {
		t.Fatalf("the lock is left behind (Lock: %v)", err)
	}
}
