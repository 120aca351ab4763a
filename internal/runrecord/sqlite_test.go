package runrecord

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func openTemp(t *testing.T) Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), ".terraform", "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var t0 = time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)

// seed writes three runs: two applies and a plan.
func seed(t *testing.T, s Store) {
	t.Helper()
	var b Batch
	for i, cmd := range []string{"apply", "plan", "apply"} {
		id := []string{"r1", "r2", "r3"}[i]
		run := Run{ID: id, Command: cmd, Started: t0.Add(time.Duration(i) * time.Hour), Outcome: RunFailed, Noop: cmd == "plan", Host: "h", PID: 1}
		run.Ended = run.Started.Add(time.Minute)
		b.Runs = append(b.Runs, run)
		before, after := []byte(`"v`+string(rune('0'+i))+`"`), []byte(`"v`+string(rune('1'+i))+`"`)
		e := Entry{RunID: id, Seq: 1, Kind: KindChange, Address: "terraform_data.a", Type: "terraform_data", Action: "update", Outcome: Updated,
			Changes: []AttrChange{{Path: "input", Before: before, After: after}}}
		if cmd == "plan" {
			e.Outcome, e.Reason = Skipped, "plan"
		}
		b.Entries = append(b.Entries, e,
			Entry{RunID: id, Seq: 2, Kind: KindChange, Address: `module.m.local_file.f["x"]`, Module: "module.m", Type: "local_file", Action: "create", Outcome: Failed, Diagnostics: "boom"},
			Entry{RunID: id, Seq: 3, Kind: KindDrift, Address: "terraform_data.a", Type: "terraform_data", Action: "update", Outcome: Updated,
				Changes: []AttrChange{{Path: "output", BeforeMark: MarkSensitive, AfterMark: MarkSensitive}}})
	}
	write(t, s, b)
}

// write stores b, as Ingest does with a run log.
func write(t *testing.T, s Store, b Batch) {
	t.Helper()
	if err := s.Write(context.Background(), b); err != nil {
		t.Fatal(err)
	}
}

func TestStoreRuns(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	seed(t, s)
	tests := map[string]struct {
		f    RunFilter
		want []string
	}{
		"all, latest first": {RunFilter{}, []string{"r3", "r2", "r1"}},
		"limit":             {RunFilter{Limit: 1}, []string{"r3"}},
		"command":           {RunFilter{Command: "apply"}, []string{"r3", "r1"}},
		"since":             {RunFilter{Since: t0.Add(90 * time.Minute)}, []string{"r3"}},
		"outcome":           {RunFilter{Outcome: RunSucceeded}, nil},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			runs, err := s.Runs(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range runs {
				got = append(got, r.ID)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
		})
	}
	r, err := s.Run(ctx, "")
	if err != nil || r == nil || r.ID != "r3" {
		t.Fatalf("latest run = %+v, %v", r, err)
	}
	if want := (map[Outcome]int{Updated: 1, Failed: 1}); !cmp.Equal(want, r.Counts) {
		t.Errorf("counts = %v, want %v", r.Counts, want)
	}
	if !r.Ended.Equal(t0.Add(2*time.Hour + time.Minute)) {
		t.Errorf("ended = %v", r.Ended)
	}
	if _, err := s.Run(ctx, "r"); err != ErrAmbiguous {
		t.Errorf("prefix r: err = %v, want ErrAmbiguous", err)
	}
	if r, _ := s.Run(ctx, "nope"); r != nil {
		t.Errorf("unknown run found: %+v", r)
	}
}

func TestStoreEntries(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	seed(t, s)
	tests := map[string]struct {
		f    EntryFilter
		want []int
	}{
		"all":          {EntryFilter{}, []int{1, 2, 3}},
		"failed":       {EntryFilter{Outcomes: []Outcome{Failed}}, []int{2}},
		"two outcomes": {EntryFilter{Outcomes: []Outcome{Failed, Updated}}, []int{1, 2, 3}},
		"type":         {EntryFilter{Type: "local_file"}, []int{2}},
		"module":       {EntryFilter{Module: "module.m"}, []int{2}},
		"glob":         {EntryFilter{Address: "*local_file.f[*]"}, []int{2}},
		"kind":         {EntryFilter{Kind: KindDrift}, []int{3}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			es, err := s.Entries(ctx, "r1", tt.f)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, e := range es {
				got = append(got, e.Seq)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
		})
	}
	es, _ := s.Entries(ctx, "r1", EntryFilter{})
	want := Entry{RunID: "r1", Seq: 1, Kind: KindChange, Address: "terraform_data.a", Type: "terraform_data", Action: "update", Outcome: Updated,
		Changes: []AttrChange{{Path: "input", Before: []byte(`"v0"`), After: []byte(`"v1"`)}}}
	if diff := cmp.Diff(want, es[0], cmpopts.IgnoreUnexported(AttrChange{}), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("wrong entry (-want +got)\n%s", diff)
	}
}

func TestStoreHistory(t *testing.T) {
	s := openTemp(t)
	seed(t, s)
	tests := map[string]struct {
		attr string
		want []string // run:kind:path:before->after
	}{
		"resource":  {"", []string{"r1:drift:output:sensitive->sensitive", `r1:change:input:"v0"->"v1"`, "r3:drift:output:sensitive->sensitive", `r3:change:input:"v2"->"v3"`}},
		"attribute": {"input", []string{`r1:change:input:"v0"->"v1"`, `r3:change:input:"v2"->"v3"`}},
		"none":      {"inp", nil},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			hs, err := s.History(context.Background(), "terraform_data.a", tt.attr)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hs {
				b, a := string(h.Before)+h.BeforeMark, string(h.After)+h.AfterMark
				got = append(got, h.RunID+":"+h.Kind+":"+h.Path+":"+b+"->"+a)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
		})
	}
}

func TestStorePruneAndRecover(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	seed(t, s)
	write(t, s, Batch{
		Runs: []Run{
			{ID: "r4", Command: "apply", Started: t0.Add(5 * time.Hour), Outcome: RunRunning, Host: "h", PID: 99},
			{ID: "r5", Command: "apply", Started: t0.Add(6 * time.Hour), Outcome: RunRunning, Host: "other", PID: 99},
		},
		Entries: []Entry{
			{RunID: "r4", Seq: 1, Kind: KindChange, Address: "a.b", Outcome: Unprocessed, Started: t0.Add(5 * time.Hour)},
			{RunID: "r4", Seq: 2, Kind: KindChange, Address: "a.c", Outcome: Unprocessed},
		},
	})
	if err := s.Recover(ctx, "h", func(pid int) bool { return pid != 99 }); err != nil {
		t.Fatal(err)
	}
	r4, _ := s.Run(ctx, "r4")
	r5, _ := s.Run(ctx, "r5")
	if r4.Outcome != RunCrashed || r5.Outcome != RunRunning {
		t.Errorf("outcomes after recover: r4 %s (want crashed), r5 %s (want running: another host)", r4.Outcome, r5.Outcome)
	}
	es, _ := s.Entries(ctx, "r4", EntryFilter{})
	if es[0].Outcome != Unknown || es[1].Outcome != Unprocessed {
		t.Errorf("entry outcomes after recover: %s, %s; want unknown, unprocessed", es[0].Outcome, es[1].Outcome)
	}

	n, err := s.Prune(ctx, Retention{Keep: 2})
	if err != nil || n != 3 {
		t.Fatalf("prune keep 2: %d, %v; want 3", n, err)
	}
	if es, _ := s.Entries(ctx, "r1", EntryFilter{}); len(es) != 0 {
		t.Errorf("entries of a pruned run remain: %d", len(es))
	}
	n, _ = s.Prune(ctx, Retention{MaxAge: time.Since(t0.Add(330 * time.Minute))})
	runs, _ := s.Runs(ctx, RunFilter{})
	if n != 1 || len(runs) != 1 || runs[0].ID != "r5" {
		t.Errorf("prune by age removed %d, left %v", n, runs)
	}
}

// TestOpenDropsDevelopmentSchema: a database of the unreleased schema 1
// is created again; one of a newer strata is refused.
func TestOpenDropsDevelopmentSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db := s.(*sqliteStore).db
	if _, err := db.Exec(`DROP TABLE entries; CREATE TABLE entries (run_id TEXT); CREATE TABLE changes (x TEXT); PRAGMA user_version = 1`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	seed(t, s)
	if es, err := s.Entries(context.Background(), "r1", EntryFilter{}); err != nil || len(es) != 3 {
		t.Errorf("entries after recreating the schema: %d, %v", len(es), err)
	}
	if _, err := s.(*sqliteStore).db.Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "newer strata") {
		t.Errorf("opening a newer schema: %v", err)
	}
}

// TestStoreUpToDate: up-to-date entries, stored compactly, come back as
// entries in order with the others, counted and filtered like them.
func TestStoreUpToDate(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	seed(t, s)
	write(t, s, Batch{UpToDate: []Entry{
		{RunID: "r1", Seq: 4, Address: "module.m.terraform_data.u", Type: "terraform_data", Module: "module.m", Provider: "p"},
		{RunID: "r1", Seq: 5, Address: "local_file.v", Type: "local_file", Provider: "p"},
	}})
	r, _ := s.Run(ctx, "r1")
	if want := (map[Outcome]int{Updated: 1, Failed: 1, UpToDate: 2}); !cmp.Equal(want, r.Counts) {
		t.Errorf("counts = %v, want %v", r.Counts, want)
	}
	tests := map[string]struct {
		f    EntryFilter
		want []int
	}{
		"all":        {EntryFilter{}, []int{1, 2, 3, 4, 5}},
		"up_to_date": {EntryFilter{Outcomes: []Outcome{UpToDate}}, []int{4, 5}},
		"type":       {EntryFilter{Type: "local_file"}, []int{2, 5}},
		"module":     {EntryFilter{Module: "module.m"}, []int{2, 4}},
		"glob":       {EntryFilter{Address: "*.u"}, []int{4}},
		"kind":       {EntryFilter{Kind: KindDrift}, []int{3}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			es, err := s.Entries(ctx, "r1", tt.f)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, e := range es {
				got = append(got, e.Seq)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
		})
	}
	es, _ := s.Entries(ctx, "r1", EntryFilter{Outcomes: []Outcome{UpToDate}})
	want := Entry{RunID: "r1", Seq: 4, Kind: KindChange, Address: "module.m.terraform_data.u", Type: "terraform_data", Module: "module.m", Provider: "p", Action: "no-op", Outcome: UpToDate}
	if diff := cmp.Diff(want, es[0], cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("wrong entry (-want +got)\n%s", diff)
	}
	if n, _ := s.Prune(ctx, Retention{Keep: 1}); n != 2 {
		t.Errorf("pruned %d runs, want 2", n)
	}
	if es, _ := s.Entries(ctx, "r1", EntryFilter{}); len(es) != 0 {
		t.Errorf("entries of a pruned run remain: %v", es)
	}
}

// TestStoreDelete deletes one run with its entries and leaves the others.
func TestStoreDelete(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	seed(t, s)
	if err := s.Delete(ctx, "r2"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "no-such-run"); err != nil {
		t.Fatalf("deleting a missing run: %v", err)
	}
	runs, _ := s.Runs(ctx, RunFilter{})
	var ids []string
	for _, r := range runs {
		ids = append(ids, r.ID)
	}
	if diff := cmp.Diff([]string{"r3", "r1"}, ids); diff != "" {
		t.Fatalf("wrong runs left (-want +got)\n%s", diff)
	}
	if es, _ := s.Entries(ctx, "r2", EntryFilter{}); len(es) != 0 {
		t.Errorf("entries of the deleted run remain: %d", len(es))
	}
	if es, _ := s.Entries(ctx, "r1", EntryFilter{}); len(es) != 3 {
		t.Errorf("entries of r1: %d, want 3", len(es))
	}
}
