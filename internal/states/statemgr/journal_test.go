package statemgr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// startApply sets up a state file holding the given objects (serial 1),
// reads it with a new manager and begins a journal on it, as apply does.
func startApply(t *testing.T, path string, objects ...string) (*Local, *states.State, *Journal) {
	t.Helper()
	if len(objects) > 0 {
		seed := NewLocal(path, "", "", testVersion)
		s, _ := mustRead(t, seed)
		for _, a := range objects {
			s.SetObject(addr(t, a), obj(a), builtin)
		}
		mustWrite(t, seed, s)
	}
	m := NewLocal(path, "", "", testVersion)
	s, _ := mustRead(t, m)
	j, err := m.BeginJournal(s)
	if err != nil {
		t.Fatalf("BeginJournal: %s", err)
	}
	return m, s, j
}

// crash drops a journal as a killed process would: its records are on
// disk, nothing else happens.
func crash(j *Journal) { j.f.Close() }

func journalLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(journalPath(path))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func mustNil(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestJournalRecovery(t *testing.T) {
	_, path := tempState(t)
	_, base, j := startApply(t, path, "terraform_data.keep", "terraform_data.gone", "terraform_data.replaced")
	before, _ := os.ReadFile(path)

	created := obj("created")
	created.SensitivePaths = []cty.Path{cty.GetAttrPath("input")}
	created.Dependencies = []addrs.AbsResource{addr(t, "terraform_data.keep").ContainingResource()}
	created.Private = []byte("private")

	mustNil(t, j.Intent(addr(t, "terraform_data.new[0]"), "", "create"))
	mustNil(t, j.Set(addr(t, "terraform_data.new[0]"), "", created, builtin))
	// A key the record's JSON must escape.
	mustNil(t, j.Set(addr(t, `terraform_data.odd["quo\"te \\ ✓<&>"]`), "", obj("odd"), builtin))
	mustNil(t, j.Intent(addr(t, "terraform_data.gone"), "", "delete"))
	mustNil(t, j.Set(addr(t, "terraform_data.gone"), "", nil, builtin))
	// create_before_destroy: the old object is deposed, the new one
	// created, the deposed one deleted.
	mustNil(t, j.Set(addr(t, "terraform_data.replaced"), "abcd1234", obj("terraform_data.replaced"), builtin))
	mustNil(t, j.Set(addr(t, "terraform_data.replaced"), "", obj("replacement"), builtin))
	mustNil(t, j.Intent(addr(t, "terraform_data.replaced"), "abcd1234", "delete"))
	mustNil(t, j.Set(addr(t, "terraform_data.replaced"), "abcd1234", nil, builtin))
	mustNil(t, j.SetOutput("out", stringOutput("v")))
	mustNil(t, j.SetOutput("obj", &states.OutputValue{Value: cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(1)}), Sensitive: true}))
	// In flight when the process died.
	mustNil(t, j.Intent(addr(t, `module.m["x"].terraform_data.slow`), "", "create"))
	mustNil(t, j.Intent(addr(t, "terraform_data.keep"), "", "update"))
	crash(j)

	if now, _ := os.ReadFile(path); !bytes.Equal(now, before) {
		t.Fatal("the journal changed the state file")
	}

	m := NewLocal(path, "", "", testVersion)
	s, pending := mustRead(t, m)
	wantPending := []Pending{
		{Addr: `module.m["x"].terraform_data.slow`, Action: "create"},
		{Addr: "terraform_data.keep", Action: "update"},
	}
	if diff := cmp.Diff(wantPending, pending); diff != "" {
		t.Errorf("pending (-want +got):\n%s", diff)
	}
	wantIDs := map[string]string{
		"terraform_data.keep":                   "terraform_data.keep",
		"terraform_data.new[0]":                 "created",
		"terraform_data.replaced":               "replacement",
		`terraform_data.odd["quo\"te \\ ✓<&>"]`: "odd",
	}
	if diff := cmp.Diff(wantIDs, ids(t, s)); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
	if s.Serial != 2 || s.Lineage != base.Lineage {
		t.Errorf("serial %d lineage %q, want 2 %q", s.Serial, s.Lineage, base.Lineage)
	}
	got := s.Object(addr(t, "terraform_data.new[0]"))
	if diff := cmp.Diff(created, got, cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }), cmp.Comparer(func(a, b cty.PathStep) bool {
		return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b)
	})); diff != "" {
		t.Errorf("recovered object (-want +got):\n%s", diff)
	}
	if r := s.Resource(addr(t, "terraform_data.replaced").ContainingResource()); len(r.Instances[addrs.NoKey].Deposed) != 0 {
		t.Errorf("deleted deposed object recovered: %v", r.Instances[addrs.NoKey].Deposed)
	}
	if o := s.Outputs["out"]; o == nil || !o.Value.RawEquals(cty.StringVal("v")) {
		t.Errorf("output out: %#v", o)
	}
	if o := s.Outputs["obj"]; o == nil || !o.Sensitive {
		t.Errorf("output obj: %#v", o)
	}

	// The recovered state is on disk, the journal is gone and the old
	// snapshot is the backup.
	disk := readState(t, path)
	if disk.Serial != 2 || len(disk.Outputs) != 2 {
		t.Errorf("on disk: serial %d outputs %v", disk.Serial, disk.Outputs)
	}
	if diff := cmp.Diff(wantIDs, ids(t, disk)); diff != "" {
		t.Errorf("on disk (-want +got):\n%s", diff)
	}
	if exists(journalPath(path)) {
		t.Error("journal not removed")
	}
	if b, _ := os.ReadFile(path + ".backup"); !bytes.Equal(b, before) {
		t.Error("backup does not hold the snapshot the journal extended")
	}

	// Nothing is left to recover.
	s2, pending2 := mustRead(t, NewLocal(path, "", "", testVersion))
	if pending2 != nil || s2.Serial != 2 {
		t.Errorf("second Read: serial %d pending %v", s2.Serial, pending2)
	}
}

func TestJournalFreshState(t *testing.T) {
	dir, path := tempState(t)
	m, base, j := startApply(t, path)
	if exists(path) {
		t.Fatal("state file created")
	}
	mustNil(t, j.Set(addr(t, "terraform_data.a"), "", obj("a"), builtin))
	crash(j)
	_ = m

	s, pending := mustRead(t, NewLocal(path, "", "", testVersion))
	if pending != nil {
		t.Errorf("pending %v", pending)
	}
	if s.Lineage != base.Lineage || s.Serial != 1 {
		t.Errorf("lineage %q (want the journal's %q), serial %d", s.Lineage, base.Lineage, s.Serial)
	}
	if ids(t, s)["terraform_data.a"] != "a" {
		t.Errorf("objects: %v", ids(t, s))
	}
	if diff := cmp.Diff([]string{"terraform.tfstate"}, dirFiles(t, dir)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

func TestJournalPendingOnly(t *testing.T) {
	_, path := tempState(t)
	_, _, j := startApply(t, path, "terraform_data.a")
	mustNil(t, j.Intent(addr(t, "terraform_data.a"), "", "delete"))
	crash(j)
	old := ageFile(t, path)

	s, pending := mustRead(t, NewLocal(path, "", "", testVersion))
	if diff := cmp.Diff([]Pending{{Addr: "terraform_data.a", Action: "delete"}}, pending); diff != "" {
		t.Errorf("pending (-want +got):\n%s", diff)
	}
	if s.Serial != 1 || !mtime(t, path).Equal(old) {
		t.Errorf("state rewritten without changes (serial %d)", s.Serial)
	}
	if exists(journalPath(path)) {
		t.Error("journal not removed")
	}
}

func TestJournalTornLastLine(t *testing.T) {
	_, path := tempState(t)
	_, _, j := startApply(t, path, "terraform_data.a")
	mustNil(t, j.Set(addr(t, "terraform_data.b"), "", obj("b"), builtin))
	crash(j)
	// The process died in the middle of writing the next record.
	full, _ := json.Marshal(journalRecord{Op: "set", Addr: "terraform_data.c", Provider: builtin.String(), Object: json.RawMessage(`{"schema_version":0,"attributes":{"id":"c"}}`)})
	f, err := os.OpenFile(journalPath(path), os.O_APPEND|os.O_WRONLY, 0)
	mustNil(t, err)
	_, err = f.Write(full[:len(full)/2])
	mustNil(t, err)
	f.Close()

	s, _ := mustRead(t, NewLocal(path, "", "", testVersion))
	want := map[string]string{"terraform_data.a": "terraform_data.a", "terraform_data.b": "b"}
	if diff := cmp.Diff(want, ids(t, s)); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
	if s.Serial != 2 || exists(journalPath(path)) {
		t.Errorf("serial %d, journal exists %v", s.Serial, exists(journalPath(path)))
	}
}

func TestJournalStale(t *testing.T) {
	tests := map[string]func(t *testing.T, path string, j *Journal){
		// The snapshot was written (serial 2) but the process died before
		// removing the journal.
		"newer snapshot": func(t *testing.T, path string, j *Journal) {
			m := NewLocal(path, "", "", testVersion)
			s, _ := mustRead(t, NewLocal(path, "", "", testVersion))
			_ = m
			s.Outputs["written"] = stringOutput("x")
			w := NewLocal(path, "", "", testVersion)
			mustRead(t, w)
			mustWrite(t, w, s)
		},
		"other lineage": func(t *testing.T, path string, j *Journal) {
			s := readState(t, path)
			s.Lineage = "another"
			s.Outputs["written"] = stringOutput("x")
			data := mustEncode(t, s)
			mustNil(t, os.WriteFile(path, data, 0o600))
		},
	}
	for name, setup := range tests {
		t.Run(name, func(t *testing.T) {
			_, path := tempState(t)
			_, _, j := startApply(t, path, "terraform_data.a")
			mustNil(t, j.Set(addr(t, "terraform_data.journaled"), "", obj("j"), builtin))
			crash(j)
			// Move the journal aside while the snapshot changes.
			mustNil(t, os.Rename(journalPath(path), path+".saved"))
			setup(t, path, j)
			mustNil(t, os.Rename(path+".saved", journalPath(path)))
			snapshot, _ := os.ReadFile(path)

			s, pending := mustRead(t, NewLocal(path, "", "", testVersion))
			if pending != nil {
				t.Errorf("pending %v", pending)
			}
			if _, ok := ids(t, s)["terraform_data.journaled"]; ok {
				t.Error("stale journal replayed")
			}
			if s.Outputs["written"] == nil {
				t.Error("snapshot not read")
			}
			if now, _ := os.ReadFile(path); !bytes.Equal(now, snapshot) {
				t.Error("snapshot rewritten")
			}
			if exists(journalPath(path)) {
				t.Error("stale journal not removed")
			}
		})
	}
}

func mustEncode(t *testing.T, s *states.State) []byte {
	t.Helper()
	m := NewLocal(t.TempDir()+"/x", "", "-", testVersion)
	mustWrite(t, m, s)
	data, err := os.ReadFile(m.OutPath)
	mustNil(t, err)
	return data
}

func TestJournalUnreadable(t *testing.T) {
	tests := map[string]string{
		"garbage header": "not json\n",
		"wrong version":  `{"journal":2,"lineage":"l","serial":1}` + "\n",
		"torn record":    `{"journal":1,"lin` + "\n" + `{"op":"intent"}` + "\n",
	}
	for name, content := range tests {
		t.Run(name, func(t *testing.T) {
			_, path := tempState(t)
			_, _, j := startApply(t, path, "terraform_data.a")
			crash(j)
			mustNil(t, os.WriteFile(journalPath(path), []byte(content), 0o600))
			_, _, err := NewLocal(path, "", "", testVersion).Read()
			if err == nil || !strings.Contains(err.Error(), "journal") {
				t.Fatalf("got %v", err)
			}
			if !exists(journalPath(path)) {
				t.Error("unreadable journal removed")
			}
		})
	}
	t.Run("torn header", func(t *testing.T) {
		// The process died while BeginJournal wrote the header.
		_, path := tempState(t)
		_, _, j := startApply(t, path, "terraform_data.a")
		crash(j)
		mustNil(t, os.WriteFile(journalPath(path), []byte(`{"journal":1,"lin`), 0o600))
		s, pending := mustRead(t, NewLocal(path, "", "", testVersion))
		if pending != nil || s.Serial != 1 || exists(journalPath(path)) {
			t.Fatalf("serial %d pending %v journal %v", s.Serial, pending, exists(journalPath(path)))
		}
	})
	t.Run("empty journal", func(t *testing.T) {
		_, path := tempState(t)
		_, _, j := startApply(t, path, "terraform_data.a")
		crash(j)
		mustNil(t, os.WriteFile(journalPath(path), nil, 0o600))
		s, pending := mustRead(t, NewLocal(path, "", "", testVersion))
		if pending != nil || s.Serial != 1 || exists(journalPath(path)) {
			t.Fatalf("serial %d pending %v journal %v", s.Serial, pending, exists(journalPath(path)))
		}
	})
}

func TestJournalInvalidRecords(t *testing.T) {
	tests := map[string]struct {
		record  string
		wantErr string
	}{
		"bad address":  {record: `{"op":"set","addr":"nope","provider":"provider[\"terraform.io/builtin/terraform\"]","object":{}}`, wantErr: "invalid address"},
		"bad provider": {record: `{"op":"set","addr":"terraform_data.a","provider":"aws","object":{}}`, wantErr: "invalid provider"},
		"bad object":   {record: `{"op":"set","addr":"terraform_data.a","provider":"provider[\"terraform.io/builtin/terraform\"]","object":{"dependencies":["x"]}}`, wantErr: "invalid object"},
		"bad output":   {record: `{"op":"output","name":"o","output":{"value":1,"type":"bool"}}`, wantErr: "invalid output"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, path := tempState(t)
			_, _, j := startApply(t, path, "terraform_data.a")
			crash(j)
			f, err := os.OpenFile(journalPath(path), os.O_APPEND|os.O_WRONLY, 0)
			mustNil(t, err)
			_, _ = f.WriteString(tc.record + "\n" + `{"op":"intent","addr":"terraform_data.b","action":"create"}` + "\n")
			f.Close()
			_, _, err = NewLocal(path, "", "", testVersion).Read()
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got %v, want %q", err, tc.wantErr)
			}
		})
	}
}

// TestJournalRemovalWithoutProvider: removing an object needs no provider
// address, so a removal recorded without one replays.
func TestJournalRemovalWithoutProvider(t *testing.T) {
	_, path := tempState(t)
	_, _, j := startApply(t, path, "terraform_data.a", "terraform_data.b")
	mustNil(t, j.Set(addr(t, "terraform_data.a"), "", nil, addrs.AbsProviderConfig{}))
	crash(j)
	s, _ := mustRead(t, NewLocal(path, "", "", testVersion))
	if diff := cmp.Diff(map[string]string{"terraform_data.b": "terraform_data.b"}, ids(t, s)); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
}

func TestJournalRecordsDurable(t *testing.T) {
	_, path := tempState(t)
	_, base, j := startApply(t, path, "terraform_data.a")
	lines := journalLines(t, path)
	var head journalHeader
	mustNil(t, json.Unmarshal([]byte(lines[0]), &head))
	if head != (journalHeader{Journal: 1, Lineage: base.Lineage, Serial: 1}) {
		t.Errorf("header %+v", head)
	}
	if perm(t, journalPath(path)) != 0o600 {
		t.Errorf("journal mode %o", perm(t, journalPath(path)))
	}
	// Each record is in the file when the call returns.
	mustNil(t, j.Intent(addr(t, "terraform_data.b"), "", "create"))
	if n := len(journalLines(t, path)); n != 2 {
		t.Fatalf("%d lines after Intent", n)
	}
	mustNil(t, j.Set(addr(t, "terraform_data.b"), "", obj("b"), builtin))
	mustNil(t, j.SetOutput("o", nil))
	lines = journalLines(t, path)
	if len(lines) != 4 {
		t.Fatalf("%d lines: %q", len(lines), lines)
	}
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Errorf("line is not JSON: %s", l)
		}
	}
	// An unknown output value cannot be recorded.
	if err := j.SetOutput("u", &states.OutputValue{Value: cty.UnknownVal(cty.String)}); err == nil {
		t.Error("unknown output recorded")
	}
	// After the file is gone, appends fail and keep failing.
	crash(j)
	if err := j.Intent(addr(t, "terraform_data.c"), "", "create"); err == nil {
		t.Fatal("append to a closed journal succeeded")
	}
	if err := j.SetOutput("o", nil); err == nil {
		t.Fatal("second append to a closed journal succeeded")
	}
}

func TestEndJournal(t *testing.T) {
	_, path := tempState(t)
	m, s, j := startApply(t, path, "terraform_data.a")
	mustNil(t, j.Set(addr(t, "terraform_data.b"), "", obj("b"), builtin))
	s.SetObject(addr(t, "terraform_data.b"), obj("b"), builtin)
	mustNil(t, m.EndJournal(s))
	if exists(journalPath(path)) {
		t.Fatal("journal left after EndJournal")
	}
	disk := readState(t, path)
	if disk.Serial != 2 || ids(t, disk)["terraform_data.b"] != "b" {
		t.Fatalf("on disk: serial %d objects %v", disk.Serial, ids(t, disk))
	}
	// A later Read finds nothing to replay.
	s2, pending := mustRead(t, NewLocal(path, "", "", testVersion))
	if pending != nil || s2.Serial != 2 {
		t.Fatalf("serial %d pending %v", s2.Serial, pending)
	}

	t.Run("no changes", func(t *testing.T) {
		_, path := tempState(t)
		m, s, _ := startApply(t, path, "terraform_data.a")
		old := ageFile(t, path)
		mustNil(t, m.EndJournal(s))
		if exists(journalPath(path)) || !mtime(t, path).Equal(old) || s.Serial != 1 {
			t.Fatalf("journal %v, rewritten %v, serial %d", exists(journalPath(path)), !mtime(t, path).Equal(old), s.Serial)
		}
	})
	t.Run("without a journal", func(t *testing.T) {
		_, path := tempState(t)
		m := NewLocal(path, "", "", testVersion)
		mustRead(t, m)
		mustNil(t, m.EndJournal(stateWith(t, "terraform_data.x")))
		if ids(t, readState(t, path))["terraform_data.x"] == "" {
			t.Fatal("state not written")
		}
	})
	t.Run("failed write keeps the journal", func(t *testing.T) {
		dir, path := tempState(t)
		m, s, j := startApply(t, path, "terraform_data.a")
		mustNil(t, j.Set(addr(t, "terraform_data.b"), "", obj("b"), builtin))
		s.SetObject(addr(t, "terraform_data.b"), obj("b"), builtin)
		m.BackupPath = dir + "/missing/backup"
		if err := m.EndJournal(s); err == nil {
			t.Fatal("no error")
		}
		if !exists(journalPath(path)) {
			t.Fatal("journal removed although the snapshot was not written")
		}
		s2, _ := mustRead(t, NewLocal(path, "", "", testVersion))
		if ids(t, s2)["terraform_data.b"] != "b" {
			t.Fatal("journal not recovered")
		}
	})
}

// TestJournalConcurrentAppends: records from many goroutines all land, each
// on its own line.
func TestJournalConcurrentAppends(t *testing.T) {
	const n = 50
	_, path := tempState(t)
	_, _, j := startApply(t, path, "terraform_data.a")
	var wg sync.WaitGroup
	errs := make(chan error, 3*n)
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			a := addr(t, fmt.Sprintf("terraform_data.c[%d]", i))
			errs <- j.Intent(a, "", "create")
			errs <- j.Set(a, "", obj(fmt.Sprintf("c%d", i)), builtin)
			errs <- j.SetOutput(fmt.Sprintf("o%d", i), stringOutput(strings.Repeat("x", i*100)))
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		mustNil(t, err)
	}
	if got := len(journalLines(t, path)); got != 1+3*n {
		t.Fatalf("%d lines, want %d", got, 1+3*n)
	}
	crash(j)

	s, pending := mustRead(t, NewLocal(path, "", "", testVersion))
	if pending != nil {
		t.Errorf("pending: %v", pending)
	}
	got := ids(t, s)
	if len(got) != n+1 || len(s.Outputs) != n {
		t.Fatalf("%d objects, %d outputs", len(got), len(s.Outputs))
	}
	for i := range n {
		if got[fmt.Sprintf("terraform_data.c[%d]", i)] != fmt.Sprintf("c%d", i) {
			t.Errorf("c[%d] missing", i)
		}
	}
}

func TestJournalHeaderOnly(t *testing.T) {
	_, path := tempState(t)
	_, _, j := startApply(t, path, "terraform_data.a")
	crash(j)
	old := ageFile(t, path)
	s, pending := mustRead(t, NewLocal(path, "", "", testVersion))
	if pending != nil || s.Serial != 1 || !mtime(t, path).Equal(old) {
		t.Errorf("serial %d pending %v rewritten %v", s.Serial, pending, !mtime(t, path).Equal(old))
	}
	if exists(journalPath(path)) {
		t.Error("journal with only a header not removed")
	}
}

// TestJournalRecoveryUnderLock: the lock holder recovers a journal left by
// a crashed process.
func TestJournalRecoveryUnderLock(t *testing.T) {
	_, path := tempState(t)
	_, _, j := startApply(t, path, "terraform_data.a")
	mustNil(t, j.Set(addr(t, "terraform_data.b"), "", obj("b"), builtin))
	crash(j)
	m, _ := lockedManager(t, path, "OperationTypeApply")
	defer m.Unlock()
	s, _ := mustRead(t, m)
	if ids(t, s)["terraform_data.b"] != "b" || s.Serial != 2 || exists(journalPath(path)) {
		t.Fatalf("objects %v serial %d journal %v", ids(t, s), s.Serial, exists(journalPath(path)))
	}
	if !exists(lockInfoPath(path)) {
		t.Fatal("recovery dropped the holder's lock")
	}
}

// TestJournalReadDuringApply: a Read without the lock (show, output) while
// an apply holds the lock leaves that apply's journal and the state file
// alone, so that a crash of the apply afterwards still loses nothing.
func TestJournalReadDuringApply(t *testing.T) {
	_, path := tempState(t)
	seed := NewLocal(path, "", "", testVersion)
	s0, _ := mustRead(t, seed)
	s0.SetObject(addr(t, "terraform_data.a"), obj("a"), builtin)
	mustWrite(t, seed, s0)

	apply, _ := lockedManager(t, path, "OperationTypeApply")
	base, _ := mustRead(t, apply)
	j, err := apply.BeginJournal(base)
	mustNil(t, err)
	mustNil(t, j.Set(addr(t, "terraform_data.b"), "", obj("b"), builtin))
	snapshot, _ := os.ReadFile(path)

	show := NewLocal(path, "", "", testVersion)
	s, pending := mustRead(t, show)
	if pending != nil || s.Serial != 1 {
		t.Errorf("show: serial %d pending %v", s.Serial, pending)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, snapshot) {
		t.Fatal("an unlocked Read rewrote the state during an apply")
	}
	if !exists(journalPath(path)) {
		t.Fatal("an unlocked Read removed the running apply's journal")
	}
	if !exists(lockInfoPath(path)) {
		t.Fatal("an unlocked Read removed the apply's lock info")
	}

	// The apply goes on, then dies.
	mustNil(t, j.Set(addr(t, "terraform_data.c"), "", obj("c"), builtin))
	crash(j)
	apply.lock.f.Close()
	apply.lock = nil

	s, _ = mustRead(t, NewLocal(path, "", "", testVersion))
	want := map[string]string{"terraform_data.a": "a", "terraform_data.b": "b", "terraform_data.c": "c"}
	if diff := cmp.Diff(want, ids(t, s)); diff != "" {
		t.Errorf("recovered (-want +got):\n%s", diff)
	}
	if s.Serial != 2 {
		t.Errorf("serial %d, want 2", s.Serial)
	}
	if exists(lockInfoPath(path)) {
		// The crashed apply's info file is replaced and then removed by the
		// recovering reader's temporary lock.
		t.Error("lock info left after recovery")
	}
}

// BenchmarkJournalSet records the objects of an apply: one completion
// record each, written (not synced) as the engine's are.
func BenchmarkJournalSet(b *testing.B) {
	m := NewLocal(b.TempDir()+"/terraform.tfstate", "", "", testVersion)
	j, err := m.BeginJournal(states.New())
	if err != nil {
		b.Fatal(err)
	}
	defer j.f.Close()
	a := addr(b, "terraform_data.r1")
	o := &states.ObjectSrc{
		AttrsJSON:    []byte(`{"id":"6e1b3f0c-2d8e-4f7b-9c1a-0b7f3e2a1d55","input":{"value":"start","type":"string"},"output":{"value":"start","type":"string"},"triggers_replace":null}`),
		Dependencies: []addrs.AbsResource{addr(b, "terraform_data.r0").ContainingResource()},
		Status:       states.ObjectReady,
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := j.Set(a, "", o, builtin); err != nil {
			b.Fatal(err)
		}
	}
}
