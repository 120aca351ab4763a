package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// GraphDOT renders the configuration's dependency graph in the DOT
// language. By default it shows resources and the resources they depend
// on (through locals and variables), as `terraform graph` does; with full
// set it shows every node strata walks: variables, locals, outputs,
// provider configurations and resources.
func (e *Engine) GraphDOT(ctx context.Context, full bool) (string, hcl.Diagnostics) {
	w := e.newWalker(nil, true)
	defer w.ps.closeAll(context.WithoutCancel(ctx))
	cg, diags := w.buildConfigGraph(ctx)
	if diags.HasErrors() {
		return "", diags
	}
	var b strings.Builder
	if !full {
		b.WriteString("digraph G {\n  rankdir = \"RL\";\n  node [shape = rect, fontname = \"sans-serif\"];\n")
		keys := sortedKeys(cg.resources)
		for _, k := range keys {
			fmt.Fprintf(&b, "  %q [label=%q];\n", cg.resources[k].addr.String(), cg.resources[k].addr.String())
		}
		for _, k := range keys {
			n := cg.resources[k]
			for _, dep := range cg.resourceDeps(n) {
				fmt.Fprintf(&b, "  %q -> %q;\n", n.addr.String(), dep.String())
			}
		}
		b.WriteString("}\n")
		return b.String(), diags
	}
	name := func(n node) string { return "[root] " + n.String() }
	shape := func(n node) string {
		switch n.(type) {
		case *providerNode:
			return "diamond"
		case *outputNode:
			return "note"
		case *varNode, *localNode:
			return "ellipse"
		}
		return "box"
	}
	var lines, edges []string
	for _, n := range cg.g.Vertices() {
		lines = append(lines, fmt.Sprintf("\t\t%q [label = %q, shape = %q]\n", name(n), n.String(), shape(n)))
		for _, d := range cg.g.DependsOn(n) {
			edges = append(edges, fmt.Sprintf("\t\t%q -> %q\n", name(n), name(d)))
		}
	}
	sort.Strings(lines)
	sort.Strings(edges)
	b.WriteString("digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n")
	b.WriteString(strings.Join(lines, ""))
	b.WriteString(strings.Join(edges, ""))
	b.WriteString("\t}\n}\n")
	return b.String(), diags
}
