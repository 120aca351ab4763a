package statemgr

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// DefaultPersistInterval is how often an apply writes the state it has
// reached to a remote backend: each checkpoint bounds what a crash that
// also loses the local journal (a lost CI runner) can lose, as Terraform
// persists remote state during long applies. TF_STATE_PERSIST_INTERVAL
// (seconds) changes it.
const DefaultPersistInterval = 20 * time.Second

// PersistInterval reads TF_STATE_PERSIST_INTERVAL (seconds) through
// getenv, the command's environment (nil: the process's):
// DefaultPersistInterval when it is unset or not a positive number.
func PersistInterval(getenv func(string) string) time.Duration {
	if getenv == nil {
		getenv = os.Getenv
	}
	if s := getenv("TF_STATE_PERSIST_INTERVAL"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return time.Duration(n) * time.Second
		}
	}
	return DefaultPersistInterval
}

// checkpointer keeps the state a journal's records lead to and writes it
// to the backend at intervals, then starts the journal again on top of
// the snapshot just written.
type checkpointer struct {
	state *states.State // base plus every record so far; guarded by the journal's mu
	dirty bool
	// write stores a snapshot and returns the serial it was stored with.
	write func(*states.State) (uint64, error)
	stop  chan struct{}
	done  chan struct{}
}

// startCheckpoints makes j write the state it leads to with write every
// interval, until stopCheckpoints.
func (j *Journal) startCheckpoints(base *states.State, interval time.Duration, write func(*states.State) (uint64, error)) {
	j.cp = &checkpointer{state: base.DeepCopy(), write: write, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(j.cp.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-j.cp.stop:
				return
			case <-t.C:
				_ = j.checkpoint() // a failed checkpoint leaves the journal as it was
			}
		}
	}()
}

// stopCheckpoints ends the periodic writes; the final snapshot is the
// caller's to write.
func (j *Journal) stopCheckpoints() {
	if j == nil || j.cp == nil {
		return
	}
	close(j.cp.stop)
	<-j.cp.done
}

// mirror applies a change to the checkpointer's state, if there is one.
// The journal's mu is held.
func (j *Journal) mirror(fn func(*states.State)) {
	if j.cp == nil {
		return
	}
	fn(j.cp.state)
	j.cp.dirty = true
}

// checkpoint writes the state reached so far and restarts the journal on
// top of it: its header names the new serial, and it keeps the intents of
// operations still running and the records not yet flushed (replaying a
// record twice is harmless). Appends wait meanwhile.
func (j *Journal) checkpoint() error {
	j.flushMu.Lock()
	defer j.flushMu.Unlock()
	j.mu.Lock()
	defer j.mu.Unlock()
	if !j.cp.dirty || j.err != nil {
		return nil
	}
	serial, err := j.cp.write(j.cp.state.DeepCopy())
	if err != nil {
		return err
	}
	j.cp.dirty = false
	head, _ := json.Marshal(journalHeader{Journal: 1, Lineage: j.cp.state.Lineage, Serial: serial})
	data := append(head, '\n')
	for _, rec := range j.pending {
		line, err := j.encode(rec)
		if err != nil {
			return err
		}
		data = append(append(data, line...), '\n')
	}
	data = append(data, j.buf...)
	tmp := j.path + ".new"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("cannot restart the state journal: %w", err)
	}
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := os.Rename(tmp, j.path); err != nil {
		f.Close()
		return err
	}
	syncDir(filepath.Dir(j.path))
	j.f.Close()
	j.f = f
	j.buf = nil
	j.flushed = j.seq
	j.synced = j.seq
	return nil
}

func pendingKey(addr addrs.AbsResourceInstance, deposed string) string {
	return addr.String() + "/" + deposed
}
