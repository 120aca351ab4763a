package command

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/strata-dev/strata/internal/states/statemgr"
)

// chainConfig writes n chained terraform_data resources.
func chainConfig(n int) string {
	var b strings.Builder
	b.WriteString("resource \"terraform_data\" \"r0\" {\n  input = \"start\"\n}\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = terraform_data.r%d.output\n}\n", i, i-1)
	}
	return b.String()
}

func stateResourceCount(t *testing.T, path string) int {
	t.Helper()
	var s struct {
		Resources []json.RawMessage
	}
	if err := json.Unmarshal(readFile(t, path), &s); err != nil {
		t.Fatalf("state is not valid JSON: %v", err)
	}
	return len(s.Resources)
}

// syncBuffer is a bytes.Buffer safe for a writing process and a reading
// test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestE2ELockHeld: a second writer fails fast with a lock error naming the
// holder, and leaves the state alone.
func TestE2ELockHeld(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `resource "terraform_data" "a" { input = 1 }`)
	mgr := statemgr.NewLocal(filepath.Join(dir, "terraform.tfstate"), "", "", "test")
	info := statemgr.NewLockInfo("OperationTypeApply", "test")
	if err := mgr.Lock(context.Background(), info, 0); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r := mustStrata(t, dir, 1, "apply", "-auto-approve", "-no-color")
	if time.Since(start) > 10*time.Second {
		t.Fatal("the lock error was not immediate")
	}
	for _, want := range []string{"Error acquiring the state lock", info.ID, "OperationTypeApply"} {
		if !strings.Contains(flat(r.stderr), want) {
			t.Errorf("lock error lacks %q:\n%s", want, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
		t.Fatal("apply wrote state without the lock")
	}
	// -lock-timeout waits for the holder.
	go func() {
		time.Sleep(300 * time.Millisecond)
		_ = mgr.Unlock()
	}()
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color", "-lock-timeout=20s")
	if _, err := os.Stat(filepath.Join(dir, ".terraform.tfstate.lock.info")); err == nil {
		t.Fatal("lock info file left behind")
	}
	// -lock=false ignores a held lock.
	if err := mgr.Lock(context.Background(), info, 0); err != nil {
		t.Fatal(err)
	}
	defer mgr.Unlock()
	mustStrata(t, dir, 0, "plan", "-no-color", "-lock=false")
}

// TestE2EKillMidApply: a kill -9 at any moment loses nothing a provider
// finished: the next command replays the journal, and the state plus what
// remains to be created covers every resource exactly once.
func TestE2EKillMidApply(t *testing.T) {
	t.Parallel()
	const n = 400
	for _, delay := range []time.Duration{150 * time.Millisecond, 400 * time.Millisecond} {
		t.Run(delay.String(), func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), chainConfig(n))
			cmd := exec.Command(strataBin, "apply", "-auto-approve", "-no-color")
			cmd.Dir = dir
			var out syncBuffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Kill once the apply has started creating.
			deadline := time.Now().Add(30 * time.Second)
			for !strings.Contains(out.String(), "Creating...") && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			time.Sleep(delay)
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()

			journal := filepath.Join(dir, "terraform.tfstate.journal")
			_, jerr := os.Stat(journal)
			r := strata(t, dir, "plan", "-no-color", "-detailed-exitcode")
			if r.code != 0 && r.code != 2 {
				t.Fatalf("plan after kill: exit %d\n%s", r.code, r.stderr)
			}
			if _, err := os.Stat(journal); err == nil {
				t.Fatal("the journal was not consumed")
			}
			inState := 0
			if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
				inState = stateResourceCount(t, filepath.Join(dir, "terraform.tfstate"))
			}
			if jerr == nil && inState == 0 {
				t.Fatalf("a journal existed but nothing was recovered")
			}
			toAdd := strings.Count(r.stdout, "will be created")
			if inState+toAdd != n {
				t.Fatalf("%d in state + %d to create != %d resources", inState, toAdd, n)
			}
			t.Logf("killed after %d of %d creates", inState, n)
			// Finishing the apply works from the recovered state.
			mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
			mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
		})
	}
}

// TestE2EInterrupt: Ctrl-C stops starting operations, persists what
// finished and exits 1; the next apply completes the rest.
func TestE2EInterrupt(t *testing.T) {
	t.Parallel()
	const n = 400
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), chainConfig(n))
	cmd := exec.Command(strataBin, "apply", "-auto-approve", "-no-color")
	cmd.Dir = dir
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), "Creating...") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	_ = cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		if err == nil {
			t.Skip("the apply finished before the interrupt arrived")
		}
		t.Fatalf("exit: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "Interrupt received") {
		t.Fatalf("no interrupt message:\n%s", out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate.journal")); err == nil {
		t.Fatal("the journal should be folded into the state on a graceful stop")
	}
	inState := stateResourceCount(t, filepath.Join(dir, "terraform.tfstate"))
	r := mustStrata(t, dir, 2, "plan", "-no-color", "-detailed-exitcode")
	if toAdd := strings.Count(r.stdout, "will be created"); inState+toAdd != n {
		t.Fatalf("%d in state + %d to create != %d", inState, toAdd, n)
	}
}

// TestE2EErroredState: a state that cannot be written goes to
// errored.tfstate and the user is told.
func TestE2EErroredState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `resource "terraform_data" "a" { input = 1 }`)
	// A directory where the state file should be cannot be replaced.
	if err := os.Mkdir(filepath.Join(dir, "out.tfstate"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := mustStrata(t, dir, 1, "apply", "-auto-approve", "-no-color", "-lock=false", "-state-out=out.tfstate")
	if !strings.Contains(flat(r.stderr), "errored.tfstate") {
		t.Fatalf("no errored.tfstate message:\n%s", r.stderr)
	}
	if n := stateResourceCount(t, filepath.Join(dir, "errored.tfstate")); n != 1 {
		t.Fatalf("errored.tfstate has %d resources", n)
	}
}

// TestE2EDoubleInterrupt: a second Ctrl-C exits at once; the journal keeps
// what finished and the next command recovers it.
func TestE2EDoubleInterrupt(t *testing.T) {
	t.Parallel()
	const n = 600
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), chainConfig(n))
	cmd := exec.Command(strataBin, "apply", "-auto-approve", "-no-color")
	cmd.Dir = dir
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for strings.Count(out.String(), "Creation complete") < 20 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	// Signals sent together coalesce; send the second once the first
	// has been seen.
	_ = cmd.Process.Signal(os.Interrupt)
	for !strings.Contains(out.String(), "Interrupt received") && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	_ = cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if err == nil {
		t.Skip("the apply finished before the interrupts arrived")
	}
	if !strings.Contains(out.String(), "Two interrupts received") {
		t.Skip("the graceful stop finished before the second interrupt arrived")
	}
	if !strings.Contains(out.String(), "Two interrupts received") {
		t.Fatalf("no double-interrupt message:\n%s", out.String())
	}
	r := strata(t, dir, "plan", "-no-color", "-detailed-exitcode")
	if r.code != 2 && r.code != 0 {
		t.Fatalf("plan after double interrupt: %d\n%s", r.code, r.stderr)
	}
	inState := 0
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
		inState = stateResourceCount(t, filepath.Join(dir, "terraform.tfstate"))
	}
	if inState == 0 {
		t.Fatal("nothing recovered after 20 creations had completed")
	}
	if toAdd := strings.Count(r.stdout, "will be created"); inState+toAdd != n {
		t.Fatalf("%d in state + %d to create != %d", inState, toAdd, n)
	}
}
