package engine

import (
	"context"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/dag"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/plans"
)

// skippedVariables follows a plan walk to report, as Terraform's plan
// does, the instances of variables whose validation rules were not
// checked because something only a rule refers to failed: Terraform
// expands a variable (and lists its instances as checkable objects) from
// the module block's argument alone, and evaluates its rules apart, so a
// rule that refers to a variable whose own validation failed leaves its
// instances "unknown" rather than absent.
type skippedVariables struct {
	mu      sync.Mutex
	failed  map[node]bool
	skipped []*varNode
	skip    map[node]bool
}

// visit wraps a walk function to record the nodes that failed.
func (s *skippedVariables) visit(visit func(context.Context, node) hcl.Diagnostics) func(context.Context, node) hcl.Diagnostics {
	return func(ctx context.Context, n node) hcl.Diagnostics {
		diags := visit(ctx, n)
		if diags.HasErrors() {
			s.mu.Lock()
			if s.failed == nil {
				s.failed = map[node]bool{}
			}
			s.failed[n] = true
			s.mu.Unlock()
		}
		return diags
	}
}

// onSkip records a node the walk did not visit.
func (s *skippedVariables) onSkip(n node, _ dag.SkipCause) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.skip == nil {
		s.skip = map[node]bool{}
	}
	s.skip[n] = true
	if v, ok := n.(*varNode); ok && len(v.cfg.Validations) > 0 {
		s.skipped = append(s.skipped, v)
	}
}

// report records the instances of the skipped variables whose value could
// be had: their module expanded and the argument's references were
// evaluated.
func (s *skippedVariables) report(w *walker, cg *configGraph) {
	ok := func(n node) bool { return n != nil && !s.failed[n] && !s.skip[n] }
	for _, v := range s.skipped {
		deps := []node{}
		if v.call != nil {
			deps = append(deps, cg.modules[v.path.String()])
			if attr, given := v.call.Inputs[v.cfg.Name]; given {
				refs, _ := lang.ReferencesInExpr(attr.Expr)
				for _, ref := range refs {
					deps = append(deps, cg.referenced(v.path.Parent(), ref)...)
				}
			}
		}
		known := true
		for _, d := range deps {
			known = known && ok(d)
		}
		if !known {
			continue
		}
		for _, mi := range w.ev.moduleInstances(v.path) {
			w.checks.report(checkObject{kind: plans.CheckKindVariable, module: v.path, name: v.cfg.Name}, mi, addrs.NoKey, plans.CheckUnknown, "")
		}
	}
}
