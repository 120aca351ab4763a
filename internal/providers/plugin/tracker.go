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
	mu      sync.Mutex
	clients []*Client
	closed  bool
}

// NewTracker returns an empty Tracker.
func NewTracker() *Tracker { return &Tracker{} }

// WithTracker records every client NewClient starts in t; Close on t ends
// the ones the caller has not closed. A nil t tracks nothing.
func WithTracker(t *Tracker) Option {
	return func(o *options) { o.tracker = t }
}

// add records c; a client started after Close is closed at once, so that
// nothing outlives the run.
func (t *Tracker) add(c *Client) {
	t.mu.Lock()
	if !t.closed {
		t.clients = append(t.clients, c)
		t.mu.Unlock()
		return
	}
	t.mu.Unlock()
	_ = c.Close(context.Background())
}

// Close ends every tracked plugin process not yet closed. It is safe to
// call more than once, and on a nil Tracker.
func (t *Tracker) Close() {
	if t == nil {
		return
	}
	t.mu.Lock()
	clients := t.clients
	t.clients, t.closed = nil, true
	t.mu.Unlock()
	for _, c := range clients {
		_ = c.Close(context.Background())
	}
}
