package dag

import "slices"

// Graph is a directed graph over comparable vertices. An edge From -> To
// means "From depends on To": To must be walked before From.
//
// The zero value is an empty graph ready to use.
type Graph[V comparable] struct {
	index map[V]*node[V]
	// nodes holds every vertex in insertion order. Removed vertices leave a
	// nil hole that is compacted away lazily; node.pos is the vertex's
	// current position in this slice, so comparing positions compares
	// insertion order.
	nodes []*node[V]
	holes int
}

type node[V comparable] struct {
	v   V
	pos int
	out nodeSet[V] // dependencies
	in  nodeSet[V] // dependents
}

// New returns an empty graph.
func New[V comparable]() *Graph[V] {
	return &Graph[V]{index: make(map[V]*node[V])}
}

// Add adds v to the graph. Adding a vertex that is already present is a
// no-op and does not change its position in the insertion order.
func (g *Graph[V]) Add(v V) {
	g.add(v)
}

func (g *Graph[V]) add(v V) *node[V] {
	if n, ok := g.index[v]; ok {
		return n
	}
	if g.index == nil {
		g.index = make(map[V]*node[V])
	}
	n := &node[V]{v: v, pos: len(g.nodes)}
	g.index[v] = n
	g.nodes = append(g.nodes, n)
	return n
}

// Connect adds an edge meaning "from depends on to", adding either vertex if
// it is absent. A self edge (from == to) is ignored, although the vertex is
// still added. Connecting an existing edge again is a no-op.
func (g *Graph[V]) Connect(from, to V) {
	f := g.add(from)
	t := g.add(to)
	if f == t {
		return
	}
	g.link(f, t)
}

// Disconnect removes the edge from -> to if it exists.
func (g *Graph[V]) Disconnect(from, to V) {
	f, ok1 := g.index[from]
	t, ok2 := g.index[to]
	if !ok1 || !ok2 {
		return
	}
	f.out.remove(t)
	t.in.remove(f)
}

// HasEdge reports whether the edge from -> to ("from depends on to") exists.
func (g *Graph[V]) HasEdge(from, to V) bool {
	f, ok1 := g.index[from]
	t, ok2 := g.index[to]
	if !ok1 || !ok2 {
		return false
	}
	return f.out.has(t)
}

// Remove removes v and every edge touching it. Removing an absent vertex is
// a no-op.
func (g *Graph[V]) Remove(v V) {
	n, ok := g.index[v]
	if !ok {
		return
	}
	for _, d := range n.out.list {
		d.in.remove(n)
	}
	for _, d := range n.in.list {
		d.out.remove(n)
	}
	delete(g.index, v)
	g.nodes[n.pos] = nil
	g.holes++
	if g.holes > 32 && g.holes*2 > len(g.nodes) {
		g.compact()
	}
}

func (g *Graph[V]) compact() {
	live := g.nodes[:0]
	for _, n := range g.nodes {
		if n != nil {
			n.pos = len(live)
			live = append(live, n)
		}
	}
	clear(g.nodes[len(live):])
	g.nodes = live
	g.holes = 0
}

// Has reports whether v is a vertex of the graph.
func (g *Graph[V]) Has(v V) bool {
	_, ok := g.index[v]
	return ok
}

// Len returns the number of vertices.
func (g *Graph[V]) Len() int {
	return len(g.index)
}

// Vertices returns every vertex in insertion order.
func (g *Graph[V]) Vertices() []V {
	out := make([]V, 0, len(g.index))
	for _, n := range g.nodes {
		if n != nil {
			out = append(out, n.v)
		}
	}
	return out
}

// DependsOn returns the direct dependencies of v (the targets of its out
// edges) in insertion order, or nil if v is absent.
func (g *Graph[V]) DependsOn(v V) []V {
	n, ok := g.index[v]
	if !ok {
		return nil
	}
	return sortedValues(n.out.list)
}

// Dependents returns the vertices that directly depend on v (the sources of
// its in edges) in insertion order, or nil if v is absent.
func (g *Graph[V]) Dependents(v V) []V {
	n, ok := g.index[v]
	if !ok {
		return nil
	}
	return sortedValues(n.in.list)
}

// Descendants returns every vertex that v depends on, directly or
// transitively (the closure of DependsOn), in insertion order. v itself is
// not included, even if it is part of a cycle.
func (g *Graph[V]) Descendants(v V) []V {
	return g.closure(v, func(n *node[V]) []*node[V] { return n.out.list })
}

// Ancestors returns every vertex that depends on v, directly or transitively
// (the closure of Dependents), in insertion order. v itself is not included,
// even if it is part of a cycle.
func (g *Graph[V]) Ancestors(v V) []V {
	return g.closure(v, func(n *node[V]) []*node[V] { return n.in.list })
}

func (g *Graph[V]) closure(v V, next func(*node[V]) []*node[V]) []V {
	start, ok := g.index[v]
	if !ok {
		return nil
	}
	seen := map[*node[V]]struct{}{start: {}}
	var found []*node[V]
	stack := []*node[V]{start}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, m := range next(n) {
			if _, ok := seen[m]; ok {
				continue
			}
			seen[m] = struct{}{}
			found = append(found, m)
			stack = append(stack, m)
		}
	}
	return nodeValues(found)
}

// Clone returns an independent copy of the graph.
func (g *Graph[V]) Clone() *Graph[V] {
	r := &Graph[V]{
		index: make(map[V]*node[V], len(g.index)),
		nodes: make([]*node[V], 0, len(g.index)),
	}
	// First pass creates the nodes so that positions match insertion order.
	clone := make(map[*node[V]]*node[V], len(g.index))
	for _, n := range g.nodes {
		if n != nil {
			clone[n] = r.add(n.v)
		}
	}
	for _, n := range g.nodes {
		if n == nil {
			continue
		}
		for _, d := range n.out.list {
			r.link(clone[n], clone[d])
		}
	}
	return r
}

func (g *Graph[V]) link(f, t *node[V]) {
	if f.out.has(t) {
		return
	}
	f.out.add(t)
	t.in.add(f)
}

// sortedValues returns the vertices of a neighbour set in insertion order.
func sortedValues[V comparable](set []*node[V]) []V {
	if len(set) == 0 {
		return nil
	}
	return nodeValues(slices.Clone(set))
}

// nodeValues sorts ns by insertion order and returns their vertices.
func nodeValues[V comparable](ns []*node[V]) []V {
	if len(ns) == 0 {
		return nil
	}
	slices.SortFunc(ns, func(a, b *node[V]) int { return a.pos - b.pos })
	out := make([]V, len(ns))
	for i, n := range ns {
		out[i] = n.v
	}
	return out
}

// snapshot is an immutable, index-based copy of a graph's structure. Vertex
// ids are dense (0..n-1) and follow insertion order; adjacency lists are
// sorted ascending, so algorithms over a snapshot are deterministic.
type snapshot[V comparable] struct {
	verts []V
	out   [][]int32 // dependencies
	in    [][]int32 // dependents
	// nodes maps ids back to the graph's nodes (only valid while the graph
	// is not mutated).
	nodes []*node[V]
}

func (g *Graph[V]) snapshot() *snapshot[V] {
	n := len(g.index)
	s := &snapshot[V]{
		verts: make([]V, 0, n),
		out:   make([][]int32, n),
		in:    make([][]int32, n),
		nodes: make([]*node[V], 0, n),
	}
	var id []int32 // position -> dense id
	if g.holes > 0 {
		id = make([]int32, len(g.nodes))
	}
	for _, nd := range g.nodes {
		if nd == nil {
			continue
		}
		if id != nil {
			id[nd.pos] = int32(len(s.verts))
		}
		s.verts = append(s.verts, nd.v)
		s.nodes = append(s.nodes, nd)
	}
	idOf := func(nd *node[V]) int32 {
		if id == nil {
			return int32(nd.pos)
		}
		return id[nd.pos]
	}
	inCount := make([]int32, n)
	total := 0
	for i, nd := range s.nodes {
		if nd.out.len() == 0 {
			continue
		}
		deps := make([]int32, 0, nd.out.len())
		for _, d := range nd.out.list {
			j := idOf(d)
			deps = append(deps, j)
			inCount[j]++
		}
		slices.Sort(deps)
		s.out[i] = deps
		total += len(deps)
	}
	// Build the dependents lists from the sorted dependency lists; visiting
	// sources in ascending order keeps each list sorted without a sort. All
	// lists share one backing array.
	backing := make([]int32, total)
	off := 0
	for i, c := range inCount {
		s.in[i] = backing[off : off : off+int(c)]
		off += int(c)
	}
	for i, deps := range s.out {
		for _, j := range deps {
			s.in[j] = append(s.in[j], int32(i))
		}
	}
	return s
}
