package provisioners

import (
	"bytes"
	"strings"
	"sync"
)

// LineWriter is an io.Writer that sends Output each line written to it,
// without its line ending (a carriage return before the newline, which a
// remote terminal adds, goes too). It is safe for concurrent use, so a
// command's stdout and stderr can share one. Flush sends what remains
// after the last newline.
type LineWriter struct {
	Output func(string)

	mu  sync.Mutex
	buf []byte
}

// Write implements io.Writer.
func (w *LineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		w.Output(strings.TrimSuffix(string(w.buf[:i]), "\r"))
		w.buf = w.buf[i+1:]
	}
	return len(p), nil
}

// Flush sends what was written after the last newline, if anything.
func (w *LineWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > 0 {
		w.Output(strings.TrimSuffix(string(w.buf), "\r"))
		w.buf = nil
	}
}
