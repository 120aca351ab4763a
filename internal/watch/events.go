package watch

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// The event types of the -json stream.
const (
	EventStart            = "watch_start"
	EventDriftDetected    = "drift_detected"
	EventConvergeStart    = "converge_start"
	EventConvergeComplete = "converge_complete"
	EventConvergeFailed   = "converge_failed"
	EventConvergeSkipped  = "converge_skipped"
	EventIdle             = "idle"
	EventCycleFailed      = "cycle_failed"
	// EventProviderBackoff: a provider's refreshes fail for every
	// resource (rate limits, an outage); its refreshes wait.
	EventProviderBackoff = "provider_backoff"
	EventStop            = "watch_stop"
)

// Event is one message of the watch's event stream. In the -json stream
// it is one line, with the @level, @message, @module and @timestamp of
// Terraform's machine-readable UI.
type Event struct {
	Level     string    `json:"@level"`
	Message   string    `json:"@message"`
	Module    string    `json:"@module"`
	Timestamp time.Time `json:"@timestamp"`
	Type      string    `json:"type"`
	// Cycle counts the watch's cycles from 1.
	Cycle int    `json:"cycle"`
	RunID string `json:"run_id,omitempty"`
	// Refreshed is how many instances the cycle refreshed.
	Refreshed *int             `json:"refreshed,omitempty"`
	Drift     []ResourceDrift  `json:"drift,omitempty"`
	Changes   []ResourceChange `json:"changes,omitempty"`
	Failed    []Failure        `json:"failed,omitempty"`
	Reason    string           `json:"reason,omitempty"`
	// Address is the status endpoint's address (type "listening").
	Address string   `json:"address,omitempty"`
	Skipped []string `json:"skipped,omitempty"`
	// Provider, Failures and Backoff describe a provider_backoff.
	Provider    string        `json:"provider,omitempty"`
	Failures    int           `json:"failures,omitempty"`
	Backoff     float64       `json:"backoff_seconds,omitempty"`
	Diagnostics []DiagMessage `json:"diagnostics,omitempty"`
}

// Events writes the event stream: JSON lines, or one human line each.
type Events struct {
	mu   sync.Mutex
	w    io.Writer
	json bool
	now  func() time.Time
}

// NewEvents returns an event writer; json selects JSON lines.
func NewEvents(w io.Writer, json bool) *Events {
	return &Events{w: w, json: json, now: time.Now}
}

// Emit completes e's envelope and writes it.
func (s *Events) Emit(e Event) {
	if s == nil {
		return
	}
	if e.Level == "" {
		e.Level = "info"
	}
	e.Module = "strata.watch"
	e.Timestamp = s.now().UTC().Round(time.Microsecond)
	if e.Message == "" {
		e.Message = describe(e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.json {
		b, err := json.Marshal(e)
		if err != nil {
			return
		}
		_, _ = s.w.Write(append(b, '\n'))
		return
	}
	fmt.Fprintf(s.w, "%s watch: %s\n", e.Timestamp.Format(time.RFC3339), e.Message)
}

// describe is an event's one-line message.
func describe(e Event) string {
	switch e.Type {
	case EventDriftDetected:
		var parts []string
		for _, d := range e.Drift {
			parts = append(parts, driftPhrase(d))
		}
		if len(e.Changes) > 0 {
			parts = append(parts, fmt.Sprintf("%d change(s) pending: %s", len(e.Changes), changeList(e.Changes)))
		}
		return fmt.Sprintf("cycle %d: drift detected: %s", e.Cycle, strings.Join(parts, "; "))
	case EventConvergeStart:
		return fmt.Sprintf("cycle %d: converging: %s", e.Cycle, changeList(e.Changes))
	case EventConvergeComplete:
		return fmt.Sprintf("cycle %d: converged: %s", e.Cycle, changeList(e.Changes))
	case EventConvergeFailed:
		var parts []string
		for _, f := range e.Failed {
			parts = append(parts, fmt.Sprintf("%s failed (%d in a row, retried in %s): %s", f.Address, f.Failures, time.Duration(f.Backoff*float64(time.Second)).Round(time.Millisecond), f.Error))
		}
		if len(parts) == 0 {
			for _, d := range e.Diagnostics {
				if d.Severity == "error" {
					parts = append(parts, d.Summary)
				}
			}
		}
		return fmt.Sprintf("cycle %d: converge failed: %s", e.Cycle, strings.Join(parts, "; "))
	case EventConvergeSkipped:
		if len(e.Skipped) == 0 {
			return fmt.Sprintf("cycle %d: not converging: %s", e.Cycle, e.Reason)
		}
		return fmt.Sprintf("cycle %d: not converging %s: %s", e.Cycle, strings.Join(e.Skipped, ", "), e.Reason)
	case EventProviderBackoff:
		return fmt.Sprintf("cycle %d: refreshes of %s failed (%d in a row): not refreshing its resources for %s: %s", e.Cycle, e.Provider, e.Failures,
			time.Duration(e.Backoff*float64(time.Second)).Round(time.Millisecond), e.Reason)
	case EventIdle:
		return fmt.Sprintf("cycle %d: no drift, no changes", e.Cycle)
	case EventCycleFailed:
		var parts []string
		for _, d := range e.Diagnostics {
			if d.Severity == "error" {
				parts = append(parts, d.Summary)
			}
		}
		return fmt.Sprintf("cycle %d failed: %s", e.Cycle, strings.Join(parts, "; "))
	}
	return e.Type
}

func driftPhrase(d ResourceDrift) string {
	if d.Action == "delete" {
		return d.Address + " was deleted outside strata"
	}
	var paths []string
	for _, a := range d.Attributes {
		paths = append(paths, a.Path)
	}
	return d.Address + " changed outside strata (" + strings.Join(paths, ", ") + ")"
}

func changeList(cs []ResourceChange) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.Action+" "+c.Address)
	}
	return strings.Join(parts, ", ")
}
