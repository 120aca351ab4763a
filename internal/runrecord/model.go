package runrecord

import (
	"encoding/json"
	"time"

	"github.com/zclconf/go-cty/cty"
)

// Outcome is what became of one resource instance in a run, after Chef's
// five action states, plus Unknown for an operation that was in flight
// when the process died.
type Outcome string

// The outcomes of an entry.
const (
	// UpToDate: nothing to do (a no-op).
	UpToDate Outcome = "up_to_date"
	// Skipped: not done, for the reason in Entry.Reason (-target, a failed
	// dependency, a plan that only says what would change...).
	Skipped Outcome = "skipped"
	// Updated: the change was made.
	Updated Outcome = "updated"
	// Failed: the change was tried and failed; Entry.Diagnostics says why.
	Failed Outcome = "failed"
	// Unprocessed: never reached, because the run was aborted
	// (interrupted or killed) before it.
	Unprocessed Outcome = "unprocessed"
	// Unknown: the provider call was under way when the process died; the
	// object may or may not have been changed.
	Unknown Outcome = "unknown"
)

// Run outcomes besides the ones of entries.
const (
	RunRunning     = "running"
	RunSucceeded   = "succeeded"
	RunFailed      = "failed"
	RunInterrupted = "interrupted"
	// RunCrashed marks a run found still "running" by a later run whose
	// process is gone.
	RunCrashed = "crashed"
)

// Entry kinds.
const (
	KindChange = "change"
	KindDrift  = "drift"
)

// Marks stand in for values that are not stored.
const (
	// MarkSensitive replaces a sensitive value.
	MarkSensitive = "sensitive"
	// MarkWriteOnly replaces a write-only attribute's value.
	MarkWriteOnly = "write_only"
	// MarkUnknown is a value not known until apply.
	MarkUnknown = "unknown"
)

// Run is one command that planned or changed state.
type Run struct {
	ID      string    `json:"id"`
	Command string    `json:"command"`
	Args    []string  `json:"args"`
	Started time.Time `json:"started_at"`
	// Ended is zero while the run is going (or when it crashed).
	Ended   time.Time `json:"ended_at,omitzero"`
	Outcome string    `json:"outcome"`
	// Noop is true for runs that change nothing (plan): their entries say
	// what would change.
	Noop          bool   `json:"noop"`
	User          string `json:"user"`
	Host          string `json:"host"`
	PID           int    `json:"pid"`
	Version       string `json:"strata_version"`
	Workspace     string `json:"workspace"`
	Backend       string `json:"backend"`
	ConfigHash    string `json:"config_hash"`
	LineageBefore string `json:"lineage_before"`
	SerialBefore  uint64 `json:"serial_before"`
	LineageAfter  string `json:"lineage_after"`
	SerialAfter   uint64 `json:"serial_after"`
	PlanFile      string `json:"plan_file,omitempty"`
	// Counts by outcome; filled by queries, not stored.
	Counts map[Outcome]int `json:"counts,omitempty"`
}

// Entry is one resource instance object a run considered, or one drift
// found by refresh (Kind).
type Entry struct {
	RunID string `json:"run_id"`
	// Seq orders entries within a run and identifies them.
	Seq      int    `json:"seq"`
	Kind     string `json:"kind"`
	Address  string `json:"address"`
	Deposed  string `json:"deposed,omitempty"`
	Type     string `json:"type"`
	Module   string `json:"module,omitempty"`
	Provider string `json:"provider"`
	// Action is the planned action: create, update, replace, delete,
	// read, no-op, forget (and import/move as ActionNote).
	Action string `json:"action"`
	// ActionReason is why the action was chosen (replace_because_tainted...).
	ActionReason string `json:"action_reason,omitempty"`
	// ReplacePaths are the attribute paths that forced replacement.
	ReplacePaths []string `json:"replace_paths,omitempty"`
	// Import is the import ID when the object is adopted; MovedFrom is
	// the previous address when it moved.
	Import    string  `json:"import_id,omitempty"`
	MovedFrom string  `json:"moved_from,omitempty"`
	Outcome   Outcome `json:"outcome"`
	// Reason says why an entry was skipped or unprocessed.
	Reason      string    `json:"reason,omitempty"`
	Diagnostics string    `json:"diagnostics,omitempty"`
	Started     time.Time `json:"started_at,omitzero"`
	Ended       time.Time `json:"ended_at,omitzero"`
	// Changes are the attributes that change (or drifted); when an entry
	// is written again, nil or empty leaves the stored ones as they are.
	Changes []AttrChange `json:"changes"`
	// SealedChanges and SealedDiagnostics hold Changes and Diagnostics
	// encrypted (see Cipher), in the records of an encrypted state;
	// queries decrypt them.
	SealedChanges     json.RawMessage `json:"changes_sealed,omitempty"`
	SealedDiagnostics json.RawMessage `json:"diagnostics_sealed,omitempty"`
}

// keepsChanges reports whether e, written again, leaves the changes
// written before as they are.
func (e *Entry) keepsChanges() bool { return e.Changes == nil && e.SealedChanges == nil }

// AttrChange is one attribute's change. Before and After are JSON, nil
// for null or absent; a mark replaces a value not stored.
type AttrChange struct {
	Path       string          `json:"path"`
	Before     json.RawMessage `json:"before"`
	After      json.RawMessage `json:"after"`
	BeforeMark string          `json:"before_mark,omitempty"`
	AfterMark  string          `json:"after_mark,omitempty"`

	// path locates the attribute to fill an unknown After from the
	// applied object; ty is the planned value's type, to recognise the
	// {"type": ..., "value": ...} of a dynamically-typed attribute.
	path cty.Path
	ty   cty.Type
}

// HistoryItem is one change to an attribute in a run, for `history`.
type HistoryItem struct {
	RunID   string    `json:"run_id"`
	Command string    `json:"command"`
	Time    time.Time `json:"time"`
	User    string    `json:"user"`
	Kind    string    `json:"kind"`
	Address string    `json:"address"`
	Action  string    `json:"action"`
	Outcome Outcome   `json:"outcome"`
	AttrChange
}
