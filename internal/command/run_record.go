package command

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/user"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/contract"
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/runrecord"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// The run record adapter: it turns a plan and the engine's hook events
// into runrecord entries (see website/docs/runs.md). Everything it does on
// the apply's goroutines is a map update under a mutex and a channel send;
// the runrecord.Writer does the writing.

// runsDBFile is the run record database's name in the data directory,
// and runsLogDir the directory of the logs runs write as they go.
const (
	runsDBFile = "runs.db"
	runsLogDir = "runs"
)

// openRunStore opens the working directory's run records.
func openRunStore(d *Deps, opts ...runrecord.Option) (runrecord.Store, error) {
	return runrecord.Open(d.dataDir(runsDBFile), opts...)
}

// runCipher encrypts the values of run records with the state's
// encryption (see website/docs/encryption.md).
type runCipher struct{ t *encryption.Target }

func (c runCipher) Seal(plain []byte) ([]byte, error) { return c.t.EncryptRecord(plain) }
func (c runCipher) Open(sealed []byte) ([]byte, error) {
	return c.t.DecryptRecord(sealed)
}

// runRecordCipher is the cipher of the working directory's run records:
// the state's encryption, nil when the state is not encrypted (or is
// written unencrypted, for write).
func (d *Deps) runRecordCipher(write bool) runrecord.Cipher {
	enc, _ := d.workdirEncryption()
	t := enc.State()
	if t == nil || (write && !t.Encrypts()) {
		return nil
	}
	return runCipher{t.Named("run records")}
}

// thisHost is the host whose dead runs ingestion may complete. With the
// pg backend (shared not nil), the completed record of a crashed run is
// uploaded to its table as an ended run's is, so that the other working
// directories see it.
func thisHost(d *Deps, shared *runrecord.Shared) runrecord.Host {
	name, _ := os.Hostname()
	h := runrecord.Host{Name: name, Alive: processAlive}
	if shared != nil {
		h.Crashed = func(ctx context.Context, path string) error {
			ctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			return shared.Upload(ctx, path, runRetention(d))
		}
	}
	return h
}

// ingestRuns moves the run logs into the store, completes the records of
// runs whose process died (sharing them through shared, the pg backend's
// table, when not nil), and prunes old runs.
func ingestRuns(ctx context.Context, d *Deps, store runrecord.Store, shared *runrecord.Shared) {
	h := thisHost(d, shared)
	if err := runrecord.Ingest(ctx, store, d.dataDir(runsLogDir), h); err != nil {
		d.logger().Warn(fmt.Sprintf("run records: ingesting run logs: %s", err))
	}
	// Runs left "running" in the database by a strata that wrote there
	// directly.
	if err := store.Recover(ctx, h.Name, h.Alive); err != nil {
		d.logger().Warn(fmt.Sprintf("run records: recovering crashed runs: %s", err))
	}
	if _, err := store.Prune(ctx, runRetention(d)); err != nil {
		d.logger().Warn(fmt.Sprintf("run records: pruning: %s", err))
	}
}

// runsEnabled reports whether commands record runs: STRATA_RUNS=0 (or
// false, off) turns recording off.
func runsEnabled(d *Deps) bool {
	switch strings.ToLower(d.Getenv("STRATA_RUNS")) {
	case "0", "false", "off", "no":
		return false
	}
	return true
}

// runRetention reads STRATA_RUNS_KEEP (a number of runs) and
// STRATA_RUNS_MAX_AGE (a Go duration such as 720h, or a number of days
// followed by d).
func runRetention(d *Deps) runrecord.Retention {
	r := runrecord.DefaultRetention
	if v := d.Getenv("STRATA_RUNS_KEEP"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			r.Keep = n
		}
	}
	if v := d.Getenv("STRATA_RUNS_MAX_AGE"); v != "" {
		if days, ok := strings.CutSuffix(v, "d"); ok {
			if n, err := strconv.Atoi(days); err == nil {
				r.MaxAge = time.Duration(n) * 24 * time.Hour
			}
		} else if dur, err := time.ParseDuration(v); err == nil {
			r.MaxAge = dur
		}
	}
	return r
}

// runRecorder records one run. A nil *runRecorder records nothing, so
// that callers need not check whether recording is on.
type runRecorder struct {
	hooks.Nil
	w *runrecord.Writer
	d *Deps
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
func (r *runRecorder) fill(re *recEntry) bool {
	if re.obj == nil || !runrecord.NeedsFill(re.e.Changes) {
		return false
	}
	r.secretsMu.RLock()
	runrecord.FillAfter(re.e.Changes, re.obj.AttrsJSON, re.obj.SensitivePaths, r.secrets)
	r.secretsMu.RUnlock()
	return true
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

// startRunRecord starts the record of a command: it completes the
// records of runs that died (and ingests the run logs when many wait),
// then starts this run's log with the run as running. It returns nil,
// after logging why, when recording is off or the log cannot be written:
// records never stop a command.
//
// The run's records go to a log file, cheap to append to; they reach
// the database when the records are next queried (runs, history) or a
// later run ingests them.
func startRunRecord(d *Deps, command string, op *operation) *runRecorder {
	var shared *runrecord.Shared
	if op != nil {
		shared = sharedRuns(op.mgr)
	}
	return startSharedRunRecord(d, command, op, shared)
}

// startSharedRunRecord is startRunRecord for a run whose record is
// shared through shared (the pg backend's table) when not nil.
func startSharedRunRecord(d *Deps, command string, op *operation, shared *runrecord.Shared) *runRecorder {
	if !runsEnabled(d) {
		return nil
	}
	h := thisHost(d, shared)
	dir := d.dataDir(runsLogDir)
	if runrecord.NeedsIngest(dir, h) {
		store, err := openRunStore(d)
		if err != nil {
			d.logger().Warn(fmt.Sprintf("run records: %s", err))
		} else {
			ingestRuns(context.Background(), d, store, shared)
			_ = store.Close()
		}
	}
	r := &runRecorder{d: d, entries: map[recKey]*recEntry{}, shared: shared}
	now := time.Now().UTC()
	r.run = runrecord.Run{
		ID: newRunID(now), Command: command, Args: runrecord.RedactArgs(d.args), Started: now, Outcome: runrecord.RunRunning,
		User: userName(), Host: h.Name, PID: os.Getpid(), Version: d.Version, Backend: "local",
	}
	if op != nil {
		r.run.Workspace = op.engine.Workspace
		if op.cfg != nil && op.cfg.Module != nil && op.cfg.Module.Backend != nil {
			r.run.Backend = op.cfg.Module.Backend.Type
		}
		r.run.ConfigHash = configHash(op.files)
		if op.state != nil {
			r.run.LineageBefore, r.run.SerialBefore = op.state.Lineage, op.state.Serial
		}
	}
	w, err := runrecord.CreateLog(dir, r.run)
	if err != nil {
		d.logger().Warn(fmt.Sprintf("run records are off for this run: %s", err))
		return nil
	}
	if c := d.runRecordCipher(true); c != nil {
		w.SetCipher(c)
	}
	r.w = w
	return r
}

// startApplyRecord starts the record of an apply-like command. With
// recording off, a -json stream still needs the outcomes: the recorder
// then keeps them without writing a record.
func startApplyRecord(d *Deps, command string, op *operation, json bool) *runRecorder {
	if r := startRunRecord(d, command, op); r != nil || !json {
		return r
	}
	return &runRecorder{d: d, w: runrecord.Discard(), entries: map[recKey]*recEntry{}}
}

// outcomes lists what became of each resource instance the apply
// considered, once finish has settled them.
func (r *runRecorder) outcomes() []views.ResourceOutcome {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]views.ResourceOutcome, 0, len(r.order))
	for _, re := range r.order {
		re.mu.Lock()
		if re.addr.Resource.Resource.Type != "" {
			out = append(out, views.ResourceOutcome{Addr: re.addr, Deposed: re.e.Deposed, Action: re.e.Action, Outcome: string(re.e.Outcome), Reason: re.e.Reason, Error: re.e.Diagnostics})
		}
		re.mu.Unlock()
	}
	return out
}

// newRunID is sortable by start time and unique enough: the UTC time to
// the second and four random hex digits.
func newRunID(t time.Time) string {
	var b [2]byte
	_, _ = rand.Read(b[:])
	return t.Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

func userName() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return os.Getenv("USER")
}

// processAlive reports whether a process of this host is still running.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

// configHash is a SHA-256 over the configuration files' names and bytes.
func configHash(files map[string]*hcl.File) string {
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

// setPlanFile records the saved plan a run applies or writes.
func (r *runRecorder) setPlanFile(path string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.run.PlanFile = path
	run := r.run
	r.mu.Unlock()
	r.w.PutRun(run)
}

// planned records the plan's changes, one entry each, and the drift it
// found. In a noop run (plan) an entry with changes is skipped: it says
// what would change. Instances of the prior state the plan left out
// because of -target are skipped too.
func (r *runRecorder) planned(plan *plans.Plan, schema views.SchemaFunc, noop bool, targeted bool) {
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
	r.secrets = runrecord.Secrets{}
	for _, c := range plan.DriftedResources {
		r.secrets.Add(c.Before)
		r.secrets.Add(c.After)
	}
	if plan.Changes != nil {
		for _, c := range plan.Changes.Resources {
			if c.Action != plans.NoOp {
				r.secrets.Add(c.Before)
				r.secrets.Add(c.After)
			}
		}
	}
	for _, c := range plan.DriftedResources {
		e := r.newEntry(c, runrecord.KindDrift)
		e.Outcome = ""
		e.Changes = runrecord.Diff(c.Before, c.After, writeOnlyFunc(schema, c), r.secrets)
		if len(e.Changes) == 0 {
			continue
		}
		e.Started, e.Ended = now, now
		r.w.PutEntry(*e)
	}
	var upToDate []runrecord.Entry
	if plan.Changes != nil {
		if len(r.entries) == 0 {
			r.entries = make(map[recKey]*recEntry, len(plan.Changes.Resources))
		}
		// About what an entry with its changes takes in the log.
		r.w.Grow(512 * len(plan.Changes.Resources))
		for _, c := range plan.Changes.Resources {
			key := entryKey(c.Addr, c.DeposedKey)
			e := r.newEntry(c, runrecord.KindChange)
			re := &recEntry{addr: c.Addr, e: *e, planned: c.Action}
			r.entries[key] = re
			r.order = append(r.order, re)
			switch {
			case c.Action == plans.NoOp:
				re.e.Outcome, re.done = runrecord.UpToDate, true
				re.e.Changes = []runrecord.AttrChange{}
				upToDate = append(upToDate, re.e)
				continue
			case noop:
				re.e.Outcome, re.e.Reason, re.done = runrecord.Skipped, "plan only: this run changes nothing", true
				re.e.Changes = runrecord.Diff(c.Before, c.After, writeOnlyFunc(schema, c), r.secrets)
			default:
				re.e.Outcome = runrecord.Unprocessed
				re.e.Changes = runrecord.Diff(c.Before, c.After, writeOnlyFunc(schema, c), r.secrets)
			}
			r.w.PutEntry(re.e)
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

func (r *runRecorder) newEntry(c *plans.ResourceInstanceChange, kind string) *runrecord.Entry {
	r.seq++
	e := &runrecord.Entry{
		RunID: r.run.ID, Seq: r.seq, Kind: kind, Address: c.Addr.String(), Deposed: c.DeposedKey,
		Type: c.Addr.Resource.Resource.Type, Module: c.Addr.Module.String(), Provider: c.ProviderAddr.String(),
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

// writeOnlyFunc reports the write-only attributes of a change's type.
func writeOnlyFunc(schema views.SchemaFunc, c *plans.ResourceInstanceChange) func(cty.Path) bool {
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
func (r *runRecorder) PreApply(addr addrs.AbsResourceInstance, deposed string, _ plans.Action, _ string) {
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
func (r *runRecorder) PostApply(addr addrs.AbsResourceInstance, deposed string, action plans.Action, _ string, _ time.Duration, err error) {
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
			// The engine records the new object next (recorderTee.Set):
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
func (r *runRecorder) SkippedApply(addr addrs.AbsResourceInstance, deposed string, _ plans.Action, cause hooks.SkipCause) {
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

var _ hooks.SkipHook = (*runRecorder)(nil)

// recorderTee passes state changes on to the journal and keeps each new
// object for its entry, to fill in values known only after apply.
type recorderTee struct {
	states.Recorder
	r *runRecorder
}

// Sync implements states.RecordSyncer for a journal that does.
func (t recorderTee) Sync() error {
	if s, ok := t.Recorder.(states.RecordSyncer); ok {
		return s.Sync()
	}
	return nil
}

// Set implements states.Recorder. The engine may report the end of an
// operation (PostApply) before or after it records the new object.
func (t recorderTee) Set(addr addrs.AbsResourceInstance, deposed string, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) error {
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
			}
			re.mu.Unlock()
		}
	}
	return t.Recorder.Set(addr, deposed, obj, provider)
}

// tee wraps the journal so the recorder sees new objects; it returns rec
// itself when recording is off.
func (r *runRecorder) tee(rec states.Recorder) states.Recorder {
	if r == nil {
		return rec
	}
	return recorderTee{Recorder: rec, r: r}
}

// hook is the recorder as an engine hook, or a no-op hook.
func (r *runRecorder) hook() hooks.Hook {
	if r == nil {
		return hooks.Nil{}
	}
	return r
}

// finish settles the entries the run did not reach and closes the record:
// an entry a diagnostic names failed; the others were never reached
// because the run was interrupted (unprocessed) or because something they
// depend on failed (skipped); in a run without errors they were done
// without a provider call (a forget, a read). state is the state the run
// saved (nil if none).
func (r *runRecorder) finish(state *states.State, diags hcl.Diagnostics, interrupted bool) {
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
func (r *runRecorder) settle(re *recEntry, byObject, details map[string]string, diags hcl.Diagnostics, interrupted bool, now time.Time) {
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
func (r *runRecorder) close(run runrecord.Run, state *states.State, diags hcl.Diagnostics, interrupted bool, now time.Time) {
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
		r.d.logger().Warn(fmt.Sprintf("run records: %s", err))
		return
	}
	if r.shared != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := r.shared.Upload(ctx, r.d.dataDir(runsLogDir, run.ID+".log"), runRetention(r.d)); err != nil {
			r.d.logger().Warn(fmt.Sprintf("run records: sharing the run through the pg backend: %s", err))
		}
	}
}

// sharedRuns returns the pg backend's table of run logs when m keeps the
// state in the pg backend, or nil.
func sharedRuns(m statemgr.Manager) *runrecord.Shared {
	for m != nil {
		if pg, ok := m.(*statemgr.PG); ok {
			return &runrecord.Shared{ConnStr: pg.Config.ConnStr, Schema: pg.Config.SchemaName}
		}
		u, ok := m.(interface{ Unwrap() statemgr.Manager })
		if !ok {
			return nil
		}
		m = u.Unwrap()
	}
	return nil
}

// imported records the one entry of an import command: the object it
// brought into the state (obj, nil when it failed) or its error.
func (r *runRecorder) imported(addr addrs.AbsResourceInstance, id string, obj *states.ObjectSrc, provider addrs.AbsProviderConfig, diags hcl.Diagnostics) {
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

// recordingManager records a run for each state written by a command
// that edits the state directly (state rm, mv, push, replace-provider,
// taint, untaint): one entry per resource instance whose object was
// added, removed, changed or tainted, compared with the state it read.
type recordingManager struct {
	statemgr.Manager
	d      *Deps
	before *states.State
}

// Unwrap returns the manager that stores the state.
func (m *recordingManager) Unwrap() statemgr.Manager { return m.Manager }

// Read implements statemgr.Manager and keeps a copy of what was read.
func (m *recordingManager) Read() (*states.State, []statemgr.Pending, error) {
	s, p, err := m.Manager.Read()
	if err == nil && s != nil {
		m.before = s.DeepCopy()
	}
	return s, p, err
}

// Write implements statemgr.Manager and records the run.
func (m *recordingManager) Write(s *states.State) error {
	err := m.Manager.Write(s)
	command := "state"
	if len(m.d.args) > 0 {
		command = m.d.args[0]
		if command == "state" && len(m.d.args) > 1 {
			command += " " + m.d.args[1]
		}
	}
	rec := startSharedRunRecord(m.d, command, nil, sharedRuns(m.Manager))
	if rec == nil {
		return err
	}
	if m.before != nil {
		rec.run.LineageBefore, rec.run.SerialBefore = m.before.Lineage, m.before.Serial
	}
	rec.run.Workspace = workspaceName(m.d)
	rec.stateEdits(m.before, s)
	var diags hcl.Diagnostics
	if err != nil {
		diags = errorDiag("Failed to save state", err)
	}
	rec.finish(s, diags, false)
	return err
}

// stateEdits records the instances whose objects differ between two
// states.
func (r *runRecorder) stateEdits(before, after *states.State) {
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

// contractViolations adds the provider contract violations tolerated in
// the run to the diagnostics of their instances' entries, a line each.
func (r *runRecorder) contractViolations(vs []contract.Violation) {
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
