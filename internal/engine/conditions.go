package engine

import (
	"fmt"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
)

// checkPreconditions evaluates a resource's lifecycle preconditions for
// one instance.
func (w *walker) checkPreconditions(n *resourceNode, addr addrs.AbsResourceInstance, key lang.InstanceKeyData) hcl.Diagnostics {
	pre, _ := resourceConditions(n)
	var diags hcl.Diagnostics
	scope := w.ev.scope(addr.Module).WithKey(key)
	for _, rule := range pre {
		diags = append(diags, w.rule(resourceCheck(n), addr.Module, addr.Resource.Key, scope, rule.Condition, rule.ErrorMessage, "Resource precondition failed", "")...)
	}
	return diags
}

// resourceConditions are a managed or data resource's lifecycle
// preconditions and postconditions.
func resourceConditions(n *resourceNode) (pre, post []*configs.CheckRule) {
	if n.cfg.Managed != nil {
		return n.cfg.Managed.Preconditions, n.cfg.Managed.Postconditions
	}
	if n.addr.Resource.Mode == addrs.DataResourceMode {
		return n.cfg.Preconditions, n.cfg.Postconditions
	}
	return nil, nil
}

func resourceCheck(n *resourceNode) checkObject {
	return checkObject{kind: plans.CheckKindResource, module: n.addr.Module, resource: n.addr.Resource}
}

// checkPostconditions evaluates a resource's postconditions with self set
// to the instance's planned or new value. Conditions still unknown during
// plan are checked after apply.
func (w *walker) checkPostconditions(n *resourceNode, addr addrs.AbsResourceInstance, key lang.InstanceKeyData, self cty.Value) hcl.Diagnostics {
	_, post := resourceConditions(n)
	if len(post) == 0 {
		return nil
	}
	var diags hcl.Diagnostics
	scope := w.ev.scope(addr.Module).WithKey(key).WithSelf(self)
	for _, rule := range post {
		diags = append(diags, w.rule(resourceCheck(n), addr.Module, addr.Resource.Key, scope, rule.Condition, rule.ErrorMessage, "Resource postcondition failed", "")...)
	}
	return diags
}

// refreshConditions checks a configured resource's preconditions and
// postconditions against an object a refresh-only plan read, as
// Terraform does: a failure is a warning there, since nothing is about
// to change, except with PlanOpts.ConditionErrors (the refresh command).
func (pw *planWalk) refreshConditions(n *resourceNode, addr addrs.AbsResourceInstance, x *expansion, v cty.Value) hcl.Diagnostics {
	key := x.keyData(addr.Resource.Key)
	if key.EachKey != cty.NilVal && key.EachValue == cty.NilVal {
		key.EachValue = cty.DynamicVal
	}
	diags := pw.checkPreconditions(n, addr, key)
	diags = append(diags, pw.checkPostconditions(n, addr, key, v)...)
	return pw.refreshConditionSeverity(diags)
}

// refreshConditionSeverity makes the failed preconditions and
// postconditions among diags warnings in a refresh-only plan, as
// Terraform does for managed resources and data sources alike, unless
// PlanOpts.ConditionErrors keeps them errors (Terraform's refresh
// command).
func (pw *planWalk) refreshConditionSeverity(diags hcl.Diagnostics) hcl.Diagnostics {
	if pw.opts.Mode != plans.RefreshOnlyMode || pw.opts.ConditionErrors {
		return diags
	}
	for _, d := range diags {
		if d.Severity == hcl.DiagError && (d.Summary == "Resource precondition failed" || d.Summary == "Resource postcondition failed") {
			d.Severity = hcl.DiagWarning
		}
	}
	return diags
}

// replaceTriggered reports whether any of a resource's
// replace_triggered_by references names an instance, or an attribute of
// one, that this plan changes. As Terraform, the references are resolved,
// and their errors reported, for every instance; exists says whether
// the instance has a prior object a trigger could replace.
func (pw *planWalk) replaceTriggered(n *resourceNode, mi addrs.ModuleInstance, key lang.InstanceKeyData, exists bool) (bool, hcl.Diagnostics) {
	if n.cfg.Managed == nil {
		return false, nil
	}
	var diags hcl.Diagnostics
	triggered := false
	for _, expr := range n.cfg.Managed.ReplaceTriggeredBy {
		inst, path, d := pw.triggerTarget(expr, mi, key)
		diags = append(diags, d...)
		if !d.HasErrors() && exists && !triggered {
			triggered = pw.triggerChanged(inst, path)
		}
	}
	return triggered, diags
}

// triggerTarget resolves a replace_triggered_by expression, such as
// terraform_data.a, terraform_data.a[count.index] or
// terraform_data.a[each.key].input, into a resource (and instance key, when
// indexed) and an attribute path.
func (pw *planWalk) triggerTarget(expr hcl.Expression, mi addrs.ModuleInstance, key lang.InstanceKeyData) (addrs.Target, cty.Path, hcl.Diagnostics) {
	invalid := hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid replace_triggered_by expression",
		Detail:   "Only references to managed resources, optionally indexed with count.index or each.key and followed by attributes, are allowed in replace_triggered_by.",
		Subject:  expr.Range().Ptr(),
	}}
	var trav hcl.Traversal
	var index hcl.Expression
	var rest hcl.Traversal
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		trav = e.Traversal
	case *hclsyntax.IndexExpr:
		st, ok := e.Collection.(*hclsyntax.ScopeTraversalExpr)
		if !ok {
			return addrs.Target{}, nil, invalid
		}
		trav, index = st.Traversal, e.Key
	case *hclsyntax.RelativeTraversalExpr:
		ie, ok := e.Source.(*hclsyntax.IndexExpr)
		if !ok {
			return addrs.Target{}, nil, invalid
		}
		st, ok := ie.Collection.(*hclsyntax.ScopeTraversalExpr)
		if !ok {
			return addrs.Target{}, nil, invalid
		}
		trav, index, rest = st.Traversal, ie.Key, e.Traversal
	default:
		return addrs.Target{}, nil, invalid
	}
	ref, diags := lang.ParseRef(trav)
	if diags.HasErrors() {
		return addrs.Target{}, nil, diags
	}
	rr, ok := ref.Subject.(lang.ResourceRef)
	if !ok || rr.Resource.Mode != addrs.ManagedResourceMode {
		return addrs.Target{}, nil, invalid
	}
	t := addrs.Target{Resource: rr.Resource.Absolute(mi)}
	remaining := append(ref.Remaining, rest...)
	if len(ref.Remaining) > 0 {
		if ix, ok := ref.Remaining[0].(hcl.TraverseIndex); ok {
			k, err := addrs.ParseInstanceKeyValue(ix.Key)
			if err != nil {
				return addrs.Target{}, nil, invalid
			}
			t.Key, t.Instance = k, true
			remaining = append(ref.Remaining[1:], rest...)
		}
	}
	if index != nil {
		v, d := pw.ev.scope(mi).WithKey(key).EvalExpr(index, cty.DynamicPseudoType)
		if d.HasErrors() {
			return addrs.Target{}, nil, d
		}
		k, err := addrs.ParseInstanceKeyValue(v)
		if err != nil {
			return addrs.Target{}, nil, invalid
		}
		t.Key, t.Instance = k, true
	}
	if pw.e.Config.Resource(mi.Module(), rr.Resource) == nil {
		local := rr.Resource.String()
		if t.Instance {
			local = rr.Resource.Instance(t.Key).String()
		}
		module := "the root module"
		if !mi.IsRoot() {
			module = mi.String()
		}
		return addrs.Target{}, nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Reference to undeclared resource",
			Detail:   fmt.Sprintf("A resource %s has not been declared in %s", local, module),
			Subject:  expr.Range().Ptr(),
		}}
	}
	return t, traversalPath(remaining), nil
}

// triggerChanged reports whether the plan changes the targeted instances:
// an update or a replacement when no attribute is named (as in Terraform,
// creating an instance, say one found gone during refresh, or deleting
// one triggers nothing), otherwise a different (or unknown) planned value
// of the attribute.
func (pw *planWalk) triggerChanged(t addrs.Target, path cty.Path) bool {
	pw.mu.Lock()
	defer pw.mu.Unlock()
	for _, c := range pw.changes {
		if c.DeposedKey != "" || !t.ContainsInstance(c.Addr) {
			continue
		}
		if len(path) == 0 {
			switch c.Action {
			case plans.Update, plans.DeleteThenCreate, plans.CreateThenDelete:
				return true
			}
			continue
		}
		if c.Action == plans.Create || c.Action == plans.Delete {
			return true
		}
		before, berr := path.Apply(unmarkAll(c.Before))
		after, aerr := path.Apply(unmarkAll(c.After))
		if berr != nil || aerr != nil {
			if berr != nil && aerr != nil {
				continue // the attribute exists in neither
			}
			return true
		}
		if eq := before.Equals(after); !eq.IsKnown() || eq.False() {
			return true
		}
	}
	return false
}

func unmarkAll(v cty.Value) cty.Value {
	u := marks.UnmarkDeep(v)
	return u
}
