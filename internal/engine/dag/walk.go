package dag

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// WalkFunc is called by Walk once for each vertex. Returning diagnostics
// that contain an error marks the vertex as failed, which causes every
// vertex that depends on it, directly or transitively, to be skipped.
type WalkFunc[V comparable] func(ctx context.Context, v V) hcl.Diagnostics

// WalkOptions configures WalkWith.
type WalkOptions[V comparable] struct {
	// Parallelism is the maximum number of WalkFunc calls running at once.
	// Values below 1 mean 1.
	Parallelism int

	// OnSkip, if set, is called for every vertex that is not walked, with
	// the cause: one of its dependencies failed (directly or
	// transitively), or the context was cancelled before it could start.
	// A failure counts as such only if its WalkFunc returned before the
	// context was cancelled: one that returned after (typically an
	// operation the cancellation stopped) skips its dependents as
	// SkipCancelled. A vertex downstream of a failure that the
	// cancellation caught still waiting for other dependencies is
	// reported as SkipDependencyFailed: it would not have run anyway.
	// OnSkip is called from the goroutine that called WalkWith, never
	// concurrently with itself, but possibly concurrently with running
	// WalkFunc calls.
	OnSkip func(v V, cause SkipCause)

	// Name, if set, formats a vertex in diagnostics (such as cycle
	// reports). The default is fmt's %v.
	Name func(v V) string
}

// SkipCause says why a walk did not visit a vertex.
type SkipCause uint8

const (
	// SkipDependencyFailed: a vertex it depends on, directly or
	// transitively, failed.
	SkipDependencyFailed SkipCause = iota + 1
	// SkipCancelled: the walk's context was cancelled before the vertex
	// could start.
	SkipCancelled
)

// String returns "dependency failed" or "cancelled".
func (c SkipCause) String() string {
	switch c {
	case SkipDependencyFailed:
		return "dependency failed"
	case SkipCancelled:
		return "cancelled"
	}
	return fmt.Sprintf("SkipCause(%d)", uint8(c))
}

// Walk calls fn for every vertex, each only after all of its dependencies
// returned without errors, running at most parallelism calls at once.
// It is shorthand for WalkWith with only Parallelism set; see WalkWith.
func (g *Graph[V]) Walk(ctx context.Context, parallelism int, fn WalkFunc[V]) hcl.Diagnostics {
	return g.WalkWith(ctx, WalkOptions[V]{Parallelism: parallelism}, fn)
}

// WalkWith calls fn for every vertex, each only after all of its
// dependencies returned without errors, running at most opts.Parallelism
// calls at once.
//
// If fn returns error diagnostics for a vertex, the vertices that depend on
// it (transitively) are skipped and the walk continues with everything else.
// Warnings do not cause anything to be skipped.
//
// When several vertices are ready at the same time they are started in
// insertion order. The returned diagnostics are those returned by fn,
// ordered by vertex insertion order rather than by completion time.
//
// If the graph has a cycle, fn is never called and WalkWith returns one
// error diagnostic per cycle ("Cycle: a, b, c").
//
// If ctx is cancelled, no further vertices are started; calls already
// running are allowed to finish (they receive ctx, so they can observe the
// cancellation) and WalkWith returns once they have. Vertices that were
// never started are reported to OnSkip, and an error diagnostic saying how
// many operations were not started is appended to the result.
//
// Scheduling is O(V+E) plus O(log V) per started vertex for the ready
// queue. WalkWith holds no lock while fn runs: a single coordinating
// goroutine (the caller's) owns all walk state and workers report back over
// a channel.
func (g *Graph[V]) WalkWith(ctx context.Context, opts WalkOptions[V], fn WalkFunc[V]) hcl.Diagnostics {
	if ctx == nil {
		ctx = context.Background()
	}
	parallelism := max(opts.Parallelism, 1)
	name := opts.Name
	if name == nil {
		name = func(v V) string { return fmt.Sprintf("%v", v) }
	}

	s := g.snapshot()
	n := len(s.verts)
	if n == 0 {
		return nil
	}
	if cycles := s.cycles(); len(cycles) > 0 {
		var diags hcl.Diagnostics
		for _, c := range cycles {
			names := make([]string, len(c))
			for i, id := range c {
				names[i] = name(s.verts[id])
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Cycle: " + strings.Join(names, ", "),
				Detail:   "These objects depend on each other in a cycle, so there is no valid order in which to process them.",
			})
		}
		return diags
	}

	w := &walker[V]{
		s:       s,
		onSkip:  opts.OnSkip,
		pending: make([]int32, n),
		blocked: make([]SkipCause, n),
		state:   make([]walkState, n),
		results: make([]hcl.Diagnostics, n),
	}
	for i, deps := range s.out {
		w.pending[i] = int32(len(deps))
		if len(deps) == 0 {
			// Ids are pushed in ascending order, so the slice is already a
			// valid min-heap.
			w.ready = append(w.ready, int32(i))
		}
	}

	type result struct {
		id    int32
		diags hcl.Diagnostics
		// late is set when fn returned after ctx was cancelled.
		late bool
	}
	// Buffered so that finishing workers never block, even while the
	// coordinator is busy.
	done := make(chan result, parallelism)
	running := 0
	cancelled := false

	// Vertices run on a pool of workers that grows as needed up to
	// parallelism and takes the next vertex when one finishes, rather
	// than a goroutine each: a worker's stack, grown by the first vertex
	// (evaluating expressions goes deep), serves the ones after it.
	type job struct {
		id int32
		v  V
	}
	work := make(chan job)
	defer close(work)
	workers := 0
	worker := func(j job) {
		for ok := true; ok; j, ok = <-work {
			diags := fn(ctx, j.v)
			done <- result{id: j.id, diags: diags, late: ctx.Err() != nil}
		}
	}
	start := func(j job) {
		select {
		case work <- j:
			return
		default:
		}
		if workers < parallelism {
			workers++
			go worker(j)
			return
		}
		// Fewer than parallelism vertices are running, so some worker
		// is between two vertices.
		work <- j
	}

	for {
		for !cancelled && running < parallelism && len(w.ready) > 0 {
			if ctx.Err() != nil {
				cancelled = true
				break
			}
			id := w.ready.pop()
			w.state[id] = stateRunning
			running++
			start(job{id, s.verts[id]})
		}
		if running == 0 {
			break
		}
		var r result
		if cancelled {
			r = <-done
		} else {
			select {
			case r = <-done:
			case <-ctx.Done():
				cancelled = true
				continue
			}
		}
		running--
		w.finish(r.id, r.diags, r.late)
	}

	// Anything not finished or skipped by now was never started because the
	// walk was cancelled.
	notStarted := 0
	for id := range w.state {
		if w.state[id] == stateWaiting {
			notStarted++
			cause := w.blocked[id]
			if cause == 0 {
				cause = SkipCancelled
			}
			w.skip(int32(id), cause)
		}
	}

	var diags hcl.Diagnostics
	for _, d := range w.results {
		diags = append(diags, d...)
	}
	if notStarted > 0 {
		err := ctx.Err()
		if err == nil {
			err = context.Canceled
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Operation cancelled",
			Detail:   fmt.Sprintf("%d of %d operations were not started because the operation was cancelled: %s.", notStarted, n, err),
		})
	}
	return diags
}

type walkState uint8

const (
	stateWaiting walkState = iota // not started; includes vertices in the ready queue
	stateRunning
	stateDone    // fn returned (with or without errors)
	stateSkipped // never started
)

// walker holds the state of one walk. It is only touched by the
// coordinating goroutine.
type walker[V comparable] struct {
	s       *snapshot[V]
	onSkip  func(V, SkipCause)
	pending []int32     // dependencies not yet finished
	blocked []SkipCause // why a dependency failed or was skipped; 0 if none did
	state   []walkState
	results []hcl.Diagnostics
	ready   idHeap
	stack   []int32
}

// finish records the result of a vertex and releases its dependents: those
// whose last outstanding dependency this was become ready, or are skipped
// (transitively) if any of their dependencies failed. late says the
// vertex returned after the walk's context was cancelled.
func (w *walker[V]) finish(id int32, diags hcl.Diagnostics, late bool) {
	w.state[id] = stateDone
	w.results[id] = diags
	var cause SkipCause
	if diags.HasErrors() {
		cause = SkipDependencyFailed
		if late {
			cause = SkipCancelled
		}
	}
	w.release(id, cause)
	// Skipped vertices release their own dependents, always as failures,
	// with their own cause.
	for len(w.stack) > 0 {
		x := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.release(x, w.blocked[x])
	}
}

// release counts id as finished for its dependents; cause is why it
// failed or was skipped, 0 if it did not. A failure before the
// cancellation outweighs one after.
func (w *walker[V]) release(id int32, cause SkipCause) {
	for _, d := range w.s.in[id] {
		if cause == SkipDependencyFailed || (cause != 0 && w.blocked[d] == 0) {
			w.blocked[d] = cause
		}
		w.pending[d]--
		if w.pending[d] != 0 {
			continue
		}
		if w.blocked[d] != 0 {
			w.skip(d, w.blocked[d])
			w.stack = append(w.stack, d)
		} else {
			w.ready.push(d)
		}
	}
}

func (w *walker[V]) skip(id int32, cause SkipCause) {
	w.state[id] = stateSkipped
	if w.onSkip != nil {
		w.onSkip(w.s.verts[id], cause)
	}
}

// idHeap is a binary min-heap of vertex ids, so that ready vertices start in
// insertion order.
type idHeap []int32

func (h *idHeap) push(x int32) {
	a := append(*h, x)
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if a[p] <= a[i] {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
	*h = a
}

func (h *idHeap) pop() int32 {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(a) {
			break
		}
		m := l
		if r := l + 1; r < len(a) && a[r] < a[l] {
			m = r
		}
		if a[i] <= a[m] {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
	return top
}
