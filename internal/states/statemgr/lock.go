package statemgr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"syscall"
	"time"

	"github.com/hashicorp/go-uuid"
)

// LockInfo describes who holds a lock, in the JSON layout Terraform writes
// to .terraform.tfstate.lock.info.
type LockInfo struct {
	ID        string
	Operation string
	Info      string
	Who       string
	Version   string
	Created   time.Time
	Path      string
}

// NewLockInfo returns lock information for an operation by this process.
func NewLockInfo(operation, version string) *LockInfo {
	id, _ := uuid.GenerateUUID()
	who := "unknown"
	if u, err := user.Current(); err == nil {
		who = u.Username
	}
	if host, err := os.Hostname(); err == nil {
		who += "@" + host
	}
	return &LockInfo{ID: id, Operation: operation, Who: who, Version: version, Created: time.Now().UTC()}
}

// LockError is returned when a lock is held by someone else.
type LockError struct {
	Info *LockInfo
	Err  error
}

func (e *LockError) Error() string {
	msg := "Error acquiring the state lock: " + e.Err.Error()
	if e.Info != nil {
		msg += fmt.Sprintf("\n\nLock Info:\n  ID:        %s\n  Path:      %s\n  Operation: %s\n  Who:       %s\n  Version:   %s\n  Created:   %s\n  Info:      %s",
			e.Info.ID, e.Info.Path, e.Info.Operation, e.Info.Who, e.Info.Version, e.Info.Created, e.Info.Info)
	}
	return msg + "\n\nstrata acquires a state lock to protect the state from being written by multiple users at the same time. Please resolve the issue above and try again. For most commands, you can disable locking with the \"-lock=false\" flag, but this is not recommended."
}

// fileLock is an exclusive flock on a lock info file.
type fileLock struct {
	path string
	f    *os.File
}

// lockInfoPath returns the lock info file for a state file:
// .NAME.lock.info beside it.
func lockInfoPath(statePath string) string {
	dir, name := filepath.Split(statePath)
	return filepath.Join(dir, "."+name+".lock.info")
}

// acquire takes the lock on the lock file path, retrying until timeout
// has passed; statePath is the state file as the lock information shows
// it.
func acquire(ctx context.Context, path, statePath string, info *LockInfo, timeout time.Duration) (*fileLock, error) {
	deadline := time.Now().Add(timeout)
	delay := 50 * time.Millisecond
	for {
		l, held, err := tryAcquire(path, statePath, info)
		if err != nil {
			return nil, err
		}
		if l != nil {
			return l, nil
		}
		if time.Now().After(deadline) {
			return nil, &LockError{Info: held, Err: errors.New("resource temporarily unavailable")}
		}
		select {
		case <-ctx.Done():
			return nil, &LockError{Info: held, Err: ctx.Err()}
		case <-time.After(delay):
		}
		if delay < time.Second {
			delay *= 2
		}
	}
}

// tryAcquire makes one attempt. It returns the lock, or the holder's
// information when someone else has it.
func tryAcquire(path, statePath string, info *LockInfo) (*fileLock, *LockInfo, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		// A state path in a directory that does not exist yet (a
		// backend's path = "states/prod.tfstate"): Terraform creates it.
		if merr := os.MkdirAll(filepath.Dir(path), 0o755); merr == nil {
			f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("cannot open lock file %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		held := readLockInfo(f)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, held, nil
		}
		return nil, nil, fmt.Errorf("cannot lock %s: %w", path, err)
	}
	// The holder may have removed the file between our open and flock;
	// then we hold a lock on a file nobody else will see.
	fst, err1 := f.Stat()
	pst, err2 := os.Stat(path)
	if err1 != nil || err2 != nil || !os.SameFile(fst, pst) {
		f.Close()
		return nil, nil, nil
	}
	info.Path = statePath
	data, _ := json.Marshal(info)
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt(data, 0)
		_ = f.Sync()
	}
	return &fileLock{path: path, f: f}, nil, nil
}

func readLockInfo(f *os.File) *LockInfo {
	var info LockInfo
	buf := make([]byte, 64*1024)
	n, _ := f.ReadAt(buf, 0)
	if json.Unmarshal(buf[:n], &info) != nil {
		return nil
	}
	return &info
}

// release removes the lock info file and drops the lock.
func (l *fileLock) release() error {
	err := os.Remove(l.path)
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}
