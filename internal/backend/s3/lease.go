package s3

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/strata-dev/strata/internal/states/statemgr"
)

// The lease of a long-running process (strata watch) is the object
// KEY.strata-NAME.lease, apart from the state lock, holding who has it
// and until when. Its holder renews it every leaseRenew; a lease not
// renewed for leaseTTL (its holder died) may be taken over, with a write
// conditional on the expired object's ETag so that of two takers only
// one wins. Like the lock object it needs the conditional writes that
// use_lockfile relies on, so without use_lockfile there is no lease.
var (
	leaseTTL   = 2 * time.Minute
	leaseRenew = 30 * time.Second
)

// uncertainLeases are the IDs of this process's takes of a lease (by
// object) that failed in a way that may have reached the server.
var uncertainLeases sync.Map

// leaseDoc is the lease object's content.
type leaseDoc struct {
	ID      string    `json:"id"`
	Who     string    `json:"who"`
	PID     int       `json:"pid"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
}

var _ statemgr.Leaser = (*Manager)(nil)

func (m *Manager) leaseKey(name string) string { return m.Key + ".strata-" + name + ".lease" }

// Lease implements statemgr.Leaser (see leaseTTL).
func (m *Manager) Lease(ctx context.Context, name string) (func() error, error) {
	if !m.store.cfg.UseLockfile {
		return nil, statemgr.ErrLeaseUnsupported
	}
	key := m.leaseKey(name)
	info := statemgr.NewLockInfo("", "")
	doc := leaseDoc{ID: info.ID, Who: info.Who, PID: os.Getpid(), Created: info.Created}
	body := func() []byte {
		doc.Expires = time.Now().UTC().Add(leaseTTL)
		b, _ := json.Marshal(doc)
		return b
	}
	where := fmt.Sprintf("s3://%s/%s", m.store.cfg.Bucket, key)
	// An earlier take of this process whose outcome is unknown (its
	// answer was lost) may have created the lease: this one has its ID,
	// and takes it over if it finds it.
	if id, ok := uncertainLeases.LoadAndDelete(where); ok {
		doc.ID = id.(string)
	}
	// As with the state lock (tryLock), the writes are not cut short by
	// ctx: one cancelled in flight may have created the lease all the
	// same.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), requestTimeout)
	defer cancel()
	etag, err := m.store.put(ctx, key, body(), condition{absent: true})
	if preconditionFailed(err) {
		obj, gerr := m.store.get(ctx, key)
		if gerr != nil {
			return nil, fmt.Errorf("s3 backend: reading the %s lease %s: %w", name, where, gerr)
		}
		cond := condition{absent: true}
		if obj != nil {
			var held leaseDoc
			ok := json.Unmarshal(obj.data, &held) == nil
			mine := ok && held.ID == doc.ID
			if ok && held.Expires.After(time.Now()) && !mine {
				return nil, fmt.Errorf("%w: %s (process %d) holds %s since %s, until %s unless renewed",
					statemgr.ErrLeaseHeld, held.Who, held.PID, where, held.Created.Format(time.RFC3339), held.Expires.Format(time.RFC3339))
			}
			// Expired (or unreadable): its holder is gone.
			cond = condition{etag: obj.etag}
		}
		etag, err = m.store.put(ctx, key, body(), cond)
		if preconditionFailed(err) {
			return nil, fmt.Errorf("%w: another process took %s at the same moment", statemgr.ErrLeaseHeld, where)
		}
	}
	if err != nil {
		uncertainLeases.Store(where, doc.ID)
		return nil, fmt.Errorf("s3 backend: taking the %s lease %s: %w", name, where, err)
	}

	var mu sync.Mutex
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(leaseRenew)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			rctx, cancel := context.WithTimeout(context.Background(), leaseRenew)
			mu.Lock()
			e, err := m.store.put(rctx, key, body(), condition{etag: etag})
			if err == nil {
				etag = e
			}
			mu.Unlock()
			cancel()
			if preconditionFailed(err) {
				return // taken over after it expired: nothing left to renew
			}
		}
	}()
	return func() error {
		close(stop)
		<-done
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		obj, err := m.store.get(ctx, key)
		if err != nil || obj == nil {
			return err
		}
		mu.Lock()
		ours := obj.etag == etag
		mu.Unlock()
		if !ours {
			return nil // someone took it over
		}
		return m.store.remove(ctx, key)
	}, nil
}
