// Package tailbuf keeps the end of a stream of output: what a failed
// command or a crashed plugin printed last, for the error that reports it.
package tailbuf

import "sync"

// Buffer is an io.Writer that keeps the last bytes written to it, up to
// its size. It is safe for concurrent use.
type Buffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// New returns a Buffer that keeps the last max bytes.
func New(max int) *Buffer { return &Buffer{max: max} }

// Write appends p, dropping the oldest bytes beyond the buffer's size.
func (t *Buffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String returns the bytes kept.
func (t *Buffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
