package runrecord

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A run log is the record of one run as the run writes it: an
// append-only file of framed records, cheap to write on the apply's hot
// path, which Ingest later folds into a Store. While the run goes the
// file is DIR/ID.running; when the run ends it is renamed DIR/ID.log.
//
// Each record is a frame: its length (4 bytes, little-endian), the CRC-32
// (Castagnoli) of its body (4 bytes) and the body, a kind byte followed
// by JSON. A reader stops at the first frame that is cut short or does
// not match its CRC: that is where a killed process stopped writing.
const (
	runningSuffix = ".running"
	endedSuffix   = ".log"
)

// The kinds of log records.
const (
	recRun      = 'R' // a Run, new or updated
	recEntry    = 'E' // an Entry, new or updated (nil Changes keep the earlier ones)
	recUpToDate = 'U' // []compactEntry of one run
	recStart    = 'S' // an entry's operation started: {"seq": N, "started_at": T}
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// maxFrame bounds a frame's body: a longer length is a torn write.
const maxFrame = 64 << 20

// logSink buffers frames and writes them to the log file at most Window
// after they were put, so that a busy apply costs one write system call
// per window rather than one per record.
type logSink struct {
	// wmu orders the writes to the file; it is taken before mu, and
	// held while writing, so that puts (which take mu only) do not wait
	// for the file.
	wmu sync.Mutex

	mu      sync.Mutex
	f       *os.File
	path    string
	buf     []byte
	spare   []byte
	pending bool // a flush is scheduled
	err     error
}

// CreateLog starts the log of run in dir (created when needed) and
// returns a Writer over it. The run is its first record.
func CreateLog(dir string, run Run) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, run.ID+runningSuffix)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	w := &Writer{log: &logSink{f: f, path: path, buf: make([]byte, 0, 64<<10)}}
	// The first record is written at once: it says whose log this is.
	w.PutRun(run)
	w.log.write(false)
	w.log.mu.Lock()
	err = w.log.err
	w.log.mu.Unlock()
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return w, nil
}

// put appends one frame, v encoded with encoding/json.
func (l *logSink) put(kind byte, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		l.mu.Lock()
		l.setErr(err)
		l.mu.Unlock()
		return
	}
	l.putWith(kind, func(b []byte) []byte { return append(b, body...) })
}

// putEntry appends an entry's frame, encoded by hand.
func (l *logSink) putEntry(e *Entry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	start, ok := l.begin(recEntry)
	if ok {
		l.buf = appendEntry(l.buf, e)
		l.end(start)
	}
}

// putStart appends the start of entry seq's operation.
func (l *logSink) putStart(seq int, t time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	start, ok := l.begin(recStart)
	if ok {
		l.buf = append(l.buf, `{"seq":`...)
		l.buf = strconv.AppendInt(l.buf, int64(seq), 10)
		l.buf = appendTime(l.buf, "started_at", t)
		l.buf = append(l.buf, '}')
		l.end(start)
	}
}

// putWith appends one frame whose body encode appends to the buffer.
func (l *logSink) putWith(kind byte, encode func([]byte) []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	start, ok := l.begin(kind)
	if ok {
		l.buf = encode(l.buf)
		l.end(start)
	}
}

// begin starts a frame in the buffer (l.mu held), returning where it
// starts, or false after Close.
func (l *logSink) begin(kind byte) (int, bool) {
	if l.f == nil {
		l.setErr(errors.New("run log: a record put after Close"))
		return 0, false
	}
	start := len(l.buf)
	l.buf = append(l.buf, 0, 0, 0, 0, 0, 0, 0, 0, kind)
	return start, true
}

// end completes the frame begun at start with its length and CRC, and
// sees that the buffer is written within Window.
func (l *logSink) end(start int) {
	body := l.buf[start+8:]
	binary.LittleEndian.PutUint32(l.buf[start:], uint32(len(body)))
	binary.LittleEndian.PutUint32(l.buf[start+4:], crc32.Checksum(body, castagnoli))
	if !l.pending {
		l.pending = true
		time.AfterFunc(Window, func() { l.write(false) })
	}
}

func (l *logSink) setErr(err error) {
	if l.err == nil {
		l.err = err
	}
}

// write writes what is buffered, and syncs the file when sync is true.
// Puts go on meanwhile, into the other buffer.
func (l *logSink) write(sync bool) {
	l.wmu.Lock()
	defer l.wmu.Unlock()
	l.mu.Lock()
	f, buf := l.f, l.buf
	l.buf, l.spare = l.spare[:0], nil
	l.pending = false
	l.mu.Unlock()
	if f == nil {
		return
	}
	var err error
	if len(buf) > 0 {
		_, err = f.Write(buf)
	}
	if err == nil && sync {
		err = f.Sync()
	}
	l.mu.Lock()
	if err != nil {
		l.setErr(err)
	}
	if l.spare == nil && cap(buf) <= maxSpare {
		l.spare = buf[:0]
	}
	l.mu.Unlock()
}

// maxSpare is the largest buffer the log keeps for reuse: a window's
// records are small, but a burst (a large plan's entries) should not
// keep its buffer for the rest of the run.
const maxSpare = 1 << 20

// flush writes what is buffered and syncs the file.
func (l *logSink) flush() { l.write(true) }

// close writes and syncs what is buffered, closes the file and names it
// as the log of an ended run.
func (l *logSink) close() error {
	l.write(true)
	l.wmu.Lock()
	defer l.wmu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return l.err
	}
	if err := l.f.Close(); err != nil {
		l.setErr(err)
	}
	l.f = nil
	if err := os.Rename(l.path, strings.TrimSuffix(l.path, runningSuffix)+endedSuffix); err != nil {
		l.setErr(err)
	}
	return l.err
}

// runLog is what a log holds, folded: the run as last written, its
// entries in the order they were first written, each as last written.
type runLog struct {
	path     string
	run      Run
	hasRun   bool
	entries  []Entry
	at       map[int]int // seq → index in entries
	upToDate []Entry
	// torn is true when the log ends with a frame cut short or damaged.
	torn bool
}

// readLog reads and folds a log, up to its first damaged frame.
func readLog(path string) (*runLog, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rl := &runLog{path: path, at: map[int]int{}}
	err = scanFrames(bufio.NewReaderSize(f, 256<<10), func(kind byte, body []byte) error {
		return rl.add(kind, body)
	})
	if errors.Is(err, errTorn) {
		rl.torn = true
		err = nil
	}
	if err == nil && !rl.hasRun {
		err = fmt.Errorf("run log %s: no run record", filepath.Base(path))
	}
	return rl, err
}

var errTorn = errors.New("torn frame")

// scanFrames calls fn with each intact frame of r, and returns errTorn
// at a frame cut short or damaged.
func scanFrames(r io.Reader, fn func(kind byte, body []byte) error) error {
	var hdr [8]byte
	var body []byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			if err == io.EOF {
				return nil
			}
			return errTorn
		}
		n := binary.LittleEndian.Uint32(hdr[0:])
		if n == 0 || n > maxFrame {
			return errTorn
		}
		if cap(body) < int(n) {
			body = make([]byte, n)
		}
		body = body[:n]
		if _, err := io.ReadFull(r, body); err != nil {
			return errTorn
		}
		if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(hdr[4:]) {
			return errTorn
		}
		if err := fn(body[0], body[1:]); err != nil {
			return err
		}
	}
}

func (rl *runLog) add(kind byte, body []byte) error {
	switch kind {
	case recRun:
		var r Run
		if err := json.Unmarshal(body, &r); err != nil {
			return err
		}
		rl.run, rl.hasRun = r, true
	case recEntry:
		var e Entry
		if err := json.Unmarshal(body, &e); err != nil {
			return err
		}
		if i, ok := rl.at[e.Seq]; ok {
			if e.keepsChanges() {
				e.Changes, e.SealedChanges = rl.entries[i].Changes, rl.entries[i].SealedChanges
			}
			rl.entries[i] = e
			return nil
		}
		rl.at[e.Seq] = len(rl.entries)
		rl.entries = append(rl.entries, e)
	case recStart:
		var st struct {
			Seq     int       `json:"seq"`
			Started time.Time `json:"started_at"`
		}
		if err := json.Unmarshal(body, &st); err != nil {
			return err
		}
		if i, ok := rl.at[st.Seq]; ok {
			rl.entries[i].Started = st.Started
		}
	case recUpToDate:
		var cs []compactEntry
		if err := json.Unmarshal(body, &cs); err != nil {
			return err
		}
		for _, c := range cs {
			rl.upToDate = append(rl.upToDate, c.entry(rl.run.ID))
		}
	default:
		// A kind from a newer strata: skipped.
	}
	return nil
}

// crashed completes the record of a run whose process died: the run is
// crashed, the entries it had started are unknown, the others it never
// reached.
func (rl *runLog) crashed() {
	rl.run.Outcome = RunCrashed
	for i := range rl.entries {
		e := &rl.entries[i]
		if e.Outcome != Unprocessed {
			continue
		}
		if !e.Started.IsZero() {
			e.Outcome, e.Reason = Unknown, "the provider call was under way when the process died: the object may have changed"
		} else {
			e.Reason = "the run died before reaching it"
		}
	}
}

// write writes the folded log to path as a log of its own (through a
// temporary file renamed into place): the run, each entry once as last
// written, the up-to-date entries.
func (rl *runLog) write(path string) error {
	var buf []byte
	frame := func(kind byte, v any) error {
		body, err := json.Marshal(v)
		if err != nil {
			return err
		}
		start := len(buf)
		buf = append(buf, 0, 0, 0, 0, 0, 0, 0, 0, kind)
		buf = append(buf, body...)
		binary.LittleEndian.PutUint32(buf[start:], uint32(len(body)+1))
		binary.LittleEndian.PutUint32(buf[start+4:], crc32.Checksum(buf[start+8:], castagnoli))
		return nil
	}
	if err := frame(recRun, &rl.run); err != nil {
		return err
	}
	for i := range rl.entries {
		if err := frame(recEntry, &rl.entries[i]); err != nil {
			return err
		}
	}
	if len(rl.upToDate) > 0 {
		cs := make([]compactEntry, len(rl.upToDate))
		for i, e := range rl.upToDate {
			cs[i] = newCompactEntry(e)
		}
		if err := frame(recUpToDate, cs); err != nil {
			return err
		}
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// batch is the whole run as one Batch.
func (rl *runLog) batch() Batch {
	return Batch{Runs: []Run{rl.run}, Entries: rl.entries, UpToDate: rl.upToDate, Whole: true}
}

// Logs lists the logs in dir, oldest run first: those of ended runs and
// those of runs still going (or whose process died).
func Logs(dir string) (ended, running []string, err error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	for _, de := range des {
		switch name := de.Name(); {
		case strings.HasSuffix(name, endedSuffix):
			ended = append(ended, filepath.Join(dir, name))
		case strings.HasSuffix(name, runningSuffix):
			running = append(running, filepath.Join(dir, name))
		}
	}
	sort.Strings(ended)
	sort.Strings(running)
	return ended, running, nil
}

// LogOwner reads the host and process ID of a log's run from its first
// record.
func LogOwner(path string) (host string, pid int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	found := false
	err = scanFrames(bufio.NewReader(f), func(kind byte, body []byte) error {
		if kind != recRun {
			return fmt.Errorf("run log %s: does not start with its run", filepath.Base(path))
		}
		var r Run
		if err := json.Unmarshal(body, &r); err != nil {
			return err
		}
		host, pid, found = r.Host, r.PID, true
		return errStop
	})
	if errors.Is(err, errStop) || (err == nil && found) {
		return host, pid, nil
	}
	if err == nil || errors.Is(err, errTorn) {
		err = fmt.Errorf("run log %s: no run record", filepath.Base(path))
	}
	return "", 0, err
}

var errStop = errors.New("stop")

// RemoveLog removes run id's log from dir, ended or still running, so
// that a later Ingest does not bring back a run deleted from the store.
func RemoveLog(dir, id string) error {
	for _, suffix := range []string{endedSuffix, runningSuffix} {
		if err := os.Remove(filepath.Join(dir, id+suffix)); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}
