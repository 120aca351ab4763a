package engine

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/states"
)

// ImportHook is told about the steps of an import, for progress output.
type ImportHook interface {
	PreImport(addr addrs.AbsResourceInstance, id string)
	PostImport(addr addrs.AbsResourceInstance, typeNames []string)
}

// Import adopts an existing remote object: the provider's
// ImportResourceState turns the ID into a stub, ReadResource fills it in,
// and the result becomes addr's object in the returned state. The
// resource must be in the configuration and the address not yet in use.
func (e *Engine) Import(ctx context.Context, state *states.State, addr addrs.AbsResourceInstance, id string, vars map[string]InputValue, hook ImportHook) (*states.State, hcl.Diagnostics) {
	if addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
		return state, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid import address", Detail: "Only managed resources can be imported; " + addr.String() + " is a data resource."}}
	}
	rc := e.Config.Resource(addr.Module.Module(), addr.Resource.Resource)
	if rc == nil {
		return state, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Configuration for import target does not exist",
			Detail: fmt.Sprintf("The configuration for the given import target %s does not exist. Before importing this resource, create its configuration in the root module. For example:\n\nresource %q %q {\n  # (resource arguments)\n}",
				addr, addr.Resource.Resource.Type, addr.Resource.Resource.Name),
		}}
	}
	w := e.newWalker(state.DeepCopy(), true)
	defer w.ps.release(ctx)
	// Ephemeral resources the provider configuration needs are opened by
	// the walk below; they are closed before the providers.
	defer w.closeEphemerals(context.WithoutCancel(ctx))
	pw := &planWalk{walker: w, opts: PlanOpts{Variables: vars}}
	cg, diags := w.buildConfigGraph(ctx)
	if diags.HasErrors() {
		return state, diags
	}
	// Configure the resource's provider, which may need variables and
	// locals; nothing else is evaluated.
	rn := cg.resources[addr.ContainingResource().Config().String()]
	pn := cg.providerNode(rn.provider)
	sub := cg.g.Clone()
	keep := map[node]bool{pn: true}
	for _, d := range sub.Descendants(pn) {
		keep[d] = true
	}
	keepWithDeps := func(n node) {
		keep[n] = true
		for _, d := range sub.Descendants(n) {
			keep[d] = true
		}
	}
	// The calls of the target's module, and the resource's count or
	// for_each, are expanded too: as Terraform, strata imports only to an
	// instance the configuration declares.
	for p := addr.Module.Module(); !p.IsRoot(); p = p.Parent() {
		if mn, ok := cg.modules[p.String()]; ok {
			keepWithDeps(mn)
		}
	}
	if rn.providerKey != nil && rn.providerKey.call != nil {
		// The instance key comes from a module block's providers
		// argument: those module calls are expanded too.
		for p := rn.providerKey.call; !p.IsRoot(); p = p.Parent() {
			if mn, ok := cg.modules[p.String()]; ok {
				keepWithDeps(mn)
			}
		}
	}
	for _, expr := range []hcl.Expression{rc.Count, rc.ForEach, rc.Enabled} {
		refs, _ := lang.ReferencesInExpr(expr)
		for _, ref := range refs {
			for _, n := range cg.referenced(rn.addr.Module, ref) {
				keepWithDeps(n)
			}
		}
	}
	for _, n := range sub.Vertices() {
		if !keep[n] {
			sub.Remove(n)
		}
	}
	diags = append(diags, sub.Walk(ctx, 1, pw.visit)...)
	if diags.HasErrors() {
		return state, diags
	}
	if x := w.importExpansion(rc, addr); x.HasErrors() {
		return state, append(diags, x...)
	}
	rt, rdiags := w.resourceType(ctx, addr.ContainingResource(), rn.provider, rc.TypeRange.Ptr())
	if diags = append(diags, rdiags...); rdiags.HasErrors() {
		return state, diags
	}
	if rn.providerKey != nil {
		// The instance of a provider configuration with for_each: the
		// address gives count.index or each.key; each.value is not
		// evaluated here.
		var kd lang.InstanceKeyData
		switch k := addr.Resource.Key.(type) {
		case addrs.IntKey:
			kd.CountIndex = k.Value()
		case addrs.StringKey:
			kd.EachKey, kd.EachValue = k.Value(), cty.DynamicVal
		}
		pk, kdiags := w.providerKey(rn, addr, kd)
		if !kdiags.HasErrors() {
			rt, kdiags = w.withProviderInstance(ctx, rt, pk, addr, "", false)
		}
		if diags = append(diags, kdiags...); kdiags.HasErrors() {
			return state, diags
		}
	}
	hook.PreImport(addr, id)
	resp := rt.p.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: addr.Resource.Resource.Type, ID: id})
	diags = append(diags, providerDiags(resp.Diagnostics, nil, nil)...)
	if resp.Diagnostics.HasErrors() {
		return state, diags
	}
	if len(resp.ImportedResources) == 0 {
		return state, append(diags, nonExistentImport(addr))
	}
	var names []string
	for _, ir := range resp.ImportedResources {
		names = append(names, ir.TypeName)
	}
	hook.PostImport(addr, names)
	if state.Object(addr) != nil {
		// As Terraform, found once the provider has prepared the import.
		return state, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Resource already managed by strata",
			Detail:   fmt.Sprintf("strata is already managing a remote object for %s. To import to this address you must first remove the existing object from the state.", addr),
		})
	}
	if len(resp.ImportedResources) > 1 {
		return state, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Multiple import states not supported",
			Detail:   fmt.Sprintf("While attempting to import with ID %s, the provider returned %d objects; strata imports exactly one.", id, len(resp.ImportedResources)),
		})
	}
	stub := resp.ImportedResources[0]
	w.hook(func(h hooks.Hook) { h.PreRefresh(addr, "", hooks.IDOf(stub.State)) })
	if d := checkIdentity(rt, addr, stub.Identity, true); d.HasErrors() {
		return state, append(diags, d...)
	}
	read := rt.p.ReadResource(ctx, providers.ReadResourceRequest{
		TypeName: addr.Resource.Resource.Type, PriorState: stub.State, Private: stub.Private, CurrentIdentity: stub.Identity,
	})
	diags = append(diags, providerDiags(read.Diagnostics, nil, nil)...)
	if read.Diagnostics.HasErrors() {
		return state, diags
	}
	if read.NewState.IsNull() {
		return state, append(diags, nonExistentImport(addr))
	}
	if d := checkIdentity(rt, addr, read.Identity, true); d.HasErrors() {
		return state, append(diags, d...)
	}
	identity := stub.Identity
	if read.Identity != cty.NilVal && !read.Identity.IsNull() {
		identity = read.Identity
	}
	v := markSchemaSensitive(read.NewState, rt.schema)
	obj, err := encodeObject(v, rt, read.Private, nil, false)
	if err == nil {
		err = setIdentity(obj, rt, identity)
	}
	if err != nil {
		return state, append(diags, errorDiags("Failed to encode imported object", err, nil)...)
	}
	newState := state.DeepCopy()
	newState.SetObject(addr, obj, rt.provider)
	return newState, diags
}

// nonExistentImport is Terraform's error for an import whose object the
// provider, without an error of its own, found not to exist (its read
// returned null): in Terraform's words, with no source location, for the
// import command and import blocks alike.
func nonExistentImport(addr addrs.AbsResourceInstance) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Cannot import non-existent remote object",
		Detail:   fmt.Sprintf("While attempting to import an existing object to %q, the provider detected that no object exists with the given id. Only pre-existing objects can be imported; check that the id is correct and that it is associated with the provider's configured region or endpoint, or use \"strata apply\" to create a new remote object for this resource.", addr.String()),
	}
}

// importExpansion reports an error when addr is not an instance the
// configuration declares, once the target's module calls and the
// resource's count or for_each are evaluated: a key where the resource
// has none, a missing one, an index beyond count, a key not in for_each,
// or a module instance not called.
func (w *walker) importExpansion(rc *configs.Resource, addr addrs.AbsResourceInstance) hcl.Diagnostics {
	declared := false
	for _, mi := range w.ev.moduleInstances(addr.Module.Module()) {
		if mi.String() == addr.Module.String() {
			declared = true
			break
		}
	}
	if declared {
		x, diags := w.expandResource(rc, addr.Module)
		if diags.HasErrors() {
			return diags
		}
		declared = x.has(addr.Resource.Key)
	}
	if declared {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Configuration for import target does not exist",
		Detail:   fmt.Sprintf("The configuration for the given import %s does not exist. All target instances must have an associated configuration to be imported.", addr),
	}}
}
