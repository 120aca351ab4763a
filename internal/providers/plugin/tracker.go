package plugin

import (
	"context"
	"sync"
)

// Tracker holds the plugin processes one command run started, so that the
// run can end them when it ends, whatever path it takes, without touching
// the processes of other runs in the same process (tests run commands in
// parallel). CleanupClients stays the process-wide last resort, for exits
// that skip the run's own cleanup.
type Tracker struct {
	mu     sync.Mutex
	closes []func()
	closed bool
}

// NewTracker returns an empty Tracker.
func NewTracker() *Tracker { return &Tracker{} }

// WithTracker records every client NewClient (or provisioner
// NewProvisioner) starts in t; Close on t ends the ones the caller has not
// closed. A nil t tracks nothing.
func WithTracker(t *Tracker) Option {
	return func(o *options) { o.tracker = t }
}

// add records c; a client started after Close is closed at once, so that
// nothing outlives the run.
func (t *Tracker) add(c *Client) {
	t.addClose(func() { _ = c.Close(context.Background()) })
}

// addClose records how to end a process.
func (t *Tracker) addClose(close func()) {
	t.mu.Lock()
	if !t.closed {
		t.closes = append(t.closes, close)
		t.mu.Unlock()
		return
	}
	t.mu.Unlock()
	close()
}

// Close ends every tracked plugin process not yet closed. It is safe to
// call more than once, and on a nil Tracker.
func (t *Tracker) Close() {
	if t == nil {
		return
	}
	t.mu.Lock()
	closes := t.closes
	t.closes, t.closed = nil, true
	t.mu.Unlock()
	for _, close := range closes {
		close()
	}
}
