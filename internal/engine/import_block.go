package engine

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/providers"
)

// importBlock adopts the object an import block names for addr, when the
// state has none there yet: ImportResourceState, then ReadResource, and
// the result becomes the instance's prior object for this plan. It returns
// the import ID, or "" when no import applies.
func (pw *planWalk) importBlock(ctx context.Context, rt *resourceType, addr addrs.AbsResourceInstance) (string, hcl.Diagnostics) {
	var expr hcl.Expression
	for _, im := range pw.e.Config.Imports {
		if im.To.String() == addr.String() {
			expr = im.ID
		}
	}
	if expr == nil || pw.state.Object(addr) != nil {
		return "", nil
	}
	v, diags := pw.ev.scope().EvalExpr(expr, cty.String)
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
	id := v.AsString()
	pw.hook(func(h hooks.Hook) { h.PlanImport(addr, id) })
	if err := pw.acquire(ctx); err != nil {
		return "", cancelledDiags(err)
	}
	resp := rt.p.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: addr.Resource.Resource.Type, ID: id})
	pw.release()
	diags = append(diags, providerDiags(resp.Diagnostics, nil, expr.Range().Ptr())...)
	if resp.Diagnostics.HasErrors() {
		return "", diags
	}
	if len(resp.ImportedResources) != 1 {
		return "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Cannot import non-existent remote object",
			Detail:   fmt.Sprintf("The provider returned %d objects for ID %q; importing %s needs exactly one.", len(resp.ImportedResources), id, addr),
			Subject:  expr.Range().Ptr(),
		})
	}
	stub := resp.ImportedResources[0]
	pw.hook(func(h hooks.Hook) { h.PreRefresh(addr, hooks.IDOf(stub.State)) })
	if err := pw.acquire(ctx); err != nil {
		return "", cancelledDiags(err)
	}
	read := rt.p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: addr.Resource.Resource.Type, PriorState: stub.State, Private: stub.Private})
	pw.release()
	diags = append(diags, providerDiags(read.Diagnostics, nil, expr.Range().Ptr())...)
	if read.Diagnostics.HasErrors() {
		return "", diags
	}
	if read.NewState == cty.NilVal || read.NewState.IsNull() {
		return "", append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Cannot import non-existent remote object",
			Detail:   fmt.Sprintf("The provider found no object with ID %q for %s.", id, addr),
			Subject:  expr.Range().Ptr(),
		})
	}
	obj, err := encodeObject(markSchemaSensitive(read.NewState, rt.schema), rt.schema, rt.version, read.Private, nil, false)
	if err != nil {
		return "", append(diags, errorDiags("Failed to encode imported object", err, nil)...)
	}
	pw.state.SetObject(addr, obj, rt.provider)
	pw.mu.Lock()
	if pw.imported == nil {
		pw.imported = map[string]bool{}
	}
	pw.imported[addr.String()] = true
	pw.mu.Unlock()
	return id, diags
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
