package engine

import (
	"fmt"
	"testing"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/dag"
)

// TestConnectDestroyOrder: on a chain whose objects record every
// transitive dependency, each destroy waits for the destroys of all the
// objects that depend on it, through one edge per object instead of one
// per pair.
func TestConnectDestroyOrder(t *testing.T) {
	const n = 6
	g := dag.New[node]()
	byResource := map[string][]*destroyNode{}
	var nodes []*destroyNode
	var dependents []destroyDependent
	for i := 0; i < n; i++ {
		addr, diags := addrs.ParseAbsResourceInstanceStr(fmt.Sprintf("terraform_data.r%d", i))
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		dn := &destroyNode{addr: addr}
		g.Add(dn)
		nodes = append(nodes, dn)
		byResource[addr.ContainingResource().Config().String()] = []*destroyNode{dn}
		var deps []addrs.AbsResource
		for j := 0; j < i; j++ { // r_i depends on every r_j before it
			deps = append(deps, nodes[j].addr.ContainingResource())
		}
		dependents = append(dependents, destroyDependent{n: dn, deps: deps})
	}
	// A resource that depends on r0 alone, on the side.
	side, _ := addrs.ParseAbsResourceInstanceStr("terraform_data.side")
	sideNode := &destroyNode{addr: side}
	g.Add(sideNode)
	byResource["terraform_data.side"] = []*destroyNode{sideNode}
	dependents = append(dependents, destroyDependent{n: sideNode, deps: []addrs.AbsResource{nodes[0].addr.ContainingResource()}})

	connectDestroyOrder(g, dependents, byResource)

	edges := 0
	for _, v := range g.Vertices() {
		edges += len(g.DependsOn(v))
	}
	if edges != n { // one per link of the chain, and side's
		t.Errorf("%d edges, want %d", edges, n)
	}
	for i := 0; i < n; i++ {
		waits := map[node]bool{}
		for _, d := range g.Descendants(nodes[i]) {
			waits[d] = true
		}
		for j := i + 1; j < n; j++ {
			if !waits[nodes[j]] {
				t.Errorf("r%d is not destroyed after r%d, which depends on it", i, j)
			}
		}
	}
	if !g.HasEdge(nodes[0], sideNode) {
		t.Errorf("r0 is not destroyed after side")
	}
}

func TestIntersectSorted(t *testing.T) {
	for _, tc := range []struct{ a, b, want []int }{
		{[]int{1, 2, 3}, []int{2, 3, 4}, []int{2, 3}},
		{[]int{1}, []int{2}, nil},
		{nil, []int{1}, nil},
	} {
		if got := intersectSorted(tc.a, tc.b); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("intersectSorted(%v, %v) = %v", tc.a, tc.b, got)
		}
	}
}
