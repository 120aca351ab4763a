package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/dag"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// GraphDOT renders a dependency graph in the DOT language. With no type
// it shows resources and the resources they depend on (through locals and
// variables), as `terraform graph` does. With a type it shows every step
// of that operation: "plan", "plan-refresh-only" and "plan-destroy" add
// the resources only in state (to be deleted or refreshed) to the
// configuration's variables, locals, outputs, module calls, provider
// configurations and resources; "apply" plans first and adds a step per
// deletion of that plan. A cycle is an error, as in every operation,
// unless drawCycles asks to draw the graph with it.
func (e *Engine) GraphDOT(ctx context.Context, state *states.State, typ string, vars map[string]InputValue, drawCycles bool) (string, hcl.Diagnostics) {
	if state == nil {
		state = states.New()
	}
	if typ == "apply" {
		plan, diags := e.Plan(ctx, state, PlanOpts{Variables: vars})
		if diags.HasErrors() {
			return "", diags
		}
		dot, gdiags := e.PlanGraphDOT(ctx, plan)
		return dot, append(diags, gdiags...)
	}
	w := e.newWalker(state.DeepCopy(), true)
	defer w.ps.release(ctx)
	cg, diags := w.buildConfigGraph(ctx)
	if diags.HasErrors() {
		return "", diags
	}
	cycles := cycleDiags(cg.g)
	if !drawCycles && cycles.HasErrors() {
		return "", append(diags, cycles...)
	}
	if typ != "" {
		pw := &planWalk{walker: w, cg: cg, inState: map[string][]addrs.AbsResource{}}
		pw.addOrphans(w.state.Snapshot())
		return operationDOT(cg.g), diags
	}
	seen := map[string]bool{}
	var inState []addrs.ConfigResource
	for _, r := range state.SortedResources() {
		if c := r.Addr.Config(); !seen[c.String()] {
			seen[c.String()] = true
			inState = append(inState, c)
		}
	}
	return resourcesDOT(cg, inState, len(cycles) == 0), diags
}

// operationDOT renders every node of an operation graph, named
// "[root] ADDRESS", with an edge to each node it waits for.
func operationDOT(g *dag.Graph[node]) string {
	var b strings.Builder
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
	for _, n := range g.Vertices() {
		lines = append(lines, fmt.Sprintf("\t\t%q [label = %q, shape = %q]\n", name(n), n.String(), shape(n)))
		for _, d := range g.DependsOn(n) {
			edges = append(edges, fmt.Sprintf("\t\t%q -> %q\n", name(n), name(d)))
		}
	}
	sort.Strings(lines)
	sort.Strings(edges)
	b.WriteString("digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n")
	b.WriteString(strings.Join(lines, ""))
	b.WriteString(strings.Join(edges, ""))
	b.WriteString("\t}\n}\n")
	return b.String()
}

// PlanGraphDOT renders the apply graph of plan, a saved plan's say: every
// step applying it walks, with a step for each deletion.
func (e *Engine) PlanGraphDOT(ctx context.Context, plan *plans.Plan) (string, hcl.Diagnostics) {
	aw := e.newApplyWalk(plan)
	defer aw.ps.release(ctx)
	diags := aw.buildGraph(ctx)
	if diags.HasErrors() {
		return "", diags
	}
	return operationDOT(aw.cg.g), diags
}
