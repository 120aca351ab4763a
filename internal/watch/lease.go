package watch

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// LeaseInfo is what the watcher lock file says about its holder.
type LeaseInfo struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	State   string    `json:"state"`
	Started time.Time `json:"started"`
}

// ErrLeaseHeld is returned by AcquireLease when another watcher holds the
// lease.
var ErrLeaseHeld = errors.New("another strata watch is running on this state")

// AcquireLease takes the watcher lock at path, an exclusive flock on the
// file, held until release is called or the process ends (so a crashed
// watcher never leaves it behind). It is separate from the state lock,
// which the watcher takes only while it applies: the lease keeps a second
// watcher away for the whole run. When another process holds it, the
// error wraps ErrLeaseHeld and describes the holder.
func AcquireLease(path, state string) (release func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		var held LeaseInfo
		data, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			if json.Unmarshal(data, &held) == nil && held.PID != 0 {
				return nil, fmt.Errorf("%w: process %d on %s, started %s", ErrLeaseHeld, held.PID, held.Host, held.Started.Format(time.RFC3339))
			}
			return nil, ErrLeaseHeld
		}
		return nil, err
	}
	host, _ := os.Hostname()
	info, _ := json.Marshal(LeaseInfo{PID: os.Getpid(), Host: host, State: state, Started: time.Now().UTC()})
	_ = f.Truncate(0)
	_, _ = f.WriteAt(append(info, '\n'), 0)
	return func() {
		_ = f.Truncate(0)
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
