package engine

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/engine/dag"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/providers"
)

// Validate checks the configuration without state or variable values:
// references, types, function calls, count/for_each arguments and each
// resource's configuration as judged by its provider. Variables are
// unknown, so expressions depending on them are checked only for type.
func (e *Engine) Validate(ctx context.Context) hcl.Diagnostics {
	w := e.newWalker(nil, true)
	defer w.ps.closeAll(context.WithoutCancel(ctx))
	cg, diags := w.buildConfigGraph(ctx)
	diags = append(diags, cycleDiags(cg.g)...)
	if diags.HasErrors() {
		return diags
	}
	visit := func(ctx context.Context, n node) hcl.Diagnostics {
		switch n := n.(type) {
		case *varNode:
			w.ev.setVariable(n.cfg.Name, cty.UnknownVal(n.cfg.Type))
		case *localNode:
			return w.evalLocal(n)
		case *outputNode:
			_, d := w.ev.scope().EvalExpr(n.cfg.Expr, cty.DynamicPseudoType)
			return d
		case *providerNode:
			schema, err := w.ps.schema(ctx, n.addr)
			if err != nil {
				return errorDiags("Failed to load provider schema", err, rangePtr(n.cfg))
			}
			if n.cfg == nil {
				return nil
			}
			v, d := w.ev.scope().EvalBlock(n.cfg.Config, schema.Provider.Block)
			if d.HasErrors() {
				return d
			}
			p, _ := w.ps.get(ctx, n.addr)
			unmarked, _ := v.UnmarkDeep()
			resp := p.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: unmarked})
			return append(d, providerDiags(resp.Diagnostics, n.cfg.Config, rangePtr(n.cfg))...)
		case *resourceNode:
			return w.validateResource(ctx, n)
		}
		return nil
	}
	return append(diags, cg.g.WalkWith(ctx, dag.WalkOptions[node]{Parallelism: e.parallelism()}, visit)...)
}

func (w *walker) validateResource(ctx context.Context, n *resourceNode) hcl.Diagnostics {
	defer w.ev.setResource(n.addr.Resource, cty.DynamicVal)
	rt, diags := w.resourceType(ctx, n.addr, n.provider, n.cfg.TypeRange.Ptr())
	if diags.HasErrors() {
		return diags
	}
	key := lang.InstanceKeyData{}
	scope := w.ev.scope()
	if n.cfg.Count != nil {
		v, d := scope.EvalExpr(n.cfg.Count, cty.Number)
		diags = append(diags, d...)
		if v.IsKnown() && !v.IsNull() && !v.HasMark(marks.Sensitive) {
			if bf := v.AsBigFloat(); bf.Sign() < 0 || !bf.IsInt() {
				diags = append(diags, invalidExpansion(n.cfg.Count, "count", `The given "count" argument value is unsuitable: must be a whole number, zero or greater.`)...)
			}
		}
		key.CountIndex = cty.UnknownVal(cty.Number)
	}
	if n.cfg.ForEach != nil {
		_, d := scope.EvalExpr(n.cfg.ForEach, cty.DynamicPseudoType)
		diags = append(diags, d...)
		key.EachKey, key.EachValue = cty.UnknownVal(cty.String), cty.DynamicVal
	}
	if diags.HasErrors() {
		return diags
	}
	_, d := w.evalResourceConfig(ctx, n, rt, key)
	return append(diags, d...)
}
