package recorder

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/contract"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/runrecord"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// Recorder records one run. A nil *Recorder records nothing, so
// that callers need not check whether recording is on.
type Recorder struct {
	hooks.Nil
	w   *runrecord.Writer
	cfg Config
	// shared is the pg backend's table of run logs, nil with other
	// backends.
	shared *runrecord.Shared

	mu sync.Mutex
	// secrets holds the sensitive strings seen in the run: written by
	// planned, and by the apply's goroutines as sensitive values become
	// known (secretsMu).
	secretsMu sync.RWMutex
	secrets   runrecord.Secrets
	run       runrecord.Run
	seq       int
	entries   map[recKey]*recEntry
	order     []*recEntry
	// lastProvider is the provider of the last entry made (r.mu).
	lastProvider struct {
		addr addrs.AbsProviderConfig
		text string
	}
}

// A recEntry is changed by the hooks of its own instance (mu) and by
// finish, after the walk; the map of entries is not changed once the
// apply starts, so the hooks look entries up without r.mu.
type recEntry struct {
	mu      sync.Mutex
	addr    addrs.AbsResourceInstance
	e       runrecord.Entry
	planned plans.Action
	done    bool
	obj     *states.ObjectSrc
	// unwritten is true for an entry that ended before its new object
	// was recorded: it is written once, filled, when the object comes
	// (or when the run finishes).
	unwritten bool
}

// fill completes values known only after apply from the new object, in
// place: the recorder's writers (a run log, Discard) encode an entry when
// it is put and keep nothing of it.
func (r *Recorder) fill(re *recEntry) bool {
	if re.obj == nil || !runrecord.NeedsFill(re.e.Changes) {
		return false
	}
	r.secretsMu.RLock()
	runrecord.FillAfter(re.e.Changes, re.obj.AttrsJSON, re.obj.SensitivePaths, r.secrets)
	r.secretsMu.RUnlock()
	return true
}

// written drops the entry's changes once they are in the log, unless
// values known only after apply are still to be filled in: the log keeps
// what was put, and an entry put again without changes leaves them as
// they are. A large plan's entries would otherwise hold a copy of every
// planned value until the run ends.
func (re *recEntry) written() {
	if !runrecord.NeedsFill(re.e.Changes) {
		re.e.Changes = nil
	}
}

// recKey identifies an entry by its object without building its address
// string (the hooks look entries up on the apply's hot path).
type recKey struct {
	module  string // "" for the root module
	res     addrs.ResourceInstance
	deposed string
}

func entryKey(addr addrs.AbsResourceInstance, deposed string) recKey {
	k := recKey{res: addr.Resource, deposed: deposed}
	if !addr.Module.IsRoot() {
		k.module = addr.Module.String()
	}
	return k
}

// Config describes the run a Recorder records.
type Config struct {
	// LogDir is the directory of run logs; OpenStore opens the run
	// record database, into which Start moves the logs that wait when
	// runrecord.NeedsIngest says so.
	LogDir    string
	OpenStore func() (runrecord.Store, error)
	// The run: its command ("apply", "state rm"...) and arguments (Start
	// redacts them), the strata version, the workspace, the backend's
	// type ("" for local), a hash of the configuration (ConfigHash) and
	// the state it started from (nil if none).
	Command    string
	Args       []string
	Version    string
	Workspace  string
	Backend    string
	ConfigHash string
	State      *states.State
	// Shared, when not nil, is the pg backend's table of run logs: the
	// run's log is uploaded to it when the run ends.
	Shared *runrecord.Shared
	// Cipher, when not nil, encrypts the values of the record.
	Cipher runrecord.Cipher
	// Retention bounds the runs kept (in Shared, and when ingesting).
	Retention runrecord.Retention
	// Warn reports what goes wrong with the record: records never stop a
	// command.
	Warn func(msg string)
	// Getenv reads the command's environment: $USER names the user when
	// the operating system does not. Nil reads nothing.
	Getenv func(string) string
}

func (c *Config) warn(format string, args ...any) {
	if c.Warn != nil {
		c.Warn(fmt.Sprintf(format, args...))
	}
}

// Start starts the record of a command: it completes the records of
// runs that died (and ingests the run logs when many wait), then starts
// this run's log with the run as running. It returns nil, after a
// warning, when the log cannot be written.
//
// The run's records go to a log file, cheap to append to; they reach
// the database when the records are next queried (runs, history) or a
// later run ingests them.
func Start(cfg Config) *Recorder {
	h := ThisHost(cfg.Shared, cfg.Retention)
	if runrecord.NeedsIngest(cfg.LogDir, h) && cfg.OpenStore != nil {
		store, err := cfg.OpenStore()
		if err != nil {
			cfg.warn("run records: %s", err)
		} else {
			Ingest(context.Background(), store, cfg.LogDir, cfg.Shared, cfg.Retention, cfg.Warn)
			_ = store.Close()
		}
	}
	r := &Recorder{cfg: cfg, entries: map[recKey]*recEntry{}, shared: cfg.Shared}
	now := time.Now().UTC()
	r.run = runrecord.Run{
		ID: NewRunID(now), Command: cfg.Command, Args: runrecord.RedactArgs(cfg.Args), Started: now, Outcome: runrecord.RunRunning,
		User: userName(cfg.Getenv), Host: h.Name, PID: os.Getpid(), Version: cfg.Version, Backend: cfg.Backend, Workspace: cfg.Workspace,
		ConfigHash: cfg.ConfigHash,
	}
	if r.run.Backend == "" {
		r.run.Backend = "local"
	}
	if cfg.State != nil {
		r.run.LineageBefore, r.run.SerialBefore = cfg.State.Lineage, cfg.State.Serial
	}
	w, err := runrecord.CreateLog(cfg.LogDir, r.run)
	if err != nil {
		cfg.warn("run records are off for this run: %s", err)
		return nil
	}
	if cfg.Cipher != nil {
		w.SetCipher(cfg.Cipher)
	}
	r.w = w
	return r
}

// Discard returns a Recorder that keeps the outcomes of a run (for the
// -json stream, with recording off) without writing a record.
func Discard() *Recorder {
	return &Recorder{w: runrecord.Discard(), entries: map[recKey]*recEntry{}}
}

// ID is the run's ID, "" for a nil Recorder.
func (r *Recorder) ID() string {
	if r == nil {
		return ""
	}
	return r.run.ID
}

// Outcome is what became of one resource instance the run considered.
type Outcome struct {
	Addr    addrs.AbsResourceInstance
	Deposed string
	Action  string
	Outcome string
	// Reason says why it was skipped or not reached; Error why it failed.
	Reason string
	Error  string
}

// SchemaFunc returns the schema of a change's resource type, or nil.
type SchemaFunc = func(c *plans.ResourceInstanceChange) *configschema.Block

// Outcomes lists what became of each resource instance the apply
// considered, once Finish has settled them.
func (r *Recorder) Outcomes() []Outcome {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Outcome, 0, len(r.order))
	for _, re := range r.order {
		re.mu.Lock()
		if re.addr.Resource.Resource.Type != "" {
			out = append(out, Outcome{Addr: re.addr, Deposed: re.e.Deposed, Action: re.e.Action, Outcome: string(re.e.Outcome), Reason: re.e.Reason, Error: re.e.Diagnostics})
		}
		re.mu.Unlock()
	}
	return out
}

// NewRunID is sortable by start time and unique enough: the UTC time to
// the second and four random hex digits.
func NewRunID(t time.Time) string {
	var b [2]byte
	_, _ = rand.Read(b[:])
	return t.Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// userName is the operating system's name for the user running the
// command, or else $USER.
func userName(getenv func(string) string) string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	if getenv == nil {
		return ""
	}
	return getenv("USER")
}

// ProcessAlive reports whether a process of this host is still running.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

// ConfigHash is a SHA-256 over the configuration files' names and bytes.
func ConfigHash(files map[string]*hcl.File) string {
	if len(files) == 0 {
		return ""
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(files[n].Bytes))
		h.Write(files[n].Bytes)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// SetPlanFile records the saved plan a run applies or writes.
func (r *Recorder) SetPlanFile(path string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.run.PlanFile = path
	run := r.run
	r.mu.Unlock()
	r.w.PutRun(run)
}

// Planned records the plan's changes, one entry each, and the drift it
// found. In a noop run (plan) an entry with changes is skipped: it says
// what would change. Instances of the prior state the plan left out
// because of -target are skipped too.
func (r *Recorder) Planned(plan *plans.Plan, schema SchemaFunc, noop bool, targeted bool) {
	if r == nil || plan == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.run.Noop = noop
	r.w.PutRun(r.run)
	now := time.Now().UTC()
	// Sensitive strings anywhere in the plan are kept out of the record
	// wherever they appear, marked or not.
	// Which changes carry marks is found once, here, rather than again
	// by each diff (marked, by change).
	r.secrets = runrecord.Secrets{}
	driftMarked := make([]bool, len(plan.DriftedResources))
	for i, c := range plan.DriftedResources {
		driftMarked[i] = r.secrets.Add(c.Before)
		driftMarked[i] = r.secrets.Add(c.After) || driftMarked[i]
	}
	var marked []bool
	if plan.Changes != nil {
		marked = make([]bool, len(plan.Changes.Resources))
		for i, c := range plan.Changes.Resources {
			if c.Action != plans.NoOp {
				marked[i] = r.secrets.Add(c.Before)
				marked[i] = r.secrets.Add(c.After) || marked[i]
			}
		}
	}
	for i, c := range plan.DriftedResources {
		e := r.newEntry(c, runrecord.KindDrift)
		e.Outcome = ""
		e.Changes = runrecord.DiffMarked(c.Before, c.After, writeOnlyFunc(schema, c), r.secrets, driftMarked[i])
		if len(e.Changes) == 0 {
			continue
		}
		e.Started, e.Ended = now, now
		r.w.PutEntry(e)
	}
	// The entries with nothing to do, by pointer: a copy of each (a
	// no-op plan of 100,000 resources copied 200 MB while growing it).
	var upToDate []*runrecord.Entry
	if plan.Changes != nil {
		if len(r.entries) == 0 {
			r.entries = make(map[recKey]*recEntry, len(plan.Changes.Resources))
		}
		for i, c := range plan.Changes.Resources {
			key := entryKey(c.Addr, c.DeposedKey)
			re := &recEntry{addr: c.Addr, e: r.newEntry(c, runrecord.KindChange), planned: c.Action}
			r.entries[key] = re
			r.order = append(r.order, re)
			switch {
			case c.Action == plans.NoOp:
				re.e.Outcome, re.done = runrecord.UpToDate, true
				re.e.Changes = []runrecord.AttrChange{}
				if upToDate == nil {
					upToDate = make([]*runrecord.Entry, 0, len(plan.Changes.Resources)-i)
				}
				upToDate = append(upToDate, &re.e)
				continue
			case noop:
				re.e.Outcome, re.e.Reason, re.done = runrecord.Skipped, "plan only: this run changes nothing", true
				re.e.Changes = runrecord.DiffMarked(c.Before, c.After, writeOnlyFunc(schema, c), r.secrets, marked[i])
			default:
				re.e.Outcome = runrecord.Unprocessed
				re.e.Changes = runrecord.DiffMarked(c.Before, c.After, writeOnlyFunc(schema, c), r.secrets, marked[i])
			}
			r.w.PutEntry(re.e)
			re.written()
		}
	}
	r.w.PutUpToDate(upToDate)
	if targeted && plan.PriorState != nil {
		for _, addr := range plan.PriorState.AllInstances() {
			if r.entries[entryKey(addr, "")] != nil || addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
				continue
			}
			r.seq++
			e := runrecord.Entry{RunID: r.run.ID, Seq: r.seq, Kind: runrecord.KindChange, Address: addr.String(), Type: addr.Resource.Resource.Type,
				Module: addr.Module.String(), Action: "no-op", Outcome: runrecord.Skipped, Reason: "not targeted (-target/-exclude)", Changes: []runrecord.AttrChange{}}
			r.w.PutEntry(e)
		}
	}
}

func (r *Recorder) newEntry(c *plans.ResourceInstanceChange, kind string) runrecord.Entry {
	r.seq++
	e := runrecord.Entry{
		RunID: r.run.ID, Seq: r.seq, Kind: kind, Address: c.Addr.String(), Deposed: c.DeposedKey,
		Type: c.Addr.Resource.Resource.Type, Module: c.Addr.Module.String(), Provider: r.providerString(c.ProviderAddr),
		Action: recordAction(c.Action), ActionReason: c.Reason.String(),
	}
	if c.Addr.Resource.Resource.Mode == addrs.DataResourceMode {
		e.Type = "data." + e.Type
	}
	for _, p := range c.RequiredReplace {
		e.ReplacePaths = append(e.ReplacePaths, runrecord.FormatPath(p))
	}
	if c.Importing != nil {
		e.Import = c.Importing.ID
	}
	if c.PrevRunAddr != nil && c.PrevRunAddr.String() != c.Addr.String() {
		e.MovedFrom = c.PrevRunAddr.String()
	}
	return e
}

// providerString is p.String(), the same string for the same provider
// as the entry before (every entry holds one until the run ends).
func (r *Recorder) providerString(p addrs.AbsProviderConfig) string {
	l := &r.lastProvider
	if l.text == "" || p.Provider != l.addr.Provider || p.Alias != l.addr.Alias || p.Key != l.addr.Key || !p.Module.Equal(l.addr.Module) {
		l.addr, l.text = p, p.String()
	}
	return l.text
}

// writeOnlyFunc reports the write-only attributes of a change's type.
func writeOnlyFunc(schema SchemaFunc, c *plans.ResourceInstanceChange) func(cty.Path) bool {
	if schema == nil {
		return nil
	}
	block := schema(c)
	if block == nil {
		return nil
	}
	return func(p cty.Path) bool { return writeOnlyPath(block, p) }
}

func writeOnlyPath(b *configschema.Block, p cty.Path) bool {
	for i, step := range p {
		s, ok := step.(cty.GetAttrStep)
		if !ok {
			continue
		}
		if a, ok := b.Attributes[s.Name]; ok {
			if a.WriteOnly {
				return true
			}
			if a.NestedType != nil {
				return writeOnlyPath(&configschema.Block{Attributes: a.NestedType.Attributes}, p[i+1:])
			}
			return false
		}
		nb, ok := b.BlockTypes[s.Name]
		if !ok {
			return false
		}
		b = &nb.Block
	}
	return false
}

func recordAction(a plans.Action) string {
	switch a {
	case plans.NoOp:
		return "no-op"
	case plans.Create:
		return "create"
	case plans.Read:
		return "read"
	case plans.Update:
		return "update"
	case plans.DeleteThenCreate:
		return "replace"
	case plans.CreateThenDelete:
		return "replace_create_before_destroy"
	case plans.Delete:
		return "delete"
	case plans.Forget:
		return "forget"
	}
	return "unknown"
}

// PreApply implements hooks.Hook: the entry's operation started.
func (r *Recorder) PreApply(addr addrs.AbsResourceInstance, deposed string, _ plans.Action, _ string) {
	re := r.entries[entryKey(addr, deposed)]
	if re == nil {
		return
	}
	re.mu.Lock()
	defer re.mu.Unlock()
	if !re.e.Started.IsZero() {
		return
	}
	re.e.Started = time.Now().UTC()
	r.w.PutStart(re.e)
}

// PostApply implements hooks.Hook: the operation finished. The delete
// half of a replace leaves the entry open for its create.
func (r *Recorder) PostApply(addr addrs.AbsResourceInstance, deposed string, action plans.Action, _ string, _ time.Duration, err error) {
	re := r.entries[entryKey(addr, deposed)]
	if re == nil {
		return
	}
	re.mu.Lock()
	defer re.mu.Unlock()
	if re.done {
		return
	}
	e := &re.e
	var changes []runrecord.AttrChange
	switch {
	case err != nil:
		e.Outcome, e.Diagnostics = runrecord.Failed, err.Error()
	case action == plans.Delete && re.planned != plans.Delete:
		return
	default:
		e.Outcome = runrecord.Updated
		if re.obj == nil && runrecord.NeedsFill(e.Changes) {
			// The engine records the new object next (tee.Set):
			// the entry is written then, once, with the values it holds.
			re.done, re.unwritten = true, true
			e.Ended = time.Now().UTC()
			return
		}
		if r.fill(re) {
			changes = e.Changes
		}
	}
	re.done = true
	e.Ended = time.Now().UTC()
	out := *e
	out.Changes = changes
	r.w.PutEntry(out)
	if changes != nil {
		re.written()
	}
}

// Reasons of the entries the apply did not make.
const (
	reasonFailedDependency = "not applied because something it depends on failed"
	reasonInterrupted      = "the run was interrupted before reaching it"
)

// SkippedApply implements hooks.SkipHook: the engine did not make the
// entry's change because something it depends on failed (skipped), or
// because the run was interrupted first (left unprocessed, as finish
// settles it).
func (r *Recorder) SkippedApply(addr addrs.AbsResourceInstance, deposed string, _ plans.Action, cause hooks.SkipCause) {
	if cause != hooks.SkipDependencyFailed {
		return
	}
	re := r.entries[entryKey(addr, deposed)]
	if re == nil {
		return
	}
	re.mu.Lock()
	defer re.mu.Unlock()
	if re.done {
		return
	}
	e := &re.e
	e.Outcome, e.Reason = runrecord.Skipped, reasonFailedDependency
	if !e.Started.IsZero() {
		// The delete half of a replace was made, its create was not.
		e.Reason = "deleted, but not created again because something it depends on failed"
		e.Ended = time.Now().UTC()
	}
	re.done = true
	out := *e
	out.Changes = nil
	r.w.PutEntry(out)
}

var _ hooks.SkipHook = (*Recorder)(nil)

// tee passes state changes on to the journal and keeps each new
// object for its entry, to fill in values known only after apply.
type tee struct {
	states.Recorder
	r *Recorder
}

// Sync implements states.RecordSyncer for a journal that does.
func (t tee) Sync() error {
	if s, ok := t.Recorder.(states.RecordSyncer); ok {
		return s.Sync()
	}
	return nil
}

// Set implements states.Recorder. The engine may report the end of an
// operation (PostApply) before or after it records the new object.
func (t tee) Set(addr addrs.AbsResourceInstance, deposed string, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) error {
	if obj != nil {
		r := t.r
		if len(obj.SensitivePaths) > 0 {
			// Values known only now (a generated password) are secrets
			// for the entries filled from now on: those of objects that
			// copy them come later.
			r.secretsMu.Lock()
			r.secrets.AddJSON(obj.AttrsJSON, obj.SensitivePaths)
			r.secretsMu.Unlock()
		}
		if re := r.entries[entryKey(addr, deposed)]; re != nil {
			re.mu.Lock()
			re.obj = obj
			if re.done && re.e.Outcome == runrecord.Updated && (r.fill(re) || re.unwritten) {
				re.unwritten = false
				r.w.PutEntry(re.e)
				re.written()
			}
			re.mu.Unlock()
		}
	}
	return t.Recorder.Set(addr, deposed, obj, provider)
}

// Tee wraps the journal so the recorder sees new objects; it returns rec
// itself when recording is off.
func (r *Recorder) Tee(rec states.Recorder) states.Recorder {
	if r == nil {
		return rec
	}
	return tee{Recorder: rec, r: r}
}

// Hook is the recorder as an engine hook, or a no-op hook.
func (r *Recorder) Hook() hooks.Hook {
	if r == nil {
		return hooks.Nil{}
	}
	return r
}

// Finish settles the entries the run did not reach and closes the record:
// an entry a diagnostic names failed; the others were never reached
// because the run was interrupted (unprocessed) or because something they
// depend on failed (skipped); in a run without errors they were done
// without a provider call (a forget, a read). state is the state the run
// saved (nil if none).
func (r *Recorder) Finish(state *states.State, diags hcl.Diagnostics, interrupted bool) {
	if r == nil {
		return
	}
	byObject := map[string]string{}
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		if o, ok := d.Extra.(interface{ DiagnosticObject() string }); ok && o.DiagnosticObject() != "" {
			msg := d.Summary
			if d.Detail != "" {
				msg += ": " + d.Detail
			}
			if byObject[o.DiagnosticObject()] == "" {
				byObject[o.DiagnosticObject()] = msg
			}
		}
	}
	// The hooks only carry an error's summary: add its detail.
	details := map[string]string{}
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Detail != "" && details[d.Summary] == "" {
			details[d.Summary] = d.Summary + ": " + d.Detail
		}
	}
	r.mu.Lock()
	now := time.Now().UTC()
	for _, re := range r.order {
		re.mu.Lock()
		r.settle(re, byObject, details, diags, interrupted, now)
		re.mu.Unlock()
	}
	run := r.run
	r.mu.Unlock()
	r.close(run, state, diags, interrupted, now)
}

// settle gives an entry the run did not finish its outcome.
func (r *Recorder) settle(re *recEntry, byObject, details map[string]string, diags hcl.Diagnostics, interrupted bool, now time.Time) {
	if re.done {
		if re.unwritten {
			re.unwritten = false
			r.w.PutEntry(re.e)
		}
		if re.e.Outcome == runrecord.Failed && details[re.e.Diagnostics] != "" {
			// The diagnostic of this object, when one names it: several
			// errors may share a summary.
			if msg, ok := byObject[re.e.Address]; ok && strings.HasPrefix(msg, re.e.Diagnostics) {
				re.e.Diagnostics = msg
			} else {
				re.e.Diagnostics = details[re.e.Diagnostics]
			}
			e := re.e
			e.Changes = nil
			r.w.PutEntry(e)
		}
		return
	}
	e := re.e
	e.Changes = nil
	switch msg, named := byObject[e.Address]; {
	case named:
		e.Outcome, e.Diagnostics = runrecord.Failed, msg
	case !e.Started.IsZero():
		e.Outcome, e.Reason = runrecord.Unknown, "the operation did not report its end"
	case interrupted:
		e.Outcome, e.Reason = runrecord.Unprocessed, reasonInterrupted
	case diags.HasErrors():
		// Not skipped by the engine (SkippedApply): the run ended on
		// an error before reaching it (it could not start the walk, or
		// the instance's own resource failed before its instances).
		e.Outcome, e.Reason = runrecord.Unprocessed, "the run stopped on an error before reaching it"
	default:
		e.Outcome = runrecord.Updated
	}
	if e.Ended.IsZero() && e.Outcome != runrecord.Unprocessed && e.Outcome != runrecord.Skipped {
		e.Ended = now
	}
	re.done = true
	changes := re.e.Changes
	re.e = e
	re.e.Changes = changes
	r.w.PutEntry(e)
}

// close writes the run's end and closes its log.
func (r *Recorder) close(run runrecord.Run, state *states.State, diags hcl.Diagnostics, interrupted bool, now time.Time) {
	run.Ended = now
	switch {
	case interrupted:
		run.Outcome = runrecord.RunInterrupted
	case diags.HasErrors():
		run.Outcome = runrecord.RunFailed
	default:
		run.Outcome = runrecord.RunSucceeded
	}
	run.LineageAfter, run.SerialAfter = run.LineageBefore, run.SerialBefore
	if state != nil {
		run.LineageAfter, run.SerialAfter = state.Lineage, state.Serial
	}
	r.w.PutRun(run)
	if err := r.w.Close(); err != nil {
		r.cfg.warn("run records: %s", err)
		return
	}
	if r.shared != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := r.shared.Upload(ctx, filepath.Join(r.cfg.LogDir, run.ID+".log"), r.cfg.Retention); err != nil {
			r.cfg.warn("run records: sharing the run through the pg backend: %s", err)
		}
	}
}

// SharedRuns returns the pg backend's table of run logs when m keeps the
// state in the pg backend, or nil.
func SharedRuns(m statemgr.Manager) *runrecord.Shared {
	for m != nil {
		if pg, ok := m.(*statemgr.PG); ok {
			return &runrecord.Shared{Schema: pg.Config.SchemaName, Session: pg.UseSession}
		}
		u, ok := m.(interface{ Unwrap() statemgr.Manager })
		if !ok {
			return nil
		}
		m = u.Unwrap()
	}
	return nil
}

// Imported records the one entry of an import command: the object it
// brought into the state (obj, nil when it failed) or its error.
func (r *Recorder) Imported(addr addrs.AbsResourceInstance, id string, obj *states.ObjectSrc, provider addrs.AbsProviderConfig, diags hcl.Diagnostics) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.seq++
	now := time.Now().UTC()
	e := runrecord.Entry{RunID: r.run.ID, Seq: r.seq, Kind: runrecord.KindChange, Address: addr.String(), Type: addr.Resource.Resource.Type,
		Module: addr.Module.String(), Provider: provider.String(), Action: "import", Import: id, Outcome: runrecord.Updated, Started: r.run.Started, Ended: now,
		Changes: []runrecord.AttrChange{}}
	if diags.HasErrors() || obj == nil {
		e.Outcome = runrecord.Failed
		for _, d := range diags {
			if d.Severity == hcl.DiagError {
				e.Diagnostics = d.Summary + ": " + d.Detail
				break
			}
		}
	} else {
		e.Changes = runrecord.ObjectChanges(obj.AttrsJSON, obj.SensitivePaths, nil)
	}
	r.mu.Unlock()
	r.w.PutEntry(e)
}

// StateEdits records the instances whose objects differ between two
// states.
func (r *Recorder) StateEdits(before, after *states.State) {
	if r == nil {
		return
	}
	objects := func(s *states.State) map[string]*states.ObjectSrc {
		m := map[string]*states.ObjectSrc{}
		if s == nil {
			return m
		}
		for _, addr := range s.AllInstances() {
			m[addr.String()] = s.Object(addr)
		}
		return m
	}
	b, a := objects(before), objects(after)
	var addrsSeen []string
	for k := range b {
		addrsSeen = append(addrsSeen, k)
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			addrsSeen = append(addrsSeen, k)
		}
	}
	sort.Strings(addrsSeen)
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now().UTC()
	for _, k := range addrsSeen {
		bo, ao := b[k], a[k]
		action := ""
		switch {
		case bo == nil && ao == nil:
		case bo == nil:
			action = "add"
		case ao == nil:
			action = "remove"
		case bo.Status != ao.Status && ao.Status == states.ObjectTainted:
			action = "taint"
		case bo.Status != ao.Status:
			action = "untaint"
		case string(bo.AttrsJSON) != string(ao.AttrsJSON):
			action = "update"
		}
		if action == "" {
			continue
		}
		r.seq++
		e := runrecord.Entry{RunID: r.run.ID, Seq: r.seq, Kind: runrecord.KindChange, Address: k, Action: action, Outcome: runrecord.Updated,
			Started: now, Ended: now, Changes: []runrecord.AttrChange{}}
		if addr, diags := addrs.ParseAbsResourceInstanceStr(k); !diags.HasErrors() {
			e.Type, e.Module = addr.Resource.Resource.Type, addr.Module.String()
		}
		r.order = append(r.order, &recEntry{e: e, done: true})
		r.w.PutEntry(e)
	}
}

// ContractViolations adds the provider contract violations tolerated in
// the run to the diagnostics of their instances' entries, a line each.
func (r *Recorder) ContractViolations(vs []contract.Violation) {
	if r == nil || len(vs) == 0 {
		return
	}
	var order []string
	lines := map[string][]string{}
	for _, v := range vs {
		if lines[v.Address] == nil {
			order = append(order, v.Address)
		}
		lines[v.Address] = append(lines[v.Address], "tolerated contract violation: "+v.String())
	}
	byAddr := map[string]*recEntry{}
	for _, re := range r.order {
		if re.e.Deposed == "" {
			byAddr[re.e.Address] = re
		}
	}
	for _, addr := range order {
		re := byAddr[addr]
		if re == nil {
			continue
		}
		re.mu.Lock()
		if re.e.Diagnostics != "" {
			re.e.Diagnostics += "\n"
		}
		re.e.Diagnostics += strings.Join(lines[addr], "\n")
		e := re.e
		e.Changes = nil
		r.w.PutEntry(e)
		re.mu.Unlock()
	}
}
