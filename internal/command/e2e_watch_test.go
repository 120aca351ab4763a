package command

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/strata-dev/strata/internal/provbuild"
	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
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
	Skipped   []string `json:"skipped"`
	Refreshed int      `json:"refreshed"`
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
	return startWatchEnv(t, dir, nil, args...)
}

// startWatchEnv starts strata watch -json in dir with more environment.
func startWatchEnv(t *testing.T, dir string, env []string, args ...string) *watcher {
	t.Helper()
	cmd := exec.Command(strataBin, append([]string{"watch", "-json"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null"), testEnvFor(t)...), env...)
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

// wait waits for the watch to end and returns its exit code. A watch
// that does not end is sent SIGQUIT, so that its stderr shows where each
// goroutine was stuck.
func (w *watcher) wait() int {
	w.t.Helper()
	select {
	case <-w.done:
	case <-time.After(90 * time.Second):
		_ = w.cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-w.done:
		case <-time.After(10 * time.Second):
		}
		w.t.Fatalf("the watch did not end\n%s", w.dump())
	}
	return w.code
}

// mustWatchWithin runs strata watch (args) in dir, which must exit with
// want within limit. One that does not is sent SIGQUIT, and the test
// fails with its goroutines' stacks rather than hanging.
func mustWatchWithin(t *testing.T, dir string, limit time.Duration, want int, args ...string) result {
	t.Helper()
	cmd := exec.Command(strataBin, append([]string{"watch"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null"), testEnvFor(t)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(limit):
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		t.Fatalf("strata watch %s did not end within %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), limit, out.String(), errb.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running strata watch: %v", err)
	}
	r := result{stdout: out.String(), stderr: errb.String(), code: code}
	if r.code != want {
		t.Fatalf("strata watch %s: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
	}
	return r
}

func isType(typ string) func(watchEvent) bool {
	return func(e watchEvent) bool { return e.Type == typ }
}

// TestE2EWatchNoopReportsDrift: a watch in noop mode reports a local_file
// edited behind its back, within two intervals, and corrects nothing.
func TestE2EWatchNoopReportsDrift(t *testing.T) {
	t.Parallel()
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

// TestE2EWatchConvergeRestores: with -converge the watch recreates the
// edited file, and the cycle after is idle.
func TestE2EWatchConvergeRestores(t *testing.T) {
	t.Parallel()
	dir := watchDir(t, map[string]string{"main.tf": localHeader + `
resource "local_file" "a" {
  filename = "${path.module}/a.txt"
  content  = "hello"
}
`})
	mustStrata(t, dir, 0, "apply", "-auto-approve")
	w := startWatch(t, dir, "-interval=200ms", "-converge")
	first := w.waitFor(0, "an idle first cycle", isType("idle"))
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	i := w.waitFor(first+1, "converge_complete", isType("converge_complete"))
	done := w.event(i)
	if len(done.Changes) != 1 || done.Changes[0].Address != "local_file.a" {
		t.Fatalf("wrong converge %+v", done)
	}
	j := w.waitFor(i+1, "the next cycle", func(e watchEvent) bool { return e.Cycle > done.Cycle })
	if next := w.event(j); next.Type != "idle" {
		t.Fatalf("the cycle after converging is %s, want idle\n%s", next.Type, w.dump())
	}
	if got := string(readFile(t, filepath.Join(dir, "a.txt"))); got != "hello" {
		t.Fatalf("a.txt = %q after converging, want hello", got)
	}
	if code := w.stop(syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0\n%s", code, w.dump())
	}
	// The state records the recreated file, and plan agrees nothing is
	// left to do.
	mustStrata(t, dir, 0, "plan", "-detailed-exitcode")
}

// TestE2EWatchConfigEdit: an edit of the configuration is planned and
// applied by the running watch; -converged-timeout then ends it with 0.
func TestE2EWatchConfigEdit(t *testing.T) {
	t.Parallel()
	main := localHeader + `
resource "local_file" "a" {
  filename = "${path.module}/a.txt"
  content  = "a"
}
`
	dir := watchDir(t, map[string]string{"main.tf": main})
	// From an empty state: the first cycle creates a.
	w := startWatch(t, dir, "-interval=200ms", "-converge", "-converged-timeout=3s", "-debounce=100ms")
	i := w.waitFor(0, "converge_complete", isType("converge_complete"))
	i = w.waitFor(i+1, "idle", isType("idle"))
	main += `
resource "local_file" "b" {
  filename = "${path.module}/b.txt"
  content  = "b"
}
`
	writeFile(t, filepath.Join(dir, "main.tf"), main)
	w.waitFor(i+1, "converge_complete for b", func(e watchEvent) bool {
		return e.Type == "converge_complete" && len(e.Changes) == 1 && e.Changes[0].Address == "local_file.b" && e.Changes[0].Action == "create"
	})
	if got := string(readFile(t, filepath.Join(dir, "b.txt"))); got != "b" {
		t.Fatalf("b.txt = %q", got)
	}
	// Nothing changes any more: -converged-timeout ends the watch.
	if code := w.wait(); code != 0 {
		t.Fatalf("exit code %d after -converged-timeout, want 0\n%s", code, w.dump())
	}
	last := w.all()[len(w.all())-1]
	if last.Type != "watch_stop" || last.Reason != "converged" {
		t.Fatalf("last event %+v, want watch_stop converged", last)
	}
	mustStrata(t, dir, 0, "plan", "-detailed-exitcode")
	// The two converging cycles keep their run records; of each streak
	// of idle cycles, only the last.
	idle := 0
	for _, e := range w.all() {
		if e.Type == "idle" {
			idle++
		}
	}
	r := mustStrata(t, dir, 0, "runs", "list", "-json", "-command=watch", "-limit=0")
	runs := strings.Count(r.stdout, `"command": "watch"`) + strings.Count(r.stdout, `"command":"watch"`)
	if runs < 4 || runs >= 2+idle {
		t.Errorf("%d watch runs recorded for %d idle cycles and 2 converging ones, want 4 (each converge and the last idle cycle after it)\n%s", runs, idle, r.stdout)
	}
}

// TestE2EWatchSecondRefused: a second watcher on the same state is
// refused while the first runs.
func TestE2EWatchSecondRefused(t *testing.T) {
	t.Parallel()
	dir := watchDir(t, map[string]string{"main.tf": localHeader + `
resource "local_file" "a" {
  filename = "${path.module}/a.txt"
  content  = "a"
}
`})
	w := startWatch(t, dir, "-interval=200ms")
	w.waitFor(0, "a first cycle", func(e watchEvent) bool { return e.Cycle >= 1 })
	// Were it not refused, -converged-timeout would end it with 0.
	r := mustStrata(t, dir, 1, "watch", "-interval=200ms", "-converged-timeout=1s")
	if !strings.Contains(r.stderr, "Another watcher is running") || !strings.Contains(r.stderr, "another strata watch is running on this state") {
		t.Fatalf("wrong refusal:\n%s", r.stderr)
	}
	// Plan, which takes the state lock only, still works: the watch
	// holds the state lock only while it applies, and for a moment each
	// cycle to read the state, which a plan waiting a little outlasts.
	mustStrata(t, dir, 0, "plan", "-lock-timeout=30s")
	w.stop(syscall.SIGTERM)
	// Once the first has gone, a watcher may start.
	mustStrata(t, dir, 0, "watch", "-interval=200ms", "-converge", "-converged-timeout=1s")
}

// TestE2EWatchSIGTERMDuringConverge: SIGTERM while the watch applies
// stops it as apply stops: the state is saved and consistent, and no
// lock is left.
func TestE2EWatchSIGTERMDuringConverge(t *testing.T) {
	t.Parallel()
	dir := watchDir(t, map[string]string{"main.tf": localHeader + `
resource "local_file" "fast" {
  filename = "${path.module}/fast.txt"
  content  = "fast"
}
resource "local_file" "slow" {
  filename = "${path.module}/slow.txt"
  content  = "slow"
  # After fast, which is then certainly in the state when the signal
  # comes (independent, it could still be waiting to start under load,
  # and a change not started when the signal comes is not made).
  depends_on = [local_file.fast]
  provisioner "local-exec" {
    command = "touch started && sleep 5"
  }
}
`})
	w := startWatch(t, dir, "-interval=200ms", "-converge")
	w.waitFor(0, "converge_start", isType("converge_start"))
	// Wait for the provisioner to be running, so that the signal lands
	// inside the apply.
	deadline := time.Now().Add(90 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the provisioner never started\n%s", w.dump())
		}
		time.Sleep(20 * time.Millisecond)
	}
	code := w.stop(syscall.SIGTERM)
	if code != 1 {
		t.Errorf("exit code %d after SIGTERM during an apply, want 1 as apply\n%s", code, w.dump())
	}
	for _, name := range []string{".terraform.tfstate.lock.info", "terraform.tfstate.journal"} {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil && len(data) > 0 {
			t.Errorf("%s left behind: %s", name, data)
		}
	}
	// The state is readable without a lock in the way, and records the
	// file that was created.
	r := mustStrata(t, dir, 0, "state", "list")
	if !strings.Contains(r.stdout, "local_file.fast") {
		t.Errorf("state list after SIGTERM:\n%s", r.stdout)
	}
	mustStrata(t, dir, 0, "plan", "-lock-timeout=0s")
}

// TestE2EWatchBackoff: a resource whose create always fails is retried
// with growing back-off, not every cycle, while the others converge.
func TestE2EWatchBackoff(t *testing.T) {
	t.Parallel()
	dir := watchDir(t, map[string]string{
		"main.tf": localHeader + `
resource "local_file" "good" {
  filename = "${path.module}/good.txt"
  content  = "ok"
}
resource "local_file" "bad" {
  # blocker is a file, so its directory cannot be made.
  filename = "${path.module}/blocker/bad.txt"
  content  = "never"
}
`,
		"blocker": "a file, not a directory\n",
	})
	w := startWatch(t, dir, "-interval=200ms", "-converge", "-jitter=0")
	w.waitFor(0, "20 cycles", func(e watchEvent) bool { return e.Cycle >= 20 })
	w.stop(syscall.SIGTERM)
	var attempts []watchEvent
	cycles := 0
	for _, e := range w.all() {
		if e.Cycle > cycles {
			cycles = e.Cycle
		}
		if e.Type == "converge_failed" {
			for _, f := range e.Failed {
				if f.Address == "local_file.bad" {
					attempts = append(attempts, e)
				}
			}
		}
	}
	if len(attempts) < 2 {
		t.Fatalf("%d attempts at the failing resource in %d cycles, want it retried\n%s", len(attempts), cycles, w.dump())
	}
	if len(attempts) > cycles/2 {
		t.Errorf("%d attempts at the failing resource in %d cycles: no back-off\n%s", len(attempts), cycles, w.dump())
	}
	// Each attempt reports one more failure in a row, and a back-off
	// twice the one before.
	var prev float64
	for i, e := range attempts {
		for _, f := range e.Failed {
			if f.Address != "local_file.bad" {
				continue
			}
			if f.Failures != i+1 {
				t.Errorf("attempt %d reports %d failures in a row", i+1, f.Failures)
			}
		}
		b := backoffOf(t, w, e)
		if i > 0 && b != 2*prev && b != prev {
			t.Errorf("attempt %d: back-off %gs after %gs, want it doubled (or at its maximum)", i+1, b, prev)
		}
		prev = b
	}
	if got := string(readFile(t, filepath.Join(dir, "good.txt"))); got != "ok" {
		t.Fatalf("good.txt = %q: the other resource did not converge", got)
	}
	r := mustStrata(t, dir, 0, "state", "list")
	if strings.TrimSpace(r.stdout) != "local_file.good" {
		t.Errorf("state list:\n%s", r.stdout)
	}
}

// backoffOf reads the back-off of local_file.bad in a converge_failed
// event, from its raw JSON.
func backoffOf(t *testing.T, w *watcher, e watchEvent) float64 {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, ev := range w.events {
		if ev.Cycle != e.Cycle || ev.Type != e.Type {
			continue
		}
		var raw struct {
			Failed []struct {
				Address string  `json:"address"`
				Backoff float64 `json:"backoff_seconds"`
			} `json:"failed"`
		}
		if err := json.Unmarshal([]byte(w.raw[i]), &raw); err != nil {
			t.Fatal(err)
		}
		for _, f := range raw.Failed {
			if f.Address == "local_file.bad" {
				return f.Backoff
			}
		}
	}
	t.Fatalf("no back-off in %+v", e)
	return 0
}

// TestE2EWatchAttributeDriftAndTriggers: with an interval too long to
// matter, POST /trigger and SIGHUP each start a cycle that refreshes
// everything; the drift of one attribute (the stratafw test provider's
// simulated remote change) is reported by attribute, and served by the
// status endpoint.
func TestE2EWatchAttributeDriftAndTriggers(t *testing.T) {
	t.Parallel()
	mirror := testProviderMirror(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}
resource "stratafw_thing" "a" {
  name        = "a"
  description = "orig"
}
`)
	mustStrata(t, dir, 0, "init", "-plugin-dir="+mirror)
	mustStrata(t, dir, 0, "apply", "-auto-approve")
	driftDir := t.TempDir()
	w := startWatchEnv(t, dir, []string{"STRATAFW_DRIFT_DIR=" + driftDir}, "-interval=1h", "-listen=127.0.0.1:0")
	i := w.waitFor(0, "listening", isType("listening"))
	base := "http://" + w.event(i).Address
	i = w.waitFor(i+1, "an idle first cycle", isType("idle"))
	writeFile(t, filepath.Join(driftDir, "fw-a.json"), `{"description": "changed"}`)

	resp, err := http.Post(base+"/trigger", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("POST /trigger: %s", resp.Status)
	}
	i = w.waitFor(i+1, "drift_detected after POST /trigger", isType("drift_detected"))
	e := w.event(i)
	if len(e.Drift) != 1 || e.Drift[0].Action != "update" || len(e.Drift[0].Attributes) != 1 || e.Drift[0].Attributes[0].Path != "description" {
		t.Fatalf("wrong drift %+v\n%s", e.Drift, w.dump())
	}
	if len(e.Changes) != 1 || e.Changes[0].Action != "update" || !hasAttr(e.Changes[0].Attributes, "description", `"orig"`) {
		t.Fatalf("wrong changes %+v\n%s", e.Changes, w.dump())
	}

	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	var rep struct {
		Drift []struct {
			Address string `json:"address"`
		} `json:"drift"`
	}
	if err := json.Unmarshal([]byte(get("/drift")), &rep); err != nil || len(rep.Drift) != 1 || rep.Drift[0].Address != "stratafw_thing.a" {
		t.Fatalf("GET /drift: %v %+v", err, rep)
	}
	if m := get("/metrics"); !strings.Contains(m, "strata_watch_drifted_resources 1\n") {
		t.Fatalf("GET /metrics:\n%s", m)
	}

	// SIGHUP: the drift is gone, and a cycle refreshing everything finds
	// that out at once.
	if err := os.Remove(filepath.Join(driftDir, "fw-a.json")); err != nil {
		t.Fatal(err)
	}
	if err := w.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	w.waitFor(i+1, "idle after SIGHUP", isType("idle"))
	if code := w.stop(syscall.SIGINT); code != 0 {
		t.Errorf("exit code %d after SIGINT, want 0\n%s", code, w.dump())
	}
}

// TestE2EWatchSecondRefusedPG: with the pg backend, a second watcher on
// the same workspace is refused even from another working directory (the
// lease is in the database, not in .terraform).
func TestE2EWatchSecondRefusedPG(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	testWatchSecondRefusedRemote(t, pgBackendConfig(conn, ""), "strata watch: pid ", `workspace "default" of the pg backend`)
}

// TestE2EWatchSecondRefusedS3: the same with the s3 backend and
// use_lockfile, whose lease is an object beside the state's.
func TestE2EWatchSecondRefusedS3(t *testing.T) {
	t.Parallel()
	// This test once hung in CI: the first watcher, stopped while its
	// cycle took the state lock to read the state, left the lock object
	// behind (the request was cancelled after the server created it), and
	// the last watch retried the lock for ever. Now the lock request runs
	// to completion, and -converged-timeout also ends a watch whose every
	// cycle fails.
	srv, bucket := s3Env(t)
	testWatchSecondRefusedRemote(t, srv.Block(bucket, "app.tfstate", ""), "app.tfstate.strata-watch.lease", "(process ")
	for _, key := range []string{"app.tfstate.strata-watch.lease", "app.tfstate.tflock"} {
		if data, ok := srv.Object(t, bucket, key); ok {
			t.Errorf("%s is left behind:\n%s", key, data)
		}
	}
}

// testWatchSecondRefusedRemote runs a watcher in one working directory
// using the backend block backend and checks that, from another, a second
// watcher on the same workspace is refused (naming the holder with the
// strings holder), while plan still works there and another workspace can
// be watched; and that the lease goes with the first watcher.
func testWatchSecondRefusedRemote(t *testing.T, backend string, holder ...string) {
	config := backend + `
resource "terraform_data" "a" {
  input = "a"
}
`
	first, second := t.TempDir(), t.TempDir()
	for _, dir := range []string{first, second} {
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		mustStrata(t, dir, 0, "init", "-no-color")
	}
	w := startWatch(t, first, "-interval=200ms", "-converge")
	w.waitFor(0, "converge_complete", isType("converge_complete"))
	w.waitFor(0, "idle", isType("idle"))

	// Were it not refused, -converged-timeout would end it with 0.
	r := mustWatchWithin(t, second, time.Minute, 1, "-interval=200ms", "-converged-timeout=1s", "-no-color")
	for _, want := range append([]string{"Another watcher is running", "another strata watch is running on this state"}, holder...) {
		if !strings.Contains(flat(r.stderr), want) {
			t.Errorf("the refusal lacks %q:\n%s", want, r.stderr)
		}
	}
	r = mustWatchWithin(t, second, time.Minute, 1, "-json", "-interval=200ms", "-converged-timeout=1s")
	if !strings.Contains(r.stdout, `"type":"watch_stop"`) || !strings.Contains(r.stdout, "Another watcher is running") {
		t.Errorf("the -json refusal:\n%s", r.stdout)
	}
	// The watcher holds no state lock between applies: it takes it only
	// for a moment each cycle to read the state, so a plan waiting a
	// little gets it.
	mustStrata(t, second, 0, "plan", "-lock-timeout=30s", "-no-color")
	// Another workspace of the same backend is another state.
	// (It locks the new workspace's state, which the backend may take a
	// moment to grant while the watcher reads the default one.)
	mustStrata(t, second, 0, "workspace", "new", "staging", "-lock-timeout=30s", "-no-color")
	mustWatchWithin(t, second, time.Minute, 0, "-interval=200ms", "-converge", "-converged-timeout=1s", "-no-color")
	mustStrata(t, second, 0, "workspace", "select", "default", "-no-color")

	if code := w.stop(syscall.SIGTERM); code != 0 {
		t.Fatalf("exit code %d after SIGTERM, want 0\n%s", code, w.dump())
	}
	// The first has gone, and its lease with it.
	mustWatchWithin(t, second, time.Minute, 0, "-interval=200ms", "-converged-timeout=1s", "-no-color")
}

// TestE2EWatchAllowDestroy: a configuration edit that replaces one file
// and removes another is reported but not applied by -converge alone,
// which still applies the rest of the plan; with -allow-destroy it is
// applied.
func TestE2EWatchAllowDestroy(t *testing.T) {
	t.Parallel()
	dir := watchDir(t, map[string]string{"main.tf": localHeader + `
resource "local_file" "replaced" {
  filename = "${path.module}/replaced.txt"
  content  = "v1"
}
resource "local_file" "removed" {
  filename = "${path.module}/removed.txt"
  content  = "bye"
}
`})
	mustStrata(t, dir, 0, "apply", "-auto-approve")
	// local_file replaces on any change of content; removed goes; added
	// is a plain create, which converging applies all the same.
	writeFile(t, filepath.Join(dir, "main.tf"), localHeader+`
resource "local_file" "replaced" {
  filename = "${path.module}/replaced.txt"
  content  = "v2"
}
resource "local_file" "added" {
  filename = "${path.module}/added.txt"
  content  = "new"
}
`)
	w := startWatch(t, dir, "-interval=200ms", "-converge")
	i := w.waitFor(0, "converge_skipped", isType("converge_skipped"))
	skipped := w.event(i)
	if strings.Join(skipped.Skipped, ",") != "local_file.removed,local_file.replaced" || !strings.Contains(skipped.Reason, "-allow-destroy") {
		t.Fatalf("wrong converge_skipped %+v\n%s", skipped, w.dump())
	}
	i = w.waitFor(i+1, "converge_complete", isType("converge_complete"))
	if done := w.event(i); len(done.Changes) != 1 || done.Changes[0].Address != "local_file.added" || done.Changes[0].Action != "create" {
		t.Fatalf("wrong converge %+v\n%s", done, w.dump())
	}
	// The next cycles hold the destroys back again, and apply nothing.
	// The watch is stopped between cycles: a stop during a cycle's
	// apply reports it interrupted.
	i = w.waitFor(i+1, "converge_skipped again", isType("converge_skipped"))
	w.waitFor(i+1, "converge_complete again", isType("converge_complete"))
	if code := w.stop(syscall.SIGTERM); code != 0 {
		t.Fatalf("exit code %d, want 0\n%s", code, w.dump())
	}
	for name, want := range map[string]string{"replaced.txt": "v1", "removed.txt": "bye", "added.txt": "new"} {
		if got := string(readFile(t, filepath.Join(dir, name))); got != want {
			t.Errorf("%s = %q without -allow-destroy, want %q", name, got, want)
		}
	}
	if r := mustStrata(t, dir, 0, "state", "list"); r.stdout != "local_file.added\nlocal_file.removed\nlocal_file.replaced\n" {
		t.Errorf("state list without -allow-destroy:\n%s", r.stdout)
	}

	w = startWatch(t, dir, "-interval=200ms", "-converge", "-allow-destroy", "-converged-timeout=2s")
	i = w.waitFor(0, "converge_complete", isType("converge_complete"))
	got := map[string]string{}
	for _, c := range w.event(i).Changes {
		got[c.Address] = c.Action
	}
	if len(got) != 2 || got["local_file.replaced"] != "replace" || got["local_file.removed"] != "delete" {
		t.Fatalf("wrong converge with -allow-destroy %+v\n%s", w.event(i), w.dump())
	}
	if code := w.wait(); code != 0 {
		t.Fatalf("exit code %d after -converged-timeout, want 0\n%s", code, w.dump())
	}
	for _, e := range w.all() {
		if e.Type == "converge_skipped" {
			t.Errorf("held back with -allow-destroy: %+v", e)
		}
	}
	if got := string(readFile(t, filepath.Join(dir, "replaced.txt"))); got != "v2" {
		t.Errorf("replaced.txt = %q with -allow-destroy, want v2", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "removed.txt")); !os.IsNotExist(err) {
		t.Errorf("removed.txt still there with -allow-destroy (%v)", err)
	}
	mustStrata(t, dir, 0, "plan", "-detailed-exitcode")
}

// TestE2EWatchMaxChanges: a plan changing more resource instances than
// -max-changes is reported and not applied, cycle after cycle; within the
// limit it is applied.
func TestE2EWatchMaxChanges(t *testing.T) {
	t.Parallel()
	dir := watchDir(t, map[string]string{"main.tf": localHeader + `
resource "local_file" "f" {
  count    = 3
  filename = "${path.module}/f${count.index}.txt"
  content  = "x"
}
`})
	w := startWatch(t, dir, "-interval=200ms", "-converge", "-max-changes=2")
	i := w.waitFor(0, "converge_skipped", isType("converge_skipped"))
	e := w.event(i)
	if len(e.Skipped) != 3 || !strings.Contains(e.Reason, "3 resource instances, more than -max-changes=2") {
		t.Fatalf("wrong converge_skipped %+v\n%s", e, w.dump())
	}
	w.waitFor(i+1, "a second converge_skipped", isType("converge_skipped"))
	if code := w.stop(syscall.SIGTERM); code != 0 {
		t.Fatalf("exit code %d, want 0\n%s", code, w.dump())
	}
	for _, e := range w.all() {
		if e.Type == "converge_start" || e.Type == "converge_complete" {
			t.Errorf("converged over -max-changes: %+v", e)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "f*.txt")); len(m) != 0 {
		t.Errorf("files created over -max-changes: %v", m)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate")); err == nil && strings.Contains(string(data), "local_file") {
		t.Errorf("state written over -max-changes:\n%s", data)
	}
	// At the limit, the plan is applied.
	mustStrata(t, dir, 0, "watch", "-interval=200ms", "-converge", "-max-changes=3", "-converged-timeout=1s")
	if m, _ := filepath.Glob(filepath.Join(dir, "f*.txt")); len(m) != 3 {
		t.Errorf("files after converging at -max-changes: %v", m)
	}
	mustStrata(t, dir, 0, "plan", "-detailed-exitcode")
}

// TestE2EWatchKeepsProviders: the provider process started by the first
// cycle serves the next ones; a change of the dependency lock file (init
// -upgrade) starts a fresh one; -restart-providers starts one per cycle.
func TestE2EWatchKeepsProviders(t *testing.T) {
	t.Parallel()
	dir := watchDir(t, map[string]string{"main.tf": localHeader + `
resource "local_file" "a" {
  filename = "${path.module}/a.txt"
  content  = "a"
}
`})
	mustStrata(t, dir, 0, "apply", "-auto-approve")
	starts := func(base string) (starts, cycles int) {
		t.Helper()
		resp, err := http.Get(base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		for _, line := range strings.Split(string(b), "\n") {
			fmt.Sscanf(line, "strata_watch_provider_starts_total %d", &starts)
			fmt.Sscanf(line, "strata_watch_cycles_total %d", &cycles)
		}
		return starts, cycles
	}
	w := startWatch(t, dir, "-interval=100ms", "-listen=127.0.0.1:0", "-debounce=100ms")
	i := w.waitFor(0, "listening", isType("listening"))
	base := "http://" + w.event(i).Address
	i = w.waitFor(i, "five cycles", func(e watchEvent) bool { return e.Type == "idle" && e.Cycle >= 5 })
	if n, cycles := starts(base); n != 1 {
		t.Fatalf("%d provider starts in %d cycles, want 1\n%s", n, cycles, w.dump())
	}
	lock := filepath.Join(dir, ".terraform.lock.hcl")
	data := readFile(t, lock)
	writeFile(t, lock, string(data)+"\n")
	from := w.event(i).Cycle
	w.waitFor(i, "two more cycles", func(e watchEvent) bool { return e.Type == "idle" && e.Cycle >= from+3 })
	if n, cycles := starts(base); n != 2 {
		t.Fatalf("%d provider starts in %d cycles after the lock file changed, want 2\n%s", n, cycles, w.dump())
	}
	if code := w.stop(syscall.SIGTERM); code != 0 {
		t.Fatalf("exit code %d, want 0\n%s", code, w.dump())
	}

	w = startWatch(t, dir, "-interval=100ms", "-listen=127.0.0.1:0", "-restart-providers")
	i = w.waitFor(0, "listening", isType("listening"))
	base = "http://" + w.event(i).Address
	w.waitFor(i, "five cycles", func(e watchEvent) bool { return e.Type == "idle" && e.Cycle >= 5 })
	if n, cycles := starts(base); n < 5 || n < cycles-1 {
		t.Fatalf("%d provider starts in %d cycles with -restart-providers, want one a cycle\n%s", n, cycles, w.dump())
	}
	w.stop(syscall.SIGTERM)
}

// TestE2EWatchProviderBackoff: when a provider's refreshes fail for
// every resource, the watch backs the provider off (with growing waits)
// instead of quarantining each resource, keeps planning, and goes back to
// idle once the provider recovers.
func TestE2EWatchProviderBackoff(t *testing.T) {
	t.Parallel()
	mirror := testProviderMirror(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}
resource "stratafw_thing" "a" {
  name = "a"
}
resource "stratafw_thing" "b" {
  name = "b"
}
`)
	mustStrata(t, dir, 0, "init", "-plugin-dir="+mirror)
	mustStrata(t, dir, 0, "apply", "-auto-approve")
	driftDir := t.TempDir()
	// An attribute the provider does not know makes its read fail.
	for _, id := range []string{"fw-a", "fw-b"} {
		writeFile(t, filepath.Join(driftDir, id+".json"), `{"bogus": 1}`)
	}
	w := startWatchEnv(t, dir, []string{"STRATAFW_DRIFT_DIR=" + driftDir}, "-interval=1s", "-jitter=0", "-listen=127.0.0.1:0")
	i := w.waitFor(0, "listening", isType("listening"))
	base := "http://" + w.event(i).Address
	first := w.waitFor(i, "provider_backoff", isType("provider_backoff"))
	second := w.waitFor(first+1, "a second provider_backoff", isType("provider_backoff"))
	var raw struct {
		Provider string  `json:"provider"`
		Failures int     `json:"failures"`
		Backoff  float64 `json:"backoff_seconds"`
		Reason   string  `json:"reason"`
	}
	for n, at := range []int{first, second} {
		w.mu.Lock()
		line := w.raw[at]
		w.mu.Unlock()
		if err := json.Unmarshal([]byte(line), &raw); err != nil {
			t.Fatal(err)
		}
		if raw.Provider != "strata/stratafw" || raw.Failures != n+1 || raw.Backoff != float64(int(1)<<n) || !strings.Contains(raw.Reason, "Invalid simulated drift") {
			t.Fatalf("wrong provider_backoff %d: %s", n+1, line)
		}
	}
	resp, err := http.Get(base + "/drift")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		BackedOff []struct {
			Provider string `json:"provider"`
		} `json:"providers_backed_off"`
	}
	err = json.NewDecoder(resp.Body).Decode(&rep)
	resp.Body.Close()
	if err != nil || len(rep.BackedOff) != 1 || rep.BackedOff[0].Provider != "registry.terraform.io/strata/stratafw" {
		t.Fatalf("GET /drift: %v %+v", err, rep)
	}
	// Between the back-offs the cycles still plan (from the stored
	// state), and no resource is quarantined for the provider's failure.
	for _, e := range w.all()[:second] {
		if len(e.Failed) > 0 {
			t.Fatalf("resources quarantined for a provider's failure: %+v\n%s", e, w.dump())
		}
	}
	if w.waitFor(first+1, "a planning cycle", isType("idle")) > second {
		t.Fatalf("no cycle planned during the first back-off\n%s", w.dump())
	}
	// The provider recovers: after its back-off, refreshes work again.
	for _, id := range []string{"fw-a", "fw-b"} {
		if err := os.Remove(filepath.Join(driftDir, id+".json")); err != nil {
			t.Fatal(err)
		}
	}
	last := len(w.all())
	w.waitFor(last, "an idle cycle refreshing both", func(e watchEvent) bool { return e.Type == "idle" && e.Refreshed == 2 })
	if code := w.stop(syscall.SIGTERM); code != 0 {
		t.Fatalf("exit code %d, want 0\n%s", code, w.dump())
	}
}

var _ = fmt.Sprintf
