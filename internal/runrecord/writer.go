package runrecord

import (
	"context"
	"sync"
	"time"
)

// Writer takes the records of runs as they go. Over a run log
// (CreateLog) it appends each record to a buffer that is written to the
// file within Window; over a Store (NewWriter) it hands records to one
// goroutine that writes those queued together in one transaction. Either
// way a killed process keeps everything put more than Window before it
// died.
type Writer struct {
	log     *logSink
	discard bool

	// cipher, when set, encrypts the values of entries (SetCipher).
	cipher Cipher

	store Store
	ch    chan item
	done  chan struct{}

	mu  sync.Mutex
	err error
}

type item struct {
	run      *Run
	entry    *Entry
	upToDate []Entry
	flush    chan struct{}
}

// Discard returns a Writer that keeps nothing, for a run whose outcomes
// are wanted (the -json UI stream reports them) but not recorded.
func Discard() *Writer { return &Writer{discard: true} }

// Window is how long the Writer gathers records into one transaction.
const Window = 20 * time.Millisecond

// maxBatch bounds the records taken into one transaction.
const maxBatch = 8192

// NewWriter starts a Writer over s with room for buffer queued records.
func NewWriter(s Store, buffer int) *Writer {
	w := &Writer{store: s, ch: make(chan item, buffer), done: make(chan struct{})}
	go w.loop()
	return w
}

// PutRun queues a run (new or updated).
func (w *Writer) PutRun(r Run) {
	if w.discard {
		return
	}
	if w.log != nil {
		w.log.put(recRun, &r)
		return
	}
	w.ch <- item{run: &r}
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
	if w.log != nil {
		w.log.putEntry(&e)
		return
	}
	w.queueEntry(e)
}

// queueEntry hands e to the goroutine of a Writer over a Store. It is a
// function of its own so that the e of PutEntry and PutStart, which a
// run log encodes at once, stays off the heap.
func (w *Writer) queueEntry(e Entry) { w.ch <- item{entry: &e} }

// Grow makes room for about n more bytes of records, so that a run that
// puts many at once (its plan) does not grow the log's buffer step by
// step.
func (w *Writer) Grow(n int) {
	if w.log == nil {
		return
	}
	w.log.mu.Lock()
	defer w.log.mu.Unlock()
	if cap(w.log.buf)-len(w.log.buf) < n {
		b := make([]byte, len(w.log.buf), len(w.log.buf)+n)
		copy(b, w.log.buf)
		w.log.buf = b
	}
}

// PutStart queues the start of an entry's operation: e was put before,
// and only e.Started changed.
func (w *Writer) PutStart(e Entry) {
	if w.discard {
		return
	}
	if w.log != nil {
		w.log.putStart(e.Seq, e.Started)
		return
	}
	e.Changes = nil
	w.queueEntry(e)
}

// PutUpToDate queues entries with nothing to do, all of one run, written
// compactly (see Batch.UpToDate).
func (w *Writer) PutUpToDate(es []Entry) {
	if len(es) == 0 || w.discard {
		return
	}
	if w.log != nil {
		cs := make([]compactEntry, len(es))
		for i, e := range es {
			cs[i] = newCompactEntry(e)
		}
		w.log.put(recUpToDate, cs)
		return
	}
	w.ch <- item{upToDate: es}
}

// Flush waits until everything queued so far is written (and, in a run
// log, synced to disk).
func (w *Writer) Flush() {
	if w.discard {
		return
	}
	if w.log != nil {
		w.log.flush()
		return
	}
	c := make(chan struct{})
	w.ch <- item{flush: c}
	<-c
}

// Close writes what is queued, stops the goroutine and returns the first
// error a write had, if any. The Store stays open. A run log is synced,
// closed and named as the log of an ended run, for Ingest.
func (w *Writer) Close() error {
	if w.discard {
		return nil
	}
	if w.log != nil {
		return w.log.close()
	}
	close(w.ch)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// setErr keeps err for Close to return, unless an earlier error is kept.
func (w *Writer) setErr(err error) {
	if w.log != nil {
		w.log.mu.Lock()
		w.log.setErr(err)
		w.log.mu.Unlock()
		return
	}
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.mu.Unlock()
}

func (w *Writer) loop() {
	defer close(w.done)
	for it := range w.ch {
		// Writes of the same run or entry queued together collapse into
		// the last one (an entry keeps the changes of an earlier write
		// when the last has none): the busier the apply, the fewer rows
		// are written per operation.
		var b Batch
		var flushes []chan struct{}
		runAt := map[string]int{}
		type key struct {
			run string
			seq int
		}
		entryAt := map[key]int{}
		add := func(it item) {
			switch {
			case it.run != nil:
				if i, ok := runAt[it.run.ID]; ok {
					b.Runs[i] = *it.run
					return
				}
				runAt[it.run.ID] = len(b.Runs)
				b.Runs = append(b.Runs, *it.run)
			case it.entry != nil:
				k := key{it.entry.RunID, it.entry.Seq}
				if i, ok := entryAt[k]; ok {
					e := *it.entry
					if e.keepsChanges() {
						e.Changes, e.SealedChanges = b.Entries[i].Changes, b.Entries[i].SealedChanges
					}
					b.Entries[i] = e
					return
				}
				entryAt[k] = len(b.Entries)
				b.Entries = append(b.Entries, *it.entry)
			case it.upToDate != nil:
				b.UpToDate = append(b.UpToDate, it.upToDate...)
			case it.flush != nil:
				flushes = append(flushes, it.flush)
			}
		}
		add(it)
		taken := 1
		// Gather what comes within the window into this transaction:
		// an operation's start and end then cost one row write, and a
		// kill loses at most the window's records.
		timer := time.NewTimer(Window)
	more:
		for taken < maxBatch && len(flushes) == 0 {
			select {
			case it, ok := <-w.ch:
				if !ok {
					break more
				}
				add(it)
				taken++
			case <-timer.C:
				break more
			}
		}
		timer.Stop()
		if len(b.Runs)+len(b.Entries)+len(b.UpToDate) > 0 {
			if err := w.store.Write(context.Background(), b); err != nil {
				w.setErr(err)
			}
		}
		for _, f := range flushes {
			close(f)
		}
	}
}
