package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/hashicorp/go-uuid"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/contract"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/plans/objchange"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/states"
)

// applyResource applies the creates and updates of a configured resource's
// instances in every instance of its module, concurrently.
func (aw *applyWalk) applyResource(ctx context.Context, n *resourceNode) hcl.Diagnostics {
	if n.addr.Resource.Mode == addrs.EphemeralResourceMode {
		return aw.applyEphemeral(ctx, n)
	}
	return eachModuleInstance(aw.ev.moduleInstances(n.addr.Module), func(mi addrs.ModuleInstance) hcl.Diagnostics {
		return aw.applyResourceIn(ctx, n, n.addr.Resource.Absolute(mi))
	})
}

// applyResourceIn applies the creates and updates of a resource's
// instances in one module instance and publishes the resource's value for
// references.
func (aw *applyWalk) applyResourceIn(ctx context.Context, n *resourceNode, addr addrs.AbsResource) hcl.Diagnostics {
	changes := aw.byResource[addr.String()]
	x := emptyExpansion(n.cfg)
	var work []*plans.ResourceInstanceChange
	values := map[addrs.InstanceKey]cty.Value{}
	var diags hcl.Diagnostics
	for _, c := range changes {
		if c.Importing != nil {
			diags = append(diags, aw.recordImport(c)...)
		}
		if c.DeposedKey == "" && c.Action == plans.Delete && aw.plan.Mode == plans.DestroyMode {
			// References (provider configurations, module expansions)
			// see the object as it was, whether or not it is gone yet.
			x.keys = append(x.keys, c.Addr.Resource.Key)
			values[c.Addr.Resource.Key] = c.Before
			continue
		}
		if c.DeposedKey != "" || c.Action == plans.Delete {
			continue
		}
		x.keys = append(x.keys, c.Addr.Resource.Key)
		if c.Action == plans.NoOp {
			values[c.Addr.Resource.Key] = c.After
			continue
		}
		work = append(work, c)
	}
	// Instances the plan left alone (data sources read during plan,
	// instances outside -target, refresh-only plans) keep their prior
	// values.
	if d := aw.stateValues(ctx, n, addr, x, values); d.HasErrors() {
		return d
	}
	if len(work) > 0 {
		rt, rdiags := aw.resourceType(ctx, addr, n.provider, n.cfg.TypeRange.Ptr())
		if rdiags.HasErrors() {
			return rdiags
		}
		// count and for_each are known at apply (plan refuses unknown
		// ones); evaluate them again for count.index and each.value.
		full, xdiags := aw.expandResource(n.cfg, addr.Module)
		if xdiags.HasErrors() {
			return xdiags
		}
		deps := aw.cg.resourceDeps(n)
		var mu sync.Mutex
		var wg sync.WaitGroup
		apply := func(c *plans.ResourceInstanceChange) {
			v, d := aw.applyInstance(ctx, n, rt, c, full, deps)
			if aw.e.ReleasePlanned {
				releasePlanned(c)
			}
			mu.Lock()
			values[c.Addr.Resource.Key], diags = v, append(diags, d...)
			mu.Unlock()
		}
		for _, c := range work {
			if len(work) == 1 {
				// One instance: on this goroutine, whose stack has grown
				// already, rather than a new one that grows its own.
				apply(c)
				continue
			}
			wg.Add(1)
			go func(c *plans.ResourceInstanceChange) {
				defer wg.Done()
				apply(c)
			}(c)
		}
		wg.Wait()
	}
	aw.ev.setResource(addr, resourceValue(x, values))
	return diags
}

// releasePlanned drops the planned values of a change once the walk has
// applied it (see Engine.ReleasePlanned). The walk reads them no more:
// the instance's value for references is the applied one, and the
// deletion half of a replacement, which comes later with
// create_before_destroy, reads only Before, which a replacement keeps.
func releasePlanned(c *plans.ResourceInstanceChange) {
	c.After = cty.NilVal
	if !c.Action.IsReplace() {
		c.Before = cty.NilVal
	}
}

// recordImport reports an object an import block adopted during plan and
// records it in the journal: it is already in the prior state.
func (aw *applyWalk) recordImport(c *plans.ResourceInstanceChange) hcl.Diagnostics {
	id := c.Importing.ID
	aw.hook(func(h hooks.Hook) { h.PreImport(c.Addr, id) })
	var diags hcl.Diagnostics
	if obj := aw.state.Object(c.Addr); obj != nil {
		diags = aw.record(c.Addr, "", obj, c.ProviderAddr)
	}
	aw.hook(func(h hooks.Hook) { h.PostImport(c.Addr, id) })
	return diags
}

// stateValues adds to values the instances that have no change in the
// plan, decoded from the prior state.
func (aw *applyWalk) stateValues(ctx context.Context, n *resourceNode, addr addrs.AbsResource, x *expansion, values map[addrs.InstanceKey]cty.Value) hcl.Diagnostics {
	keys := aw.state.InstanceKeys(addr)
	if len(keys) == 0 {
		return nil
	}
	rt, diags := aw.resourceType(ctx, addr, n.provider, n.cfg.TypeRange.Ptr())
	if diags.HasErrors() {
		return diags
	}
	planned := map[addrs.InstanceKey]bool{}
	for _, c := range aw.byResource[addr.String()] {
		if c.DeposedKey == "" {
			planned[c.Addr.Resource.Key] = true
		}
	}
	for _, k := range keys {
		if _, ok := values[k]; ok || planned[k] {
			continue
		}
		obj := aw.state.Object(addr.Instance(k))
		if obj == nil {
			continue
		}
		v, err := decodeObject(obj, rt)
		if err != nil {
			return errorDiags("Invalid data source state", err, n.cfg.DeclRange.Ptr())
		}
		values[k] = v
		if !x.has(k) {
			x.keys = append(x.keys, k)
		}
	}
	sort.Slice(x.keys, func(i, j int) bool { return addrs.CompareKeys(x.keys[i], x.keys[j]) < 0 })
	return nil
}

// applyDataInstance reads a data source the plan deferred to apply.
func (aw *applyWalk) applyDataInstance(ctx context.Context, n *resourceNode, rt *resourceType, addr addrs.AbsResourceInstance, x *expansion) (cty.Value, hcl.Diagnostics) {
	unknown := cty.UnknownVal(rt.ty)
	config, diags := aw.evalResourceConfig(ctx, n, rt, x.keyData(addr.Resource.Key))
	if diags.HasErrors() {
		return unknown, diags
	}
	unmarked, paths := marks.Paths(config)
	if n.cfg.Check == "" {
		pdiags := aw.checkPreconditions(n, addr, x.keyData(addr.Resource.Key))
		diags = append(diags, pdiags...)
		if pdiags.HasErrors() {
			return unknown, diags
		}
	}
	v, rdiags := readDataSource(ctx, aw.walker, n, rt, addr, unmarked, paths)
	diags = append(diags, rdiags...)
	if rdiags.HasErrors() {
		return unknown, diags
	}
	if n.cfg.Check == "" {
		diags = append(diags, aw.checkPostconditions(n, addr, x.keyData(addr.Resource.Key), v)...)
	}
	if aw.e.Recorder != nil {
		if obj := aw.state.Object(addr); obj != nil {
			diags = append(diags, aw.record(addr, "", obj, rt.provider)...)
		}
	}
	return v, diags
}

// applyInstance creates, updates or (for a replacement) creates the new
// object of one instance, checking the final plan and the new state
// against the provider contract.
func (aw *applyWalk) applyInstance(ctx context.Context, n *resourceNode, rt *resourceType, c *plans.ResourceInstanceChange, x *expansion, deps []addrs.AbsResource) (cty.Value, hcl.Diagnostics) {
	if c.ProviderAddr.Key != rt.provider.Key {
		// The instance of a provider configuration with for_each that
		// the plan selected.
		irt, diags := aw.withProviderInstance(ctx, rt, c.ProviderAddr.Key, c.Addr, "", false)
		if diags.HasErrors() {
			return cty.UnknownVal(rt.ty), diags
		}
		rt = irt
	}
	rt = aw.forInstance(rt, c.Addr.Resource.Key)
	addr := c.Addr
	unknown := cty.UnknownVal(rt.ty)
	if addr.Resource.Resource.Mode == addrs.DataResourceMode {
		v, diags := aw.applyDataInstance(ctx, n, rt, addr, x)
		return v, aw.checkNested(n, addr.Module, diags)
	}

	config, diags := aw.evalResourceConfig(ctx, n, rt, x.keyData(addr.Resource.Key))
	if diags.HasErrors() {
		return unknown, diags
	}
	pdiags := aw.checkPreconditions(n, addr, x.keyData(addr.Resource.Key))
	diags = append(diags, pdiags...)
	if pdiags.HasErrors() {
		return unknown, diags
	}
	unmarkedConfig, configPaths := marks.Paths(config)
	prior := cty.NullVal(rt.ty)
	var priorPrivate []byte
	priorIdentity := cty.NilVal
	if c.Action == plans.Update {
		prior = marks.UnmarkDeep(c.Before)
		if obj := aw.state.Object(addr); obj != nil {
			priorPrivate = obj.Private
		}
		priorIdentity = c.BeforeIdentity
	}
	unmarkedConfig = ignoreChanges(unmarkedConfig, prior, n.cfg.Managed)

	// Final plan, with a wholly known configuration.
	proposed := objchange.ProposedNew(rt.schema, prior, unmarkedConfig)
	if err := aw.acquire(ctx); err != nil {
		return unknown, cancelledDiags(err)
	}
	presp := rt.p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: addr.Resource.Resource.Type, PriorState: prior, ProposedNewState: proposed,
		Config: unmarkedConfig, PriorPrivate: priorPrivate, PriorIdentity: priorIdentity,
	})
	aw.release()
	diags = append(diags, withObject(providerDiags(presp.Diagnostics, n.cfg.Config, n.cfg.DeclRange.Ptr()), addr)...)
	if presp.Diagnostics.HasErrors() {
		return unknown, diags
	}
	final := presp.PlannedState
	if final == cty.NilVal || !conforms(final.Type(), rt.ty) {
		return unknown, append(diags, inconsistent("Provider produced invalid plan", rt, addr,
			[]error{fmt.Errorf("the planned state does not match the schema")}, planInvalid))
	}
	if d := aw.contractCheck(rt, addr, contract.PlanValid, presp.LegacyTypeSystem, objchange.AssertPlanValid(rt.schema, prior, unmarkedConfig, final),
		configPaths, "Provider produced invalid plan", planInvalid); d != nil {
		return unknown, append(diags, d)
	}
	// As in Terraform, the final plan must agree with the initial one
	// whatever the type system: this is never tolerated.
	initial := marks.UnmarkDeep(c.After)
	if errs := objchange.AssertObjectCompatible(rt.schema, initial, final); len(errs) > 0 {
		return unknown, append(diags, inconsistent("Provider produced inconsistent final plan", rt, addr, errs, finalPlanInvalid))
	}

	plannedIdentity := presp.PlannedIdentity
	if plannedIdentity == cty.NilVal && c.Action == plans.Update {
		plannedIdentity = priorIdentity
	}
	if d := checkIdentity(rt, addr, plannedIdentity, c.Action == plans.Update); d.HasErrors() {
		return unknown, append(diags, d...)
	}

	if c.Action == plans.CreateThenDelete {
		if d := aw.depose(addr, rt); d.HasErrors() {
			return unknown, append(diags, d...)
		}
	}
	action := c.Action
	if action.IsReplace() {
		action = plans.Create
	}
	newVal, newPrivate, newIdentity, adiags, done := aw.callApply(ctx, rt, addr, "", action, prior, final, unmarkedConfig, presp.PlannedPrivate, plannedIdentity, configPaths, n, nil)
	defer done(nil)
	if action != plans.Create || len(provisionersWhen(resourceProvisioners(n), configs.ProvisionerWhenCreate)) == 0 {
		done(nil)
	}
	diags = append(diags, adiags...)
	if newVal == cty.NilVal {
		return unknown, diags
	}
	if newVal.IsNull() {
		if c.Action == plans.Update && !adiags.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Provider returned invalid result object after apply",
				Detail:   fmt.Sprintf("After applying an update to %s, the provider returned a null object. This is a bug in the provider.", addr),
			})
		}
		return unknown, diags
	}
	applied := newVal
	newVal = markSchemaSensitive(marks.Apply(newVal, configPaths), rt.schema)
	obj, err := encodeObject(newVal, rt, newPrivate, deps, c.Action == plans.CreateThenDelete || n.createBeforeDestroy())
	if err == nil {
		if newIdentity == cty.NilVal && action == plans.Update {
			newIdentity = plannedIdentity
		}
		err = setIdentity(obj, rt, newIdentity)
	}
	if action == plans.Update {
		// The new identity is saved either way, as the new state is.
		diags = append(diags, aw.identityStable(rt, addr, priorIdentity, newIdentity, "when it was updated")...)
	}
	if err != nil {
		return unknown, append(diags, errorDiags("Failed to encode new state", err, nil)...)
	}
	if adiags.HasErrors() && action == plans.Create {
		// A create that failed part-way: keep the object, but replace it
		// next time. A failed update keeps its object as it is.
		obj.Status = states.ObjectTainted
	}
	diags = append(diags, aw.record(addr, "", obj, rt.provider)...)
	if action == plans.Create && obj.Status != states.ObjectTainted {
		pdiags := aw.provisionCreated(ctx, n, rt, addr, x.keyData(addr.Resource.Key), newVal, obj)
		diags = append(diags, pdiags...)
		done(pdiags)
	}
	if !adiags.HasErrors() && obj.Status != states.ObjectTainted {
		// The operation's slot is free again (done was called), so
		// that the read takes one of its own.
		diags = append(diags, aw.verifyRead(ctx, rt, addr, applied, newPrivate, objectIdentity(rt, obj), configPaths)...)
	}
	// Postconditions see the new object; it is saved either way.
	diags = append(diags, aw.checkPostconditions(n, addr, x.keyData(addr.Resource.Key), newVal)...)
	return newVal, diags
}

// callApply runs ApplyResourceChange with the intent recorded and hooks
// called, and checks the result: it must be wholly known and compatible
// with the planned state. A non-null result is returned even when it
// breaks the rules, so that it is saved and nothing is lost.
//
// before, when not nil, runs after the PreApply hook and before the
// provider is called (destroy-time provisioners); its errors stop the
// operation. The caller must call done once the operation is over, after
// any creation-time provisioners, with their diagnostics: it calls the
// PostApply hook and frees the operation's slot of -parallelism. Calls
// after the first do nothing.
func (aw *applyWalk) callApply(ctx context.Context, rt *resourceType, addr addrs.AbsResourceInstance, deposed string, action plans.Action, prior, planned, config cty.Value, private []byte, plannedIdentity cty.Value, sensitive []cty.Path, n *resourceNode, before func() hcl.Diagnostics) (newVal cty.Value, newPrivate []byte, newIdentity cty.Value, diags hcl.Diagnostics, done func(hcl.Diagnostics)) {
	if err := aw.acquire(ctx); err != nil {
		return cty.NilVal, nil, cty.NilVal, cancelledDiags(err), func(hcl.Diagnostics) {}
	}
	id := hooks.IDOf(prior)
	newID := id
	start := time.Now()
	var once sync.Once
	var applyErr error
	done = func(more hcl.Diagnostics) {
		once.Do(func() {
			if applyErr == nil {
				applyErr = firstError(more)
			}
			aw.hook(func(h hooks.Hook) { h.PostApply(addr, deposed, action, newID, time.Since(start), applyErr) })
			aw.release()
		})
	}
	if before == nil {
		if d := aw.intent(addr, deposed, action); d.HasErrors() {
			aw.release()
			return cty.NilVal, nil, cty.NilVal, d, func(hcl.Diagnostics) {}
		}
	}
	aw.hook(func(h hooks.Hook) { h.PreApply(addr, deposed, action, id) })
	if before != nil {
		// The intent follows the provisioners: the object is untouched
		// until the provider is called. The provisioners may act on
		// what this object depends on: its completion records are made
		// durable first, as an intent's sync would.
		diags = aw.syncRecords(addr)
		if !diags.HasErrors() {
			diags = before()
		}
		if !diags.HasErrors() {
			diags = append(diags, aw.intent(addr, deposed, action)...)
		}
		if diags.HasErrors() {
			done(diags)
			return cty.NilVal, nil, cty.NilVal, diags, done
		}
	}
	resp := rt.p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: addr.Resource.Resource.Type, PriorState: prior, PlannedState: planned,
		Config: config, PlannedPrivate: private, PlannedIdentity: plannedIdentity,
	})
	newIdentity = resp.NewIdentity
	if action != plans.Delete {
		diags = append(diags, checkIdentity(rt, addr, newIdentity, true)...)
		if newIdentity != cty.NilVal && !newIdentity.IsWhollyKnown() {
			newIdentity = cty.NilVal
		}
	}
	var body hcl.Body
	var subject *hcl.Range
	if n != nil && action != plans.Delete {
		// As in Terraform, what a provider reports about a destroy has
		// no source location: the configuration is not involved.
		body, subject = n.cfg.Config, n.cfg.DeclRange.Ptr()
	}
	diags = append(diags, withObject(providerDiags(resp.Diagnostics, body, subject), addr)...)
	newVal = resp.NewState
	if newVal == cty.NilVal {
		newVal = cty.NullVal(rt.ty)
	}
	if !conforms(newVal.Type(), rt.ty) {
		diags = append(diags, inconsistent("Provider produced invalid object", rt, addr,
			[]error{fmt.Errorf("the new state does not match the schema")}, objectInvalid))
		newVal = cty.NullVal(rt.ty)
		if action != plans.Delete {
			// Nothing usable to save; keep what we had.
			newVal = cty.NilVal
		}
	}
	applyErr = firstError(diags)
	if newVal != cty.NilVal && !newVal.IsNull() && !resp.Diagnostics.HasErrors() && !resp.LegacyTypeSystem {
		if !newVal.IsWhollyKnown() {
			diags = append(diags, inconsistent("Provider returned invalid result object after apply", rt, addr,
				[]error{fmt.Errorf("the new state contains unknown values")}, objectInvalid))
			newVal = unknownAsNull(newVal)
		}
		if errs := objchange.AssertObjectCompatible(rt.schema, planned, newVal); len(errs) > 0 {
			diags = append(diags, inconsistent("Provider produced inconsistent result after apply", rt, addr, errs,
				resultUnexpected))
		}
	}
	if newVal != cty.NilVal && !newVal.IsNull() && !resp.Diagnostics.HasErrors() && resp.LegacyTypeSystem && newVal.IsWhollyKnown() {
		if d := aw.contractCheck(rt, addr, contract.ApplyResultConsistent, true, objchange.AssertObjectCompatible(rt.schema, planned, newVal),
			sensitive, "Provider produced inconsistent result after apply", resultUnexpected); d != nil {
			diags = append(diags, d)
		}
	}
	if newVal != cty.NilVal {
		if nid := hooks.IDOf(newVal); nid != "" {
			newID = nid
		}
	}
	return newVal, resp.Private, newIdentity, diags, done
}

// depose moves an instance's current object aside so that its replacement
// can be created first.
func (aw *applyWalk) depose(addr addrs.AbsResourceInstance, rt *resourceType) hcl.Diagnostics {
	obj := aw.state.Object(addr)
	if obj == nil {
		return nil
	}
	key, err := uuid.GenerateUUID()
	if err != nil {
		return errorDiags("Failed to depose object", err, nil)
	}
	key = key[:8]
	aw.mu.Lock()
	if aw.deposedKeys == nil {
		aw.deposedKeys = map[string]string{}
	}
	aw.deposedKeys[addr.String()] = key
	aw.mu.Unlock()
	diags := aw.record(addr, key, obj, rt.provider)
	return append(diags, aw.record(addr, "", nil, rt.provider)...)
}

// applyDestroy deletes one object.
func (aw *applyWalk) applyDestroy(ctx context.Context, n *destroyNode) hcl.Diagnostics {
	c := aw.changeFor(n)
	if c == nil {
		return nil
	}
	if c.Action == plans.Forget {
		// Only the state's record goes; the remote object stays.
		return aw.record(n.addr, n.deposed, nil, c.ProviderAddr)
	}
	deposed := n.deposed
	if c.Action == plans.CreateThenDelete {
		aw.mu.Lock()
		deposed = aw.deposedKeys[n.addr.String()]
		aw.mu.Unlock()
		if deposed == "" {
			return nil // the replacement was not created; keep the object
		}
	}
	rt, diags := aw.resourceType(ctx, n.addr.ContainingResource(), c.ProviderAddr, nil)
	if diags.HasErrors() {
		return diags
	}
	rt = aw.forInstance(rt, n.addr.Resource.Key)
	prior := marks.UnmarkDeep(c.Before)
	null := cty.NullVal(rt.ty)
	// As in Terraform, the provider receives the private data it returned
	// when it planned the change (the deletion, or the replacement), not
	// the stored object's.
	private := c.Private
	var rn *resourceNode
	if r, ok := aw.cg.resources[n.addr.ContainingResource().Config().String()]; ok {
		rn = r
	}
	var before func() hcl.Diagnostics
	if deposed == "" {
		// Deposed objects are not provisioned, as in Terraform.
		before = aw.destroyProvisioning(ctx, rn, n.addr, c.Before)
	}
	// The provider is told the identity of the object it deletes.
	newVal, _, _, adiags, done := aw.callApply(ctx, rt, n.addr, deposed, plans.Delete, prior, null, null, private, c.BeforeIdentity, nil, rn, before)
	done(nil)
	diags = append(diags, adiags...)
	if adiags.HasErrors() {
		if newVal != cty.NilVal && !newVal.IsNull() {
			// The provider says the object still exists, possibly changed.
			if obj, err := encodeObject(newVal, rt, nil, nil, false); err == nil && setIdentity(obj, rt, c.BeforeIdentity) == nil {
				diags = append(diags, aw.record(n.addr, deposed, obj, rt.provider)...)
			}
		}
		return diags
	}
	return append(diags, aw.record(n.addr, deposed, nil, rt.provider)...)
}

func (aw *applyWalk) changeFor(n *destroyNode) *plans.ResourceInstanceChange {
	for _, c := range aw.byResource[n.addr.ContainingResource().String()] {
		if c.Addr.Resource.Key == n.addr.Resource.Key && c.DeposedKey == n.deposed {
			return c
		}
	}
	return nil
}

// firstError returns the summary of the first error in diags as an
// error, or nil.
func firstError(diags hcl.Diagnostics) error {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			return errors.New(d.Summary)
		}
	}
	return nil
}

// unknownAsNull replaces unknown values with nulls so that an invalid
// result can still be saved.
func unknownAsNull(v cty.Value) cty.Value {
	out, _ := cty.Transform(v, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		if !v.IsKnown() {
			return cty.NullVal(v.Type()), nil
		}
		return v, nil
	})
	return out
}

// conforms reports whether a value of type got may stand for one of type
// want, without TestConformance's allocations.
func conforms(got, want cty.Type) bool {
	return objchange.TypeConforms(got, want)
}
