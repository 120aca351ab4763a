package dag

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// walkWithTimeout runs a walk in a goroutine and fails the test if it does
// not return in time (a guard against hangs, not a timing assertion).
func walkWithTimeout[V comparable](t *testing.T, g *Graph[V], ctx context.Context, opts WalkOptions[V], fn WalkFunc[V]) hcl.Diagnostics {
	t.Helper()
	res := make(chan hcl.Diagnostics, 1)
	go func() { res <- g.WalkWith(ctx, opts, fn) }()
	select {
	case d := <-res:
		return d
	case <-time.After(60 * time.Second):
		t.Fatal("walk did not return")
		return nil
	}
}

func errDiag(summary string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary}}
}

func summaries(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Summary)
	}
	return out
}

func TestWalkRespectsDependencies(t *testing.T) {
	tests := map[string]struct {
		graph       func() *Graph[int]
		parallelism int
	}{
		"chain serial": {
			graph: func() *Graph[int] {
				g := New[int]()
				for i := 1; i < 50; i++ {
					g.Connect(i, i-1)
				}
				return g
			},
			parallelism: 1,
		},
		"chain parallel": {
			graph: func() *Graph[int] {
				g := New[int]()
				for i := 1; i < 50; i++ {
					g.Connect(i-1, i) // reverse insertion order vs. dependency order
				}
				return g
			},
			parallelism: 8,
		},
		"random DAG serial": {
			graph:       func() *Graph[int] { return randomDAG(rand.New(rand.NewPCG(1, 2)), 300, 0.05, 300) },
			parallelism: 1,
		},
		"random DAG parallel": {
			graph:       func() *Graph[int] { return randomDAG(rand.New(rand.NewPCG(3, 4)), 300, 0.05, 300) },
			parallelism: 16,
		},
		"random local DAG very parallel": {
			graph:       func() *Graph[int] { return randomDAG(rand.New(rand.NewPCG(5, 6)), 500, 0.5, 4) },
			parallelism: 1000,
		},
		"chain fan-out": {
			graph:       func() *Graph[int] { return chainFanOut(200) },
			parallelism: 4,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			g := tc.graph()
			var mu sync.Mutex
			clock := 0
			start := map[int]int{}
			finish := map[int]int{}
			fn := func(_ context.Context, v int) hcl.Diagnostics {
				mu.Lock()
				if _, dup := start[v]; dup {
					t.Errorf("vertex %d called twice", v)
				}
				clock++
				start[v] = clock
				mu.Unlock()

				mu.Lock()
				clock++
				finish[v] = clock
				mu.Unlock()
				return nil
			}
			diags := walkWithTimeout(t, g, context.Background(), WalkOptions[int]{Parallelism: tc.parallelism}, fn)
			if len(diags) != 0 {
				t.Fatalf("unexpected diagnostics: %v", diags)
			}
			if len(start) != g.Len() {
				t.Fatalf("called %d vertices, want %d", len(start), g.Len())
			}
			for _, e := range edgesOf(g) {
				from, to := e[0], e[1]
				if finish[to] >= start[from] {
					t.Errorf("%d started (t=%d) before its dependency %d finished (t=%d)", from, start[from], to, finish[to])
				}
			}
		})
	}
}

func TestWalkStartsReadyVerticesInInsertionOrder(t *testing.T) {
	tests := map[string]struct {
		verts []string
		edges []edge
		want  []string
	}{
		"independent": {
			verts: []string{"c", "a", "b"},
			want:  []string{"c", "a", "b"},
		},
		"newly ready earlier vertex jumps the queue": {
			verts: []string{"d", "c", "b", "a"},
			edges: []edge{{"d", "c"}},
			want:  []string{"c", "d", "b", "a"},
		},
		"later dependency": {
			verts: []string{"d", "c", "b", "a"},
			edges: []edge{{"d", "a"}, {"c", "d"}},
			want:  []string{"b", "a", "d", "c"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			g := build(tc.verts, tc.edges)
			for range 5 {
				var got []string
				var mu sync.Mutex
				g.Walk(context.Background(), 1, func(_ context.Context, v string) hcl.Diagnostics {
					mu.Lock()
					got = append(got, v)
					mu.Unlock()
					return nil
				})
				eq(t, "start order", got, tc.want)
			}
		})
	}
}

func TestWalkParallelismBound(t *testing.T) {
	tests := map[string]struct {
		parallelism int
		vertices    int
		want        int // expected peak concurrency
	}{
		"zero means one":         {parallelism: 0, vertices: 10, want: 1},
		"negative means one":     {parallelism: -3, vertices: 10, want: 1},
		"one":                    {parallelism: 1, vertices: 10, want: 1},
		"three":                  {parallelism: 3, vertices: 40, want: 3},
		"eight":                  {parallelism: 8, vertices: 40, want: 8},
		"more than the vertices": {parallelism: 100, vertices: 7, want: 7},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			g := New[int]()
			for i := range tc.vertices {
				g.Add(i)
			}
			var cur, peak atomic.Int32
			started := make(chan int)
			release := make(chan struct{})
			fn := func(_ context.Context, v int) hcl.Diagnostics {
				c := cur.Add(1)
				for {
					p := peak.Load()
					if c <= p || peak.CompareAndSwap(p, c) {
						break
					}
				}
				started <- v
				<-release
				cur.Add(-1)
				return nil
			}
			res := make(chan hcl.Diagnostics, 1)
			go func() { res <- g.Walk(context.Background(), tc.parallelism, fn) }()

			// Wait until the walk has reached full parallelism: every
			// running call is now blocked until we release it.
			for range tc.want {
				<-started
			}
			if got := cur.Load(); got != int32(tc.want) {
				t.Errorf("running = %d after %d starts", got, tc.want)
			}
			// Release one call at a time; each release lets exactly one
			// more start.
			remaining := tc.vertices - tc.want
			for range tc.vertices {
				release <- struct{}{}
				if remaining > 0 {
					<-started
					remaining--
					if got := cur.Load(); got != int32(tc.want) {
						t.Errorf("running = %d, want %d", got, tc.want)
					}
				}
			}
			if d := <-res; len(d) != 0 {
				t.Fatalf("unexpected diagnostics: %v", d)
			}
			if got := peak.Load(); got != int32(tc.want) {
				t.Errorf("peak concurrency = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestWalkFailureSkipsDependents(t *testing.T) {
	tests := map[string]struct {
		verts       []string
		edges       []edge
		fail        []string
		warn        []string
		wantCalled  []string
		wantSkipped []string
		wantDiags   []string
	}{
		"chain": {
			edges:       []edge{{"c", "b"}, {"b", "a"}},
			fail:        []string{"a"},
			wantCalled:  []string{"a"},
			wantSkipped: []string{"b", "c"},
			wantDiags:   []string{"a failed"},
		},
		"independent branches still run": {
			verts:       []string{"a", "b", "c", "d", "e"},
			edges:       []edge{{"b", "a"}, {"c", "b"}, {"e", "d"}},
			fail:        []string{"a"},
			wantCalled:  []string{"a", "d", "e"},
			wantSkipped: []string{"b", "c"},
			wantDiags:   []string{"a failed"},
		},
		"diamond with one failed side": {
			verts:       []string{"top", "l", "r", "base", "other"},
			edges:       []edge{{"top", "l"}, {"top", "r"}, {"l", "base"}, {"r", "base"}, {"other", "r"}},
			fail:        []string{"l"},
			wantCalled:  []string{"l", "r", "base", "other"},
			wantSkipped: []string{"top"},
			wantDiags:   []string{"l failed"},
		},
		"failure in the middle": {
			verts:       []string{"a", "b", "c", "d"},
			edges:       []edge{{"d", "c"}, {"c", "b"}, {"b", "a"}},
			fail:        []string{"b"},
			wantCalled:  []string{"a", "b"},
			wantSkipped: []string{"c", "d"},
			wantDiags:   []string{"b failed"},
		},
		"several failures reported in insertion order": {
			verts:       []string{"x", "y", "z"},
			edges:       []edge{{"z", "x"}},
			fail:        []string{"y", "x"},
			wantCalled:  []string{"x", "y"},
			wantSkipped: []string{"z"},
			wantDiags:   []string{"x failed", "y failed"},
		},
		"warnings do not skip": {
			edges:      []edge{{"b", "a"}},
			warn:       []string{"a"},
			wantCalled: []string{"b", "a"},
			wantDiags:  []string{"a warned"},
		},
	}
	for name, tc := range tests {
		for _, par := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/parallelism=%d", name, par), func(t *testing.T) {
				g := build(tc.verts, tc.edges)
				var mu sync.Mutex
				var called, skipped []string
				fn := func(_ context.Context, v string) hcl.Diagnostics {
					mu.Lock()
					called = append(called, v)
					mu.Unlock()
					switch {
					case slices.Contains(tc.fail, v):
						return errDiag(v + " failed")
					case slices.Contains(tc.warn, v):
						return hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: v + " warned"}}
					}
					return nil
				}
				opts := WalkOptions[string]{
					Parallelism: par,
					OnSkip: func(v string, cause SkipCause) {
						mu.Lock()
						skipped = append(skipped, v)
						mu.Unlock()
						if cause != SkipDependencyFailed {
							t.Errorf("%s skipped as %s, want %s", v, cause, SkipDependencyFailed)
						}
					},
				}
				diags := walkWithTimeout(t, g, context.Background(), opts, fn)
				slices.Sort(called)
				slices.Sort(skipped)
				want := slices.Sorted(slices.Values(tc.wantCalled))
				eq(t, "called", called, want)
				eq(t, "skipped", skipped, tc.wantSkipped)
				eq(t, "diagnostics", summaries(diags), tc.wantDiags)
				if diags.HasErrors() != (len(tc.fail) > 0) {
					t.Errorf("HasErrors = %v", diags.HasErrors())
				}
			})
		}
	}
}

func TestWalkDiagnosticsSortedByInsertionOrder(t *testing.T) {
	// a and b block until c has finished, so completion order is c, then a
	// and b; the result must still be a, b, c.
	g := build([]string{"a", "b", "c"}, nil)
	cDone := make(chan struct{})
	fn := func(_ context.Context, v string) hcl.Diagnostics {
		if v == "c" {
			defer close(cDone)
		} else {
			<-cDone
		}
		return hcl.Diagnostics{
			{Severity: hcl.DiagWarning, Summary: v + "1"},
			{Severity: hcl.DiagWarning, Summary: v + "2"},
		}
	}
	diags := walkWithTimeout(t, g, context.Background(), WalkOptions[string]{Parallelism: 3}, fn)
	eq(t, "diagnostics", summaries(diags), []string{"a1", "a2", "b1", "b2", "c1", "c2"})
}

func TestWalkCancellation(t *testing.T) {
	t.Run("no new starts after cancel", func(t *testing.T) {
		g := New[int]()
		for i := range 10 {
			g.Add(i)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var called, skipped []int
		var mu sync.Mutex
		fn := func(ctx context.Context, v int) hcl.Diagnostics {
			mu.Lock()
			called = append(called, v)
			mu.Unlock()
			if v == 0 {
				cancel()
				if ctx.Err() == nil {
					t.Error("fn did not receive the walk's context")
				}
			}
			return nil
		}
		opts := WalkOptions[int]{Parallelism: 1, OnSkip: func(v int, cause SkipCause) {
			skipped = append(skipped, v)
			if cause != SkipCancelled {
				t.Errorf("%d skipped as %s, want %s", v, cause, SkipCancelled)
			}
		}}
		diags := walkWithTimeout(t, g, ctx, opts, fn)
		eq(t, "called", called, []int{0})
		eq(t, "skipped", skipped, []int{1, 2, 3, 4, 5, 6, 7, 8, 9})
		if len(diags) != 1 || diags[0].Severity != hcl.DiagError || diags[0].Summary != "Operation cancelled" ||
			!strings.Contains(diags[0].Detail, "9 of 10") {
			t.Fatalf("unexpected diagnostics: %v", diags)
		}
	})

	t.Run("running calls finish before return", func(t *testing.T) {
		// a and b run together; a cancels while b is still running. c and
		// d (b's dependent) must never start, and Walk must wait for b.
		g := build([]string{"a", "b", "c", "d"}, []edge{{"d", "b"}})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		bStarted := make(chan struct{})
		bRelease := make(chan struct{})
		aCancelled := make(chan struct{})
		var bDone atomic.Bool
		var mu sync.Mutex
		var called []string
		fn := func(_ context.Context, v string) hcl.Diagnostics {
			mu.Lock()
			called = append(called, v)
			mu.Unlock()
			switch v {
			case "a":
				<-bStarted
				cancel()
				close(aCancelled)
			case "b":
				close(bStarted)
				<-bRelease
				bDone.Store(true)
			}
			return nil
		}
		res := make(chan hcl.Diagnostics, 1)
		go func() { res <- g.Walk(ctx, 2, fn) }()
		<-aCancelled
		// Walk cannot return until b finishes, and b finishes only once
		// released, so the only case that can proceed is the release.
		select {
		case <-res:
			t.Fatal("Walk returned while b was still running")
		case bRelease <- struct{}{}:
		}
		diags := <-res
		if !bDone.Load() {
			t.Fatal("Walk returned before b finished")
		}
		slices.Sort(called)
		eq(t, "called", called, []string{"a", "b"})
		if !diags.HasErrors() || !strings.Contains(diags[0].Detail, "2 of 4") {
			t.Fatalf("unexpected diagnostics: %v", diags)
		}
	})

	t.Run("cancelled after a failure", func(t *testing.T) {
		// fail fails while slow runs; slow then cancels the walk. dep
		// (after fail and slow) would never have run: its cause is the
		// failed dependency. other (after slow only) was stopped by the
		// cancellation.
		// sig, skipped as soon as fail's failure is taken, tells slow.
		g := build([]string{"fail", "slow", "dep", "other", "sig"}, []edge{{"dep", "fail"}, {"dep", "slow"}, {"other", "slow"}, {"sig", "fail"}})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		failed := make(chan struct{})
		fn := func(_ context.Context, v string) hcl.Diagnostics {
			switch v {
			case "fail":
				return errDiag("fail failed")
			case "slow":
				<-failed
				cancel()
			}
			return nil
		}
		causes := map[string]SkipCause{}
		opts := WalkOptions[string]{Parallelism: 2, OnSkip: func(v string, cause SkipCause) {
			causes[v] = cause
			if v == "sig" {
				close(failed)
			}
		}}
		diags := walkWithTimeout(t, g, ctx, opts, fn)
		want := map[string]SkipCause{"dep": SkipDependencyFailed, "other": SkipCancelled, "sig": SkipDependencyFailed}
		if !maps.Equal(causes, want) {
			t.Errorf("skip causes %v, want %v", causes, want)
		}
		if !diags.HasErrors() || diags[0].Summary != "fail failed" {
			t.Errorf("unexpected diagnostics: %v", diags)
		}
	})

	t.Run("failure after the cancellation", func(t *testing.T) {
		// fail fails on its own; stopped fails because it was
		// cancelled (it returns after the cancellation). What depends on
		// stopped only is skipped as cancelled, what depends on both as
		// a failed dependency, and so is everything after them.
		g := build([]string{"fail", "stopped", "afterStopped", "afterBoth", "last", "sig"},
			[]edge{{"afterStopped", "stopped"}, {"afterBoth", "fail"}, {"afterBoth", "stopped"}, {"last", "afterStopped"}, {"last", "afterBoth"}, {"sig", "fail"}})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		failed := make(chan struct{})
		fn := func(ctx context.Context, v string) hcl.Diagnostics {
			switch v {
			case "fail":
				return errDiag("fail failed")
			case "stopped":
				<-failed
				cancel()
				<-ctx.Done()
				return errDiag("stopped failed")
			}
			return nil
		}
		causes := map[string]SkipCause{}
		opts := WalkOptions[string]{Parallelism: 2, OnSkip: func(v string, cause SkipCause) {
			causes[v] = cause
			if v == "sig" {
				close(failed)
			}
		}}
		walkWithTimeout(t, g, ctx, opts, fn)
		want := map[string]SkipCause{"afterStopped": SkipCancelled, "afterBoth": SkipDependencyFailed, "last": SkipDependencyFailed, "sig": SkipDependencyFailed}
		if !maps.Equal(causes, want) {
			t.Errorf("skip causes %v, want %v", causes, want)
		}
	})

	t.Run("already cancelled", func(t *testing.T) {
		g := build(nil, []edge{{"b", "a"}})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var skipped []string
		opts := WalkOptions[string]{Parallelism: 4, OnSkip: func(v string, cause SkipCause) {
			skipped = append(skipped, v)
			if cause != SkipCancelled {
				t.Errorf("%s skipped as %s, want %s", v, cause, SkipCancelled)
			}
		}}
		diags := walkWithTimeout(t, g, ctx, opts, func(context.Context, string) hcl.Diagnostics {
			t.Error("fn called after cancellation")
			return nil
		})
		eq(t, "skipped", skipped, []string{"b", "a"})
		if !diags.HasErrors() {
			t.Fatal("expected a cancellation diagnostic")
		}
	})

	t.Run("cancel after everything started", func(t *testing.T) {
		g := build([]string{"a", "b"}, nil)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		bStarted := make(chan struct{})
		fn := func(_ context.Context, v string) hcl.Diagnostics {
			if v == "a" {
				<-bStarted
				cancel()
			} else {
				close(bStarted)
			}
			return nil
		}
		if diags := walkWithTimeout(t, g, ctx, WalkOptions[string]{Parallelism: 2}, fn); len(diags) != 0 {
			t.Fatalf("unexpected diagnostics: %v", diags)
		}
	})
}

func TestWalkCycle(t *testing.T) {
	type vertex struct{ name string }
	a, b, c, d, e := &vertex{"a"}, &vertex{"b"}, &vertex{"c"}, &vertex{"d"}, &vertex{"e"}
	tests := map[string]struct {
		edges [][2]*vertex
		want  []string
	}{
		"three-cycle": {
			edges: [][2]*vertex{{a, b}, {b, c}, {c, a}, {d, a}},
			want:  []string{"Cycle: a, b, c"},
		},
		"two cycles": {
			edges: [][2]*vertex{{a, b}, {b, a}, {c, d}, {d, e}, {e, c}},
			want:  []string{"Cycle: a, b", "Cycle: c, d, e"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			g := New[*vertex]()
			for _, e := range tc.edges {
				g.Connect(e[0], e[1])
			}
			opts := WalkOptions[*vertex]{Parallelism: 4, Name: func(v *vertex) string { return v.name }}
			diags := walkWithTimeout(t, g, context.Background(), opts, func(context.Context, *vertex) hcl.Diagnostics {
				t.Error("fn called on a cyclic graph")
				return nil
			})
			eq(t, "diagnostics", summaries(diags), tc.want)
			if !diags.HasErrors() {
				t.Error("cycle diagnostics are not errors")
			}
		})
	}

	t.Run("default name uses %v", func(t *testing.T) {
		g := build(nil, []edge{{"x", "y"}, {"y", "x"}})
		diags := walkWithTimeout(t, g, context.Background(), WalkOptions[string]{}, func(context.Context, string) hcl.Diagnostics { return nil })
		eq(t, "diagnostics", summaries(diags), []string{"Cycle: x, y"})
	})
}

func TestWalkEmpty(t *testing.T) {
	if d := New[int]().Walk(context.Background(), 4, nil); d != nil {
		t.Fatalf("unexpected diagnostics: %v", d)
	}
}

func TestWalkRemovedVertices(t *testing.T) {
	g := build(nil, []edge{{"c", "b"}, {"b", "a"}})
	g.Remove("b")
	var called []string
	g.Walk(context.Background(), 1, func(_ context.Context, v string) hcl.Diagnostics {
		called = append(called, v)
		return nil
	})
	eq(t, "called", called, []string{"c", "a"})
}

func TestWalkLarge(t *testing.T) {
	const n = 100000
	r := rand.New(rand.NewPCG(7, 8))
	g := New[int]()
	deps := make([][]int, n)
	for i := range n {
		g.Add(i)
		for range r.IntN(4) {
			if i == 0 {
				break
			}
			j := r.IntN(i)
			g.Connect(i, j)
			deps[i] = append(deps[i], j)
		}
	}
	done := make([]atomic.Bool, n)
	var calls atomic.Int64
	diags := walkWithTimeout(t, g, context.Background(), WalkOptions[int]{Parallelism: 16}, func(_ context.Context, v int) hcl.Diagnostics {
		for _, d := range deps[v] {
			if !done[d].Load() {
				t.Errorf("%d started before dependency %d finished", v, d)
			}
		}
		done[v].Store(true)
		calls.Add(1)
		return nil
	})
	if len(diags) != 0 || calls.Load() != n {
		t.Fatalf("calls = %d, diags = %v", calls.Load(), diags)
	}
}

func BenchmarkWalkChain10k(b *testing.B) {
	g := New[int]()
	for i := 1; i < 10000; i++ {
		g.Connect(i, i-1)
	}
	fn := func(context.Context, int) hcl.Diagnostics { return nil }
	b.ResetTimer()
	for range b.N {
		if d := g.Walk(context.Background(), 10, fn); len(d) != 0 {
			b.Fatal(d)
		}
	}
}

func BenchmarkWalkWide100k(b *testing.B) {
	g := New[int]()
	for i := range 100000 {
		g.Connect(i, i%100) // 100 roots, each with ~1000 dependents
	}
	fn := func(context.Context, int) hcl.Diagnostics { return nil }
	b.ResetTimer()
	for range b.N {
		if d := g.Walk(context.Background(), 10, fn); len(d) != 0 {
			b.Fatal(d)
		}
	}
}
