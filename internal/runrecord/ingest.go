package runrecord

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// IngestThreshold is the number of ended run logs beyond which a new run
// ingests them before it starts (NeedsIngest), so that logs do not pile
// up in a directory where nobody queries the records.
const IngestThreshold = 25

// Host says which runs Ingest may complete: those of this host whose
// process is gone.
type Host struct {
	Name string
	// Alive reports whether a process of this host is running.
	Alive func(pid int) bool
	// Crashed, when not nil, is given the log of each run Ingest
	// completed because its process died, rewritten as the log of an
	// ended run (DIR/ID.log) holding the completed record, before the
	// log is removed: with the pg backend it uploads the record
	// (Shared.Upload), as the run would have had it ended. Its error is
	// reported, and the record stays in the Store all the same.
	Crashed func(ctx context.Context, path string) error
}

// NeedsIngest reports whether the logs in dir should be ingested before
// a new run starts: a run of this host died without ending its log (its
// record is completed on the next start), or more than IngestThreshold
// ended logs wait.
func NeedsIngest(dir string, h Host) bool {
	ended, running, err := Logs(dir)
	if err != nil {
		return false
	}
	if len(ended) > IngestThreshold {
		return true
	}
	for _, p := range running {
		host, pid, err := LogOwner(p)
		if err != nil || (host == h.Name && !h.Alive(pid)) {
			return true
		}
	}
	return false
}

// Ingest moves the run logs in dir into s, oldest first, each run whole
// in one transaction. The log of a run that ended is then removed; so is
// that of a run of this host whose process is gone, after its record is
// completed (the run crashed: what it had started is unknown, what it
// had not reached unprocessed). The log of a run still going is stored as
// far as it goes and kept. Concurrent ingestions of one directory take
// turns (a lock file).
func Ingest(ctx context.Context, s Store, dir string, h Host) error {
	ended, running, err := Logs(dir)
	if err != nil || len(ended)+len(running) == 0 {
		return err
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return err
	}
	defer unlock()
	// What another process ingested while this one waited for the lock
	// is gone: list again.
	if ended, running, err = Logs(dir); err != nil {
		return err
	}
	var errs []error
	for _, p := range append(ended, running...) {
		if err := ingestOne(ctx, s, p, h); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// staleAfter is how old a log without a readable run record must be to
// be removed as garbage (a younger one may be being created).
const staleAfter = time.Minute

func ingestOne(ctx context.Context, s Store, path string, h Host) error {
	rl, err := readLog(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if fi, serr := os.Stat(path); serr == nil && time.Since(fi.ModTime()) > staleAfter && (rl == nil || !rl.hasRun) {
			return os.Remove(path)
		}
		return fmt.Errorf("run log %s: %w", filepath.Base(path), err)
	}
	done := filepath.Ext(path) == endedSuffix
	crashed := false
	if !done && rl.run.Outcome == RunRunning && rl.run.Host == h.Name && !h.Alive(rl.run.PID) {
		rl.crashed()
		done, crashed = true, true
	}
	if err := s.Write(ctx, rl.batch()); err != nil {
		return fmt.Errorf("run log %s: %w", filepath.Base(path), err)
	}
	var shareErr error
	if crashed && h.Crashed != nil {
		// The completed record replaces the log cut short by the crash,
		// as an ended run's log, which is what the others download.
		ended := strings.TrimSuffix(path, runningSuffix) + endedSuffix
		if shareErr = rl.write(ended); shareErr == nil {
			if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			path = ended
			shareErr = h.Crashed(ctx, ended)
		}
		if shareErr != nil {
			shareErr = fmt.Errorf("run log %s: sharing the crashed run's record: %w", filepath.Base(path), shareErr)
		}
	}
	if done {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return errors.Join(shareErr, err)
		}
	}
	return shareErr
}

// lockDir takes an exclusive lock on dir's lock file, waiting for it.
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
