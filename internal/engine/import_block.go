package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
)

// importBlock adopts the object an import block names for addr, when the
// state has none there yet: ImportResourceState, then ReadResource, and
// the result becomes the instance's prior object for this plan. It returns
// what the plan records of the import (the ID, or the identity the
// provider completed), nil when no import applies.
func (pw *planWalk) importBlock(ctx context.Context, rt *resourceType, addr addrs.AbsResourceInstance) (*plans.Importing, hcl.Diagnostics) {
	if pw.state.Object(addr) != nil {
		return nil, nil
	}
	im, scope, diags := pw.importFor(addr)
	if im == nil {
		return nil, diags
	}
	req := providers.ImportResourceStateRequest{TypeName: addr.Resource.Resource.Type}
	importing := &plans.Importing{}
	expr := im.ID
	what := ""
	if im.ID != nil {
		id, idiags := evalImportID(im.ID, scope)
		diags = append(diags, idiags...)
		if diags.HasErrors() {
			return nil, diags
		}
		req.ID, importing.ID, what = id, id, fmt.Sprintf("ID %q", id)
		pw.hook(func(h hooks.Hook) { h.PlanImport(addr, id) })
	} else {
		expr = im.Identity
		identity, idiags := evalImportIdentity(rt, im.Identity, scope)
		diags = append(diags, idiags...)
		if diags.HasErrors() {
			return nil, diags
		}
		req.Identity, what = identity, "identity "+identityString(identity)
		pw.hook(func(h hooks.Hook) {
			if ih, ok := h.(hooks.IdentityImportHook); ok {
				ih.PlanImportIdentity(addr, identityString(identity))
			}
		})
	}
	if err := pw.acquire(ctx); err != nil {
		return nil, cancelledDiags(err)
	}
	resp := rt.p.ImportResourceState(ctx, req)
	pw.release()
	diags = append(diags, providerDiags(resp.Diagnostics, nil, expr.Range().Ptr())...)
	if resp.Diagnostics.HasErrors() {
		return nil, diags
	}
	if len(resp.ImportedResources) != 1 {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Cannot import non-existent remote object",
			Detail:   fmt.Sprintf("The provider returned %d objects for %s; importing %s needs exactly one.", len(resp.ImportedResources), what, addr),
			Subject:  expr.Range().Ptr(),
		})
	}
	stub := resp.ImportedResources[0]
	if d := checkIdentity(rt, addr, stub.Identity, true); d.HasErrors() {
		return nil, append(diags, d...)
	}
	if im.Identity != nil && (stub.Identity == cty.NilVal || stub.Identity.IsNull()) {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Provider returned no identity",
			Detail:   fmt.Sprintf("The provider %s returned no identity when importing %s by identity. This is a bug in the provider, which should be reported in the provider's own issue tracker.", rt.provider.Provider.ForDisplay(), addr),
			Subject:  expr.Range().Ptr(),
		})
	}
	pw.hook(func(h hooks.Hook) { h.PreRefresh(addr, "", hooks.IDOf(stub.State)) })
	if err := pw.acquire(ctx); err != nil {
		return nil, cancelledDiags(err)
	}
	read := rt.p.ReadResource(ctx, providers.ReadResourceRequest{
		TypeName: addr.Resource.Resource.Type, PriorState: stub.State, Private: stub.Private, CurrentIdentity: stub.Identity,
	})
	pw.release()
	diags = append(diags, providerDiags(read.Diagnostics, nil, expr.Range().Ptr())...)
	if read.Diagnostics.HasErrors() {
		return nil, diags
	}
	if read.NewState == cty.NilVal || read.NewState.IsNull() {
		return nil, append(diags, nonExistentImport(addr))
	}
	pw.hook(func(h hooks.Hook) { h.PostRefresh(addr, "", hooks.IDOf(read.NewState)) })
	if d := checkIdentity(rt, addr, read.Identity, true); d.HasErrors() {
		return nil, append(diags, d...)
	}
	identity := stub.Identity
	if read.Identity != cty.NilVal && !read.Identity.IsNull() {
		identity = read.Identity
	}
	if im.Identity != nil {
		// As Terraform, the plan records the identity the provider
		// completed, not the (possibly partial) one of the block.
		importing.Identity = identity
	}
	obj, err := encodeObject(markSchemaSensitive(read.NewState, rt.schema), rt, read.Private, nil, false)
	if err == nil {
		err = setIdentity(obj, rt, identity)
	}
	if err != nil {
		return nil, append(diags, errorDiags("Failed to encode imported object", err, nil)...)
	}
	pw.state.SetObject(addr, obj, rt.provider)
	pw.mu.Lock()
	if pw.imported == nil {
		pw.imported = map[string]bool{}
	}
	pw.imported[addr.String()] = true
	pw.mu.Unlock()
	return importing, diags
}

// evalImportID evaluates an import block's id argument.
func evalImportID(expr hcl.Expression, scope *lang.Scope) (string, hcl.Diagnostics) {
	v, diags := scope.EvalExpr(expr, cty.String)
	if diags.HasErrors() {
		return "", diags
	}
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() || v.AsString() == "" {
		return "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid import id argument",
			Detail:   "The import ID must be a non-empty string known during planning.",
			Subject:  expr.Range().Ptr(),
		})
	}
	return v.AsString(), diags
}

// evalImportIdentity evaluates an import block's identity argument into
// a value of the resource type's identity schema: the attributes required
// for import must be given, the others may be.
func evalImportIdentity(rt *resourceType, expr hcl.Expression, scope *lang.Scope) (cty.Value, hcl.Diagnostics) {
	if rt.identity == nil {
		return cty.NilVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid import identity argument",
			Detail:   fmt.Sprintf("The provider %s declares no resource identity for %s, so it can only be imported by ID: use the id argument instead.", rt.provider.Provider.ForDisplay(), rt.addr.Resource.Type),
			Subject:  expr.Range().Ptr(),
		}}
	}
	atys := map[string]cty.Type{}
	var optional []string
	for name, a := range rt.identity.Attributes {
		atys[name] = a.Type
		if !a.Required {
			optional = append(optional, name)
		}
	}
	v, diags := scope.EvalExpr(expr, cty.ObjectWithOptionalAttrs(atys, optional))
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	if v.IsNull() {
		return cty.NilVal, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid import identity argument",
			Detail:   "The import identity cannot be null.",
			Subject:  expr.Range().Ptr(),
		})
	}
	if !v.IsWhollyKnown() {
		return cty.NilVal, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid import identity argument",
			Detail:   `The import block "identity" argument depends on resource attributes that cannot be determined until apply, so strata cannot plan to import this resource.`,
			Subject:  expr.Range().Ptr(),
		})
	}
	if _, marks := v.UnmarkDeep(); len(marks) > 0 {
		return cty.NilVal, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid import identity argument",
			Detail:   "The import identity must not contain sensitive or ephemeral values.",
			Subject:  expr.Range().Ptr(),
		})
	}
	return v, diags
}

// identityString renders an identity as Terraform's messages do:
// name=value pairs separated by commas, in attribute order.
func identityString(v cty.Value) string {
	if v == cty.NilVal || v.IsNull() {
		return "<null>"
	}
	if !v.IsWhollyKnown() {
		return "<unknown>"
	}
	if !v.Type().IsObjectType() || v.LengthInt() == 0 {
		return "<empty>"
	}
	var parts []string
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		parts = append(parts, k.AsString()+"="+identityElementString(e))
	}
	return strings.Join(parts, ",")
}

func identityElementString(v cty.Value) string {
	switch {
	case v.IsNull():
		return "<null>"
	case v.Type() == cty.String:
		return v.AsString()
	case v.Type() == cty.Bool:
		return fmt.Sprint(v.True())
	case v.Type() == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case v.Type().IsListType() || v.Type().IsSetType() || v.Type().IsTupleType():
		var parts []string
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			parts = append(parts, identityElementString(e))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return "<unsupported>"
}

// importFor finds the import block that targets addr and returns its id
// expression and the scope to evaluate it in: the module scope, or with
// for_each the scope of the element whose target is addr. It returns a nil
// expression when no block targets addr.
func (pw *planWalk) importFor(addr addrs.AbsResourceInstance) (*configs.Import, *lang.Scope, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	for _, im := range pw.e.Config.Module.Imports {
		if im.To.Resource.Resource != addr.Resource.Resource || !im.To.Module.Module().Equal(addr.Module.Module()) {
			continue
		}
		targets, tdiags := pw.importTargets(im)
		diags = append(diags, tdiags...)
		if tdiags.HasErrors() {
			return nil, nil, diags
		}
		for _, t := range targets {
			if t.addr.String() == addr.String() {
				return im, t.scope, diags
			}
		}
	}
	return nil, nil, diags
}

// importTarget is one instance an import block adopts, with the scope its
// id is evaluated in.
type importTarget struct {
	addr  addrs.AbsResourceInstance
	scope *lang.Scope
}

// importTargets expands an import block: one target, or one per for_each
// element. The result is computed once per plan, as the block's references
// are dependencies of its resource and so final when it is asked; its
// diagnostics are returned only the first time, so they appear once.
func (pw *planWalk) importTargets(im *configs.Import) ([]importTarget, hcl.Diagnostics) {
	pw.mu.Lock()
	cached, ok := pw.importCache[im]
	pw.mu.Unlock()
	if ok {
		return cached, nil
	}
	targets, diags := pw.expandImport(im)
	pw.mu.Lock()
	if pw.importCache == nil {
		pw.importCache = map[*configs.Import][]importTarget{}
	}
	pw.importCache[im] = targets
	pw.mu.Unlock()
	return targets, diags
}

func (pw *planWalk) expandImport(im *configs.Import) ([]importTarget, hcl.Diagnostics) {
	x := &expansion{keys: []addrs.InstanceKey{addrs.NoKey}}
	var diags hcl.Diagnostics
	if im.ForEach != nil {
		x, diags = expandCount(nil, im.ForEach, pw.ev.scope(addrs.RootModuleInstance))
		if diags.HasErrors() {
			return nil, diags
		}
	}
	base := pw.ev.scope(addrs.RootModuleInstance)
	targets := make([]importTarget, 0, len(x.keys))
	for _, k := range x.keys {
		scope := base.WithKey(x.keyData(k))
		key, kdiags := importKey(im.ToKey, im.To.Resource.Key, scope)
		diags = append(diags, kdiags...)
		if kdiags.HasErrors() {
			return nil, diags
		}
		module := append(addrs.ModuleInstance{}, im.To.Module...)
		for i, expr := range im.ToModuleKeys {
			if module[i].Key, kdiags = importKey(expr, module[i].Key, scope); kdiags.HasErrors() {
				return nil, append(diags, kdiags...)
			}
		}
		targets = append(targets, importTarget{addr: im.To.Resource.Resource.Absolute(module).Instance(key), scope: scope})
	}
	return targets, diags
}

// checkImportTargets reports import targets that are not instances of
// their configured resource, after planning.
func (pw *planWalk) checkImportTargets() hcl.Diagnostics {
	planned := map[string]bool{}
	for _, c := range pw.changes {
		planned[c.Addr.String()] = true
	}
	var diags hcl.Diagnostics
	for _, im := range pw.e.Config.Module.Imports {
		targets, tdiags := pw.importTargets(im)
		diags = append(diags, tdiags...)
		for _, t := range targets {
			if planned[t.addr.String()] || !pw.targeted(t.addr) {
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Configuration for import target does not exist",
				Detail:   fmt.Sprintf("The configuration for the given import %s does not exist. All target instances must have an associated configuration to be imported.", t.addr),
				Subject:  im.DeclRange.Ptr(),
			})
		}
	}
	return diags
}

// importKey evaluates an index of an import block's target in scope: the
// computed expr, or the static key when there is none.
func importKey(expr hcl.Expression, static addrs.InstanceKey, scope *lang.Scope) (addrs.InstanceKey, hcl.Diagnostics) {
	if expr == nil {
		return static, nil
	}
	v, diags := scope.EvalExpr(expr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return nil, diags
	}
	v, _ = v.Unmark()
	key, err := addrs.ParseInstanceKeyValue(v)
	if err != nil || v.IsNull() {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid import address",
			Detail:   "The index of the to address must be a known string or whole number.",
			Subject:  expr.Range().Ptr(),
		})
	}
	return key, diags
}

// justImported reports whether this plan imported the object, so it is
// not read again.
func (pw *planWalk) justImported(addr addrs.AbsResourceInstance, deposed string) bool {
	if deposed != "" {
		return false
	}
	pw.mu.Lock()
	defer pw.mu.Unlock()
	return pw.imported[addr.String()]
}
