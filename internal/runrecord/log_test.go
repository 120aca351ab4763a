package runrecord

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/zclconf/go-cty/cty"
)

// writeLog writes the log of one apply: one entry updated, one left
// started (in flight), one never reached, two up to date.
func writeLog(t *testing.T, dir string, run Run, end bool) {
	t.Helper()
	w, err := CreateLog(dir, run)
	if err != nil {
		t.Fatal(err)
	}
	mk := func(seq int, addr string) Entry {
		return Entry{RunID: run.ID, Seq: seq, Kind: KindChange, Address: addr, Type: "terraform_data", Provider: "p", Action: "update", Outcome: Unprocessed,
			Changes: []AttrChange{{Path: "input", Before: json.RawMessage(`"a"`), After: json.RawMessage(`"b <&> \u2028"`)}}}
	}
	w.PutUpToDate([]*Entry{{RunID: run.ID, Seq: 1, Address: "terraform_data.u1", Type: "terraform_data", Provider: "p"}, {RunID: run.ID, Seq: 2, Address: "terraform_data.u2", Type: "terraform_data", Provider: "p"}})
	for i, addr := range []string{"terraform_data.done", "terraform_data.flight", "terraform_data.never"} {
		w.PutEntry(mk(3+i, addr))
	}
	done := mk(3, "terraform_data.done")
	done.Started = t0.Add(time.Second)
	w.PutStart(done)
	done.Outcome, done.Ended, done.Changes = Updated, t0.Add(2*time.Second), nil
	w.PutEntry(done)
	flight := mk(4, "terraform_data.flight")
	flight.Started = t0.Add(3 * time.Second)
	w.PutStart(flight)
	if end {
		run.Outcome, run.Ended = RunFailed, t0.Add(time.Minute)
		w.PutRun(run)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return
	}
	// A killed process writes nothing more: the log stays .running.
	w.Flush()
}

func outcomesOf(t *testing.T, s Store, id string) map[string]string {
	t.Helper()
	es, err := s.Entries(context.Background(), id, EntryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range es {
		got[e.Address] = string(e.Outcome)
		if e.Reason != "" {
			got[e.Address] += ": " + e.Reason
		}
	}
	return got
}

func TestIngestEndedAndCrashed(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "runs")
	s := openTemp(t)
	host := Host{Name: "h", Alive: func(pid int) bool { return pid == 1 }}

	writeLog(t, dir, Run{ID: "r1", Command: "apply", Started: t0, Outcome: RunRunning, Host: "h", PID: 1}, true)
	// r2 died (pid 2 is gone); r3 is still going (pid 1 lives); r4 ran
	// on another host, which this one cannot check.
	writeLog(t, dir, Run{ID: "r2", Command: "apply", Started: t0.Add(time.Hour), Outcome: RunRunning, Host: "h", PID: 2}, false)
	writeLog(t, dir, Run{ID: "r3", Command: "apply", Started: t0.Add(2 * time.Hour), Outcome: RunRunning, Host: "h", PID: 1}, false)
	writeLog(t, dir, Run{ID: "r4", Command: "apply", Started: t0.Add(3 * time.Hour), Outcome: RunRunning, Host: "other", PID: 2}, false)
	if !NeedsIngest(dir, host) {
		t.Error("NeedsIngest is false with the log of a dead run")
	}
	if err := Ingest(ctx, s, dir, host); err != nil {
		t.Fatal(err)
	}
	ended, running, err := Logs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, p := range append(ended, running...) {
		left = append(left, filepath.Base(p))
	}
	if diff := cmp.Diff([]string{"r3.running", "r4.running"}, left); diff != "" {
		t.Errorf("logs left (-want +got)\n%s", diff)
	}
	if NeedsIngest(dir, host) {
		t.Error("NeedsIngest is true with only live runs' logs")
	}

	want := map[string]map[string]string{
		"r1": {"terraform_data.u1": "up_to_date", "terraform_data.u2": "up_to_date", "terraform_data.done": "updated",
			"terraform_data.flight": "unprocessed", "terraform_data.never": "unprocessed"},
		"r2": {"terraform_data.u1": "up_to_date", "terraform_data.u2": "up_to_date", "terraform_data.done": "updated",
			"terraform_data.flight": "unknown: the provider call was under way when the process died: the object may have changed",
			"terraform_data.never":  "unprocessed: the run died before reaching it"},
		"r3": {"terraform_data.u1": "up_to_date", "terraform_data.u2": "up_to_date", "terraform_data.done": "updated",
			"terraform_data.flight": "unprocessed", "terraform_data.never": "unprocessed"},
	}
	wantRun := map[string]string{"r1": RunFailed, "r2": RunCrashed, "r3": RunRunning, "r4": RunRunning}
	for id, w := range want {
		if diff := cmp.Diff(w, outcomesOf(t, s, id)); diff != "" {
			t.Errorf("%s: wrong outcomes (-want +got)\n%s", id, diff)
		}
	}
	for id, w := range wantRun {
		r, err := s.Run(ctx, id)
		if err != nil || r == nil {
			t.Fatalf("run %s: %v %v", id, r, err)
		}
		if r.Outcome != w {
			t.Errorf("run %s: outcome %s, want %s", id, r.Outcome, w)
		}
	}
	es, err := s.Entries(ctx, "r1", EntryFilter{Address: "terraform_data.done"})
	if err != nil {
		t.Fatal(err)
	}
	wantDone := []Entry{{RunID: "r1", Seq: 3, Kind: KindChange, Address: "terraform_data.done", Type: "terraform_data", Provider: "p", Action: "update", Outcome: Updated,
		Started: t0.Add(time.Second), Ended: t0.Add(2 * time.Second),
		Changes: []AttrChange{{Path: "input", Before: json.RawMessage(`"a"`), After: json.RawMessage(`"b \u003c\u0026\u003e \u2028"`)}}}}
	if diff := cmp.Diff(wantDone, es, cmpopts.IgnoreUnexported(AttrChange{}), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("entry kept its changes through the update (-want +got)\n%s", diff)
	}

	// The live run ends: ingesting again replaces what was stored of it,
	// without doubling its up-to-date entries.
	os.Rename(filepath.Join(dir, "r3.running"), filepath.Join(dir, "r3.log"))
	if err := Ingest(ctx, s, dir, host); err != nil {
		t.Fatal(err)
	}
	r3, _ := s.Run(ctx, "r3")
	if r3.Counts[UpToDate] != 2 || r3.Counts[Unprocessed] != 2 {
		t.Errorf("r3 counts after a second ingestion: %v", r3.Counts)
	}
	if _, err := os.Stat(filepath.Join(dir, "r3.log")); !os.IsNotExist(err) {
		t.Errorf("the ended log was not removed: %v", err)
	}
}

// TestLogTorn: a log cut anywhere, or damaged, is read up to its last
// intact record.
func TestLogTorn(t *testing.T) {
	dir := t.TempDir()
	writeLog(t, dir, Run{ID: "r", Started: t0, Outcome: RunRunning, Host: "h", PID: 1}, true)
	path := filepath.Join(dir, "r.log")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	full, err := readLog(path)
	if err != nil || full.torn {
		t.Fatalf("intact log: torn=%v err=%v", full.torn, err)
	}
	// The frames' ends.
	var ends []int
	for i := 0; i < len(data); {
		n := int(uint32(data[i]) | uint32(data[i+1])<<8 | uint32(data[i+2])<<16 | uint32(data[i+3])<<24)
		i += 8 + n
		ends = append(ends, i)
	}
	for cut := 1; cut < len(data); cut += 7 {
		if err := os.WriteFile(path, data[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		rl, err := readLog(path)
		if cut < ends[0] {
			if err == nil {
				t.Errorf("cut at %d, inside the run record: no error", cut)
			}
			continue
		}
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		intact := 0
		for _, e := range ends {
			if e <= cut {
				intact++
			}
		}
		atEnd := false
		for _, e := range ends {
			atEnd = atEnd || e == cut
		}
		if rl.torn == atEnd {
			t.Errorf("cut at %d: torn=%v", cut, rl.torn)
		}
		if intact == len(ends) && !cmp.Equal(rl.entries, full.entries) {
			t.Errorf("cut at %d: entries differ", cut)
		}
	}
	// A flipped byte inside the last record: that record is dropped.
	damaged := append([]byte(nil), data...)
	damaged[len(damaged)-3] ^= 0xff
	if err := os.WriteFile(path, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	rl, err := readLog(path)
	if err != nil || !rl.torn || rl.run.Outcome != RunRunning {
		t.Errorf("damaged last record: torn=%v outcome=%s err=%v, want the run as it was before the record", rl.torn, rl.run.Outcome, err)
	}
}

// TestAppendEntry: the hand encoder writes what encoding/json writes.
func TestAppendEntry(t *testing.T) {
	tests := map[string]Entry{
		"empty":       {},
		"nil changes": {RunID: "r", Seq: 7, Kind: KindChange, Address: `a.b["k"]`, Type: "a", Provider: `provider["x/y"]`, Action: "create", Outcome: Unprocessed},
		"full": {RunID: "r", Seq: 1, Kind: KindDrift, Address: "module.m.a.b[0]", Deposed: "00ab", Type: "a", Module: "module.m", Provider: "p", Action: "replace",
			ActionReason: "replace_because_tainted", ReplacePaths: []string{"x", `tags["a"]`}, Import: "id-1", MovedFrom: "a.old", Outcome: Failed,
			Reason: "why\n\ttab", Diagnostics: "error: <html> & \"quotes\" \\ \x01 \u2029 \xff bad utf8 é", Started: t0, Ended: t0.Add(1500 * time.Millisecond),
			Changes: []AttrChange{{Path: "a", Before: json.RawMessage(`{"x": [1, 2]}`), After: nil, AfterMark: MarkSensitive}, {Path: "b", BeforeMark: MarkWriteOnly, AfterMark: MarkWriteOnly}}},
		"empty changes": {Changes: []AttrChange{}},
	}
	for name, e := range tests {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(&e)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(appendEntry(nil, &e))); diff != "" {
				t.Errorf("wrong encoding (-json.Marshal +appendEntry)\n%s", diff)
			}
		})
	}
}

func TestObjectField(t *testing.T) {
	obj := []byte(` { "id" : "x\"}" , "n":{"a":[1,{"b":"]"}]}, "e\u0041":true, "z": null } `)
	tests := map[string]struct {
		key  string
		want string
		ok   bool
	}{
		"string with escapes": {"id", `"x\"}"`, true},
		"nested":              {"n", `{"a":[1,{"b":"]"}]}`, true},
		"escaped key":         {"eA", `true`, true},
		"null":                {"z", `null`, true},
		"missing":             {"q", ``, false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := objectField(obj, tt.key)
			if ok != tt.ok || string(got) != tt.want {
				t.Errorf("objectField(%q) = %q, %v; want %q, %v", tt.key, got, ok, tt.want, tt.ok)
			}
		})
	}
	if n := objectLen(obj); n != 4 {
		t.Errorf("objectLen = %d, want 4", n)
	}
	// Malformed before the key (what follows it is not read).
	for _, bad := range []string{``, `[]`, `{"a"}`, `{"b":1,,"a":1}`, `{"a":"1}`} {
		if _, ok := objectField([]byte(bad), "a"); ok {
			t.Errorf("objectField(%q) found a value", bad)
		}
	}
	if n := objectLen([]byte(`{}`)); n != 0 {
		t.Errorf("objectLen({}) = %d", n)
	}
}

func TestContainsMarked(t *testing.T) {
	s := cty.StringVal("s")
	m := s.Mark(SensitiveMark)
	vals := []cty.Value{
		s, m, cty.NullVal(cty.String), cty.UnknownVal(cty.String), cty.DynamicVal,
		cty.ObjectVal(map[string]cty.Value{"a": s, "b": cty.ListVal([]cty.Value{s})}),
		cty.ObjectVal(map[string]cty.Value{"a": s, "b": cty.ListVal([]cty.Value{m})}),
		cty.MapVal(map[string]cty.Value{"k": m}),
		cty.TupleVal([]cty.Value{s, cty.ObjectVal(map[string]cty.Value{"x": m})}),
		cty.SetVal([]cty.Value{s}),
		cty.ListVal([]cty.Value{s}).Mark(SensitiveMark),
	}
	for _, v := range vals {
		if got, want := containsMarked(v), v.ContainsMarked(); got != want {
			t.Errorf("containsMarked(%#v) = %v, want %v", v, got, want)
		}
	}
}

func TestLogOwner(t *testing.T) {
	dir := t.TempDir()
	writeLog(t, dir, Run{ID: "r", Started: t0, Outcome: RunRunning, Host: "h", PID: 42}, false)
	host, pid, err := LogOwner(filepath.Join(dir, "r.running"))
	if err != nil || host != "h" || pid != 42 {
		t.Errorf("LogOwner = %q, %d, %v", host, pid, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.running"), []byte("xx"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LogOwner(filepath.Join(dir, "bad.running")); err == nil || !strings.Contains(err.Error(), "no run record") {
		t.Errorf("LogOwner of garbage: %v", err)
	}
}

// TestIngestCrashedShared: the completed record of a crashed run is
// handed to Host.Crashed as an ended run's log, which another directory
// ingests into the same record (what the pg backend's sharing does); a
// failing Crashed is reported without losing the record.
func TestIngestCrashedShared(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "runs")
	other := filepath.Join(t.TempDir(), "runs")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	s, s2 := openTemp(t), openTemp(t)
	var shared []string
	host := Host{Name: "h", Alive: func(pid int) bool { return pid == 1 }, Crashed: func(_ context.Context, path string) error {
		if filepath.Ext(path) != endedSuffix {
			t.Errorf("Crashed given %s, not an ended run's log", path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		shared = append(shared, filepath.Base(path))
		return os.WriteFile(filepath.Join(other, filepath.Base(path)), data, 0o600)
	}}
	writeLog(t, dir, Run{ID: "r1", Command: "apply", Started: t0, Outcome: RunRunning, Host: "h", PID: 1}, true)
	writeLog(t, dir, Run{ID: "r2", Command: "apply", Started: t0.Add(time.Hour), Outcome: RunRunning, Host: "h", PID: 2}, false)
	writeLog(t, dir, Run{ID: "r3", Command: "apply", Started: t0.Add(2 * time.Hour), Outcome: RunRunning, Host: "h", PID: 1}, false)
	if err := Ingest(ctx, s, dir, host); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"r2.log"}, shared); diff != "" {
		t.Errorf("logs given to Crashed (-want +got)\n%s", diff)
	}
	if err := Ingest(ctx, s2, other, Host{Name: "elsewhere", Alive: func(int) bool { return false }}); err != nil {
		t.Fatal(err)
	}
	r, err := s2.Run(ctx, "r2")
	if err != nil || r == nil {
		t.Fatalf("the shared crashed run: %v %v", r, err)
	}
	if r.Outcome != RunCrashed {
		t.Errorf("shared run outcome %s, want crashed", r.Outcome)
	}
	if diff := cmp.Diff(outcomesOf(t, s, "r2"), outcomesOf(t, s2, "r2")); diff != "" {
		t.Errorf("the shared record differs from the local one (-local +shared)\n%s", diff)
	}
	es, err := s2.Entries(ctx, "r2", EntryFilter{Address: "terraform_data.done"})
	if err != nil || len(es) != 1 || len(es[0].Changes) != 1 || string(es[0].Changes[0].After) != `"b \u003c\u0026\u003e \u2028"` {
		t.Errorf("the shared record lost the entry's changes: %+v %v", es, err)
	}
	if ended, running, _ := Logs(dir); len(ended) != 0 || len(running) != 1 {
		t.Errorf("logs left: %v %v, want r3's only", ended, running)
	}

	// Sharing fails: Ingest says so, the record is kept, the log goes.
	writeLog(t, dir, Run{ID: "r4", Command: "apply", Started: t0.Add(3 * time.Hour), Outcome: RunRunning, Host: "h", PID: 2}, false)
	host.Crashed = func(context.Context, string) error { return os.ErrPermission }
	if err := Ingest(ctx, s, dir, host); err == nil || !strings.Contains(err.Error(), "sharing the crashed run") {
		t.Errorf("Ingest with a failing Crashed: %v", err)
	}
	if r, _ := s.Run(ctx, "r4"); r == nil || r.Outcome != RunCrashed {
		t.Errorf("r4 after a failed share: %+v", r)
	}
	if ended, running, _ := Logs(dir); len(ended) != 0 || len(running) != 1 {
		t.Errorf("logs left after a failed share: %v %v", ended, running)
	}
}
