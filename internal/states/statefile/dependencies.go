package statefile

import (
	"encoding/json"
	"slices"
	"sort"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// dependencyClosure computes, for every object in s, the full set of
// resources it depends on: the recorded dependencies and, transitively,
// theirs. Terraform records this full set in each object, so that either
// tool can order destroys from the state alone; strata's engine and journal
// record only the direct dependencies and the closure is taken here, when a
// snapshot is written.
//
// The set is quadratic in the length of a chain of resources (the last of
// n records n-1 addresses), so the work is done on small integers: each
// distinct recorded address (a label) is rendered and quoted once, each
// resource's closure is computed once as a sorted list of label ranks, and
// objects whose dependencies are those of their resource share it.
//
// Resources are nodes keyed by their ConfigResource string (module
// instance keys dropped, the form dependencies are recorded in), so the
// instances of one module call share one node.
type dependencyClosure struct {
	labelIDs map[labelKey]int32
	labels   []depLabel
	nodeIDs  map[string]int32
	nodes    []depNode

	// rank gives each label's position in the sorted order of the
	// labels' strings; byRank is its inverse.
	rank, byRank []int32

	// Scratch marks, indexed by label id, for comparing and counting sets
	// without maps.
	mark    []uint32
	markGen uint32
	scratch []int32
}

// labelKey identifies a recorded dependency address without rendering it:
// module is "" for the root module (the usual case), else the rendered
// module instance path.
type labelKey struct {
	module string
	res    addrs.Resource
}

type depLabel struct {
	text   string
	quoted []byte // text as a JSON string
	node   int32  // the resource node the address names
}

type depNode struct {
	edges []int32 // distinct labels recorded by the node's objects, sorted by id
	// reach holds the sorted ranks of every label reachable from the
	// node, once computed; closure, the same without the labels naming
	// the node itself, which is what its objects record.
	reach    []int32
	closure  []int32
	hasClose bool
	// Tarjan's bookkeeping.
	index, low int32
	onStack    bool
}

func newDependencyClosure(s *states.State) *dependencyClosure {
	dc := &dependencyClosure{
		labelIDs: map[labelKey]int32{},
		nodeIDs:  map[string]int32{},
	}
	var ids []int32
	for _, r := range s.Resources {
		n := dc.node(r.Addr.Config().String())
		for _, inst := range r.Instances {
			if inst.Current != nil {
				ids = dc.labelsOf(inst.Current, ids[:0])
				dc.nodes[n].edges = append(dc.nodes[n].edges, ids...)
			}
			for _, o := range inst.Deposed {
				ids = dc.labelsOf(o, ids[:0])
				dc.nodes[n].edges = append(dc.nodes[n].edges, ids...)
			}
		}
	}
	for i := range dc.nodes {
		slices.Sort(dc.nodes[i].edges)
		dc.nodes[i].edges = slices.Compact(dc.nodes[i].edges)
	}
	dc.byRank = make([]int32, len(dc.labels))
	for i := range dc.byRank {
		dc.byRank[i] = int32(i)
	}
	sort.Slice(dc.byRank, func(i, j int) bool { return dc.labels[dc.byRank[i]].text < dc.labels[dc.byRank[j]].text })
	dc.rank = make([]int32, len(dc.labels))
	for r, id := range dc.byRank {
		dc.rank[id] = int32(r)
	}
	dc.mark = make([]uint32, len(dc.labels))
	dc.computeReach()
	return dc
}

func (dc *dependencyClosure) node(key string) int32 {
	if n, ok := dc.nodeIDs[key]; ok {
		return n
	}
	n := int32(len(dc.nodes))
	dc.nodeIDs[key] = n
	dc.nodes = append(dc.nodes, depNode{index: -1})
	return n
}

// labelsOf appends the label ids of o's recorded dependencies, in recorded
// order, to ids.
func (dc *dependencyClosure) labelsOf(o *states.ObjectSrc, ids []int32) []int32 {
	for _, d := range o.Dependencies {
		k := labelKey{res: d.Resource}
		if !d.Module.IsRoot() {
			k.module = d.Module.String()
		}
		id, ok := dc.labelIDs[k]
		if !ok {
			id = int32(len(dc.labels))
			text := d.String()
			quoted, _ := json.Marshal(text)
			dc.labels = append(dc.labels, depLabel{text: text, quoted: quoted, node: dc.node(d.Config().String())})
			dc.labelIDs[k] = id
		}
		ids = append(ids, id)
	}
	return ids
}

// computeReach fills in every node's reach with Tarjan's algorithm: the
// nodes of a cycle (possible only in a hand-edited state) all reach the
// same labels, and each strongly connected component is finished after
// every component it depends on.
func (dc *dependencyClosure) computeReach() {
	var index int32
	var stack []int32
	var visit func(v int32)
	visit = func(v int32) {
		n := &dc.nodes[v]
		n.index, n.low = index, index
		index++
		stack = append(stack, v)
		n.onStack = true
		for _, l := range dc.nodes[v].edges {
			w := dc.labels[l].node
			switch {
			case dc.nodes[w].index < 0:
				visit(w)
				dc.nodes[v].low = min(dc.nodes[v].low, dc.nodes[w].low)
			case dc.nodes[w].onStack:
				dc.nodes[v].low = min(dc.nodes[v].low, dc.nodes[w].index)
			}
		}
		if dc.nodes[v].low != dc.nodes[v].index {
			return
		}
		i := len(stack) - 1
		for stack[i] != v {
			i--
		}
		component := stack[i:]
		stack = stack[:i]
		// The component reaches its members' labels and whatever those
		// labels' nodes outside it reach; they are all finished.
		type outside struct {
			rank  int32
			reach []int32
		}
		var deps []outside
		var direct []int32
		for _, m := range component {
			dc.nodes[m].onStack = false
			for _, l := range dc.nodes[m].edges {
				direct = append(direct, dc.rank[l])
				if w := dc.labels[l].node; !slices.Contains(component, w) {
					deps = append(deps, outside{dc.rank[l], dc.nodes[w].reach})
				}
			}
		}
		// A dependency already in the reach of another one adds nothing:
		// its own reach is inside that one. Recorded lists are usually
		// closed already, so on a chain this keeps one list per node
		// instead of merging every one (cubic).
		sort.SliceStable(deps, func(a, b int) bool { return len(deps[a].reach) > len(deps[b].reach) })
		var lists [][]int32
		for _, d := range deps {
			covered := false
			for _, l := range lists {
				if _, found := slices.BinarySearch(l, d.rank); found {
					covered = true
					break
				}
			}
			if !covered {
				lists = append(lists, d.reach)
			}
		}
		slices.Sort(direct)
		reach := mergeSorted(append(lists, slices.Compact(direct)))
		for _, m := range component {
			dc.nodes[m].reach = reach
		}
	}
	for v := range dc.nodes {
		if dc.nodes[v].index < 0 {
			visit(int32(v))
		}
	}
}

// mergeSorted returns the sorted union of sorted lists without
// duplicates. The result may be one of the lists: none is modified.
func mergeSorted(lists [][]int32) []int32 {
	lists = slices.DeleteFunc(lists, func(l []int32) bool { return len(l) == 0 })
	switch len(lists) {
	case 0:
		return nil
	case 1:
		return lists[0]
	}
	// Merge the longest list with each other in turn: a chain adds one
	// label to its predecessor's list at each step.
	sort.Slice(lists, func(i, j int) bool { return len(lists[i]) > len(lists[j]) })
	out := lists[0]
	for _, l := range lists[1:] {
		merged := make([]int32, 0, len(out)+len(l))
		i, j := 0, 0
		for i < len(out) && j < len(l) {
			switch {
			case out[i] < l[j]:
				merged = append(merged, out[i])
				i++
			case out[i] > l[j]:
				merged = append(merged, l[j])
				j++
			default:
				merged = append(merged, out[i])
				i++
				j++
			}
		}
		merged = append(merged, out[i:]...)
		out = append(merged, l[j:]...)
	}
	return out
}

// nodeClosure returns the sorted ranks of the labels reachable from node
// n, less those naming n itself.
func (dc *dependencyClosure) nodeClosure(n int32) []int32 {
	node := &dc.nodes[n]
	if !node.hasClose {
		node.closure, node.hasClose = dc.without(node.reach, n), true
	}
	return node.closure
}

// without returns ranks less the labels naming node n: ranks itself when
// there are none.
func (dc *dependencyClosure) without(ranks []int32, n int32) []int32 {
	names := func(r int32) bool { return dc.labels[dc.byRank[r]].node == n }
	if !slices.ContainsFunc(ranks, names) {
		return ranks
	}
	return slices.DeleteFunc(slices.Clone(ranks), names)
}

// complete returns the dependencies to record for o, an object of r, as
// label ids in the order to write them: its recorded dependencies completed
// with their transitive dependencies, sorted, less r itself. A list that is
// already complete is returned as recorded (duplicates included), so that
// a state Terraform wrote is written back unchanged. The result is valid
// until the next call.
func (dc *dependencyClosure) complete(r *states.Resource, o *states.ObjectSrc) []int32 {
	if len(o.Dependencies) == 0 {
		return nil
	}
	self := dc.nodeIDs[r.Addr.Config().String()]
	ids := dc.labelsOf(o, dc.scratch[:0])
	dc.scratch = ids

	// Count o's distinct labels, and those other than self.
	dc.markGen++
	if dc.markGen == 0 {
		clear(dc.mark)
		dc.markGen = 1
	}
	all, others := 0, 0
	for _, l := range ids {
		if dc.mark[l] != dc.markGen {
			dc.mark[l] = dc.markGen
			all++
			if dc.labels[l].node != self {
				others++
			}
		}
	}
	var closure []int32
	if all == len(dc.nodes[self].edges) {
		// o's labels are all its resource's (they are a subset of
		// them): the resource's closure is o's.
		closure = dc.nodeClosure(self)
	} else {
		lists := make([][]int32, 0, len(ids)+1)
		direct := make([]int32, 0, len(ids))
		for _, l := range ids {
			direct = append(direct, dc.rank[l])
			lists = append(lists, dc.nodes[dc.labels[l].node].reach)
		}
		slices.Sort(direct)
		lists = append(lists, slices.Compact(direct))
		closure = dc.without(mergeSorted(lists), self)
	}
	if len(closure) == others {
		return ids
	}
	out := ids[:0]
	for _, r := range closure {
		out = append(out, dc.byRank[r])
	}
	dc.scratch = out
	return out
}

// strings renders label ids as the state file's dependency strings.
func (dc *dependencyClosure) strings(ids []int32) []string {
	if len(ids) == 0 {
		return nil
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = dc.labels[id].text
	}
	return out
}
