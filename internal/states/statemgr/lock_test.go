package statemgr

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func lockedManager(t *testing.T, path, operation string) (*Local, *LockInfo) {
	t.Helper()
	m := NewLocal(path, "", "", testVersion)
	info := NewLockInfo(operation, testVersion)
	if err := m.Lock(context.Background(), info, 0); err != nil {
		t.Fatalf("Lock: %s", err)
	}
	return m, info
}

func TestLockInfoFile(t *testing.T) {
	dir, path := tempState(t)
	m, info := lockedManager(t, path, "OperationTypeApply")
	infoPath := filepath.Join(dir, ".terraform.tfstate.lock.info")
	data, err := os.ReadFile(infoPath)
	if err != nil {
		t.Fatalf("lock info file: %s", err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("lock info is not JSON: %s\n%s", err, data)
	}
	for _, k := range []string{"ID", "Operation", "Info", "Who", "Version", "Created", "Path"} {
		if _, ok := got[k]; !ok {
			t.Errorf("lock info lacks %s: %s", k, data)
		}
	}
	if got["ID"] != info.ID || got["Operation"] != "OperationTypeApply" || got["Path"] != path || got["Version"] != testVersion {
		t.Errorf("lock info: %s", data)
	}
	if perm(t, infoPath) != 0o600 {
		t.Errorf("lock info mode %o", perm(t, infoPath))
	}
	if err := m.Unlock(); err != nil {
		t.Fatal(err)
	}
	if exists(infoPath) {
		t.Fatal("lock info file left after Unlock")
	}
	if err := m.Unlock(); err != nil {
		t.Errorf("second Unlock: %s", err)
	}
	// The lock can be taken again.
	m2, _ := lockedManager(t, path, "OperationTypePlan")
	if err := m2.Unlock(); err != nil {
		t.Fatal(err)
	}
}

func TestLockHeld(t *testing.T) {
	_, path := tempState(t)
	holder, info := lockedManager(t, path, "OperationTypeApply")
	defer holder.Unlock()
	info.Info = "held by the test"

	tests := map[string]struct {
		timeout time.Duration
		// minWait is how long the attempt must at least have waited.
		minWait time.Duration
	}{
		"no timeout fails fast": {timeout: 0},
		"timeout expires":       {timeout: 300 * time.Millisecond, minWait: 300 * time.Millisecond},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			m := NewLocal(path, "", "", testVersion)
			start := time.Now()
			err := m.Lock(context.Background(), NewLockInfo("OperationTypePlan", testVersion), tc.timeout)
			elapsed := time.Since(start)
			var le *LockError
			if !errors.As(err, &le) {
				t.Fatalf("got %T %v, want *LockError", err, err)
			}
			if le.Info == nil || le.Info.ID != info.ID || le.Info.Operation != "OperationTypeApply" || le.Info.Path != path {
				t.Fatalf("lock error info %+v, want the holder's %+v", le.Info, info)
			}
			for _, want := range []string{"Error acquiring the state lock", info.ID, "OperationTypeApply", info.Who, "-lock=false"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("message lacks %q:\n%s", want, err)
				}
			}
			if elapsed < tc.minWait {
				t.Errorf("gave up after %s, want at least %s", elapsed, tc.minWait)
			}
			if elapsed > tc.minWait+2*time.Second {
				t.Errorf("took %s", elapsed)
			}
			// The failed attempt changed nothing.
			if err := m.Unlock(); err != nil {
				t.Errorf("Unlock without the lock: %s", err)
			}
			if !exists(lockInfoPath(path)) {
				t.Fatal("the failed attempt removed the holder's lock info")
			}
		})
	}
}

func TestLockTimeoutSucceeds(t *testing.T) {
	_, path := tempState(t)
	holder, _ := lockedManager(t, path, "OperationTypeApply")
	released := make(chan time.Time, 1)
	go func() {
		time.Sleep(250 * time.Millisecond)
		released <- time.Now()
		_ = holder.Unlock()
	}()
	m := NewLocal(path, "", "", testVersion)
	info := NewLockInfo("OperationTypePlan", testVersion)
	start := time.Now()
	if err := m.Lock(context.Background(), info, 10*time.Second); err != nil {
		t.Fatalf("Lock: %s", err)
	}
	defer m.Unlock()
	at := <-released
	if time.Since(start) < 200*time.Millisecond {
		t.Error("lock taken before the holder released it")
	}
	if time.Since(at) > 3*time.Second {
		t.Errorf("lock taken %s after release", time.Since(at))
	}
	data, err := os.ReadFile(lockInfoPath(path))
	if err != nil || !strings.Contains(string(data), info.ID) {
		t.Fatalf("lock info after waiting: %s %v", data, err)
	}
}

func TestLockContextCanceled(t *testing.T) {
	_, path := tempState(t)
	holder, _ := lockedManager(t, path, "OperationTypeApply")
	defer holder.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := NewLocal(path, "", "", testVersion).Lock(ctx, NewLockInfo("OperationTypePlan", testVersion), time.Minute)
	var le *LockError
	if !errors.As(err, &le) || !errors.Is(le.Err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("cancellation took %s", time.Since(start))
	}
}

// TestLockStaleInfoFile: an info file left by a process that died without
// unlocking does not block, since the OS lock died with it.
func TestLockStaleInfoFile(t *testing.T) {
	_, path := tempState(t)
	stale := `{"ID":"dead","Operation":"OperationTypeApply"}`
	if err := os.WriteFile(lockInfoPath(path), []byte(stale), 0o600); err != nil {
		t.Fatal(err)
	}
	m, info := lockedManager(t, path, "OperationTypePlan")
	data, _ := os.ReadFile(lockInfoPath(path))
	if !strings.Contains(string(data), info.ID) || strings.Contains(string(data), "dead") {
		t.Fatalf("lock info not replaced: %s", data)
	}
	if err := m.Unlock(); err != nil {
		t.Fatal(err)
	}

	// The same after a holder "crashes": its descriptor closes, the file
	// stays.
	crashed, _ := lockedManager(t, path, "OperationTypeApply")
	crashed.lock.f.Close()
	crashed.lock = nil
	m2, _ := lockedManager(t, path, "OperationTypePlan")
	_ = m2.Unlock()
}

func TestLockOtherStateFile(t *testing.T) {
	dir, path := tempState(t)
	holder, _ := lockedManager(t, path, "OperationTypeApply")
	defer holder.Unlock()
	other, _ := lockedManager(t, filepath.Join(dir, "other.tfstate"), "OperationTypeApply")
	_ = other.Unlock()
}

// TestLockMissingDirectory: a state path in a directory that does not
// exist yet gets its directory, as with Terraform's local backend.
func TestLockMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	m := NewLocal(filepath.Join(dir, "no", "terraform.tfstate"), "", "", testVersion)
	if err := m.Lock(context.Background(), NewLockInfo("x", testVersion), 0); err != nil {
		t.Fatal(err)
	}
	if err := m.Unlock(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "no")); err != nil || !fi.IsDir() {
		t.Fatalf("directory not created: %v", err)
	}
}

// TestLockUnwritableDirectory: an I/O failure is not a held lock.
func TestLockUnwritableDirectory(t *testing.T) {
	dir := t.TempDir()
	// A file where the state's directory should be: it cannot be created.
	if err := os.WriteFile(filepath.Join(dir, "no"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	err := NewLocal(filepath.Join(dir, "no", "terraform.tfstate"), "", "", testVersion).Lock(context.Background(), NewLockInfo("x", testVersion), 0)
	if err == nil {
		t.Fatal("no error")
	}
	var le *LockError
	if errors.As(err, &le) {
		t.Fatalf("got a LockError for an I/O failure: %v", err)
	}
}

// TestLockCrossProcess takes the lock in a child process and checks that
// this process sees it held, with the child's information, and can take it
// once the child exits without unlocking.
func TestLockCrossProcess(t *testing.T) {
	if os.Getenv("STRATA_LOCK_HELPER") != "" {
		return
	}
	_, path := tempState(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelperProcess$")
	cmd.Env = append(os.Environ(), "STRATA_LOCK_HELPER="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "locked ") {
		t.Fatalf("helper said %q (%v)", line, err)
	}
	childID := strings.TrimSpace(strings.TrimPrefix(line, "locked "))

	err = NewLocal(path, "", "", testVersion).Lock(context.Background(), NewLockInfo("OperationTypePlan", testVersion), 0)
	var le *LockError
	if !errors.As(err, &le) || le.Info == nil || le.Info.ID != childID || le.Info.Operation != "OperationTypeHelper" {
		t.Fatalf("got %v, want a LockError naming %s", err, childID)
	}

	// The child exits without unlocking: its lock goes with it.
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	if !exists(lockInfoPath(path)) {
		t.Fatal("helper was expected to leave its lock info behind")
	}
	m, _ := lockedManager(t, path, "OperationTypePlan")
	if err := m.Unlock(); err != nil {
		t.Fatal(err)
	}
}

// TestLockHelperProcess is the child of TestLockCrossProcess.
func TestLockHelperProcess(t *testing.T) {
	path := os.Getenv("STRATA_LOCK_HELPER")
	if path == "" {
		t.Skip("helper process only")
	}
	m := NewLocal(path, "", "", testVersion)
	info := NewLockInfo("OperationTypeHelper", testVersion)
	if err := m.Lock(context.Background(), info, 0); err != nil {
		os.Stdout.WriteString("error " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("locked " + info.ID + "\n")
	// Wait for the parent to close stdin, then exit without Unlock, as a
	// crashed process would.
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	os.Exit(0)
}
