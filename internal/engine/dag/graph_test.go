package dag

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

type edge struct{ from, to string }

// build returns a graph with the given vertices added first (in order) and
// then the given edges connected.
func build(verts []string, edges []edge) *Graph[string] {
	g := New[string]()
	for _, v := range verts {
		g.Add(v)
	}
	for _, e := range edges {
		g.Connect(e.from, e.to)
	}
	return g
}

// edgesOf lists every edge of g, ordered by source then target insertion
// order.
func edgesOf[V comparable](g *Graph[V]) [][2]V {
	var out [][2]V
	for _, v := range g.Vertices() {
		for _, d := range g.DependsOn(v) {
			out = append(out, [2]V{v, d})
		}
	}
	return out
}

func strEdges(g *Graph[string]) []string {
	var out []string
	for _, e := range edgesOf(g) {
		out = append(out, e[0]+"->"+e[1])
	}
	return out
}

func eq[T comparable](t *testing.T, what string, got, want []T) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// checkConsistent verifies that in and out edges mirror each other and that
// the index, node list and positions agree.
func checkConsistent[V comparable](t *testing.T, g *Graph[V]) {
	t.Helper()
	live := 0
	for i, n := range g.nodes {
		if n == nil {
			continue
		}
		live++
		if n.pos != i {
			t.Errorf("node %v has pos %d, stored at %d", n.v, n.pos, i)
		}
		if g.index[n.v] != n {
			t.Errorf("index for %v does not point at its node", n.v)
		}
		checkSet(t, n, &n.out)
		checkSet(t, n, &n.in)
		for _, d := range n.out.list {
			if !d.in.has(n) {
				t.Errorf("edge %v->%v missing from in set", n.v, d.v)
			}
			if g.index[d.v] != d {
				t.Errorf("edge %v->%v points at a removed node", n.v, d.v)
			}
		}
		for _, d := range n.in.list {
			if !d.out.has(n) {
				t.Errorf("edge %v->%v missing from out set", d.v, n.v)
			}
		}
	}
	if live != len(g.index) || live != g.Len() {
		t.Errorf("live nodes %d, index %d, Len %d", live, len(g.index), g.Len())
	}
}

// checkSet verifies that a neighbour set has no duplicates and, when it
// has an index, that the index and the list agree.
func checkSet[V comparable](t *testing.T, n *node[V], s *nodeSet[V]) {
	t.Helper()
	seen := map[*node[V]]bool{}
	for i, m := range s.list {
		if seen[m] {
			t.Errorf("node %v: %v twice in a neighbour set", n.v, m.v)
		}
		seen[m] = true
		if s.index != nil && s.index[m] != i {
			t.Errorf("node %v: index has %v at %d, list at %d", n.v, m.v, s.index[m], i)
		}
	}
	if s.index != nil && len(s.index) != len(s.list) {
		t.Errorf("node %v: index of %d for a list of %d", n.v, len(s.index), len(s.list))
	}
	if s.index == nil && len(s.list) > smallSet {
		t.Errorf("node %v: %d neighbours and no index", n.v, len(s.list))
	}
}

func TestConnect(t *testing.T) {
	tests := map[string]struct {
		verts          []string
		edges          []edge
		wantVerts      []string
		wantEdges      []string
		wantDependents map[string][]string
	}{
		"empty": {},
		"single edge adds both vertices": {
			edges:          []edge{{"a", "b"}},
			wantVerts:      []string{"a", "b"},
			wantEdges:      []string{"a->b"},
			wantDependents: map[string][]string{"b": {"a"}, "a": nil},
		},
		"self edge ignored but vertex added": {
			edges:     []edge{{"a", "a"}},
			wantVerts: []string{"a"},
		},
		"duplicate edge is a no-op": {
			edges:     []edge{{"a", "b"}, {"a", "b"}},
			wantVerts: []string{"a", "b"},
			wantEdges: []string{"a->b"},
		},
		"existing vertices keep their position": {
			verts:     []string{"c", "b", "a"},
			edges:     []edge{{"a", "c"}, {"a", "b"}, {"x", "a"}},
			wantVerts: []string{"c", "b", "a", "x"},
			// DependsOn follows insertion order, not connection order.
			wantEdges:      []string{"a->c", "a->b", "x->a"},
			wantDependents: map[string][]string{"c": {"a"}, "a": {"x"}},
		},
		"dependents in insertion order": {
			verts:          []string{"z", "y", "x", "t"},
			edges:          []edge{{"x", "t"}, {"z", "t"}, {"y", "t"}},
			wantVerts:      []string{"z", "y", "x", "t"},
			wantEdges:      []string{"z->t", "y->t", "x->t"},
			wantDependents: map[string][]string{"t": {"z", "y", "x"}},
		},
		"both directions are distinct edges": {
			edges:     []edge{{"a", "b"}, {"b", "a"}},
			wantVerts: []string{"a", "b"},
			wantEdges: []string{"a->b", "b->a"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			g := build(tc.verts, tc.edges)
			checkConsistent(t, g)
			eq(t, "Vertices", g.Vertices(), tc.wantVerts)
			eq(t, "edges", strEdges(g), tc.wantEdges)
			if g.Len() != len(tc.wantVerts) {
				t.Errorf("Len = %d, want %d", g.Len(), len(tc.wantVerts))
			}
			for _, v := range tc.wantVerts {
				if !g.Has(v) {
					t.Errorf("Has(%q) = false", v)
				}
			}
			for v, want := range tc.wantDependents {
				eq(t, "Dependents("+v+")", g.Dependents(v), want)
			}
			for _, e := range tc.edges {
				if e.from != e.to && !g.HasEdge(e.from, e.to) {
					t.Errorf("HasEdge(%q, %q) = false", e.from, e.to)
				}
			}
		})
	}
}

func TestZeroValueGraph(t *testing.T) {
	var g Graph[int]
	if g.Has(1) || g.Len() != 0 || g.DependsOn(1) != nil || len(g.Vertices()) != 0 {
		t.Fatal("zero graph not empty")
	}
	g.Remove(1)
	g.Connect(1, 2)
	eq(t, "DependsOn(1)", g.DependsOn(1), []int{2})
}

func TestRemove(t *testing.T) {
	tests := map[string]struct {
		verts     []string
		edges     []edge
		remove    []string
		add       []string
		wantVerts []string
		wantEdges []string
	}{
		"middle of a chain": {
			edges:     []edge{{"a", "b"}, {"b", "c"}},
			remove:    []string{"b"},
			wantVerts: []string{"a", "c"},
		},
		"absent vertex is a no-op": {
			edges:     []edge{{"a", "b"}},
			remove:    []string{"zz"},
			wantVerts: []string{"a", "b"},
			wantEdges: []string{"a->b"},
		},
		"hub removes in and out edges only": {
			edges:     []edge{{"a", "hub"}, {"b", "hub"}, {"hub", "c"}, {"a", "c"}},
			remove:    []string{"hub"},
			wantVerts: []string{"a", "b", "c"},
			wantEdges: []string{"a->c"},
		},
		"removed then re-added moves to the end without edges": {
			edges:     []edge{{"a", "b"}, {"b", "c"}},
			remove:    []string{"a"},
			add:       []string{"a"},
			wantVerts: []string{"b", "c", "a"},
			wantEdges: []string{"b->c"},
		},
		"remove everything": {
			edges:  []edge{{"a", "b"}, {"b", "a"}},
			remove: []string{"a", "b"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			g := build(tc.verts, tc.edges)
			for _, v := range tc.remove {
				g.Remove(v)
				if g.Has(v) {
					t.Errorf("Has(%q) after Remove", v)
				}
			}
			for _, v := range tc.add {
				g.Add(v)
			}
			checkConsistent(t, g)
			eq(t, "Vertices", g.Vertices(), tc.wantVerts)
			eq(t, "edges", strEdges(g), tc.wantEdges)
		})
	}
}

func TestRemoveCompaction(t *testing.T) {
	g := New[int]()
	for i := range 200 {
		g.Connect(i+1, i)
	}
	var want []int
	for i := range 201 {
		if i%5 == 0 {
			want = append(want, i)
		} else {
			g.Remove(i)
		}
	}
	if g.holes >= len(g.nodes)/2 {
		t.Errorf("expected compaction, holes=%d nodes=%d", g.holes, len(g.nodes))
	}
	checkConsistent(t, g)
	eq(t, "Vertices", g.Vertices(), want)
	for i := 1; i < 200; i++ {
		g.Connect(i, i-1) // re-adds removed vertices at the end
	}
	checkConsistent(t, g)
	if got := g.Len(); got != 201 {
		t.Errorf("Len = %d, want 201", got)
	}
	if got := g.Vertices()[:3]; !slices.Equal(got, []int{0, 5, 10}) {
		t.Errorf("order after re-adding: %v", got)
	}
}

func TestCycles(t *testing.T) {
	tests := map[string]struct {
		verts []string
		edges []edge
		want  [][]string
	}{
		"empty":   {},
		"acyclic": {edges: []edge{{"a", "b"}, {"b", "c"}, {"a", "c"}}},
		"two-cycle": {
			edges: []edge{{"a", "b"}, {"b", "a"}},
			want:  [][]string{{"a", "b"}},
		},
		"three-cycle with tails": {
			edges: []edge{{"x", "a"}, {"a", "b"}, {"b", "c"}, {"c", "a"}, {"c", "y"}},
			want:  [][]string{{"a", "b", "c"}},
		},
		"components listed in insertion order": {
			verts: []string{"p", "q", "c", "b", "a"},
			edges: []edge{{"a", "b"}, {"b", "c"}, {"c", "a"}, {"q", "p"}, {"p", "q"}},
			want:  [][]string{{"p", "q"}, {"c", "b", "a"}},
		},
		"two cycles joined one way are separate": {
			edges: []edge{{"a", "b"}, {"b", "a"}, {"b", "c"}, {"c", "d"}, {"d", "c"}},
			want:  [][]string{{"a", "b"}, {"c", "d"}},
		},
		"figure eight is one component": {
			edges: []edge{{"a", "b"}, {"b", "a"}, {"b", "c"}, {"c", "b"}},
			want:  [][]string{{"a", "b", "c"}},
		},
		"self edge is not a cycle": {
			edges: []edge{{"a", "a"}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			g := build(tc.verts, tc.edges)
			got := g.Cycles()
			if len(got) != len(tc.want) {
				t.Fatalf("Cycles = %v, want %v", got, tc.want)
			}
			for i := range got {
				eq(t, fmt.Sprintf("Cycles[%d]", i), got[i], tc.want[i])
			}
		})
	}
}

func TestCyclesLongChain(t *testing.T) {
	// A long cycle must not overflow the stack or be slow.
	g := New[int]()
	const n = 200000
	for i := range n {
		g.Connect(i, (i+1)%n)
	}
	c := g.Cycles()
	if len(c) != 1 || len(c[0]) != n || c[0][0] != 0 || c[0][n-1] != n-1 {
		t.Fatalf("unexpected cycles: %d components", len(c))
	}
}

func randomDAG(r *rand.Rand, n int, p float64, local int) *Graph[int] {
	g := New[int]()
	for _, v := range r.Perm(n) {
		g.Add(v)
	}
	for i := range n {
		for j := max(0, i-local); j < i; j++ {
			if r.Float64() < p {
				g.Connect(i, j)
			}
		}
	}
	return g
}

func chainFanOut(n int) *Graph[int] {
	g := New[int]()
	g.Add(-1)
	for i := range n {
		g.Add(i)
		if i > 0 {
			g.Connect(i, i-1)
			g.Connect(i, 0)
		}
		g.Connect(-1, i)
	}
	return g
}

func TestAncestorsDescendants(t *testing.T) {
	// d depends on c and b; c and b depend on a; x depends on d; y is alone.
	verts := []string{"y", "a", "b", "c", "d", "x"}
	edges := []edge{{"d", "c"}, {"d", "b"}, {"c", "a"}, {"b", "a"}, {"x", "d"}}
	tests := map[string]struct {
		v               string
		wantAncestors   []string
		wantDescendants []string
	}{
		"root of dependencies": {v: "a", wantAncestors: []string{"b", "c", "d", "x"}},
		"middle": {
			v:               "c",
			wantAncestors:   []string{"d", "x"},
			wantDescendants: []string{"a"},
		},
		"top":      {v: "x", wantDescendants: []string{"a", "b", "c", "d"}},
		"isolated": {v: "y"},
		"absent":   {v: "nope"},
	}
	g := build(verts, edges)
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			eq(t, "Ancestors", g.Ancestors(tc.v), tc.wantAncestors)
			eq(t, "Descendants", g.Descendants(tc.v), tc.wantDescendants)
		})
	}

	t.Run("cycle excludes the start vertex", func(t *testing.T) {
		g := build(nil, []edge{{"a", "b"}, {"b", "c"}, {"c", "a"}})
		eq(t, "Descendants(a)", g.Descendants("a"), []string{"b", "c"})
		eq(t, "Ancestors(a)", g.Ancestors("a"), []string{"b", "c"})
	})
}

func TestDisconnect(t *testing.T) {
	tests := map[string]struct {
		edges      []edge
		disconnect edge
		want       []string
	}{
		"existing edge": {
			edges:      []edge{{"a", "b"}, {"b", "c"}},
			disconnect: edge{"a", "b"},
			want:       []string{"b->c"},
		},
		"wrong direction is a no-op": {
			edges:      []edge{{"a", "b"}},
			disconnect: edge{"b", "a"},
			want:       []string{"a->b"},
		},
		"absent vertices are a no-op": {
			edges:      []edge{{"a", "b"}},
			disconnect: edge{"x", "y"},
			want:       []string{"a->b"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			g := build(nil, tc.edges)
			n := g.Len()
			g.Disconnect(tc.disconnect.from, tc.disconnect.to)
			checkConsistent(t, g)
			eq(t, "edges", strEdges(g), tc.want)
			if g.Len() != n {
				t.Errorf("Len changed from %d to %d", n, g.Len())
			}
		})
	}
}

func TestClone(t *testing.T) {
	g := New[string]()
	g.Connect("a", "b")
	g.Connect("b", "c")
	g.Add("d")
	c := g.Clone()
	eq(t, "clone", strEdges(c), strEdges(g))
	c.Connect("d", "a")
	c.Remove("c")
	eq(t, "original after changing the clone", strEdges(g), []string{"a->b", "b->c"})
	eq(t, "changed clone", strEdges(c), []string{"a->b", "d->a"})
	checkConsistent(t, c)
}

// TestLargeNeighbourSets connects a hub with more neighbours than a set
// keeps unindexed, then removes and disconnects some: the sets, their
// index and the answers must stay right.
func TestLargeNeighbourSets(t *testing.T) {
	g := New[int]()
	const hub, n = 0, 3 * smallSet
	for i := 1; i <= n; i++ {
		g.Connect(i, hub) // i depends on the hub
		g.Connect(hub+1000, i)
		g.Connect(i, hub) // again: no duplicate
	}
	checkConsistent(t, g)
	var want []int
	for i := 1; i <= n; i++ {
		switch {
		case i%3 == 0:
			g.Remove(i)
		case i%5 == 0:
			g.Disconnect(i, hub)
		default:
			want = append(want, i)
		}
	}
	checkConsistent(t, g)
	if got := g.Dependents(hub); !slices.Equal(got, want) {
		t.Errorf("dependents of the hub: %v, want %v", got, want)
	}
	for _, i := range want {
		if !g.HasEdge(i, hub) {
			t.Errorf("edge %d->hub lost", i)
		}
	}
	if g.HasEdge(5, hub) || g.HasEdge(3, hub) {
		t.Error("a removed edge is still there")
	}
	c := g.Clone()
	checkConsistent(t, c)
	if got := c.Dependents(hub); !slices.Equal(got, want) {
		t.Errorf("dependents of the hub in the clone: %v, want %v", got, want)
	}
}
