package s3

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/strata-dev/strata/internal/backend/s3/s3test"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// TestLease: on the real server, a second lease on the same state is
// refused, naming the holder, while the state lock stays free; the holder
// renews it past its TTL; a lease whose holder stopped renewing is taken
// over once expired; release removes the object, and only the holder's.
func TestLease(t *testing.T) {
	srv := s3test.Get(t)
	bucket := srv.NewBucket(t)
	b := testBackend(t, srv, bucket)
	ctx := context.Background()
	defer func(ttl, renew time.Duration) { leaseTTL, leaseRenew = ttl, renew }(leaseTTL, leaseRenew)
	leaseTTL, leaseRenew = 1500*time.Millisecond, 300*time.Millisecond

	mgr := func() *Manager {
		m, diags := b.StateMgr(ctx, statemgr.DefaultWorkspace)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return m.(*Manager)
	}
	release, err := mgr().Lease(ctx, "watch")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := srv.Object(t, bucket, "app/state.tfstate.strata-watch.lease"); !ok {
		t.Fatal("no lease object")
	}
	other := mgr()
	_, err = other.Lease(ctx, "watch")
	if !errors.Is(err, statemgr.ErrLeaseHeld) || !strings.Contains(err.Error(), "strata-watch.lease") || !strings.Contains(err.Error(), "process ") {
		t.Fatalf("second lease: %v, want ErrLeaseHeld naming the holder", err)
	}
	if err := other.Lock(ctx, statemgr.NewLockInfo("OperationTypeApply", "test"), 0); err != nil {
		t.Fatalf("the lease blocks the state lock: %v", err)
	}
	_ = other.Unlock()
	// Renewed: still held after more than its TTL.
	time.Sleep(2 * leaseTTL)
	if _, err := other.Lease(ctx, "watch"); !errors.Is(err, statemgr.ErrLeaseHeld) {
		t.Fatalf("after its TTL, with its holder renewing it: %v", err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if _, ok := srv.Object(t, bucket, "app/state.tfstate.strata-watch.lease"); ok {
		t.Fatal("release left the lease object")
	}

	// A holder that stops renewing (it died) loses the lease once it
	// expires.
	leaseRenew = time.Hour
	dead, err := mgr().Lease(ctx, "watch")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Lease(ctx, "watch"); !errors.Is(err, statemgr.ErrLeaseHeld) {
		t.Fatalf("before it expires: %v", err)
	}
	time.Sleep(leaseTTL + 200*time.Millisecond)
	taken, err := other.Lease(ctx, "watch")
	if err != nil {
		t.Fatalf("taking over an expired lease: %v", err)
	}
	// The dead holder's release leaves the new holder's lease alone.
	if err := dead(); err != nil {
		t.Fatal(err)
	}
	if _, err := mgr().Lease(ctx, "watch"); !errors.Is(err, statemgr.ErrLeaseHeld) {
		t.Fatalf("the old holder's release removed the new holder's lease: %v", err)
	}
	_ = taken()

	// Without use_lockfile there is no lease.
	m := mgr()
	m.store.cfg.UseLockfile = false
	if _, err := m.Lease(ctx, "watch"); !errors.Is(err, statemgr.ErrLeaseUnsupported) {
		t.Fatalf("without use_lockfile: %v", err)
	}
}
