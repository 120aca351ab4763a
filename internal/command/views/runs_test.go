package views

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/runrecord"
)

var updateRunsGolden = flag.Bool("update-runs", false, "rewrite testdata/runs/*.golden from the output")

// runsFixture is a small history: an apply that failed part-way (each
// outcome once), a plan, and a refresh that found drift.
func runsFixture(t *testing.T) ([]runrecord.Run, []runrecord.Entry, []runrecord.QueryItem, []runrecord.HistoryItem) {
	t.Helper()
	// The human output shows local times: the tests fix the zone.
	old := time.Local
	time.Local = time.FixedZone("CET", 3600)
	t.Cleanup(func() { time.Local = old })
	t0 := time.Date(2026, 11, 26, 9, 30, 0, 0, time.UTC)
	apply := runrecord.Run{ID: "20261126T093000Z-1a2b", Command: "apply", Args: []string{"apply", "-auto-approve"}, Started: t0, Ended: t0.Add(2345 * time.Millisecond),
		Outcome: runrecord.RunFailed, User: "ana", Host: "ci-1", Version: "0.1.0", Workspace: "default", Backend: "pg", LineageBefore: "l-1", LineageAfter: "l-1",
		SerialBefore: 4, SerialAfter: 5, Counts: map[runrecord.Outcome]int{runrecord.Updated: 2, runrecord.Failed: 1, runrecord.Skipped: 1, runrecord.Unprocessed: 1, runrecord.Unknown: 1, runrecord.UpToDate: 12}}
	plan := runrecord.Run{ID: "20261126T100000Z-3c4d", Command: "plan", Started: t0.Add(30 * time.Minute), Ended: t0.Add(30*time.Minute + 420*time.Millisecond),
		Outcome: runrecord.RunSucceeded, Noop: true, Counts: map[runrecord.Outcome]int{runrecord.Skipped: 3}}
	crashed := runrecord.Run{ID: "20261126T110000Z-5e6f", Command: "apply", Started: t0.Add(90 * time.Minute), Outcome: runrecord.RunCrashed,
		Counts: map[runrecord.Outcome]int{runrecord.Updated: 20, runrecord.Unknown: 1, runrecord.Unprocessed: 19}}
	runs := []runrecord.Run{crashed, plan, apply}
	ch := func(path, before, after string) runrecord.AttrChange {
		c := runrecord.AttrChange{Path: path}
		if before != "" {
			c.Before = json.RawMessage(before)
		}
		if after != "" {
			c.After = json.RawMessage(after)
		}
		return c
	}
	e := func(seq int, addr, action string, o runrecord.Outcome) runrecord.Entry {
		return runrecord.Entry{RunID: apply.ID, Seq: seq, Kind: runrecord.KindChange, Address: addr, Type: "local_file", Provider: "registry.terraform.io/hashicorp/local", Action: action, Outcome: o}
	}
	drift := runrecord.Entry{RunID: apply.ID, Seq: 1, Kind: runrecord.KindDrift, Address: "local_file.b", Type: "local_file", Changes: []runrecord.AttrChange{ch("content", `"b"`, `"b edited"`)}}
	updated := e(2, "local_file.a", "update", runrecord.Updated)
	updated.Started, updated.Ended = t0.Add(time.Second), t0.Add(1250*time.Millisecond)
	updated.Changes = []runrecord.AttrChange{ch("content", `"one"`, `"two"`), {Path: "password", BeforeMark: runrecord.MarkSensitive, AfterMark: runrecord.MarkSensitive},
		{Path: "id", Before: json.RawMessage(`"x"`), AfterMark: runrecord.MarkUnknown}}
	replaced := e(3, "local_file.r", "replace", runrecord.Updated)
	replaced.ActionReason, replaced.ReplacePaths = "replace_because_cannot_update", []string{"filename"}
	replaced.Started, replaced.Ended = t0.Add(time.Second), t0.Add(3*time.Second)
	replaced.Changes = []runrecord.AttrChange{ch("filename", `"r1"`, `"r2"`)}
	failed := e(4, "module.m.local_file.f", "create", runrecord.Failed)
	failed.Module, failed.Diagnostics = "module.m", "Create failed: permission denied\nopen /root/f: permission denied"
	failed.Changes = []runrecord.AttrChange{ch("filename", "", `"/root/f"`)}
	skipped := e(5, "local_file.dep", "create", runrecord.Skipped)
	skipped.Reason = "not applied because something it depends on failed"
	unknown := e(6, "local_file.slow", "update", runrecord.Unknown)
	unknown.Reason = "the provider call was under way when the process died: the object may have changed"
	unprocessed := e(7, "local_file.late[\"k\"]", "delete", runrecord.Unprocessed)
	unprocessed.Deposed, unprocessed.Reason = "00000001", "the run was interrupted before reaching it"
	moved := e(8, "local_file.new", "no-op", runrecord.UpToDate)
	moved.MovedFrom, moved.Import = "local_file.old", "/tmp/x"
	entries := []runrecord.Entry{drift, updated, replaced, failed, skipped, unknown, unprocessed, moved}
	var items []runrecord.QueryItem
	for _, en := range entries {
		items = append(items, runrecord.QueryItem{Entry: en, Command: apply.Command, RunStarted: apply.Started, RunOutcome: apply.Outcome, User: apply.User})
	}
	long := e(9, "local_file.wide", "update", runrecord.Updated)
	for _, p := range []string{"content", "content_base64", "directory_permission", "file_permission", "filename", "sensitive_content"} {
		long.Changes = append(long.Changes, ch(p, `"a"`, `"b"`))
	}
	items = append(items, runrecord.QueryItem{Entry: long, Command: "apply", RunStarted: apply.Started, RunOutcome: apply.Outcome})
	history := []runrecord.HistoryItem{
		{RunID: apply.ID, Command: "apply", Time: t0.Add(time.Second), User: "ana", Kind: runrecord.KindChange, Address: "local_file.a", Action: "create", Outcome: runrecord.Updated, AttrChange: ch("content", "", `"one"`)},
		{RunID: apply.ID, Command: "refresh", Time: t0.Add(time.Hour), User: "ana", Kind: runrecord.KindDrift, Address: "local_file.a", AttrChange: ch("content", `"one"`, `"one!"`)},
		{RunID: plan.ID, Command: "apply", Time: t0.Add(2 * time.Hour), User: "bo", Kind: runrecord.KindChange, Address: "local_file.a", Action: "update", Outcome: runrecord.Updated,
			AttrChange: runrecord.AttrChange{Path: "content", Before: json.RawMessage(`"one!"`), AfterMark: runrecord.MarkSensitive}},
	}
	return runs, entries, items, history
}

// checkRunsGolden compares got with testdata/runs/name.golden.
func checkRunsGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "runs", name+".golden")
	if *updateRunsGolden {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run TestRunsHuman -update-runs writes it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got)\n%s", name, diff)
	}
}

// TestRunsHumanGolden: the human tables and run pages of runs list,
// runs show, runs query and history.
func TestRunsHumanGolden(t *testing.T) {
	runs, entries, items, history := runsFixture(t)
	for _, tc := range []struct {
		name    string
		noColor bool
		show    func(Runs) error
	}{
		{"list", true, func(v Runs) error { return v.List(runs) }},
		{"list_empty", true, func(v Runs) error { return v.List(nil) }},
		{"show", true, func(v Runs) error { return v.Show(&runs[2], entries) }},
		{"show_color", false, func(v Runs) error { return v.Show(&runs[2], entries[1:4]) }},
		{"show_noop_none", true, func(v Runs) error { return v.Show(&runs[1], nil) }},
		{"show_crashed", true, func(v Runs) error { return v.Show(&runs[0], entries[5:6]) }},
		{"query", true, func(v Runs) error { return v.Query(items, 0) }},
		{"query_limited", true, func(v Runs) error { return v.Query(items[:3], 3) }},
		{"query_empty", true, func(v Runs) error { return v.Query(nil, 1000) }},
		{"history", true, func(v Runs) error { return v.History("local_file.a", "", history) }},
		{"history_empty", true, func(v Runs) error { return v.History("local_file.a", "content", nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			v := NewRuns(false, &View{Stdout: &out, Stderr: &out, NoColor: tc.noColor})
			if err := tc.show(v); err != nil {
				t.Fatal(err)
			}
			checkRunsGolden(t, tc.name, out.String())
		})
	}
}

// TestRunsJSON: the -json documents keep the field names documented in
// website/docs/runs.md, and empty lists are [] rather than null.
func TestRunsJSON(t *testing.T) {
	runs, entries, items, history := runsFixture(t)
	for _, tc := range []struct {
		name string
		show func(Runs) error
		keys []string
		// list is the document's list that must be [] when empty.
		list  string
		empty func(Runs) error
	}{
		{"list", func(v Runs) error { return v.List(runs) }, []string{"format_version", "runs"}, "runs", func(v Runs) error { return v.List(nil) }},
		{"show", func(v Runs) error { return v.Show(&runs[2], entries) }, []string{"entries", "format_version", "run"}, "entries", func(v Runs) error { return v.Show(&runs[2], nil) }},
		{"query", func(v Runs) error { return v.Query(items, 0) }, []string{"entries", "format_version"}, "entries", func(v Runs) error { return v.Query(nil, 0) }},
		{"history", func(v Runs) error { return v.History("local_file.a", "content", history) }, []string{"address", "attribute", "changes", "format_version"}, "changes",
			func(v Runs) error { return v.History("local_file.a", "", nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := tc.show(NewRuns(true, &View{Stdout: &out})); err != nil {
				t.Fatal(err)
			}
			var doc map[string]json.RawMessage
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			var keys []string
			for k := range doc {
				keys = append(keys, k)
			}
			if diff := cmp.Diff(tc.keys, sortedStrings(keys)); diff != "" {
				t.Errorf("keys (-want +got)\n%s", diff)
			}
			if string(doc["format_version"]) != `"1.0"` {
				t.Errorf("format_version %s", doc["format_version"])
			}
			out.Reset()
			if err := tc.empty(NewRuns(true, &View{Stdout: &out})); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), `"`+tc.list+`": []`) {
				t.Errorf("empty %s is not []:\n%s", tc.list, out.String())
			}
		})
	}
	// The fields of a run and of an entry, as documented.
	var out bytes.Buffer
	if err := NewRuns(true, &View{Stdout: &out}).Show(&runs[2], entries[1:2]); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Run     map[string]json.RawMessage   `json:"run"`
		Entries []map[string]json.RawMessage `json:"entries"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "command", "args", "started_at", "ended_at", "outcome", "noop", "user", "host", "pid", "strata_version", "workspace",
		"backend", "config_hash", "lineage_before", "serial_before", "lineage_after", "serial_after", "counts"} {
		if _, ok := doc.Run[k]; !ok {
			t.Errorf("run has no %q: %s", k, out.String())
		}
	}
	for _, k := range []string{"run_id", "seq", "kind", "address", "type", "provider", "action", "outcome", "started_at", "ended_at", "changes"} {
		if _, ok := doc.Entries[0][k]; !ok {
			t.Errorf("entry has no %q: %s", k, out.String())
		}
	}
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
