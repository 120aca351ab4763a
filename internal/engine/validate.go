package engine

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
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
	if diags := e.provisionerPluginDiags(true); diags.HasErrors() {
		return diags
	}
	w := e.newWalker(nil, true)
	w.validating = true
	defer w.ps.release(ctx)
	cg, diags := w.buildConfigGraph(ctx)
	// Errors in a node's references are the node's own, as in Terraform's
	// validation walk: the node fails with them (after checking what it
	// can) and what depends on it is skipped, but the rest of the
	// configuration is still validated.
	diags = withoutNodeErrs(diags, cg.refErrs)
	diags = append(diags, cycleDiags(cg.g)...)
	if diags.HasErrors() {
		return append(diags, allNodeErrs(cg)...)
	}
	visit := func(ctx context.Context, n node) hcl.Diagnostics {
		d := w.validateNode(ctx, n)
		if errs := cg.refErrs[n]; len(errs) > 0 {
			d = mergeDiags(errs, d)
		}
		return d
	}
	return append(diags, cg.g.WalkWith(ctx, dag.WalkOptions[node]{Parallelism: e.parallelism()}, visit)...)
}

// withoutNodeErrs returns diags without those recorded in errs.
func withoutNodeErrs(diags hcl.Diagnostics, errs map[node]hcl.Diagnostics) hcl.Diagnostics {
	own := map[*hcl.Diagnostic]bool{}
	for _, ds := range errs {
		for _, d := range ds {
			own[d] = true
		}
	}
	var out hcl.Diagnostics
	for _, d := range diags {
		if !own[d] {
			out = append(out, d)
		}
	}
	return out
}

// allNodeErrs returns every node's reference errors, in the graph's
// vertex order.
func allNodeErrs(cg *configGraph) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, n := range cg.g.Vertices() {
		out = append(out, cg.refErrs[n]...)
	}
	return out
}

// mergeDiags returns first followed by those of more that do not repeat
// one of first (the same summary starting at the same place): evaluating
// an expression reports again a reference error the graph found, maybe
// with a shorter range.
func mergeDiags(first, more hcl.Diagnostics) hcl.Diagnostics {
	seen := map[string]bool{}
	key := func(d *hcl.Diagnostic) string {
		if d.Subject == nil {
			return d.Summary
		}
		return fmt.Sprintf("%s:%d\x00%s", d.Subject.Filename, d.Subject.Start.Byte, d.Summary)
	}
	out := append(hcl.Diagnostics{}, first...)
	for _, d := range first {
		seen[key(d)] = true
	}
	for _, d := range more {
		if !seen[key(d)] {
			out = append(out, d)
		}
	}
	return out
}

// validateNode checks one node of the configuration graph.
func (w *walker) validateNode(ctx context.Context, n node) hcl.Diagnostics {
	switch n := n.(type) {
	case *varNode:
		if n.call != nil {
			return w.evalVariable(n, nil)
		}
		w.ev.setVariable(addrs.RootModuleInstance, n.cfg.Name, unknownVariable(n.cfg))
	case *localNode:
		return w.evalLocal(n)
	case *moduleNode:
		return w.validateModuleCall(n)
	case *outputNode:
		if !n.path.IsRoot() {
			return w.evalChildOutput(n)
		}
		v, d := w.ev.scope(addrs.RootModuleInstance).EvalExpr(n.cfg.Expr, cty.DynamicPseudoType)
		if !d.HasErrors() && marks.ContainsEphemeral(v) {
			d = append(d, ephemeralNotAllowed(n.cfg))
		}
		if !d.HasErrors() {
			// As Terraform: with the variables unknown, an output
			// that may be sensitive for some of their values is
			// refused.
			d = append(d, sensitiveOutput(n.cfg, v)...)
		}
		return d
	case *providerNode:
		schema, err := w.ps.schema(ctx, n.addr)
		if m, ok := err.(missingProvider); ok {
			return hcl.Diagnostics{missingProviderDiag(m)}
		}
		if err != nil {
			return errorDiags("Failed to load provider schema", err, rangePtr(n.cfg))
		}
		if n.cfg == nil {
			return nil
		}
		scope := w.ev.scope(staticInstance(n.addr.Module))
		var d hcl.Diagnostics
		if n.cfg.ForEach != nil {
			// Every instance at once, with an unknown each.key.
			x, xd := w.providerExpansion(n)
			if xd.HasErrors() {
				return xd
			}
			d, scope = xd, scope.WithKey(x.keyData(addrs.NoKey))
		}
		v, bd := scope.EvalBlock(n.cfg.Config, schema.Provider.Block)
		d = append(d, bd...)
		if d.HasErrors() {
			return d
		}
		p, _ := w.ps.get(ctx, n.addr)
		unmarked := marks.UnmarkDeep(v)
		resp := p.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: unmarked})
		return append(d, providerDiags(resp.Diagnostics, n.cfg.Config, rangePtr(n.cfg))...)
	case *resourceNode:
		var diags hcl.Diagnostics
		for _, mi := range w.ev.moduleInstances(n.addr.Module) {
			diags = append(diags, w.validateResource(ctx, n, mi)...)
		}
		return diags
	}
	return nil
}

// validateModuleCall checks a module call's count or for_each and expands
// it to one instance whose key is unknown, so that the module's contents
// are validated once.
func (w *walker) validateModuleCall(n *moduleNode) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, caller := range w.ev.moduleInstances(n.path.Parent()) {
		key, d := validateCount(n.call.Count, n.call.ForEach, w.ev.scope(caller))
		diags = append(diags, d...)
		diags = append(diags, validateEnabled(n.call.Enabled, w.ev.scope(caller))...)
		w.ev.setModuleExpansion(caller, n.call.Name, &expansion{keys: []addrs.InstanceKey{addrs.NoKey}, unknown: &key})
	}
	return diags
}

// validateEnabled checks OpenTofu's lifecycle enabled argument, when
// set, is a bool.
func validateEnabled(enabled hcl.Expression, scope *lang.Scope) hcl.Diagnostics {
	if enabled == nil {
		return nil
	}
	_, diags := scope.EvalExpr(enabled, cty.Bool)
	return diags
}

// validateCount checks a count or for_each argument as far as it can be
// known without values, and returns the key data instances see.
func validateCount(count, forEach hcl.Expression, scope *lang.Scope) (lang.InstanceKeyData, hcl.Diagnostics) {
	key := lang.InstanceKeyData{}
	var diags hcl.Diagnostics
	if count != nil {
		v, d := scope.EvalExpr(count, cty.Number)
		diags = append(diags, d...)
		if v.IsKnown() && !v.IsNull() && !v.HasMark(marks.Sensitive) {
			if bf := v.AsBigFloat(); bf.Sign() < 0 || !bf.IsInt() {
				diags = append(diags, invalidExpansion(count, "count", `The given "count" argument value is unsuitable: must be a whole number, zero or greater.`)...)
			}
		}
		key.CountIndex = cty.UnknownVal(cty.Number)
	}
	if forEach != nil {
		_, d := scope.EvalExpr(forEach, cty.DynamicPseudoType)
		diags = append(diags, d...)
		key.EachKey, key.EachValue = cty.UnknownVal(cty.String), cty.DynamicVal
	}
	return key, diags
}

func (w *walker) validateResource(ctx context.Context, n *resourceNode, mi addrs.ModuleInstance) hcl.Diagnostics {
	addr := n.addr.Resource.Absolute(mi)
	if n.addr.Resource.Mode == addrs.EphemeralResourceMode {
		defer w.ev.setResource(addr, cty.DynamicVal.Mark(marks.Ephemeral))
	} else {
		defer w.ev.setResource(addr, cty.DynamicVal)
	}
	rt, diags := w.resourceType(ctx, addr, n.provider, n.cfg.TypeRange.Ptr())
	if diags.HasErrors() {
		return diags
	}
	key, d := validateCount(n.cfg.Count, n.cfg.ForEach, w.ev.scope(mi))
	diags = append(diags, d...)
	diags = append(diags, validateEnabled(n.cfg.Enabled, w.ev.scope(mi))...)
	if diags.HasErrors() {
		return diags
	}
	_, d = w.evalResourceConfig(ctx, n, rt, key)
	diags = append(diags, d...)
	if !d.HasErrors() {
		// As Terraform: ignore_changes is checked only against a
		// configuration that is valid.
		diags = append(diags, w.validateIgnoreChanges(ctx, n)...)
	}
	diags = append(diags, w.validateProvisioners(n, rt)...)
	return append(diags, validateConditionRefs(n, rt.schema)...)
}
