package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/strata-dev/strata/internal/addrs"
)

// resourcesDOT renders the resources-only graph `terraform graph` prints
// with no -type: every resource of the configuration, those of each
// module in a cluster of their own (one cluster per module path, in path
// order), and an edge from each resource to each resource it depends on
// directly, through variables, locals, outputs and module calls. As in
// Terraform, an edge implied by a longer path is left out (transitive
// reduction), and edges come in the order of the nodes: by source, then
// by target. When the graph has a cycle (drawn with -draw-cycles), every
// edge is drawn. The resources of the state that the configuration no
// longer has (inState) are nodes too, without edges, as Terraform's
// orphans. A graph without any resource says so in a comment, in
// Terraform's words.
func resourcesDOT(cg *configGraph, inState []addrs.ConfigResource, acyclic bool) string {
	nodes := make([]addrs.ConfigResource, 0, len(cg.resources)+len(inState))
	for _, n := range cg.resources {
		nodes = append(nodes, n.addr)
	}
	for _, r := range inState {
		if _, ok := cg.resources[r.String()]; !ok {
			nodes = append(nodes, r)
		}
	}
	sort.Slice(nodes, func(i, j int) bool {
		mi, mj := nodes[i].Module.String(), nodes[j].Module.String()
		if mi != mj {
			return mi < mj
		}
		return nodes[i].Resource.String() < nodes[j].Resource.String()
	})
	order := make(map[string]int, len(nodes))
	for i, n := range nodes {
		order[n.String()] = i
	}

	// deps[i] are the indexes of the resources node i depends on directly.
	deps := make([][]int, len(nodes))
	for i, n := range nodes {
		rn, ok := cg.resources[n.String()]
		if !ok {
			continue // only in the state
		}
		for _, d := range cg.resourceDeps(rn) {
			if j, ok := order[d.String()]; ok && j != i {
				deps[i] = append(deps[i], j)
			}
		}
		sort.Ints(deps[i])
	}
	if acyclic {
		deps = transitiveReduction(deps)
	}

	var b strings.Builder
	b.WriteString("digraph G {\n  rankdir = \"RL\";\n  node [shape = rect, fontname = \"sans-serif\"];\n")
	if len(nodes) == 0 {
		b.WriteString("  /* This configuration does not contain any resources.      */\n")
		b.WriteString("  /* For a more detailed graph, try: strata graph -type=plan */\n")
	}
	open := ""
	for _, n := range nodes {
		if m := n.Module.String(); m != open {
			if open != "" {
				b.WriteString("  }\n")
			}
			open = m
			fmt.Fprintf(&b, "  subgraph %q {\n    label = %q\n    fontname = \"sans-serif\"\n", "cluster_"+m, m)
		}
		indent := "  "
		if open != "" {
			indent = "    "
		}
		fmt.Fprintf(&b, "%s%q [label=%q];\n", indent, n.String(), n.Resource.String())
	}
	if open != "" {
		b.WriteString("  }\n")
	}
	for i, n := range nodes {
		for _, j := range deps[i] {
			fmt.Fprintf(&b, "  %q -> %q;\n", n.String(), nodes[j].String())
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// transitiveReduction returns, for each node of the acyclic graph deps
// (node index to the sorted indexes it depends on), the dependencies that
// no other dependency of the node already reaches.
func transitiveReduction(deps [][]int) [][]int {
	out := make([][]int, len(deps))
	seen := make([]int, len(deps)) // seen[n] == i+1: reached from i's dependencies
	var stack []int
	for i, ds := range deps {
		// Mark everything reachable from i by two edges or more.
		stack = stack[:0]
		for _, k := range ds {
			stack = append(stack, deps[k]...)
		}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[n] == i+1 {
				continue
			}
			seen[n] = i + 1
			stack = append(stack, deps[n]...)
		}
		for _, j := range ds {
			if seen[j] != i+1 {
				out[i] = append(out[i], j)
			}
		}
	}
	return out
}
