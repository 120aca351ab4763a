package command

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
)

// runsShowDoc is the -json document of runs show, as documented in
// website/docs/runs.md.
type runsShowDoc struct {
	FormatVersion string `json:"format_version"`
	Run           struct {
		ID      string         `json:"id"`
		Command string         `json:"command"`
		Args    []string       `json:"args"`
		Outcome string         `json:"outcome"`
		Noop    bool           `json:"noop"`
		Counts  map[string]int `json:"counts"`
	} `json:"run"`
	Entries []struct {
		Kind        string `json:"kind"`
		Address     string `json:"address"`
		Action      string `json:"action"`
		Outcome     string `json:"outcome"`
		Reason      string `json:"reason"`
		Diagnostics string `json:"diagnostics"`
		Changes     []struct {
			Path       string          `json:"path"`
			Before     json.RawMessage `json:"before"`
			After      json.RawMessage `json:"after"`
			BeforeMark string          `json:"before_mark"`
			AfterMark  string          `json:"after_mark"`
		} `json:"changes"`
	} `json:"entries"`
}

func runsShow(t *testing.T, dir string, args ...string) runsShowDoc {
	t.Helper()
	r := mustStrata(t, dir, 0, append([]string{"runs", "show", "-json"}, args...)...)
	var doc runsShowDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("runs show -json: %v\n%s", err, r.stdout)
	}
	return doc
}

// runLogHas reports whether the log of the run going on in dir holds an
// entry for address with the outcome (the frames described in
// internal/runrecord/log.go: length, CRC, kind byte, JSON).
func runLogHas(t *testing.T, dir, address, outcome string) bool {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(dir, ".terraform", "runs", "*.running"))
	for _, path := range logs {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		for len(b) >= 9 {
			n := int(binary.LittleEndian.Uint32(b))
			if n == 0 || 8+n > len(b) {
				break
			}
			body := b[8 : 8+n]
			b = b[8+n:]
			if body[0] != 'E' {
				continue
			}
			var e struct {
				Address string `json:"address"`
				Outcome string `json:"outcome"`
			}
			if json.Unmarshal(body[1:], &e) == nil && e.Address == address && e.Outcome == outcome {
				return true
			}
		}
	}
	return false
}

// outcomes maps each change entry's address to its outcome.
func (doc runsShowDoc) outcomes() map[string]string {
	m := map[string]string{}
	for _, e := range doc.Entries {
		if e.Kind == "change" {
			m[e.Address] = e.Outcome
		}
	}
	return m
}

const runsOutcomesConfig = `
variable "mode" {
  default = "ok"
}
resource "terraform_data" "a" {
  input = "same"
}
resource "terraform_data" "b" {
  count = var.mode == "ok" ? 0 : 1
  input = "new"
}
resource "terraform_data" "fail" {
  input            = "x"
  triggers_replace = var.mode
  provisioner "local-exec" {
    command = contains(["fail", "failslow"], var.mode) ? "echo provisioner says no; touch fail.done; exit 3" : "true"
  }
}
resource "terraform_data" "dep" {
  input = terraform_data.fail.output
}
resource "terraform_data" "after_fail" {
  input = terraform_data.fail.output
}
resource "terraform_data" "slow" {
  triggers_replace = var.mode
  provisioner "local-exec" {
    # It waits until the interrupt stops it (or for 2 minutes).
    command = contains(["slow", "failslow"], var.mode) ? "touch slow.started; i=0; while [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done" : "true"
  }
}
resource "terraform_data" "after_slow" {
  input = terraform_data.slow.id
}
`

// TestE2ERunsOutcomes: an apply where one resource fails records it as
// failed with the provider's message, what depends on it as skipped, the
// new resource as updated and the untouched one as up_to_date; an
// interrupted apply records what it never reached as unprocessed.
func TestE2ERunsOutcomes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), runsOutcomesConfig)
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")

	stream := mustStrata(t, dir, 1, "apply", "-auto-approve", "-json", "-var", "mode=fail").stdout
	doc := runsShow(t, dir)
	want := map[string]string{
		"terraform_data.a":          "up_to_date",
		"terraform_data.b[0]":       "updated",
		"terraform_data.fail":       "failed",
		"terraform_data.dep":        "skipped",
		"terraform_data.after_fail": "skipped",
		"terraform_data.slow":       "updated",
		"terraform_data.after_slow": "updated",
	}
	if diff := cmp.Diff(want, doc.outcomes()); diff != "" {
		t.Errorf("wrong outcomes (-want +got)\n%s", diff)
	}
	// The -json stream reports the same outcomes, a resource_outcome
	// message each.
	streamed := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(stream), "\n") {
		var m struct {
			Type    string `json:"type"`
			Level   string `json:"@level"`
			Outcome struct {
				Resource struct {
					Addr string `json:"addr"`
				} `json:"resource"`
				Outcome string `json:"outcome"`
				Reason  string `json:"reason"`
				Error   string `json:"error"`
			} `json:"resource_outcome"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		if m.Type != "resource_outcome" {
			continue
		}
		o := m.Outcome
		streamed[o.Resource.Addr] = o.Outcome
		if (o.Outcome == "failed") != (m.Level == "error") || (o.Outcome == "failed" && !strings.Contains(o.Error, "exit status 3")) || (o.Outcome == "skipped" && o.Reason == "") {
			t.Errorf("resource_outcome of %s: %s", o.Resource.Addr, line)
		}
	}
	if diff := cmp.Diff(want, streamed); diff != "" {
		t.Errorf("wrong outcomes in the -json stream (-want +got)\n%s", diff)
	}
	if doc.Run.Command != "apply" || doc.Run.Outcome != "failed" || doc.Run.Noop {
		t.Errorf("run: %s %s noop=%v, want a failed apply", doc.Run.Command, doc.Run.Outcome, doc.Run.Noop)
	}
	if got := strings.Join(doc.Run.Args, " "); got != "apply -auto-approve -json -var mode=(redacted)" {
		t.Errorf("args = %q: -var values must be redacted", got)
	}
	for _, e := range doc.Entries {
		switch e.Address {
		case "terraform_data.fail":
			if !strings.Contains(e.Diagnostics, "exit status 3") && !strings.Contains(e.Diagnostics, "provisioner") {
				t.Errorf("failed entry's diagnostics do not say why: %q", e.Diagnostics)
			}
			if e.Action != "replace" {
				t.Errorf("fail: action %q, want replace", e.Action)
			}
		case "terraform_data.dep":
			if e.Reason == "" {
				t.Errorf("skipped entry has no reason")
			}
		}
	}
	// Filters.
	failed := runsShow(t, dir, "-status=failed,skipped")
	if diff := cmp.Diff(map[string]string{"terraform_data.fail": "failed", "terraform_data.dep": "skipped", "terraform_data.after_fail": "skipped"}, failed.outcomes()); diff != "" {
		t.Errorf("-status=failed,skipped (-want +got)\n%s", diff)
	}
	if got := runsShow(t, dir, "-address=terraform_data.*slow*").outcomes(); len(got) != 2 {
		t.Errorf("-address glob: %v", got)
	}
	human := mustStrata(t, dir, 0, "runs", "show", "-no-color").stdout
	for _, s := range []string{"terraform_data.fail: replace, failed", "terraform_data.dep: update, skipped", "terraform_data.a: no-op, up_to_date"} {
		if !strings.Contains(human, s) {
			t.Errorf("runs show lacks %q:\n%s", s, human)
		}
	}

	// Interrupted while slow's provisioner runs: after_slow is never
	// reached.
	cmd := exec.Command(strataBin, "apply", "-auto-approve", "-no-color", "-var", "mode=slow")
	cmd.Dir = dir
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(filepath.Join(dir, "slow.started")); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = cmd.Process.Signal(os.Interrupt)
	_ = cmd.Wait()
	doc = runsShow(t, dir)
	if doc.Run.Outcome != "interrupted" {
		t.Errorf("run outcome %q, want interrupted\n%s", doc.Run.Outcome, out.String())
	}
	if got := doc.outcomes()["terraform_data.after_slow"]; got != "unprocessed" {
		t.Errorf("after_slow: %q, want unprocessed\n%s", got, out.String())
	}

	list := mustStrata(t, dir, 0, "runs", "list", "-json", "-command=apply")
	var l struct {
		Runs []struct {
			Outcome string `json:"outcome"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(list.stdout), &l); err != nil {
		t.Fatal(err)
	}
	var outcomes []string
	for _, r := range l.Runs {
		outcomes = append(outcomes, r.Outcome)
	}
	if diff := cmp.Diff([]string{"interrupted", "failed", "succeeded"}, outcomes); diff != "" {
		t.Errorf("runs list, latest first (-want +got)\n%s", diff)
	}
}

// TestE2ERunsFiveOutcomes: one apply whose record has each of the five
// outcomes on the right instances: an instance with nothing to do is
// up_to_date; a new one is created (updated); one whose provisioner fails
// is failed, and so is the slow one whose provisioner the interrupt
// stops, each with its own error; the one that depends on the failed one
// is skipped for that reason, though the run was interrupted too, and
// the one outside -target is skipped for that; the one after the slow
// one is never reached (unprocessed). The -json stream says the same.
//
// No timing is assumed: slow's provisioner waits until it is stopped,
// and the interrupt is sent once the run's log has after_fail skipped
// and slow's provisioner has started.
func TestE2ERunsFiveOutcomes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), runsOutcomesConfig)
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	cmd := exec.Command(strataBin, "apply", "-auto-approve", "-json", "-var", "mode=failslow",
		"-target=terraform_data.a", "-target=terraform_data.b", "-target=terraform_data.fail",
		"-target=terraform_data.after_fail", "-target=terraform_data.after_slow")
	cmd.Dir = dir
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// after_fail is recorded skipped once strata has taken fail's
	// failure (and not before fail's operation returned).
	deadline := time.Now().Add(2 * time.Minute)
	for {
		_, err := os.Stat(filepath.Join(dir, "slow.started"))
		if err == nil && runLogHas(t, dir, "terraform_data.after_fail", "skipped") {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("after_fail's skip and slow's start not seen in time:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = cmd.Process.Signal(os.Interrupt)
	_ = cmd.Wait()
	doc := runsShow(t, dir)
	want := map[string]string{
		"terraform_data.a":          "up_to_date",
		"terraform_data.b[0]":       "updated",
		"terraform_data.fail":       "failed",
		"terraform_data.slow":       "failed",
		"terraform_data.dep":        "skipped",
		"terraform_data.after_fail": "skipped",
		"terraform_data.after_slow": "unprocessed",
	}
	got := doc.outcomes()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong outcomes (-want +got)\n%s\n%s", diff, out.String())
	}
	if doc.Run.Outcome != "interrupted" {
		t.Errorf("run outcome %q, want interrupted", doc.Run.Outcome)
	}
	for _, e := range doc.Entries {
		switch e.Address {
		case "terraform_data.dep":
			if !strings.Contains(e.Reason, "-target") {
				t.Errorf("dep skipped for %q, want -target", e.Reason)
			}
		case "terraform_data.after_fail":
			if !strings.Contains(e.Reason, "something it depends on failed") {
				t.Errorf("after_fail skipped for %q, want its failed dependency", e.Reason)
			}
		case "terraform_data.fail":
			if !strings.Contains(e.Diagnostics, "exit status 3") {
				t.Errorf("fail's error: %q", e.Diagnostics)
			}
		case "terraform_data.slow":
			if !strings.Contains(e.Diagnostics, "slow.started") {
				t.Errorf("slow's error is not its own: %q", e.Diagnostics)
			}
		}
	}
	streamed := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			Type    string `json:"type"`
			Outcome struct {
				Resource struct {
					Addr string `json:"addr"`
				} `json:"resource"`
				Outcome string `json:"outcome"`
			} `json:"resource_outcome"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.Type == "resource_outcome" {
			streamed[m.Outcome.Resource.Addr] = m.Outcome.Outcome
		}
	}
	// The stream reports the instances the apply planned: not those
	// outside -target.
	delete(want, "terraform_data.dep")
	if diff := cmp.Diff(want, streamed); diff != "" {
		t.Errorf("wrong outcomes in the -json stream (-want +got)\n%s", diff)
	}
}

// TestE2ERunsHistory: history shows an attribute's value over three
// applies, and a plan (a noop run) says what would change without
// entering the history.
func TestE2ERunsHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `
variable "v" {}
resource "terraform_data" "a" {
  input = var.v
}
`)
	for _, v := range []string{"one", "two", "three"} {
		mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color", "-var", "v="+v)
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-var", "v=four")
	plan := runsShow(t, dir)
	if !plan.Run.Noop || plan.Run.Command != "plan" || plan.outcomes()["terraform_data.a"] != "skipped" {
		t.Errorf("plan run: noop=%v command=%s outcomes=%v", plan.Run.Noop, plan.Run.Command, plan.outcomes())
	}

	r := mustStrata(t, dir, 0, "history", "-json", "-attribute=input", "terraform_data.a")
	var doc struct {
		Changes []struct {
			Command string          `json:"command"`
			Path    string          `json:"path"`
			Before  json.RawMessage `json:"before"`
			After   json.RawMessage `json:"after"`
		} `json:"changes"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	var got []string
	for _, c := range doc.Changes {
		got = append(got, c.Command+" "+c.Path+": "+string(c.Before)+" -> "+string(c.After))
	}
	want := []string{`apply input: null -> "one"`, `apply input: "one" -> "two"`, `apply input: "two" -> "three"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("history (-want +got)\n%s", diff)
	}
	// runs query: the same instance across the runs, latest first, and
	// the filters of list (runs) and show (entries) together.
	query := func(args ...string) []string {
		t.Helper()
		r := mustStrata(t, dir, 0, append([]string{"runs", "query", "-json"}, args...)...)
		var doc struct {
			Entries []struct {
				Command string `json:"command"`
				RunID   string `json:"run_id"`
				Address string `json:"address"`
				Outcome string `json:"outcome"`
				Changes []struct {
					Path  string          `json:"path"`
					After json.RawMessage `json:"after"`
				} `json:"changes"`
			} `json:"entries"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, r.stdout)
		}
		var got []string
		for _, e := range doc.Entries {
			s := e.Command + " " + e.Address + " " + e.Outcome
			for _, c := range e.Changes {
				if c.Path == "input" {
					s += " " + string(c.After)
				}
			}
			got = append(got, s)
		}
		return got
	}
	queries := map[string]struct {
		args []string
		want []string
	}{
		"updated since": {[]string{"-since=1h", "-status=updated", "-address=terraform_data.*"},
			[]string{`apply terraform_data.a updated "three"`, `apply terraform_data.a updated "two"`, `apply terraform_data.a updated "one"`}},
		"plans":        {[]string{"-command=plan", "-type=terraform_data"}, []string{`plan terraform_data.a skipped "four"`}},
		"limit":        {[]string{"-status=updated", "-limit=1"}, []string{`apply terraform_data.a updated "three"`}},
		"other type":   {[]string{"-type=local_file"}, nil},
		"failed runs":  {[]string{"-outcome=failed"}, nil},
		"no such glob": {[]string{"-address=terraform_data.[ab]"}, nil},
	}
	for name, q := range queries {
		if diff := cmp.Diff(q.want, query(q.args...)); diff != "" {
			t.Errorf("runs query %s (-want +got)\n%s", name, diff)
		}
	}
	if r := mustStrata(t, dir, 0, "runs", "query", "-no-color", "-status=updated", "-limit=2").stdout; !strings.Contains(r, "terraform_data.a  update  updated") || !strings.Contains(r, "-limit=0") {
		t.Errorf("runs query table:\n%s", r)
	}

	// The output attribute is known only after apply: the record has the
	// applied value.
	human := mustStrata(t, dir, 0, "history", "-attribute", "output", "terraform_data.a").stdout
	if !strings.Contains(human, `"two"   "three"`) {
		t.Errorf("history of output lacks the applied value:\n%s", human)
	}
}

// TestE2ERunsNoSecrets: sensitive values never reach the database file,
// even where terraform_data copies them, unmarked, into its output; the
// record holds a mark instead.
func TestE2ERunsNoSecrets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `
variable "pw" {
  sensitive = true
}
resource "terraform_data" "s" {
  input = var.pw
}
resource "terraform_data" "msg" {
  input = "uses ${nonsensitive(var.pw)} openly"
}
`)
	secrets := []string{"first-s3cret-value", "second-s3cret-value"}
	for _, pw := range secrets {
		mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color", "-var", "pw="+pw)
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-var", "pw=third-s3cret-value", "-refresh=true")
	secrets = append(secrets, "third-s3cret-value")
	// The plan's log, before a query moves it into the database.
	logs, _ := filepath.Glob(filepath.Join(dir, ".terraform", "runs", "*.log"))
	if len(logs) == 0 {
		t.Fatal("no run log")
	}
	logData := map[string][]byte{}
	for _, f := range logs {
		logData[f] = readFile(t, f)
	}
	doc := runsShow(t, dir)
	files, _ := filepath.Glob(filepath.Join(dir, ".terraform", "runs.db*"))
	if len(files) == 0 {
		t.Fatal("no run record database")
	}
	for _, f := range files {
		logData[f] = readFile(t, f)
	}
	for f, data := range logData {
		for _, s := range secrets {
			if bytes.Contains(data, []byte(s)) {
				t.Errorf("%s contains the sensitive value %q", filepath.Base(f), s)
			}
		}
	}
	marks := 0
	for _, e := range doc.Entries {
		for _, c := range e.Changes {
			if c.BeforeMark == "sensitive" {
				marks++
			}
		}
	}
	if marks == 0 {
		t.Errorf("no sensitive marks in the plan's record: %+v", doc.Entries)
	}
}

// TestE2ERunsKill: a kill -9 mid-apply leaves the run's log up to the
// crash; the next command completes the record: the run crashed, what it
// never reached is unprocessed.
func TestE2ERunsKill(t *testing.T) {
	t.Parallel()
	const n = 300
	dir := t.TempDir()
	// The middle of the chain waits in a provisioner, where the kill
	// lands: the apply is mid-way however fast the machine is.
	mid := fmt.Sprintf("resource \"terraform_data\" \"r%d\" {\n  input = terraform_data.r%d.output\n", n/2, n/2-1)
	config := strings.Replace(chainConfig(n), mid, mid+"  provisioner \"local-exec\" {\n    command = \"sleep 60\"\n  }\n", 1)
	writeFile(t, filepath.Join(dir, "main.tf"), config)
	cmd := exec.Command(strataBin, "apply", "-auto-approve", "-no-color")
	cmd.Dir = dir
	// A group of its own, so that the kill takes the provisioner's sleep too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waiting := fmt.Sprintf("terraform_data.r%d: Provisioning with 'local-exec'", n/2)
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(out.String(), waiting) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Wait()
	running, _ := filepath.Glob(filepath.Join(dir, ".terraform", "runs", "*.running"))
	if len(running) != 1 {
		t.Fatalf("killed run's logs: %v, want one still running", running)
	}
	id := strings.TrimSuffix(filepath.Base(running[0]), ".running")
	// The killed process's state lock may outlive Wait for a moment
	// under load (seen once): the plan waits for it.
	mustStrata(t, dir, 2, "plan", "-no-color", "-detailed-exitcode", "-lock-timeout=10s")
	if _, err := os.Stat(running[0]); !os.IsNotExist(err) {
		t.Errorf("the next command did not complete the killed run's record: %v", err)
	}
	doc := runsShow(t, dir, id)
	if doc.Run.Outcome != "crashed" {
		t.Errorf("outcome after the next command: %q, want crashed", doc.Run.Outcome)
	}
	counts := doc.Run.Counts
	if total := counts["updated"] + counts["unknown"] + counts["unprocessed"]; total != n {
		t.Errorf("counts %v do not cover the %d resources", counts, n)
	}
	if counts["unprocessed"] == 0 {
		t.Errorf("nothing unprocessed after a kill mid-apply: %v", counts)
	}
	inState := stateResourceCount(t, filepath.Join(dir, "terraform.tfstate"))
	if counts["updated"] > inState {
		t.Errorf("%d recorded as updated but only %d in the state", counts["updated"], inState)
	}
	t.Logf("killed after %d creates in state; record: %v", inState, counts)
}

// TestE2ERunsEmptyAndOff: queries in a directory without records say so
// and create nothing; STRATA_RUNS=0 records nothing.
func TestE2ERunsEmptyAndOff(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `resource "terraform_data" "a" {}`)
	if r := mustStrata(t, dir, 0, "runs", "list"); !strings.Contains(r.stdout, "No runs recorded.") {
		t.Errorf("runs list: %q", r.stdout)
	}
	if r := mustStrata(t, dir, 0, "runs", "list", "-json"); !strings.Contains(r.stdout, `"runs": []`) {
		t.Errorf("runs list -json: %q", r.stdout)
	}
	if r := mustStrata(t, dir, 1, "runs", "show", "-no-color"); !strings.Contains(r.stderr, "No runs recorded") {
		t.Errorf("runs show: %q", r.stderr)
	}
	if r := mustStrata(t, dir, 0, "history", "terraform_data.a"); !strings.Contains(r.stdout, "No recorded changes to terraform_data.a.") {
		t.Errorf("history: %q", r.stdout)
	}
	db := filepath.Join(dir, ".terraform", "runs.db")
	if _, err := os.Stat(db); err == nil {
		t.Fatal("a query created the database")
	}
	cmd := exec.Command(strataBin, "apply", "-auto-approve", "-no-color")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "STRATA_RUNS=0", "TF_IN_AUTOMATION=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	for _, f := range []string{db, filepath.Join(dir, ".terraform", "runs")} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("STRATA_RUNS=0 still wrote run records: %s", f)
		}
	}
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	if r := mustStrata(t, dir, 1, "runs", "show", "-no-color", "nope"); !strings.Contains(r.stderr, "No such run") {
		t.Errorf("runs show nope: %q", r.stderr)
	}
	if r := mustStrata(t, dir, 1, "runs", "show", "-status=bogus"); !strings.Contains(r.stderr, "Invalid -status") {
		t.Errorf("runs show -status=bogus: %q", r.stderr)
	}
}

// TestE2ERunsImport: import records the object it adopted, or its error.
func TestE2ERunsImport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `resource "terraform_data" "x" {}`)
	mustStrata(t, dir, 0, "import", "-no-color", "terraform_data.x", "abc-123")
	doc := runsShow(t, dir)
	if doc.Run.Command != "import" || doc.Run.Outcome != "succeeded" || len(doc.Entries) != 1 {
		t.Fatalf("import run: %+v", doc)
	}
	e := doc.Entries[0]
	if e.Action != "import" || e.Outcome != "updated" || len(e.Changes) != 1 || e.Changes[0].Path != "id" || string(e.Changes[0].After) != `"abc-123"` {
		t.Errorf("import entry: %+v", e)
	}
	mustStrata(t, dir, 1, "import", "-no-color", "terraform_data.nope", "abc")
	doc = runsShow(t, dir)
	if doc.Run.Outcome != "failed" || len(doc.Entries) != 1 || doc.Entries[0].Outcome != "failed" || !strings.Contains(doc.Entries[0].Diagnostics, "does not exist") {
		t.Errorf("failed import: %+v", doc)
	}
}

// TestE2ERunsStateEdits: commands that edit the state directly record
// what they changed.
func TestE2ERunsStateEdits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"x\" {}\nresource \"terraform_data\" \"y\" {}\n")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	steps := []struct {
		args    []string
		command string
		want    map[string]string // address → action
	}{
		{[]string{"taint", "terraform_data.x"}, "taint", map[string]string{"terraform_data.x": "taint"}},
		{[]string{"untaint", "terraform_data.x"}, "untaint", map[string]string{"terraform_data.x": "untaint"}},
		{[]string{"state", "mv", "terraform_data.y", "terraform_data.z"}, "state mv", map[string]string{"terraform_data.y": "remove", "terraform_data.z": "add"}},
		{[]string{"state", "rm", "terraform_data.x"}, "state rm", map[string]string{"terraform_data.x": "remove"}},
	}
	for _, s := range steps {
		mustStrata(t, dir, 0, s.args...)
		doc := runsShow(t, dir)
		got := map[string]string{}
		for _, e := range doc.Entries {
			got[e.Address] = e.Action
		}
		if doc.Run.Command != s.command || doc.Run.Outcome != "succeeded" {
			t.Errorf("%v: run %s %s", s.args, doc.Run.Command, doc.Run.Outcome)
		}
		if diff := cmp.Diff(s.want, got); diff != "" {
			t.Errorf("%v: entries (-want +got)\n%s", s.args, diff)
		}
	}
}

// TestE2ERunsSharedPG: with the pg backend, two working directories on
// the same state see the same runs: each run's log goes to the backend's
// database, and a query in the other directory brings it in.
func TestE2ERunsSharedPG(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	config := "terraform {\n  backend \"pg\" {\n    conn_str = \"" + conn + "\"\n  }\n}\nvariable \"v\" {}\nresource \"terraform_data\" \"a\" {\n  input = var.v\n}\n"
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		mustStrata(t, dir, 0, "init", "-no-color")
	}
	mustStrata(t, a, 0, "apply", "-auto-approve", "-no-color", "-var", "v=from-a")
	mustStrata(t, b, 0, "apply", "-auto-approve", "-no-color", "-var", "v=from-b")
	for name, dir := range map[string]string{"a": a, "b": b} {
		r := mustStrata(t, dir, 0, "history", "-json", "-attribute=input", "terraform_data.a")
		var doc struct {
			Changes []struct {
				After json.RawMessage `json:"after"`
			} `json:"changes"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, r.stdout)
		}
		var got []string
		for _, c := range doc.Changes {
			got = append(got, string(c.After))
		}
		if diff := cmp.Diff([]string{`"from-a"`, `"from-b"`}, got); diff != "" {
			t.Errorf("history in %s (-want +got)\n%s", name, diff)
		}
	}
	// A second query brings nothing twice, and both directories list
	// the same runs.
	ids := func(dir string) []string {
		t.Helper()
		l := mustStrata(t, dir, 0, "runs", "list", "-json")
		var runs struct {
			Runs []struct {
				ID string `json:"id"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(l.stdout), &runs); err != nil {
			t.Fatalf("runs list: %v\n%s", err, l.stdout)
		}
		var out []string
		for _, r := range runs.Runs {
			out = append(out, r.ID)
		}
		return out
	}
	inA, inB := ids(a), ids(b)
	if len(inA) != 2 {
		t.Errorf("runs in a: %v, want the two applies", inA)
	}
	if diff := cmp.Diff(inA, inB); diff != "" {
		t.Errorf("a and b list different runs (-a +b)\n%s", diff)
	}
}

// TestE2ERunsKillSharedPG: with the pg backend, the record of a run
// killed mid-apply, completed by the next command in its directory, is
// shared like an ended run's: the other directory on the same state lists
// it as crashed, with the operation in flight unknown and what it never
// reached unprocessed.
func TestE2ERunsKillSharedPG(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	const n = 40
	mid := fmt.Sprintf("resource \"terraform_data\" \"r%d\" {\n  input = terraform_data.r%d.output\n", n/2, n/2-1)
	config := strings.Replace(chainConfig(n), mid, mid+"  provisioner \"local-exec\" {\n    command = \"sleep 60\"\n  }\n", 1)
	config = "terraform {\n  backend \"pg\" {\n    conn_str = \"" + conn + "\"\n  }\n}\n" + config
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		mustStrata(t, dir, 0, "init", "-no-color")
	}
	cmd := exec.Command(strataBin, "apply", "-auto-approve", "-no-color")
	cmd.Dir = a
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waiting := fmt.Sprintf("terraform_data.r%d: Provisioning with 'local-exec'", n/2)
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(out.String(), waiting) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	// The log is written every 20ms (runrecord.Window): the start of the
	// operation under way reaches it well before the kill.
	time.Sleep(300 * time.Millisecond)
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Wait()
	running, _ := filepath.Glob(filepath.Join(a, ".terraform", "runs", "*.running"))
	if len(running) != 1 {
		t.Fatalf("killed run's logs: %v, want one still running\n%s", running, out.String())
	}
	id := strings.TrimSuffix(filepath.Base(running[0]), ".running")
	// Before the next command in a, b does not know the run.
	if r := mustStrata(t, b, 0, "runs", "list", "-json"); strings.Contains(r.stdout, id) {
		t.Errorf("b lists the killed run before a completed its record:\n%s", r.stdout)
	}
	mustStrata(t, a, 2, "plan", "-no-color", "-detailed-exitcode")

	l := mustStrata(t, b, 0, "runs", "list", "-json")
	var list struct {
		Runs []struct {
			ID      string `json:"id"`
			Command string `json:"command"`
			Outcome string `json:"outcome"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(l.stdout), &list); err != nil {
		t.Fatalf("runs list -json in b: %v\n%s", err, l.stdout)
	}
	found := false
	for _, r := range list.Runs {
		if r.ID == id {
			found = true
			if r.Command != "apply" || r.Outcome != "crashed" {
				t.Errorf("b lists the killed run as %s %s, want apply crashed", r.Command, r.Outcome)
			}
		}
	}
	if !found {
		t.Fatalf("b does not list the killed run %s:\n%s", id, l.stdout)
	}
	inB, inA := runsShow(t, b, id), runsShow(t, a, id)
	if diff := cmp.Diff(inA.outcomes(), inB.outcomes()); diff != "" {
		t.Errorf("the crashed run's outcomes in a and b (-a +b)\n%s", diff)
	}
	got := inB.outcomes()
	if len(got) != n {
		t.Errorf("b has %d entries of the crashed run, want %d", len(got), n)
	}
	inFlight := fmt.Sprintf("terraform_data.r%d", n/2)
	if got[inFlight] != "unknown" {
		t.Errorf("the operation in flight (%s) is %q in b, want unknown", inFlight, got[inFlight])
	}
	if o := got[fmt.Sprintf("terraform_data.r%d", n-1)]; o != "unprocessed" {
		t.Errorf("the end of the chain is %q in b, want unprocessed", o)
	}
	if o := got["terraform_data.r0"]; o != "updated" {
		t.Errorf("the start of the chain is %q in b, want updated", o)
	}
	if h := mustStrata(t, b, 0, "runs", "show", "-no-color", id); !strings.Contains(h.stdout, "apply, crashed") {
		t.Errorf("runs show in b:\n%s", h.stdout)
	}
}

// TestE2ERunsNoProviderSecrets: values that are secret because of a
// provider's schema — random_password's sensitive result, known only
// after apply, and a write-only argument given a value that is not marked
// sensitive — never appear in the run logs or the run record database,
// nor does the result where the configuration copies it (marked, or
// openly with nonsensitive). Without encryption, so that the bytes
// searched are the records themselves.
func TestE2ERunsNoProviderSecrets(t *testing.T) {
	t.Parallel()
	randomMirror := randomProviderMirror(t)
	testMirror := tftestProviderMirror(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `
variable "wo" {
  type = string
}
resource "random_password" "p" {
  length  = 32
  special = false
}
resource "test_resource" "w" {
  value      = "not secret"
  write_only = var.wo
}
resource "terraform_data" "copy" {
  input = random_password.p.result
}
resource "terraform_data" "open" {
  input = "pw: ${nonsensitive(random_password.p.result)}"
}
`)
	env := []string{"TFTEST_STORE_DIR=" + t.TempDir()}
	run := func(args ...string) {
		t.Helper()
		if r := runWith(t, dir, "", strataBin, env, args...); r.code != 0 {
			t.Fatalf("strata %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
	run("init", "-no-color", "-plugin-dir="+randomMirror, "-plugin-dir="+testMirror)
	wo := []string{"wo-first-" + randomHex(t, 8), "wo-second-" + randomHex(t, 8)}
	run("apply", "-auto-approve", "-no-color", "-var", "wo="+wo[0])
	run("apply", "-auto-approve", "-no-color", "-var", "wo="+wo[1])
	st := readFile(t, filepath.Join(dir, "terraform.tfstate"))
	var state struct {
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(st, &state); err != nil {
		t.Fatal(err)
	}
	pw := ""
	for _, r := range state.Resources {
		if r.Type == "random_password" && len(r.Instances) == 1 {
			pw, _ = r.Instances[0].Attributes["result"].(string)
		}
	}
	if len(pw) != 32 {
		t.Fatalf("random_password result %q", pw)
	}
	secrets := map[string]string{"random_password result": pw, "first write-only value": wo[0], "second write-only value": wo[1]}
	check := func(when string, files []string) {
		t.Helper()
		if len(files) == 0 {
			t.Fatalf("%s: no files to search", when)
		}
		for _, f := range files {
			data := readFile(t, f)
			for name, s := range secrets {
				if bytes.Contains(data, []byte(s)) {
					t.Errorf("%s: %s holds the %s", when, filepath.Base(f), name)
				}
			}
		}
	}
	logs, _ := filepath.Glob(filepath.Join(dir, ".terraform", "runs", "*.log"))
	check("run logs", logs)
	l := mustStrata(t, dir, 0, "runs", "list", "-json")
	dbs, _ := filepath.Glob(filepath.Join(dir, ".terraform", "runs.db*"))
	check("database", dbs)
	var runs struct {
		Runs []struct {
			ID string `json:"id"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(l.stdout), &runs); err != nil || len(runs.Runs) != 2 {
		t.Fatalf("runs list: %v\n%s", err, l.stdout)
	}
	// The first apply's record says what it set, with marks in place of
	// the secret values.
	first := runsShow(t, dir, runs.Runs[1].ID)
	marks := map[string]string{}
	for _, e := range first.Entries {
		for _, c := range e.Changes {
			marks[e.Address+" "+c.Path] = c.AfterMark
		}
	}
	want := map[string]string{
		"random_password.p result":   "sensitive",
		"terraform_data.copy input":  "sensitive",
		"terraform_data.copy output": "sensitive",
		"terraform_data.open input":  "sensitive",
		"terraform_data.open output": "sensitive",
	}
	for k, v := range want {
		if marks[k] != v {
			t.Errorf("%s: mark %q, want %q", k, marks[k], v)
		}
	}
}
