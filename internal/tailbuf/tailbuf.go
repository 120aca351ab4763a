// Package tailbuf keeps the end of a stream of output: what a failed
// command or a crashed plugin printed last, for the error that reports it.
package tailbuf

import "sync"

// Buffer is an io.Writer that keeps the last bytes written to it, up to
// its size, in a ring: a write costs its own length, however long the
// stream (a plugin logging at TRACE level writes megabytes). It is safe
// for concurrent use.
type Buffer struct {
	mu    sync.Mutex
	ring  []byte // allocated on the first write, max bytes
	start int    // index of the oldest byte kept
	n     int    // bytes kept
	max   int
}

// New returns a Buffer that keeps the last max bytes.
func New(max int) *Buffer { return &Buffer{max: max} }

// Write appends p, dropping the oldest bytes beyond the buffer's size.
func (t *Buffer) Write(p []byte) (int, error) {
	written := len(p)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.max <= 0 || written == 0 {
		return written, nil
	}
	if t.ring == nil {
		t.ring = make([]byte, t.max)
	}
	if len(p) >= t.max {
		copy(t.ring, p[len(p)-t.max:])
		t.start, t.n = 0, t.max
		return written, nil
	}
	end := (t.start + t.n) % t.max
	c := copy(t.ring[end:], p)
	copy(t.ring, p[c:])
	t.n += len(p)
	if over := t.n - t.max; over > 0 {
		t.start = (t.start + over) % t.max
		t.n = t.max
	}
	return written, nil
}

// String returns the bytes kept.
func (t *Buffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.start+t.n <= len(t.ring) {
		return string(t.ring[t.start : t.start+t.n])
	}
	return string(t.ring[t.start:]) + string(t.ring[:t.start+t.n-len(t.ring)])
}
