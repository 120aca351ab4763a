package runrecord

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// xorCipher is a stand-in for the state's encryption: it hides the
// bytes (XOR with key, base64) in a JSON object, and refuses what
// another key sealed.
type xorCipher struct{ key byte }

func (c xorCipher) Seal(plain []byte) ([]byte, error) {
	x := make([]byte, len(plain))
	for i, b := range plain {
		x[i] = b ^ c.key
	}
	return json.Marshal(map[string]any{"k": c.key, "d": base64.StdEncoding.EncodeToString(x)})
}

func (c xorCipher) Open(sealed []byte) ([]byte, error) {
	var env struct {
		K byte   `json:"k"`
		D string `json:"d"`
	}
	if err := json.Unmarshal(sealed, &env); err != nil {
		return nil, err
	}
	if env.K != c.key {
		return nil, errors.New("wrong key")
	}
	x, err := base64.StdEncoding.DecodeString(env.D)
	for i := range x {
		x[i] ^= c.key
	}
	return x, err
}

// filesHolding lists the files under dir whose bytes contain s.
func filesHolding(t *testing.T, dir, s string) []string {
	t.Helper()
	var found []string
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(s)) {
			found = append(found, filepath.Base(p))
		}
		return nil
	})
	return found
}

const secret = "s3cr3t-value-in-clear"

// writeSealed writes, through a Writer with a cipher, an entry whose
// changes and diagnostics quote the secret, then the same entry again
// without changes (which keeps them), and an up-to-date entry.
func writeSealed(w *Writer, id string) {
	w.SetCipher(xorCipher{key: 7})
	w.PutRun(Run{ID: id, Command: "apply", Started: t0, Outcome: RunRunning, Host: "h", PID: 1})
	e := Entry{RunID: id, Seq: 1, Kind: KindChange, Address: "terraform_data.a", Type: "terraform_data", Provider: "p", Action: "update", Outcome: Unprocessed,
		Changes: []AttrChange{{Path: "input", Before: json.RawMessage(`"old-` + secret + `"`), After: json.RawMessage(`"` + secret + `"`)},
			{Path: "output", BeforeMark: MarkSensitive, AfterMark: MarkUnknown}}}
	w.PutEntry(e)
	e.Outcome, e.Changes = Updated, nil
	w.PutEntry(e)
	w.PutEntry(Entry{RunID: id, Seq: 4, Kind: KindChange, Address: "terraform_data.d", Type: "terraform_data", Provider: "p", Action: "create", Outcome: Failed,
		Diagnostics: "provider said: bad value " + secret})
	w.PutEntry(Entry{RunID: id, Seq: 2, Kind: KindChange, Address: "terraform_data.b", Type: "terraform_data", Provider: "p", Action: "create", Outcome: Updated, Changes: []AttrChange{}})
	w.PutUpToDate([]*Entry{{RunID: id, Seq: 3, Address: "terraform_data.c", Type: "terraform_data", Provider: "p"}})
	w.PutRun(Run{ID: id, Command: "apply", Started: t0, Ended: t0.Add(1), Outcome: RunFailed, Host: "h", PID: 1})
}

var wantSealed = []Entry{
	{RunID: "r1", Seq: 1, Kind: KindChange, Address: "terraform_data.a", Type: "terraform_data", Provider: "p", Action: "update", Outcome: Updated,
		Changes: []AttrChange{{Path: "input", Before: json.RawMessage(`"old-` + secret + `"`), After: json.RawMessage(`"` + secret + `"`)},
			{Path: "output", BeforeMark: MarkSensitive, AfterMark: MarkUnknown}}},
	{RunID: "r1", Seq: 2, Kind: KindChange, Address: "terraform_data.b", Type: "terraform_data", Provider: "p", Action: "create", Outcome: Updated, Changes: []AttrChange{}},
	{RunID: "r1", Seq: 3, Kind: KindChange, Address: "terraform_data.c", Type: "terraform_data", Provider: "p", Action: "no-op", Outcome: UpToDate, Changes: []AttrChange{}},
	{RunID: "r1", Seq: 4, Kind: KindChange, Address: "terraform_data.d", Type: "terraform_data", Provider: "p", Action: "create", Outcome: Failed,
		Diagnostics: "provider said: bad value " + secret, Changes: []AttrChange{}},
}

// TestSealedRecords: a run log written with a cipher holds no value in
// clear, nor does the store it is ingested into; the values come back
// only with the key.
func TestSealedRecords(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "runs.db")
	logs := filepath.Join(dir, "runs")
	w, err := CreateLog(logs, Run{ID: "r1", Command: "apply", Started: t0, Outcome: RunRunning, Host: "h", PID: 1})
	if err != nil {
		t.Fatal(err)
	}
	writeSealed(w, "r1")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if found := filesHolding(t, dir, secret); len(found) > 0 {
		t.Fatalf("the secret is in clear in %v", found)
	}
	// Ingesting needs no key: the values stay encrypted.
	s, err := Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := Ingest(ctx, s, logs, Host{Name: "h", Alive: func(int) bool { return false }}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if found := filesHolding(t, dir, secret); len(found) > 0 {
		t.Fatalf("the secret is in clear in %v", found)
	}

	// Without the key: the run is listed, its values are not.
	s, err = Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if runs, err := s.Runs(ctx, RunFilter{}); err != nil || len(runs) != 1 || runs[0].Counts[Failed] != 1 {
		t.Fatalf("runs without the key: %v, %v", runs, err)
	}
	var se *SealedError
	if _, err := s.Entries(ctx, "r1", EntryFilter{}); !errors.As(err, &se) || se.Err != nil || !strings.Contains(err.Error(), "no encryption is configured") {
		t.Errorf("entries without the key: %v", err)
	}
	if _, err := s.History(ctx, "terraform_data.a", ""); !errors.As(err, &se) {
		t.Errorf("history without the key: %v", err)
	}
	s.Close()

	// With a wrong key: a clear error.
	s, err = Open(dbPath, WithCipher(xorCipher{key: 9}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Entries(ctx, "r1", EntryFilter{}); !errors.As(err, &se) || se.Err == nil || !strings.Contains(err.Error(), "wrong key") {
		t.Errorf("entries with a wrong key: %v", err)
	}
	s.Close()

	// With the key: everything as it was written.
	s, err = Open(dbPath, WithCipher(xorCipher{key: 7}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	es, err := s.Entries(ctx, "r1", EntryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantSealed, es, cmpopts.IgnoreUnexported(AttrChange{}), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("wrong result (-want +got)\n%s", diff)
	}
	hs, err := s.History(ctx, "terraform_data.a", "input")
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 1 || string(hs[0].After) != `"`+secret+`"` {
		t.Errorf("history: %+v", hs)
	}
	items, err := s.Query(ctx, Query{Entries: EntryFilter{Outcomes: []Outcome{Failed}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || items[0].Diagnostics != wantSealed[3].Diagnostics {
		t.Errorf("query: %+v", items)
	}
	items, err = s.Query(ctx, Query{Entries: EntryFilter{Address: "terraform_data.a"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || len(items[0].Changes) != 2 {
		t.Errorf("query: %+v", items)
	}
}

// A Writer whose cipher fails writes the entry without its values rather
// than in clear, and Close says why.
func TestSealFailure(t *testing.T) {
	dir := t.TempDir()
	w, err := CreateLog(dir, Run{ID: "r1", Command: "apply", Started: t0, Outcome: RunRunning})
	if err != nil {
		t.Fatal(err)
	}
	w.SetCipher(failingCipher{})
	w.PutEntry(Entry{RunID: "r1", Seq: 1, Address: "a.b", Outcome: Updated, Diagnostics: secret, Changes: []AttrChange{{Path: "x", After: json.RawMessage(`"` + secret + `"`)}}})
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "no key today") {
		t.Errorf("Close: %v", err)
	}
	if found := filesHolding(t, dir, secret); len(found) > 0 {
		t.Fatalf("the secret is in clear in %v", found)
	}
	rl, err := readLog(filepath.Join(dir, "r1.log"))
	if err != nil || len(rl.entries) != 1 || rl.entries[0].Outcome != Updated {
		t.Fatalf("the entry was not kept: %+v, %v", rl, err)
	}
}

type failingCipher struct{}

func (failingCipher) Seal([]byte) ([]byte, error) { return nil, errors.New("no key today") }
func (failingCipher) Open([]byte) ([]byte, error) { return nil, errors.New("no key today") }

// TestStoreFilesPrivate: the database, its write-ahead log and shared
// memory file are readable by their owner only, even where an earlier
// strata left the database readable by all.
func TestStoreFilesPrivate(t *testing.T) {
	for name, existing := range map[string]bool{"new": false, "readable by all": true} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "runs.db")
			if existing {
				s, err := Open(p)
				if err != nil {
					t.Fatal(err)
				}
				s.Close()
				if err := os.Chmod(p, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s, err := Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.Write(context.Background(), Batch{Runs: []Run{{ID: "r1", Started: t0}}}); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{p, p + "-wal", p + "-shm"} {
				st, err := os.Stat(f)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				if st.Mode().Perm()&0o077 != 0 {
					t.Errorf("%s has mode %v", filepath.Base(f), st.Mode().Perm())
				}
			}
		})
	}
}
