package dag

import "slices"

// Cycles returns the strongly connected components of the graph that contain
// more than one vertex, i.e. every set of vertices that depend on each other
// in a cycle. (Connect ignores self edges, so a single vertex can never form
// a cycle.) Each component is listed in insertion order and the components
// are ordered by their first vertex, so the result is deterministic. An
// acyclic graph returns nil.
func (g *Graph[V]) Cycles() [][]V {
	s := g.snapshot()
	return s.values(s.cycles())
}

// values converts lists of ids into lists of vertices.
func (s *snapshot[V]) values(sets [][]int32) [][]V {
	if len(sets) == 0 {
		return nil
	}
	out := make([][]V, len(sets))
	for i, set := range sets {
		vs := make([]V, len(set))
		for j, id := range set {
			vs[j] = s.verts[id]
		}
		out[i] = vs
	}
	return out
}

// cycles runs Tarjan's strongly connected components algorithm over the
// dependency edges and returns the components with more than one vertex,
// each sorted ascending and ordered by first element. It is iterative so
// that long chains cannot overflow the stack.
func (s *snapshot[V]) cycles() [][]int32 {
	n := len(s.verts)
	index := make([]int32, n) // discovery index + 1; 0 means unvisited
	low := make([]int32, n)
	onStack := make([]bool, n)
	var stack []int32
	type frame struct {
		v    int32
		next int
	}
	var call []frame
	var counter int32
	var sccs [][]int32

	visit := func(v int32) {
		counter++
		index[v] = counter
		low[v] = counter
		stack = append(stack, v)
		onStack[v] = true
		call = append(call, frame{v: v})
	}

	for root := range int32(n) {
		if index[root] != 0 {
			continue
		}
		visit(root)
		for len(call) > 0 {
			top := len(call) - 1
			v := call[top].v
			if call[top].next < len(s.out[v]) {
				w := s.out[v][call[top].next]
				call[top].next++
				if index[w] == 0 {
					visit(w)
				} else if onStack[w] {
					low[v] = min(low[v], index[w])
				}
				continue
			}
			call = call[:top]
			if top > 0 {
				p := call[top-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			// v is the root of a component: pop it off the stack.
			i := len(stack) - 1
			for stack[i] != v {
				i--
			}
			comp := stack[i:]
			stack = stack[:i]
			for _, w := range comp {
				onStack[w] = false
			}
			if len(comp) > 1 {
				c := slices.Clone(comp)
				slices.Sort(c)
				sccs = append(sccs, c)
			}
		}
	}
	slices.SortFunc(sccs, func(a, b []int32) int { return int(a[0]) - int(b[0]) })
	return sccs
}
