package s3

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/backend/backendbase"
	"github.com/strata-dev/strata/internal/backend/s3/s3test"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// testBackend configures a backend on the test server's bucket.
func testBackend(t *testing.T, srv *s3test.Server, bucket string) *Backend {
	t.Helper()
	b, diags := New(&backendbase.Settings{
		Values: map[string]cty.Value{
			"bucket":                      cty.StringVal(bucket),
			"key":                         cty.StringVal("app/state.tfstate"),
			"region":                      cty.StringVal(s3test.Region),
			"use_lockfile":                cty.True,
			"use_path_style":              cty.True,
			"skip_credentials_validation": cty.True,
			"access_key":                  cty.StringVal(srv.AccessKey),
			"secret_key":                  cty.StringVal(srv.SecretKey),
			"endpoints": cty.ObjectVal(map[string]cty.Value{
				"s3": cty.StringVal(srv.Endpoint), "sts": cty.NullVal(cty.String), "iam": cty.NullVal(cty.String),
				"sso": cty.NullVal(cty.String), "dynamodb": cty.NullVal(cty.String),
			}),
		},
		Getenv:  func(string) string { return "" },
		DataDir: t.TempDir(),
		Version: "1.11.4",
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return b
}

// TestLockRace: of many managers locking the same state at once, on the
// real server, exactly one gets the lock; the others are told who holds
// it.
func TestLockRace(t *testing.T) {
	srv := s3test.Get(t)
	b := testBackend(t, srv, srv.NewBucket(t))
	ctx := context.Background()
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	mgrs := make([]statemgr.Manager, n)
	infos := make([]*statemgr.LockInfo, n)
	for i := range n {
		mgr, diags := b.StateMgr(ctx, statemgr.DefaultWorkspace)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		mgrs[i], infos[i] = mgr, statemgr.NewLockInfo("OperationTypeApply", "test")
	}
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = mgrs[i].Lock(ctx, infos[i], 0)
		}()
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		if err == nil {
			if winner >= 0 {
				t.Fatalf("managers %d and %d both got the lock", winner, i)
			}
			winner = i
			continue
		}
		var le *statemgr.LockError
		if !errors.As(err, &le) {
			t.Errorf("manager %d: %v", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("nobody got the lock")
	}
	for i, err := range errs {
		var le *statemgr.LockError
		if errors.As(err, &le) && (le.Info == nil || le.Info.ID != infos[winner].ID) {
			t.Errorf("manager %d was told the holder is %+v, want %s", i, le.Info, infos[winner].ID)
		}
	}
	if err := mgrs[winner].Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := mgrs[(winner+1)%n].Lock(ctx, statemgr.NewLockInfo("OperationTypeApply", "test"), 0); err != nil {
		t.Fatalf("the lock after its release: %v", err)
	}
	_ = mgrs[(winner+1)%n].Unlock()
}

// TestConflictingWrite: a write based on a snapshot someone else has
// replaced since is refused (a conditional put), and leaves their state
// alone; so is creating a state someone else has just created.
func TestConflictingWrite(t *testing.T) {
	srv := s3test.Get(t)
	bucket := srv.NewBucket(t)
	b := testBackend(t, srv, bucket)
	ctx := context.Background()
	mgr := func() statemgr.Manager {
		m, diags := b.StateMgr(ctx, statemgr.DefaultWorkspace)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return m
	}
	write := func(m statemgr.Manager, s *states.State, v string) error {
		s.Outputs["v"] = &states.OutputValue{Value: cty.StringVal(v)}
		return m.Write(s)
	}
	a, other := mgr(), mgr()
	sa, _, err := a.Read()
	if err != nil {
		t.Fatal(err)
	}
	so, _, err := other.Read()
	if err != nil {
		t.Fatal(err)
	}
	// Both saw no state: the second creation is refused.
	if err := write(other, so, "other"); err != nil {
		t.Fatal(err)
	}
	err = write(a, sa, "a")
	if err == nil || !strings.Contains(err.Error(), "changed by another process") || !strings.Contains(err.Error(), "serial 1") {
		t.Fatalf("creating over someone's state: %v", err)
	}
	// Both read serial 1: the second update is refused.
	if sa, _, err = a.Read(); err != nil {
		t.Fatal(err)
	}
	if so, _, err = other.Read(); err != nil {
		t.Fatal(err)
	}
	if err := write(other, so, "other 2"); err != nil {
		t.Fatal(err)
	}
	if err := write(a, sa, "a 2"); err == nil || !strings.Contains(err.Error(), "serial 2") {
		t.Fatalf("updating over someone's state: %v", err)
	}
	got, found, err := b.ReadState(ctx, statemgr.DefaultWorkspace)
	if err != nil || !found || !got.Outputs["v"].Value.RawEquals(cty.StringVal("other 2")) || got.Serial != 2 {
		t.Fatalf("stored: %+v found %v err %v", got, found, err)
	}
	// Read again, a's write goes through.
	if sa, _, err = a.Read(); err != nil {
		t.Fatal(err)
	}
	if err := write(a, sa, "a 3"); err != nil {
		t.Fatal(err)
	}
}

// TestLockCancelledInFlight: a lock whose context is cancelled while its
// conditional write is in flight, after the server has created the lock
// object, leaves no lock behind: the manager either holds it (and
// releases it) or removed it. A lock nobody knows they hold would block
// every later command until force-unlock.
func TestLockCancelledInFlight(t *testing.T) {
	srv := s3test.Get(t)
	bucket := srv.NewBucket(t)
	target, err := url.Parse(srv.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	proxy := httputil.NewSingleHostReverseProxy(target)
	// The server has taken the lock; the answer reaches the client only
	// after its context is cancelled (SIGTERM at that moment).
	proxy.ModifyResponse = func(r *http.Response) error {
		if r.Request.Method == http.MethodPut && strings.HasSuffix(r.Request.URL.Path, ".tflock") {
			cancel()
			time.Sleep(200 * time.Millisecond)
		}
		return nil
	}
	ts := httptest.NewServer(proxy)
	defer ts.Close()
	proxied := *srv
	proxied.Endpoint = ts.URL
	b := testBackend(t, &proxied, bucket)
	mgr, diags := b.StateMgr(context.Background(), statemgr.DefaultWorkspace)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	lockErr := mgr.Lock(ctx, statemgr.NewLockInfo("OperationTypePlan", "test"), 0)
	if lockErr == nil {
		if err := mgr.Unlock(); err != nil {
			t.Fatalf("releasing the lock taken as the context was cancelled: %v", err)
		}
	}
	if data, ok := srv.Object(t, bucket, "app/state.tfstate.tflock"); ok {
		t.Fatalf("the lock object is left behind (Lock: %v):\n%s", lockErr, data)
	}
	// And someone else can lock.
	other, diags := testBackend(t, srv, bucket).StateMgr(context.Background(), statemgr.DefaultWorkspace)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if err := other.Lock(context.Background(), statemgr.NewLockInfo("OperationTypeApply", "test"), 0); err != nil {
		t.Fatalf("locking after the cancelled lock: %v", err)
	}
	_ = other.Unlock()
}
