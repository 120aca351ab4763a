package statemgr

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestForceUnlock(t *testing.T) {
	const stale = `{"ID":"dead","Operation":"OperationTypeApply"}`
	tests := map[string]struct {
		info        string // lock info file content; "" means no file
		id          string
		confirm     bool
		wantRemoved bool
		wantErr     string
	}{
		"stale lock, matching id": {info: stale, id: "dead", confirm: true, wantRemoved: true},
		"stale lock, declined":    {info: stale, id: "dead", confirm: false},
		"wrong id":                {info: stale, id: "other", confirm: true, wantErr: `lock ID "other" does not match existing lock ID "dead"`},
		"no lock":                 {id: "dead", confirm: true, wantErr: ErrNotLocked.Error()},
		"unreadable info":         {info: "{not json", id: "dead", confirm: true, wantErr: "cannot be read"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, path := tempState(t)
			if tc.info != "" {
				if err := os.WriteFile(lockInfoPath(path), []byte(tc.info), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			asked := false
			removed, err := NewLocal(path, "", "", testVersion).ForceUnlock(tc.id, func(info *LockInfo) bool {
				asked = true
				if info.ID != tc.id {
					t.Errorf("confirm got lock %q, want %q", info.ID, tc.id)
				}
				return tc.confirm
			})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got error %v, want %q", err, tc.wantErr)
				}
				if asked {
					t.Error("confirmation asked although the lock cannot be removed")
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if removed != tc.wantRemoved {
				t.Errorf("removed = %v, want %v", removed, tc.wantRemoved)
			}
			if tc.info != "" && exists(lockInfoPath(path)) == tc.wantRemoved {
				t.Errorf("lock info file exists = %v after removed = %v", !tc.wantRemoved, tc.wantRemoved)
			}
		})
	}
}

// TestForceUnlockHeld: a lock whose holder is alive is never removed, and
// the error names the holder.
func TestForceUnlockHeld(t *testing.T) {
	_, path := tempState(t)
	holder, info := lockedManager(t, path, "OperationTypeApply")
	defer holder.Unlock()
	removed, err := NewLocal(path, "", "", testVersion).ForceUnlock(info.ID, func(*LockInfo) bool {
		t.Error("confirmation asked for a live lock")
		return true
	})
	var le *LockError
	if removed || !errors.As(err, &le) || !errors.Is(le.Err, ErrLockInUse) || le.Info == nil || le.Info.ID != info.ID {
		t.Fatalf("got removed=%v err=%v, want a LockError naming %s", removed, err, info.ID)
	}
	if !exists(lockInfoPath(path)) {
		t.Fatal("the live lock's information was removed")
	}
	// The holder still unlocks normally.
	if err := holder.Unlock(); err != nil {
		t.Fatal(err)
	}
}

// TestForceUnlockThenLock: after a stale lock is removed, the next Lock
// works and writes fresh information.
func TestForceUnlockThenLock(t *testing.T) {
	_, path := tempState(t)
	crashed, info := lockedManager(t, path, "OperationTypeApply")
	crashed.lock.f.Close() // the holder dies; its info file stays
	crashed.lock = nil
	if removed, err := NewLocal(path, "", "", testVersion).ForceUnlock(info.ID, nil); err != nil || !removed {
		t.Fatalf("ForceUnlock: removed=%v err=%v", removed, err)
	}
	if exists(lockInfoPath(path)) {
		t.Fatal("lock info file left behind")
	}
	m, _ := lockedManager(t, path, "OperationTypePlan")
	if err := m.Unlock(); err != nil {
		t.Fatal(err)
	}
}
