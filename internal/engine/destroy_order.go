package engine

import (
	"slices"
	"sort"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/dag"
)

// destroyDependent is a destroy node and the resources its object depends
// on: each of their objects being destroyed is destroyed after it.
type destroyDependent struct {
	n    node
	deps []addrs.AbsResource
}

// connectDestroyOrder orders each destroy after the destroys of the
// objects that depend on it. State files record every transitive
// dependency, so connecting each pair would add a quadratic number of
// edges on long chains; a dependency y of d is enough when every other
// dependency x of d being destroyed is covered by y, that is recorded as
// a dependency of every destroy of y, which then orders x after y and so
// after d.
func connectDestroyOrder(g *dag.Graph[node], dependents []destroyDependent, byResource map[string][]*destroyNode) {
	ids := map[string]int{}
	keys := make([]string, 0, len(byResource))
	for key := range byResource {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for i, key := range keys {
		ids[key] = i
	}
	// depIDs are each dependent's dependencies being destroyed, as ids,
	// sorted and without repeats.
	depIDs := make([][]int, len(dependents))
	for i, d := range dependents {
		var out []int
		for _, dep := range d.deps {
			if id, ok := ids[dep.String()]; ok {
				out = append(out, id)
			}
		}
		slices.Sort(out)
		depIDs[i] = slices.Compact(out)
	}
	// cover[y] is what every destroy of resource y depends on.
	cover := make([][]int, len(keys))
	seen := make([]bool, len(keys))
	for i, d := range dependents {
		dn, ok := d.n.(*destroyNode)
		if !ok {
			continue
		}
		y := ids[dn.addr.ContainingResource().Config().String()]
		if !seen[y] {
			seen[y], cover[y] = true, depIDs[i]
			continue
		}
		cover[y] = intersectSorted(cover[y], depIDs[i])
	}
	mark := make([]int, len(keys))
	for i, d := range dependents {
		order := slices.Clone(depIDs[i])
		sort.SliceStable(order, func(a, b int) bool { return len(cover[order[a]]) > len(cover[order[b]]) })
		gen := i + 1
		for _, y := range order {
			if mark[y] == gen {
				continue
			}
			for _, target := range byResource[keys[y]] {
				// target's object is deleted after d's.
				g.Connect(target, d.n)
			}
			for _, x := range cover[y] {
				mark[x] = gen
			}
		}
	}
}

// intersectSorted returns the elements of two sorted lists that are in both.
func intersectSorted(a, b []int) []int {
	var out []int
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	return out
}
