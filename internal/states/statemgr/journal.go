package statemgr

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// The journal is a file beside the state, NAME.journal, holding one JSON
// record per line. Its first line names the snapshot it extends (lineage
// and serial); each later line records an operation about to start
// ("intent") or a finished change to an object ("set", with the object or
// none when it was removed) or to an output ("output"). An intent is
// synced to disk before the provider is called. A completion record is
// written to the file at once, so that a killed process loses nothing a
// provider had finished, and synced with the next intent (whose operation
// may depend on it), at the next Sync, or with the final snapshot: after a
// power cut, an operation whose completion was not yet synced shows as
// pending, with its address, and is never lost track of.

type journalHeader struct {
	Journal int    `json:"journal"`
	Lineage string `json:"lineage"`
	Serial  uint64 `json:"serial"`
}

type journalRecord struct {
	Op       string          `json:"op"`
	Addr     string          `json:"addr,omitempty"`
	Deposed  string          `json:"deposed,omitempty"`
	Action   string          `json:"action,omitempty"`
	Provider string          `json:"provider,omitempty"`
	Object   json.RawMessage `json:"object,omitempty"`
	Name     string          `json:"name,omitempty"`
	Output   json.RawMessage `json:"output,omitempty"`
}

// Pending is an operation the journal shows was started but never
// finished: the process died inside a provider call.
type Pending struct {
	Addr    string
	Deposed string
	Action  string
}

func journalPath(statePath string) string { return statePath + ".journal" }

// Journal appends records for one apply. It implements states.Recorder.
// Concurrent appends are grouped: each caller's record is written to the
// file when its call returns (an intent's also synced), and one write and
// one fsync cover every record buffered before them.
type Journal struct {
	path string
	f    *os.File
	// enc encrypts each record (nil: records are stored in clear). The
	// header, which names the snapshot by lineage and serial as an
	// encrypted state does in clear, is never encrypted.
	enc *encryption.Target

	mu      sync.Mutex // guards buf, spare and seq
	buf     []byte
	spare   []byte // a written buffer, for buf to reuse
	seq     uint64
	flushMu sync.Mutex // serialises writes; guards flushed and synced
	flushed uint64     // records up to this seq are written to f
	synced  uint64     // and up to this one synced to disk
	err     error

	// pending holds the intents of operations not finished yet, and cp
	// the checkpoints of a remote backend; both guarded by mu.
	pending map[string]journalRecord
	cp      *checkpointer
}

var _ states.Recorder = (*Journal)(nil)

// BeginJournal starts a journal for changes on top of base, the snapshot
// currently on disk (by lineage and serial).
func (m *Local) BeginJournal(base *states.State) (*Journal, error) {
	path := journalPath(m.abs(m.OutPath))
	// The state's directory may not exist yet (-lock=false, which would
	// have created it).
	_ = os.MkdirAll(filepath.Dir(path), 0o755)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot create state journal: %w", err)
	}
	j := &Journal{path: path, f: f, enc: m.crypt.Target}
	head, _ := json.Marshal(journalHeader{Journal: 1, Lineage: base.Lineage, Serial: m.serial})
	if _, err := f.Write(append(head, '\n')); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, err
	}
	syncDir(filepath.Dir(path))
	m.journal = j
	return j, nil
}

// EndJournal writes the final snapshot and removes the journal. When the
// snapshot cannot be written the journal stays, so that the next command
// recovers from it. An empty state is written too where no file was, as
// Terraform writes one after every apply, destroy and refresh (Write
// writes none).
func (m *Local) EndJournal(final *states.State) error {
	if err := endJournal(m.journal, func() error { return m.write(final, true) }); err != nil {
		return err
	}
	m.journal = nil
	return nil
}

// endJournal writes the final snapshot with write and then removes the
// journal j (which may be nil). When the write fails, the journal stays
// for the next command to recover from.
func endJournal(j *Journal, write func() error) error {
	j.stopCheckpoints()
	if err := write(); err != nil {
		if j != nil {
			// The journal stays for the next command: what it holds
			// must survive a power cut too.
			_ = j.Sync()
			j.f.Close()
		}
		return err
	}
	if j == nil {
		return nil
	}
	j.f.Close()
	if err := os.Remove(j.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	syncDir(filepath.Dir(j.path))
	return nil
}

// Intent implements states.Recorder.
func (j *Journal) Intent(addr addrs.AbsResourceInstance, deposed, action string) error {
	rec := journalRecord{Op: "intent", Addr: addr.String(), Deposed: deposed, Action: action}
	j.mu.Lock()
	if j.pending == nil {
		j.pending = map[string]journalRecord{}
	}
	j.pending[pendingKey(addr, deposed)] = rec
	j.mu.Unlock()
	return j.appendLine(rec.appendJSON(nil, nil), true)
}

// Set implements states.Recorder. The object is encoded once, straight
// into the record's line.
func (j *Journal) Set(addr addrs.AbsResourceInstance, deposed string, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) error {
	rec := journalRecord{Op: "set", Addr: addr.String(), Deposed: deposed, Provider: provider.String()}
	var line []byte
	if obj != nil {
		line = make([]byte, 0, len(rec.Addr)+len(rec.Provider)+len(obj.AttrsJSON)+192)
	}
	line = rec.appendJSON(line, obj)
	if obj != nil {
		var err error
		if line, err = statefile.AppendObject(line, obj); err != nil {
			return err
		}
		line = append(line, '}')
	}
	j.mu.Lock()
	delete(j.pending, pendingKey(addr, deposed))
	j.mirror(func(s *states.State) {
		if deposed == "" {
			s.SetObject(addr, obj, provider)
		} else {
			s.SetDeposed(addr, deposed, obj, provider)
		}
	})
	j.mu.Unlock()
	return j.appendLine(line, false)
}

// appendJSON appends rec as json.Marshal renders it, without its Object
// and Output. When obj is not nil the line is left open after
// `"object":`, for the caller to append the object and the closing brace.
func (rec journalRecord) appendJSON(buf []byte, obj *states.ObjectSrc) []byte {
	buf = append(buf, `{"op":`...)
	buf = statefile.AppendJSONString(buf, rec.Op)
	for _, m := range [...]struct{ key, value string }{
		{`,"addr":`, rec.Addr}, {`,"deposed":`, rec.Deposed}, {`,"action":`, rec.Action},
		{`,"provider":`, rec.Provider}, {`,"name":`, rec.Name},
	} {
		if m.value != "" {
			buf = append(buf, m.key...)
			buf = statefile.AppendJSONString(buf, m.value)
		}
	}
	if obj != nil {
		return append(buf, `,"object":`...)
	}
	return append(buf, '}')
}

// SetOutput implements states.Recorder.
func (j *Journal) SetOutput(name string, v *states.OutputValue) error {
	rec := journalRecord{Op: "output", Name: name}
	if v != nil {
		raw, err := statefile.MarshalOutput(v)
		if err != nil {
			return err
		}
		rec.Output = raw
	}
	j.mu.Lock()
	j.mirror(func(s *states.State) {
		if v == nil {
			delete(s.Outputs, name)
			return
		}
		if s.Outputs == nil {
			s.Outputs = map[string]*states.OutputValue{}
		}
		s.Outputs[name] = v
	})
	j.mu.Unlock()
	return j.append(rec, false)
}

// encode returns the line (without its newline) that stores rec.
func (j *Journal) encode(rec journalRecord) ([]byte, error) {
	line, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	return j.enc.EncryptRecord(line)
}

// append writes rec to the file, with every record buffered before it,
// and when durable also syncs the file: an intent must be on disk before
// its provider call, and its sync covers the completion records its
// operation may depend on. A completion record need not wait for a sync of
// its own: once written, it survives the process being killed.
func (j *Journal) append(rec journalRecord, durable bool) error {
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return j.appendLine(line, durable)
}

// appendLine is append with the record rendered as its line (without the
// newline).
func (j *Journal) appendLine(line []byte, durable bool) error {
	line, err := j.enc.EncryptRecord(line)
	if err != nil {
		return err
	}
	j.mu.Lock()
	j.buf = append(append(j.buf, line...), '\n')
	j.seq++
	seq := j.seq
	j.mu.Unlock()

	j.flushMu.Lock()
	defer j.flushMu.Unlock()
	if j.flushed < seq {
		j.writeBuffered()
	}
	if durable && j.synced < seq {
		j.syncWritten()
	}
	return j.err
}

// Sync makes every record appended so far durable.
func (j *Journal) Sync() error {
	if j == nil {
		return nil
	}
	j.flushMu.Lock()
	defer j.flushMu.Unlock()
	j.writeBuffered()
	if j.synced < j.flushed {
		j.syncWritten()
	}
	return j.err
}

// writeBuffered writes the buffered records. flushMu must be held.
func (j *Journal) writeBuffered() {
	j.mu.Lock()
	data, upto := j.buf, j.seq
	// Appends go on in the spare buffer meanwhile; data becomes the
	// spare once written, so that two buffers serve the whole apply.
	j.buf, j.spare = j.spare[:0], nil
	j.mu.Unlock()
	if j.err == nil && len(data) > 0 {
		if _, err := j.f.Write(data); err != nil {
			j.err = err
		}
	}
	j.flushed = upto
	if cap(data) <= maxSpare {
		j.mu.Lock()
		j.spare = data[:0]
		j.mu.Unlock()
	}
}

// maxSpare is the largest buffer the journal keeps for reuse: records
// are small, but one holding a large object should not stay in memory.
const maxSpare = 1 << 20

// syncWritten syncs the records written so far. flushMu must be held.
func (j *Journal) syncWritten() {
	if j.err == nil {
		if err := j.f.Sync(); err != nil {
			j.err = err
		}
	}
	j.synced = j.flushed
}

// replayJournal applies a leftover journal to s. It reports whether it
// changed anything and which operations were left pending. A journal for
// another snapshot (an older serial or another lineage) is stale and is
// removed. A torn last line, from a crash mid-write, is ignored. enc
// decrypts the records.
func replayJournal(path string, s *states.State, enc *encryption.Target) (*states.State, []Pending, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, fmt.Errorf("reading state journal %s: %w", path, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1024*1024), 1<<30)
	if !sc.Scan() {
		_ = os.Remove(path)
		return s, nil, false, nil
	}
	var head journalHeader
	if err := json.Unmarshal(sc.Bytes(), &head); err != nil && bytes.IndexByte(data, '\n') < 0 {
		// A crash while BeginJournal wrote the header: no record follows
		// it, so nothing was changed yet.
		_ = os.Remove(path)
		return s, nil, false, nil
	}
	if err := json.Unmarshal(sc.Bytes(), &head); err != nil || head.Journal != 1 {
		return nil, nil, false, fmt.Errorf("the state journal %s is not readable; move it aside to continue, and check the state by hand", path)
	}
	if head.Lineage != s.Lineage && s.Serial != 0 || head.Serial != s.Serial {
		_ = os.Remove(path)
		return s, nil, false, nil
	}
	if s.Serial == 0 {
		s.Lineage = head.Lineage
	}
	type key struct{ addr, deposed string }
	pending := map[key]Pending{}
	var order []key
	changed := false
	for sc.Scan() {
		line := sc.Bytes()
		if !json.Valid(line) {
			break // torn write at the end
		}
		line, err := enc.DecryptRecord(line)
		if err != nil {
			return nil, nil, false, fmt.Errorf("the state journal %s cannot be read: %w", path, err)
		}
		var rec journalRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			break // torn write at the end
		}
		switch rec.Op {
		case "intent":
			k := key{rec.Addr, rec.Deposed}
			if _, ok := pending[k]; !ok {
				order = append(order, k)
			}
			pending[k] = Pending{Addr: rec.Addr, Deposed: rec.Deposed, Action: rec.Action}
		case "set":
			addr, diags := addrs.ParseAbsResourceInstanceStr(rec.Addr)
			if diags.HasErrors() {
				return nil, nil, false, fmt.Errorf("the state journal has an invalid address %q", rec.Addr)
			}
			// A removal needs no provider: Set may be given none for it.
			var provider addrs.AbsProviderConfig
			var obj *states.ObjectSrc
			if len(rec.Object) > 0 {
				var err error
				if provider, err = addrs.ParseAbsProviderConfig(rec.Provider); err != nil {
					return nil, nil, false, fmt.Errorf("the state journal has an invalid provider %q", rec.Provider)
				}
				if obj, err = statefile.UnmarshalObject(rec.Object); err != nil {
					return nil, nil, false, fmt.Errorf("the state journal has an invalid object for %s: %w", rec.Addr, err)
				}
			}
			if rec.Deposed == "" {
				s.SetObject(addr, obj, provider)
			} else {
				s.SetDeposed(addr, rec.Deposed, obj, provider)
			}
			delete(pending, key{rec.Addr, rec.Deposed})
			changed = true
		case "output":
			if len(rec.Output) == 0 {
				delete(s.Outputs, rec.Name)
			} else {
				o, err := statefile.UnmarshalOutput(rec.Output)
				if err != nil {
					return nil, nil, false, fmt.Errorf("the state journal has an invalid output %q: %w", rec.Name, err)
				}
				s.Outputs[rec.Name] = o
			}
			changed = true
		}
	}
	var out []Pending
	for _, k := range order {
		if p, ok := pending[k]; ok {
			out = append(out, p)
		}
	}
	return s, out, changed || len(out) > 0, nil
}
