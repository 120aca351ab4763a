package runrecord

import (
	"context"
	"sync"
)

// Writer hands records to a Store from one goroutine, so that callers on
// the apply's hot path only send on a buffered channel. Records queued
// together are written in one transaction, in the order they were put;
// each transaction commits as soon as it is written, so a killed process
// keeps everything the Writer had reached.
type Writer struct {
	store Store
	ch    chan item
	done  chan struct{}

	mu  sync.Mutex
	err error
}

type item struct {
	run   *Run
	entry *Entry
	flush chan struct{}
}

// maxBatch bounds the records written in one transaction.
const maxBatch = 1024

// NewWriter starts a Writer over s with room for buffer queued records.
func NewWriter(s Store, buffer int) *Writer {
	w := &Writer{store: s, ch: make(chan item, buffer), done: make(chan struct{})}
	go w.loop()
	return w
}

// PutRun queues a run (new or updated).
func (w *Writer) PutRun(r Run) { w.ch <- item{run: &r} }

// PutEntry queues an entry (new or updated).
func (w *Writer) PutEntry(e Entry) { w.ch <- item{entry: &e} }

// Flush waits until everything queued so far is written.
func (w *Writer) Flush() {
	c := make(chan struct{})
	w.ch <- item{flush: c}
	<-c
}

// Close writes what is queued, stops the goroutine and returns the first
// error a write had, if any. The Store stays open.
func (w *Writer) Close() error {
	close(w.ch)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

func (w *Writer) loop() {
	defer close(w.done)
	for it := range w.ch {
		var b Batch
		var flushes []chan struct{}
		add := func(it item) {
			switch {
			case it.run != nil:
				b.Runs = append(b.Runs, *it.run)
			case it.entry != nil:
				b.Entries = append(b.Entries, *it.entry)
			case it.flush != nil:
				flushes = append(flushes, it.flush)
			}
		}
		add(it)
	more:
		for len(b.Runs)+len(b.Entries) < maxBatch {
			select {
			case it, ok := <-w.ch:
				if !ok {
					break more
				}
				add(it)
			default:
				break more
			}
		}
		if len(b.Runs)+len(b.Entries) > 0 {
			if err := w.store.Write(context.Background(), b); err != nil {
				w.mu.Lock()
				if w.err == nil {
					w.err = err
				}
				w.mu.Unlock()
			}
		}
		for _, f := range flushes {
			close(f)
		}
	}
}
