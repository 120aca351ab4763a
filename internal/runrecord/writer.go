package runrecord

import (
	"time"
)

// Writer takes the records of runs as they go: over a run log
// (CreateLog) it appends each record to a buffer that is written to the
// file within Window, so a killed process keeps everything put more than
// Window before it died. Ingest later moves the log into a Store.
type Writer struct {
	log     *logSink
	discard bool

	// cipher, when set, encrypts the values of entries (SetCipher).
	cipher Cipher
}

// Discard returns a Writer that keeps nothing, for a run whose outcomes
// are wanted (the -json UI stream reports them) but not recorded.
func Discard() *Writer { return &Writer{discard: true} }

// Window is how long the Writer gathers records before writing them.
const Window = 20 * time.Millisecond

// PutRun queues a run (new or updated).
func (w *Writer) PutRun(r Run) {
	if w.discard {
		return
	}
	w.log.put(recRun, &r)
}

// SetCipher makes w encrypt the values of the entries put from now on
// (see Cipher). Call it before the first PutEntry.
func (w *Writer) SetCipher(c Cipher) { w.cipher = c }

// PutEntry queues an entry (new or updated). An entry put again with nil
// Changes keeps the changes put before.
func (w *Writer) PutEntry(e Entry) {
	if w.discard {
		return
	}
	if w.cipher != nil {
		if err := sealEntry(&e, w.cipher); err != nil {
			// Never write the values in clear: the entry goes without
			// them, and Close reports why.
			e.Changes, e.SealedChanges, e.Diagnostics, e.SealedDiagnostics = nil, nil, "", nil
			w.setErr(err)
		}
	}
	w.log.putEntry(&e)
}

// PutStart queues the start of an entry's operation: e was put before,
// and only e.Started changed.
func (w *Writer) PutStart(e Entry) {
	if w.discard {
		return
	}
	w.log.putStart(e.Seq, e.Started)
}

// PutUpToDate queues entries with nothing to do, all of one run, written
// compactly (see Batch.UpToDate).
func (w *Writer) PutUpToDate(es []*Entry) {
	if len(es) == 0 || w.discard {
		return
	}
	cs := make([]compactEntry, len(es))
	for i, e := range es {
		cs[i] = newCompactEntry(*e)
	}
	w.log.put(recUpToDate, cs)
}

// Flush waits until everything put so far is written and synced to
// disk.
func (w *Writer) Flush() {
	if w.discard {
		return
	}
	w.log.flush()
}

// Close writes what is left and returns the first error a write had, if
// any. The run log is synced, closed and named as the log of an ended
// run, for Ingest.
func (w *Writer) Close() error {
	if w.discard {
		return nil
	}
	return w.log.close()
}

// setErr keeps err for Close to return, unless an earlier error is kept.
func (w *Writer) setErr(err error) {
	w.log.mu.Lock()
	w.log.setErr(err)
	w.log.mu.Unlock()
}
