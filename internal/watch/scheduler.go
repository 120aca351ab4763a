package watch

import (
	"math/rand"
	"sort"
	"strings"
	"sync"
	"time"
)

// Rule gives the instances it matches their own refresh interval: Type
// matches every instance of a resource type, Address an instance
// ("aws_instance.web[0]") or every instance of a resource
// ("module.net.aws_subnet.a").
type Rule struct {
	Type     string
	Address  string
	Interval time.Duration
}

// Schedule decides when each resource instance is refreshed next.
type Schedule struct {
	// Interval is how often an instance is refreshed unless a rule says
	// otherwise.
	Interval time.Duration
	// Jitter spreads refreshes: each next refresh is moved by up to this
	// fraction of its interval, earlier or later, so that instances
	// created together are not refreshed together forever.
	Jitter float64
	// Rules are tried in order; an address rule wins over a type rule.
	Rules []Rule
	// BackoffBase and BackoffMax bound the quarantine of an instance that
	// keeps failing: BackoffBase after the first failure, doubling with
	// each further one, never more than BackoffMax.
	BackoffBase, BackoffMax time.Duration
}

// IntervalFor returns the refresh interval of an instance address.
func (s Schedule) IntervalFor(addr, typ string) time.Duration {
	for _, r := range s.Rules {
		if r.Address != "" && (r.Address == addr || strings.HasPrefix(addr, r.Address+"[")) {
			return r.Interval
		}
	}
	for _, r := range s.Rules {
		if r.Type != "" && r.Type == typ {
			return r.Interval
		}
	}
	return s.Interval
}

// instance is what the scheduler knows of one resource instance.
type instance struct {
	typ  string
	next time.Time
	// failures counts consecutive failures; until is the end of the
	// quarantine they earned.
	failures int
	until    time.Time
	lastErr  string
}

// Scheduler tracks the due time and failures of every instance. It is
// safe for concurrent use (the status endpoint reads it).
type Scheduler struct {
	sched Schedule
	mu    sync.Mutex
	rnd   *rand.Rand
	insts map[string]*instance
	// provs is the back-off of providers whose refreshes fail for every
	// resource (rate limits, outages), by provider address; provOf maps
	// instance addresses to their provider.
	provs  map[string]*providerState
	provOf map[string]string
}

// providerState is a provider's run of refresh failures.
type providerState struct {
	failures int
	until    time.Time
	lastErr  string
}

// NewScheduler returns a scheduler; seed fixes the jitter's random
// sequence (tests), 0 picks one.
func NewScheduler(s Schedule, seed int64) *Scheduler {
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	if s.BackoffBase <= 0 {
		s.BackoffBase = s.Interval
	}
	if s.BackoffMax <= 0 {
		s.BackoffMax = 32 * s.BackoffBase
	}
	return &Scheduler{sched: s, rnd: rand.New(rand.NewSource(seed)), insts: map[string]*instance{}, provs: map[string]*providerState{}, provOf: map[string]string{}}
}

// Sync makes the scheduler know the instances of the state (address to
// resource type): new ones are due at once, gone ones are forgotten, except
// those with failures, whose back-off must keep growing: an instance whose
// create keeps failing is never in the state.
func (s *Scheduler) Sync(known map[string]string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for addr, typ := range known {
		if _, ok := s.insts[addr]; !ok {
			s.insts[addr] = &instance{typ: typ, next: now}
		}
	}
	for addr := range s.insts {
		if _, ok := known[addr]; !ok && s.insts[addr].failures == 0 {
			delete(s.insts, addr)
		}
	}
}

// Due returns the instances due by now+window that are not quarantined,
// sorted.
func (s *Scheduler) Due(now time.Time, window time.Duration) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for addr, in := range s.insts {
		if !in.next.After(now.Add(window)) && !in.until.After(now) && !s.providerHeld(addr, now) {
			out = append(out, addr)
		}
	}
	sort.Strings(out)
	return out
}

// All returns every instance that is not quarantined, sorted.
func (s *Scheduler) All(now time.Time) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for addr, in := range s.insts {
		if !in.until.After(now) && !s.providerHeld(addr, now) {
			out = append(out, addr)
		}
	}
	sort.Strings(out)
	return out
}

// Quarantined returns the instances quarantined at now, sorted.
func (s *Scheduler) Quarantined(now time.Time) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for addr, in := range s.insts {
		if in.until.After(now) {
			out = append(out, addr)
		}
	}
	sort.Strings(out)
	return out
}

// Next returns when the next instance is due or leaves quarantine; ok is
// false when there is no instance.
func (s *Scheduler) Next() (t time.Time, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for addr, in := range s.insts {
		at := in.next
		if in.until.After(at) {
			at = in.until
		}
		if ps := s.provs[s.provOf[addr]]; ps != nil && ps.until.After(at) {
			at = ps.until
		}
		if !ok || at.Before(t) {
			t, ok = at, true
		}
	}
	return t, ok
}

// SetProviders records the provider (its address) of each instance, for
// the providers' back-off.
func (s *Scheduler) SetProviders(of map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.provOf = of
}

// ProviderOf returns the provider of an instance, "" when unknown.
func (s *Scheduler) ProviderOf(addr string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.provOf[addr]
}

// providerHeld reports whether addr's provider is backed off at now.
// Callers hold s.mu.
func (s *Scheduler) providerHeld(addr string, now time.Time) bool {
	ps := s.provs[s.provOf[addr]]
	return ps != nil && ps.until.After(now)
}

// ProviderFailed records a refresh failure of a whole provider and backs
// off the refreshes of all its instances: BackoffBase, doubled for each
// consecutive failure before, at most BackoffMax. Its instances are still
// planned, from their stored state. It returns the back-off's length.
func (s *Scheduler) ProviderFailed(p, msg string, now time.Time) (time.Duration, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := s.provs[p]
	if ps == nil {
		ps = &providerState{}
		s.provs[p] = ps
	}
	ps.failures++
	ps.lastErr = msg
	d := backoff(s.sched.BackoffBase, s.sched.BackoffMax, ps.failures)
	ps.until = now.Add(d)
	return d, ps.failures
}

// ProviderSucceeded ends a provider's run of failures.
func (s *Scheduler) ProviderSucceeded(p string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.provs, p)
}

// ProviderBackoff describes a backed-off provider for the status report.
type ProviderBackoff struct {
	Provider string    `json:"provider"`
	Failures int       `json:"failures"`
	Until    time.Time `json:"until"`
	Error    string    `json:"error,omitempty"`
}

// ProviderReport lists the providers backed off at now.
func (s *Scheduler) ProviderReport(now time.Time) []ProviderBackoff {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []ProviderBackoff{}
	for p, ps := range s.provs {
		if ps.until.After(now) {
			out = append(out, ProviderBackoff{Provider: p, Failures: ps.failures, Until: ps.until.UTC(), Error: ps.lastErr})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Provider < out[j].Provider })
	return out
}

// Refreshed schedules the next refresh of instances refreshed at now.
func (s *Scheduler) Refreshed(addrs []string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, addr := range addrs {
		if in := s.insts[addr]; in != nil {
			in.next = now.Add(s.jittered(s.sched.IntervalFor(addr, in.typ)))
		}
	}
}

// jittered moves d by up to ±Jitter of itself. Callers hold s.mu.
func (s *Scheduler) jittered(d time.Duration) time.Duration {
	if s.sched.Jitter <= 0 {
		return d
	}
	f := 1 + s.sched.Jitter*(2*s.rnd.Float64()-1)
	return time.Duration(float64(d) * f)
}

// Failed records a failure of an instance (its refresh or its apply) and
// quarantines it: BackoffBase, doubled for each consecutive failure
// before, at most BackoffMax. It returns the quarantine's length.
func (s *Scheduler) Failed(addr, typ, msg string, now time.Time) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.insts[addr]
	if in == nil {
		in = &instance{typ: typ}
		s.insts[addr] = in
	}
	in.failures++
	in.lastErr = msg
	d := s.sched.BackoffBase
	for i := 1; i < in.failures && d < s.sched.BackoffMax; i++ {
		d *= 2
	}
	if d > s.sched.BackoffMax {
		d = s.sched.BackoffMax
	}
	in.until = now.Add(d)
	// When the quarantine ends the instance is refreshed and tried again.
	in.next = in.until
	return d
}

// Succeeded clears an instance's failures.
func (s *Scheduler) Succeeded(addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if in := s.insts[addr]; in != nil {
		in.failures, in.until, in.lastErr = 0, time.Time{}, ""
	}
}

// Failures returns an instance's consecutive failures.
func (s *Scheduler) Failures(addr string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if in := s.insts[addr]; in != nil {
		return in.failures
	}
	return 0
}

// QuarantineInfo describes a quarantined instance for the status report.
type QuarantineInfo struct {
	Address  string    `json:"address"`
	Failures int       `json:"failures"`
	Until    time.Time `json:"until"`
	Error    string    `json:"error,omitempty"`
}

// QuarantineReport lists the quarantined instances at now.
func (s *Scheduler) QuarantineReport(now time.Time) []QuarantineInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []QuarantineInfo{}
	for addr, in := range s.insts {
		if in.until.After(now) {
			out = append(out, QuarantineInfo{Address: addr, Failures: in.failures, Until: in.until.UTC(), Error: in.lastErr})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Address < out[j].Address })
	return out
}
