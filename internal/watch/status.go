package watch

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Status is what the status endpoint reports.
type Status struct {
	w  *Watcher
	mu sync.Mutex
	// changes are the last plan's pending changes.
	changes                     []ResourceChange
	cycles, cycleFailures       int
	resourceFailures            int
	providerFailures            int
	converges, convergeFailures int
	lastCycle                   time.Time
	lastDuration                time.Duration
	lastCycleFailed             bool
}

func newStatus(w *Watcher) *Status { return &Status{w: w, changes: []ResourceChange{}} }

func (s *Status) cycleDone(start time.Time, d time.Duration, failed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cycles++
	if failed {
		s.cycleFailures++
	}
	s.lastCycle, s.lastDuration, s.lastCycleFailed = start.Add(d), d, failed
}

func (s *Status) setPlan(chs []ResourceChange) {
	s.mu.Lock()
	s.changes = chs
	s.mu.Unlock()
}

func (s *Status) converged(failed bool) {
	s.mu.Lock()
	s.converges++
	if failed {
		s.convergeFailures++
	}
	s.mu.Unlock()
}

func (s *Status) resourceFailed() {
	s.mu.Lock()
	s.resourceFailures++
	s.mu.Unlock()
}

func (s *Status) providerFailed() {
	s.mu.Lock()
	s.providerFailures++
	s.mu.Unlock()
}

// DriftReport is the document GET /drift returns.
type DriftReport struct {
	Drift       []ResourceDrift  `json:"drift"`
	Changes     []ResourceChange `json:"changes"`
	Quarantined []QuarantineInfo `json:"quarantined"`
	// BackedOff are the providers whose refreshes wait after failing for
	// every resource.
	BackedOff []ProviderBackoff `json:"providers_backed_off"`
	LastCycle *time.Time        `json:"last_cycle,omitempty"`
	Cycles    int               `json:"cycles"`
}

// Report returns the current drift, pending changes and quarantine.
func (w *Watcher) Report() DriftReport {
	s := w.status
	s.mu.Lock()
	r := DriftReport{Changes: s.changes, Cycles: s.cycles}
	if !s.lastCycle.IsZero() {
		t := s.lastCycle.UTC()
		r.LastCycle = &t
	}
	s.mu.Unlock()
	r.Drift = w.currentDrift()
	r.Quarantined = w.sched.QuarantineReport(w.now())
	r.BackedOff = w.sched.ProviderReport(w.now())
	return r
}

// Handler serves the status endpoint: GET /healthz, GET /drift (JSON),
// GET /metrics (Prometheus text format) and POST /trigger (a cycle that
// refreshes everything, now).
func (w *Watcher) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(rw http.ResponseWriter, r *http.Request) {
		s := w.status
		s.mu.Lock()
		failed, cycles := s.lastCycleFailed, s.cycles
		s.mu.Unlock()
		rw.Header().Set("Content-Type", "application/json")
		status := "ok"
		if failed {
			// The watch is alive; its last cycle could not plan.
			status = "degraded"
		}
		_ = json.NewEncoder(rw).Encode(map[string]any{"status": status, "cycles": cycles})
	})
	mux.HandleFunc("/drift", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(rw)
		enc.SetIndent("", "  ")
		_ = enc.Encode(w.Report())
	})
	mux.HandleFunc("/metrics", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		w.writeMetrics(rw)
	})
	mux.HandleFunc("/trigger", func(rw http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			rw.Header().Set("Allow", http.MethodPost)
			http.Error(rw, "use POST", http.StatusMethodNotAllowed)
			return
		}
		w.Trigger()
		rw.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(rw, "{\"triggered\":true}\n")
	})
	return mux
}

// writeMetrics writes the metrics in the Prometheus text exposition
// format.
func (w *Watcher) writeMetrics(out io.Writer) {
	r := w.Report()
	s := w.status
	s.mu.Lock()
	defer s.mu.Unlock()
	metric := func(name, typ, help string, v float64) {
		fmt.Fprintf(out, "# HELP %s %s\n# TYPE %s %s\n%s %g\n", name, help, name, typ, name, v)
	}
	metric("strata_watch_drifted_resources", "gauge", "Resource instances whose last refresh found drift.", float64(len(r.Drift)))
	metric("strata_watch_pending_changes", "gauge", "Resource instances the last plan would change.", float64(len(r.Changes)))
	metric("strata_watch_quarantined_resources", "gauge", "Resource instances held back after repeated failures.", float64(len(r.Quarantined)))
	metric("strata_watch_providers_backed_off", "gauge", "Providers whose refreshes wait after failing for every resource.", float64(len(r.BackedOff)))
	metric("strata_watch_provider_failures_total", "counter", "Times a provider's refreshes failed for every resource.", float64(s.providerFailures))
	metric("strata_watch_cycles_total", "counter", "Cycles run.", float64(s.cycles))
	metric("strata_watch_cycle_failures_total", "counter", "Cycles that could not plan.", float64(s.cycleFailures))
	metric("strata_watch_resource_failures_total", "counter", "Failed refreshes and applies of resource instances.", float64(s.resourceFailures))
	metric("strata_watch_converges_total", "counter", "Applies run to converge.", float64(s.converges))
	metric("strata_watch_converge_failures_total", "counter", "Applies that ended with errors.", float64(s.convergeFailures))
	metric("strata_watch_provider_starts_total", "counter", "Provider instances started (kept from one cycle to the next unless -restart-providers).", float64(w.pool.starts()))
	last := 0.0
	if !s.lastCycle.IsZero() {
		last = float64(s.lastCycle.UnixNano()) / 1e9
	}
	metric("strata_watch_last_cycle_timestamp_seconds", "gauge", "When the last cycle ended, in seconds since the epoch.", last)
	metric("strata_watch_last_cycle_duration_seconds", "gauge", "How long the last cycle took.", s.lastDuration.Seconds())
}

// Serve serves the status endpoint on addr until ctx-like stop is
// called; it returns the address it listens on.
func (w *Watcher) Serve(addr string) (string, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: w.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return ln.Addr().String(), func() { _ = srv.Close() }, nil
}
