package command

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/strata-dev/strata/internal/provbuild"
)

// The watch tests run strata watch on the upstream hashicorp/local
// provider, built from its repository with provbuild (the repositories
// are under /work/.mirror, or $STRATA_PROVIDER_REPOS).

var localRelease = provbuild.Release{Name: "local", Version: "2.5.2"}

var (
	localOnce sync.Once
	localDir  string
	localErr  error
)

// localProviderMirror builds hashicorp/local into a filesystem mirror for
// init -plugin-dir, or skips the test when its repository is not at hand.
func localProviderMirror(t *testing.T) string {
	t.Helper()
	repos := os.Getenv("STRATA_PROVIDER_REPOS")
	if repos == "" {
		repos = "/work/.mirror"
	}
	if _, err := provbuild.RepoDir(repos, localRelease.Name); err != nil {
		t.Skipf("hashicorp/local cannot be built: %v", err)
	}
	localOnce.Do(func() {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		cache = filepath.Join(cache, "strata-e2e-providers")
		exe, err := provbuild.Build(cache, repos, localRelease, nil)
		if err != nil {
			localErr = err
			return
		}
		dir, err := os.MkdirTemp("", "strata-local-mirror-")
		if err != nil {
			localErr = err
			return
		}
		localDir = filepath.Join(dir, "mirror")
		_, localErr = provbuild.WriteMirror(localDir, map[provbuild.Release]string{localRelease: exe})
	})
	if localErr != nil {
		t.Fatal(localErr)
	}
	return localDir
}

// watchDir writes a configuration using hashicorp/local and inits it.
func watchDir(t *testing.T, files map[string]string) string {
	t.Helper()
	mirror := localProviderMirror(t)
	dir := t.TempDir()
	for name, text := range files {
		writeFile(t, filepath.Join(dir, name), text)
	}
	mustStrata(t, dir, 0, "init", "-plugin-dir="+mirror)
	return dir
}

const localHeader = `terraform {
  required_providers {
    local = { source = "hashicorp/local" }
  }
}
`

// watchEvent is the part of a watch event the tests look at.
type watchEvent struct {
	Type    string `json:"type"`
	Message string `json:"@message"`
	Cycle   int    `json:"cycle"`
	RunID   string `json:"run_id"`
	Address string `json:"address"`
	Reason  string `json:"reason"`
	Drift   []struct {
		Address    string `json:"address"`
		Action     string `json:"action"`
		Attributes []struct {
			Path string `json:"path"`
		} `json:"attributes"`
	} `json:"drift"`
	Changes []struct {
		Address    string `json:"address"`
		Action     string `json:"action"`
		Attributes []struct {
			Path  string          `json:"path"`
			After json.RawMessage `json:"after"`
		} `json:"attributes"`
	} `json:"changes"`
	Failed []struct {
		Address  string `json:"address"`
		Failures int    `json:"failures"`
	} `json:"failed"`
	Skipped []string `json:"skipped"`
}

// watcher is a running strata watch -json.
type watcher struct {
	t      *testing.T
	cmd    *exec.Cmd
	stderr bytes.Buffer
	mu     sync.Mutex
	events []watchEvent
	raw    []string
	more   chan struct{}
	done   chan struct{}
	code   int
}

// startWatch starts strata watch -json in dir.
func startWatch(t *testing.T, dir string, args ...string) *watcher {
	t.Helper()
	cmd := exec.Command(strataBin, append([]string{"watch", "-json"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null")
	w := &watcher{t: t, cmd: cmd, more: make(chan struct{}, 1), done: make(chan struct{})}
	cmd.Stderr = &w.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go w.read(out)
	t.Cleanup(func() {
		select {
		case <-w.done:
		default:
			_ = cmd.Process.Kill()
			<-w.done
		}
	})
	return w
}

func (w *watcher) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e watchEvent
		line := sc.Text()
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			e = watchEvent{Type: "unparsable", Message: line}
		}
		w.mu.Lock()
		w.events = append(w.events, e)
		w.raw = append(w.raw, line)
		w.mu.Unlock()
		select {
		case w.more <- struct{}{}:
		default:
		}
	}
	err := w.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		w.code = ee.ExitCode()
	}
	close(w.done)
	select {
	case w.more <- struct{}{}:
	default:
	}
}

// waitFor waits for the first event from index from on that satisfies
// ok, and returns its index. It fails the test if the watch ends first or
// nothing comes in a generous time (the machine is shared).
func (w *watcher) waitFor(from int, what string, ok func(watchEvent) bool) int {
	w.t.Helper()
	deadline := time.After(90 * time.Second)
	for {
		w.mu.Lock()
		for i := from; i < len(w.events); i++ {
			if ok(w.events[i]) {
				w.mu.Unlock()
				return i
			}
		}
		w.mu.Unlock()
		select {
		case <-w.more:
		case <-w.done:
			w.mu.Lock()
			for i := from; i < len(w.events); i++ {
				if ok(w.events[i]) {
					w.mu.Unlock()
					return i
				}
			}
			w.mu.Unlock()
			w.t.Fatalf("the watch ended (exit %d) before %s\n%s", w.code, what, w.dump())
		case <-deadline:
			w.t.Fatalf("no %s in time\n%s", what, w.dump())
		}
	}
}

func (w *watcher) event(i int) watchEvent {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.events[i]
}

func (w *watcher) all() []watchEvent {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]watchEvent(nil), w.events...)
}

func (w *watcher) dump() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return "stdout:\n" + strings.Join(w.raw, "\n") + "\nstderr:\n" + w.stderr.String()
}

// stop sends sig and waits for the exit code.
func (w *watcher) stop(sig syscall.Signal) int {
	w.t.Helper()
	_ = w.cmd.Process.Signal(sig)
	return w.wait()
}

// wait waits for the watch to end and returns its exit code.
func (w *watcher) wait() int {
	w.t.Helper()
	select {
	case <-w.done:
	case <-time.After(90 * time.Second):
		w.t.Fatalf("the watch did not end\n%s", w.dump())
	}
	return w.code
}

func isType(typ string) func(watchEvent) bool {
	return func(e watchEvent) bool { return e.Type == typ }
}

// TestE2EWatchNoopReportsDrift: a watch in noop mode reports a local_file
// edited behind its back, within two intervals, and corrects nothing.
func TestE2EWatchNoopReportsDrift(t *testing.T) {
	dir := watchDir(t, map[string]string{"main.tf": localHeader + `
resource "local_file" "a" {
  filename = "${path.module}/a.txt"
  content  = "hello"
}
`})
	mustStrata(t, dir, 0, "apply", "-auto-approve")
	w := startWatch(t, dir, "-interval=200ms")
	first := w.waitFor(0, "an idle first cycle", isType("idle"))
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The edit is seen by a later cycle: the next refresh of a.
	i := w.waitFor(first+1, "drift_detected", isType("drift_detected"))
	e := w.event(i)
	// local_file's read finds an edited file gone (its id is the content's
	// checksum), so the drift is a deletion and the plan creates it again
	// with its content.
	if len(e.Drift) != 1 || e.Drift[0].Address != "local_file.a" || e.Drift[0].Action != "delete" {
		t.Fatalf("wrong drift in %+v\n%s", e, w.dump())
	}
	if len(e.Changes) != 1 || e.Changes[0].Address != "local_file.a" || e.Changes[0].Action != "create" || !hasAttr(e.Changes[0].Attributes, "content", `"hello"`) {
		t.Fatalf("wrong changes in %+v\n%s", e, w.dump())
	}
	// Within two intervals: the cycle after the idle one, or the next.
	cycles := e.Cycle - w.event(first).Cycle
	if cycles > 3 {
		t.Errorf("drift found %d cycles after the edit", cycles)
	}
	// Noop: still reported by a later cycle, never corrected.
	w.waitFor(i+1, "a second drift_detected", isType("drift_detected"))
	if code := w.stop(syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0\n%s", code, w.dump())
	}
	for _, e := range w.all() {
		if strings.HasPrefix(e.Type, "converge") {
			t.Errorf("a noop watch converged: %+v", e)
		}
	}
	if got := string(readFile(t, filepath.Join(dir, "a.txt"))); got != "edited" {
		t.Errorf("a.txt = %q: a noop watch changed it", got)
	}
	// Each cycle is a run in the run record.
	r := mustStrata(t, dir, 0, "runs", "list", "-json", "-command=watch", "-limit=0")
	if n := strings.Count(r.stdout, `"command": "watch"`) + strings.Count(r.stdout, `"command":"watch"`); n < 3 {
		t.Errorf("%d watch runs recorded, want one per cycle (at least 3)\n%s", n, r.stdout)
	}
}

func hasAttr(attrs []struct {
	Path  string          `json:"path"`
	After json.RawMessage `json:"after"`
}, path, after string) bool {
	for _, a := range attrs {
		if a.Path == path && string(a.After) == after {
			return true
		}
	}
	return false
}

var _ = fmt.Sprintf
