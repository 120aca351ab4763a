package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/contract"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/plans/objchange"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/mock"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/upgrade/object"
)

// resourceType bundles what every instance operation of one resource needs.
type resourceType struct {
	addr     addrs.AbsResource
	provider addrs.AbsProviderConfig
	p        providers.Interface
	schema   *configschema.Block
	ty       cty.Type // schema.ImpliedType()
	version  int64
	// identity is the schema of the type's resource identity, nil when
	// it has none; identityVersion its version.
	identity        *configschema.Block
	identityVersion int64
}

func (w *walker) resourceType(ctx context.Context, addr addrs.AbsResource, provider addrs.AbsProviderConfig, subject *hcl.Range) (*resourceType, hcl.Diagnostics) {
	p, err := w.ps.get(ctx, provider)
	if err != nil {
		return nil, errorDiags("Failed to start provider", err, subject)
	}
	schema, version, err := w.resourceSchema(ctx, addr.Resource, provider)
	if err != nil {
		return nil, errorDiags("Invalid resource type", err, subject)
	}
	rt := &resourceType{addr: addr, provider: provider, p: p, schema: schema, ty: w.impliedType(schema), version: version}
	if o, ok := w.override(addr); ok {
		rt.p = overrideProvider(addr.Resource, schema, version, o)
	} else if addr.Resource.Mode == addrs.ManagedResourceMode {
		if s, err := w.ps.schema(ctx, provider); err == nil {
			rs := s.ResourceTypes[addr.Resource.Type]
			rt.identity, rt.identityVersion = rs.Identity, rs.IdentityVersion
		}
	}
	return rt, nil
}

// override returns the Overrides entry for addr.
func (w *walker) override(addr addrs.AbsResource) (Override, bool) {
	if len(w.e.Overrides) == 0 {
		return Override{}, false
	}
	if o, ok := w.e.Overrides[addr.String()]; ok {
		return o, true
	}
	o, ok := w.e.Overrides[addr.Config().String()]
	return o, ok
}

// forInstance returns rt, or for an instance that strata test's
// override_resource or override_data targets by its key
// (test_resource.a[1]), a copy whose provider is that override's.
func (w *walker) forInstance(rt *resourceType, key addrs.InstanceKey) *resourceType {
	if len(w.e.Overrides) == 0 || key == addrs.NoKey {
		return rt
	}
	o, ok := w.e.Overrides[rt.addr.Instance(key).String()]
	if !ok {
		return rt
	}
	c := *rt
	c.p = overrideProvider(rt.addr.Resource, rt.schema, rt.version, o)
	return &c
}

// overrideProvider is the mock provider that stands in for the real one
// for an overridden resource or data source.
func overrideProvider(r addrs.Resource, schema *configschema.Block, version int64, o Override) providers.Interface {
	m := &mock.Provider{DuringPlan: o.DuringPlan, Schema: providers.GetProviderSchemaResponse{
		ResourceTypes: map[string]providers.Schema{},
		DataSources:   map[string]providers.Schema{},
	}}
	entry := map[string]cty.Value{r.Type: o.Values}
	if r.Mode == addrs.DataResourceMode {
		m.Schema.DataSources[r.Type] = providers.Schema{Version: version, Block: schema}
		m.DataSources = entry
	} else {
		m.Schema.ResourceTypes[r.Type] = providers.Schema{Version: version, Block: schema}
		m.Resources = entry
	}
	return m
}

// planResource plans every instance of a configured resource in one module
// instance, and the deletion of instances the configuration no longer has.
func (pw *planWalk) planResource(ctx context.Context, n *resourceNode, addr addrs.AbsResource) hcl.Diagnostics {
	rt, diags := pw.resourceType(ctx, addr, n.provider, n.cfg.TypeRange.Ptr())
	if diags.HasErrors() {
		return diags
	}
	x, xdiags := pw.expandResource(n.cfg, addr.Module)
	diags = append(diags, xdiags...)
	if xdiags.HasErrors() {
		return diags
	}
	if d := pw.validateProvisioners(n, rt); d.HasErrors() {
		return append(diags, d...)
	}
	values := make(map[addrs.InstanceKey]cty.Value, len(x.keys))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, key := range x.keys {
		if !pw.targeted(addr.Instance(key)) {
			// Outside -target: keep the instance as it is.
			if v, ok := pw.untargetedValue(ctx, rt, addr.Instance(key)); ok {
				values[key] = v
			}
			continue
		}
		plan := func(key addrs.InstanceKey) {
			var v cty.Value
			var d hcl.Diagnostics
			if n.addr.Resource.Mode == addrs.DataResourceMode {
				v, d = pw.planDataInstance(ctx, n, rt, key, x)
			} else {
				v, d = pw.planManagedInstance(ctx, n, rt, key, x)
			}
			mu.Lock()
			values[key], diags = v, append(diags, d...)
			mu.Unlock()
		}
		if len(x.keys) == 1 {
			// One instance: on this goroutine, whose stack has grown
			// already, rather than a new one that grows its own.
			plan(key)
			continue
		}
		wg.Add(1)
		go func(key addrs.InstanceKey) {
			defer wg.Done()
			plan(key)
		}(key)
	}
	wg.Wait()

	// Instances in the state that the expansion no longer has.
	for _, key := range pw.state.InstanceKeys(addr) {
		if x.has(key) || !pw.targeted(addr.Instance(key)) {
			continue
		}
		reason := plans.ReasonDeleteBecauseWrongRepetition
		switch key.(type) {
		case addrs.IntKey:
			if x.mode == 'C' {
				reason = plans.ReasonDeleteBecauseCountIndex
			}
		case addrs.StringKey:
			if x.mode == 'E' {
				reason = plans.ReasonDeleteBecauseEachKey
			}
		default:
			if x.mode == 'B' {
				reason = plans.ReasonDeleteBecauseEnabledFalse
			}
		}
		diags = append(diags, pw.planDelete(ctx, rt, addr.Instance(key), reason, n)...)
	}
	// Deposed objects left by an interrupted create_before_destroy.
	for _, key := range x.keys {
		diags = append(diags, pw.planDeposedDeletes(ctx, rt, addr.Instance(key))...)
	}
	pw.ev.setResource(addr, resourceValue(x, values))
	return diags
}

// refreshResource refreshes every object of a resource without planning
// any change (-refresh-only), publishing the refreshed values for
// references when the resource is configured.
func (pw *planWalk) refreshResource(ctx context.Context, addr addrs.AbsResource, provider addrs.AbsProviderConfig, n *resourceNode) hcl.Diagnostics {
	var subject *hcl.Range
	if n != nil {
		subject = n.cfg.TypeRange.Ptr()
	}
	rt, diags := pw.resourceType(ctx, addr, provider, subject)
	if diags.HasErrors() {
		return diags
	}
	var cfg *configs.Resource
	if n != nil {
		cfg = n.cfg
	}
	x := emptyExpansion(cfg)
	values := map[addrs.InstanceKey]cty.Value{}
	for _, key := range pw.state.InstanceKeys(addr) {
		if !pw.targeted(addr.Instance(key)) {
			continue
		}
		irt, d := pw.withStateProvider(ctx, rt, addr.Instance(key), "")
		if d.HasErrors() {
			diags = append(diags, d...)
			continue
		}
		var configured *resourceNode
		if n != nil && addr.Resource.Mode == addrs.ManagedResourceMode {
			configured = n
		}
		v, _, d := pw.readPrior(ctx, irt, addr.Instance(key), "", configured)
		diags = append(diags, d...)
		if configured != nil && !d.HasErrors() && !v.IsNull() {
			diags = append(diags, pw.refreshConditions(configured, addr.Instance(key), x, v)...)
		}
		for _, dk := range pw.state.DeposedKeys(addr.Instance(key)) {
			_, _, d := pw.readPrior(ctx, irt, addr.Instance(key), dk, nil)
			diags = append(diags, d...)
		}
		if !v.IsNull() {
			values[key] = v
			x.keys = append(x.keys, key)
		}
	}
	if n != nil {
		pw.ev.setResource(addr, resourceValue(x, values))
	}
	return diags
}

// untargetedValue returns the current value of an instance left alone by
// -target, upgraded but not refreshed, for references to it.
func (pw *planWalk) untargetedValue(ctx context.Context, rt *resourceType, addr addrs.AbsResourceInstance) (cty.Value, bool) {
	obj := pw.state.Object(addr)
	if obj == nil {
		return cty.NilVal, false
	}
	v, pd := object.UpgradeTo(ctx, rt.p, addr.Resource.Resource.Type, rt.ty, rt.version, obj.SchemaVersion, obj.AttrsJSON, obj.AttrsFlat)
	if pd.HasErrors() {
		return cty.NilVal, false
	}
	return markSchemaSensitive(marks.Apply(v, obj.SensitivePaths), rt.schema), true
}

// planDestroyResource plans the deletion of every object of a resource.
func (pw *planWalk) planDestroyResource(ctx context.Context, addr addrs.AbsResource, provider addrs.AbsProviderConfig, reason plans.ActionReason) hcl.Diagnostics {
	rt, diags := pw.resourceType(ctx, addr, provider, nil)
	if diags.HasErrors() {
		return diags
	}
	for _, key := range pw.state.InstanceKeys(addr) {
		if !pw.targeted(addr.Instance(key)) {
			continue
		}
		var n *resourceNode
		if rn, ok := pw.cg.resources[addr.Config().String()]; ok {
			n = rn
		}
		diags = append(diags, pw.planDelete(ctx, rt, addr.Instance(key), reason, n)...)
		diags = append(diags, pw.planDeposedDeletes(ctx, rt, addr.Instance(key))...)
	}
	return diags
}

// readPrior upgrades and (unless refresh is skipped) refreshes the current
// or a deposed object of an instance, updating the walk's state with the
// result. It returns a null value when there is no object or the refresh
// found it gone.
//
// n, when not nil, is the configured managed resource the object belongs
// to: as Terraform, the object then records the current configuration's
// create_before_destroy flag (declared or forced) and dependencies,
// refreshed or not; with nil the stored ones are kept.
func (pw *planWalk) readPrior(ctx context.Context, rt *resourceType, addr addrs.AbsResourceInstance, deposed string, n *resourceNode) (cty.Value, *states.ObjectSrc, hcl.Diagnostics) {
	null := cty.NullVal(rt.ty)
	var obj *states.ObjectSrc
	if deposed == "" {
		obj = pw.state.Object(addr)
	} else {
		obj = pw.state.Deposed(addr, deposed)
	}
	if obj == nil {
		return null, nil, nil
	}
	var diags hcl.Diagnostics
	if addr.Resource.Resource.Mode == addrs.DataResourceMode {
		// Data sources are read again, never upgraded: decode what is
		// stored with the current schema, as a best effort.
		v, err := decodeObject(obj, rt)
		if err != nil {
			pw.state.SetObject(addr, nil, rt.provider)
			return null, nil, nil
		}
		return v, obj, nil
	}
	if err := pw.acquire(ctx); err != nil {
		return null, obj, cancelledDiags(err)
	}
	v, pd := object.UpgradeTo(ctx, rt.p, addr.Resource.Resource.Type, rt.ty, rt.version, obj.SchemaVersion, obj.AttrsJSON, obj.AttrsFlat)
	var identity cty.Value
	var idiags hcl.Diagnostics
	if !pd.HasErrors() {
		identity, idiags = storedIdentity(ctx, rt, addr, obj)
	}
	pw.release()
	diags = append(diags, instanceDiags(pd, addr, "Failed to upgrade resource state")...)
	diags = append(diags, idiags...)
	if pd.HasErrors() || idiags.HasErrors() {
		return null, obj, diags
	}
	v = markSchemaSensitive(marks.Apply(v, obj.SensitivePaths), rt.schema)
	private := obj.Private
	// prevAddr is where the previous run recorded an object a moved block
	// moved: its drift names it, and a move is drift by itself (a no-op,
	// which refresh-only plans show), as in Terraform.
	var prevAddr *addrs.AbsResourceInstance
	if p, ok := pw.moved[addr.String()]; ok && deposed == "" {
		prevAddr = &p
	}
	drifted := false
	prior := v
	refreshed := pw.opts.refresh(addr) && addr.Resource.Resource.Mode == addrs.ManagedResourceMode && !pw.justImported(addr, deposed)
	if refreshed {
		pw.hook(func(h hooks.Hook) { h.PreRefresh(addr, deposed, hooks.IDOf(v)) })
		unmarked, paths := marks.Paths(v)
		if err := pw.acquire(ctx); err != nil {
			return null, obj, cancelledDiags(err)
		}
		resp := rt.p.ReadResource(ctx, providers.ReadResourceRequest{
			TypeName: addr.Resource.Resource.Type, PriorState: unmarked, Private: obj.Private, CurrentIdentity: identity,
		})
		pw.release()
		diags = append(diags, instanceDiags(resp.Diagnostics, addr, "Failed to refresh")...)
		if resp.Diagnostics.HasErrors() {
			return null, obj, diags
		}
		if d := checkIdentity(rt, addr, resp.Identity, true); d.HasErrors() {
			return null, obj, append(diags, d...)
		}
		storedIdentity := identity
		if d := pw.identityStable(rt, addr, storedIdentity, resp.Identity, "when it was read"); d.HasErrors() {
			return null, obj, append(diags, d...)
		}
		if resp.Identity != cty.NilVal && !resp.Identity.IsNull() {
			identity = resp.Identity
		}
		nv := resp.NewState
		if nv == cty.NilVal || nv.IsNull() {
			// The object was deleted outside strata.
			pw.addDrift(&plans.ResourceInstanceChange{
				Addr: addr, PrevRunAddr: prevAddr, DeposedKey: deposed, ProviderAddr: rt.provider, Action: plans.Delete,
				Before: v, After: cty.NullVal(rt.ty), SchemaVersion: rt.version,
				BeforeIdentity: storedIdentity, IdentityVersion: rt.identityVersion,
			})
			if deposed == "" {
				pw.state.SetObject(addr, nil, rt.provider)
			} else {
				pw.state.SetDeposed(addr, deposed, nil, rt.provider)
			}
			return null, nil, diags
		}
		if errs := conformanceErrors(nv.Type(), rt.ty); len(errs) > 0 {
			return null, obj, append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Provider produced invalid object",
				Detail:   fmt.Sprintf("Provider %q planned an invalid value for %s during refresh: %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", rt.provider.Provider.ForDisplay(), addr, errs[0]),
			})
		}
		refreshed := markSchemaSensitive(marks.Apply(nv, paths), rt.schema)
		// As Terraform, an object whose value is the same but whose
		// sensitive paths are not those stored (a state written before
		// the provider marked an attribute sensitive) has drifted too.
		if (!marks.KnownEqual(unmarked, nv) && changed(unmarked, nv)) || !samePaths(obj.SensitivePaths, refreshed) {
			pw.addDrift(&plans.ResourceInstanceChange{
				Addr: addr, PrevRunAddr: prevAddr, DeposedKey: deposed, ProviderAddr: rt.provider, Action: plans.Update,
				Before: v, After: refreshed, SchemaVersion: rt.version,
				BeforeIdentity: storedIdentity, AfterIdentity: identity, IdentityVersion: rt.identityVersion,
			})
			drifted = true
		} else if !numbersAsDecoded(nv) {
			pw.mu.Lock()
			pw.reencoded = true
			pw.mu.Unlock()
		}
		v = refreshed
		private = resp.Private
		pw.hook(func(h hooks.Hook) { h.PostRefresh(addr, deposed, hooks.IDOf(v)) })
	}
	if prevAddr != nil && !drifted {
		pw.addDrift(&plans.ResourceInstanceChange{
			Addr: addr, PrevRunAddr: prevAddr, ProviderAddr: rt.provider, Action: plans.NoOp,
			Before: prior, After: v, SchemaVersion: rt.version, IdentityVersion: rt.identityVersion,
		})
	}
	createBeforeDestroy, deps := obj.CreateBeforeDestroy, obj.Dependencies
	if n != nil {
		createBeforeDestroy, deps = n.createBeforeDestroy(), pw.cg.resourceDeps(n)
		if pw.opts.Mode == plans.RefreshOnlyMode {
			// As Terraform: a refresh adds the configuration's
			// dependencies to those stored, and removes none (a plan
			// that changes nothing would record the configuration's);
			// without refreshing, the stored ones stay.
			deps = obj.Dependencies
			if refreshed {
				deps = mergeDependencies(obj.Dependencies, pw.cg.resourceDeps(n))
			}
		}
		if pw.sameClosure(obj.Dependencies, deps) {
			// As read from a state file, which records every transitive
			// dependency: the object keeps the list it has (a no-op plan
			// then copies no object, nor its resource).
			deps = obj.Dependencies
		}
	}
	updated, err := encodeObject(v, rt, private, deps, createBeforeDestroy)
	if err == nil {
		if rt.identity == nil {
			// Keep what another tool stored (Terraform 1.12 with a
			// provider strata sees without identities) as it was.
			updated.IdentityJSON, updated.IdentitySchemaVersion = obj.IdentityJSON, obj.IdentitySchemaVersion
		} else {
			err = setIdentity(updated, rt, identity)
		}
	}
	if err != nil {
		return null, obj, append(diags, errorDiags("Failed to encode refreshed state", err, nil)...)
	}
	updated.Status = obj.Status
	if bytes.Equal(updated.AttrsJSON, obj.AttrsJSON) {
		// Unchanged, as for every object of a no-op plan: the working
		// state shares the bytes read with the previous run's state, and
		// the new copy goes (at 100,000 resources, tens of MB less live
		// at the end of the walk).
		updated.AttrsJSON = obj.AttrsJSON
	}
	if pw.opts.Mode == plans.RefreshOnlyMode && !drifted && deposed == "" {
		// As Terraform, which compares the refreshed objects with the
		// previous run's whole: a refresh that changed only an object's
		// private data, create_before_destroy flag or dependencies
		// makes a refresh-only plan applyable.
		pw.mu.Lock()
		if !bytes.Equal(obj.Private, updated.Private) || obj.CreateBeforeDestroy != updated.CreateBeforeDestroy {
			pw.reencoded = true
		}
		if !sameDependencies(obj.Dependencies, updated.Dependencies) {
			pw.depsChanged = true
		}
		pw.mu.Unlock()
	}
	if sameObject(obj, updated) {
		if p, ok := pw.state.InstanceProvider(addr); ok && sameProvider(p, rt.provider) {
			// Nothing to record, as for every object of a no-op plan:
			// the working state keeps the object it holds, and the new
			// one goes.
			return v, obj, diags
		}
	}
	if deposed == "" {
		pw.state.SetObject(addr, updated, rt.provider)
	} else {
		pw.state.SetDeposed(addr, deposed, updated, rt.provider)
	}
	return v, updated, diags
}

// maxClosureCheck bounds the stored dependencies sameClosure compares:
// beyond it (one long chain of resources) the object takes the
// configuration's list, as it would without the check.
const maxClosureCheck = 32

// sameClosure reports whether an object recording the dependencies stored
// is written as one recording direct (the configuration's, which the walk
// has already given the objects they name): whether the state file, which
// records each object's dependencies with everything they depend on in
// turn, records the same list for both. It does when stored holds direct,
// and each other entry is one that an object of a resource in direct
// records. It may answer false for lists that are written alike (modules
// with instance keys, resources stored under other instance keys); the
// caller then records direct, as it would without the check.
func (pw *planWalk) sameClosure(stored, direct []addrs.AbsResource) bool {
	if len(stored) == 0 || len(stored) > maxClosureCheck || len(direct) > len(stored) {
		return false
	}
	for _, d := range direct {
		if !containsResource(stored, d) {
			return false
		}
	}
	if len(stored) == len(direct) {
		return true
	}
	same := true
	pw.state.Lock(func(s *states.State) {
		var via []*states.Resource
		for _, d := range direct {
			if r := s.Resource(d); r != nil {
				via = append(via, r)
			}
		}
	next:
		for _, st := range stored {
			if containsResource(direct, st) {
				continue
			}
			for _, r := range via {
				for _, inst := range r.Instances {
					if inst.Current != nil && containsResource(inst.Current.Dependencies, st) {
						continue next
					}
				}
			}
			same = false
			return
		}
	})
	return same
}

// containsResource reports whether list holds a.
func containsResource(list []addrs.AbsResource, a addrs.AbsResource) bool {
	for _, b := range list {
		if a.Resource == b.Resource && a.Module.Compare(b.Module) == 0 {
			return true
		}
	}
	return false
}

// sameObject reports whether two stored objects record the same thing.
func sameObject(a, b *states.ObjectSrc) bool {
	if a.SchemaVersion != b.SchemaVersion || a.Status != b.Status || a.CreateBeforeDestroy != b.CreateBeforeDestroy ||
		len(a.AttrsFlat) > 0 || len(b.AttrsFlat) > 0 ||
		!bytes.Equal(a.AttrsJSON, b.AttrsJSON) || !bytes.Equal(a.Private, b.Private) || !bytes.Equal(a.IdentityJSON, b.IdentityJSON) ||
		(a.IdentitySchemaVersion == nil) != (b.IdentitySchemaVersion == nil) ||
		(a.IdentitySchemaVersion != nil && *a.IdentitySchemaVersion != *b.IdentitySchemaVersion) ||
		len(a.SensitivePaths) != len(b.SensitivePaths) || len(a.Dependencies) != len(b.Dependencies) {
		return false
	}
	for i, p := range a.SensitivePaths {
		if !p.Equals(b.SensitivePaths[i]) {
			return false
		}
	}
	return sameDependencies(a.Dependencies, b.Dependencies)
}

// sameDependencies reports whether two dependency lists are the same
// list.
func sameDependencies(a, b []addrs.AbsResource) bool {
	if len(a) != len(b) {
		return false
	}
	for i, d := range a {
		if o := b[i]; d.Resource != o.Resource || d.Module.Compare(o.Module) != 0 {
			return false
		}
	}
	return true
}

// sameProvider reports whether two provider instance addresses are equal.
func sameProvider(a, b addrs.AbsProviderConfig) bool {
	return a.Provider == b.Provider && a.Alias == b.Alias && a.Key == b.Key && a.Module.Equal(b.Module)
}

// planManagedInstance plans one instance of a managed resource and returns
// its planned new value for references.
func (pw *planWalk) planManagedInstance(ctx context.Context, n *resourceNode, rt *resourceType, key addrs.InstanceKey, x *expansion) (cty.Value, hcl.Diagnostics) {
	addr := rt.addr.Instance(key)
	unknown := cty.UnknownVal(rt.ty)
	rt, kdiags := pw.configuredProvider(ctx, n, rt, addr, x)
	if kdiags.HasErrors() {
		return unknown, kdiags
	}
	rt = pw.forInstance(rt, key)
	importing, idiags := pw.importBlock(ctx, rt, addr)
	if idiags.HasErrors() {
		return unknown, idiags
	}
	generated := ""
	if n.cfg.Generated && importing != nil {
		src, gdiags := pw.generateResourceConfig(n, rt, addr)
		if gdiags.HasErrors() {
			return unknown, append(idiags, gdiags...)
		}
		generated = src
	}
	var storedDeps []addrs.AbsResource
	if o := pw.state.Object(addr); o != nil {
		storedDeps = o.Dependencies
	}
	prior, obj, diags := pw.readPrior(ctx, rt, addr, "", n)
	diags = append(idiags, diags...)
	if diags.HasErrors() {
		return unknown, diags
	}
	config, cdiags := pw.evalResourceConfig(ctx, n, rt, x.keyData(key))
	diags = append(diags, cdiags...)
	if cdiags.HasErrors() {
		return unknown, diags
	}
	pdiags := pw.checkPreconditions(n, addr, x.keyData(key))
	diags = append(diags, pdiags...)
	if pdiags.HasErrors() {
		return unknown, diags
	}
	lc := n.cfg.Managed
	unmarkedPrior := marks.UnmarkDeep(prior)
	rawConfig, configPaths := marks.Paths(config)
	// ignore_changes applies to updates; a replacement uses the
	// configuration as written.
	unmarkedConfig := ignoreChanges(rawConfig, unmarkedPrior, lc)

	priorIdentity := objectIdentity(rt, obj)
	planned, resp, pdiags := pw.planChange(ctx, n, rt, addr, unmarkedPrior, unmarkedConfig, configPaths, obj, priorIdentity)
	diags = append(diags, pdiags...)
	if pdiags.HasErrors() {
		return unknown, diags
	}

	change := &plans.ResourceInstanceChange{
		Addr: addr, ProviderAddr: rt.provider, Before: prior,
		Private: resp.PlannedPrivate, SchemaVersion: rt.version,
		BeforeIdentity: priorIdentity, AfterIdentity: resp.PlannedIdentity, IdentityVersion: rt.identityVersion,
	}
	switch {
	case prior.IsNull():
		change.Action = plans.Create
	case obj != nil && obj.Status == states.ObjectTainted:
		change.Action, change.Reason = replaceAction(n.createBeforeDestroy()), plans.ReasonReplaceBecauseTainted
	case pw.opts.forceReplace(addr):
		change.Action, change.Reason = replaceAction(n.createBeforeDestroy()), plans.ReasonReplaceByRequest
	default:
		if marks.KnownEqual(planned, unmarkedPrior) {
			change.Action = plans.NoOp
			break
		}
		if eq := planned.Equals(unmarkedPrior); eq.IsKnown() && eq.True() {
			change.Action = plans.NoOp
			break
		}
		change.RequiredReplace = changedPaths(resp.RequiresReplace, unmarkedPrior, planned)
		if len(change.RequiredReplace) > 0 {
			change.Action, change.Reason = replaceAction(n.createBeforeDestroy()), plans.ReasonReplaceBecauseCannotUpdate
		} else {
			change.Action = plans.Update
		}
	}
	triggered, tdiags := pw.replaceTriggered(n, addr.Module, x.keyData(key), !prior.IsNull() && !change.Action.IsReplace())
	diags = append(diags, tdiags...)
	if tdiags.HasErrors() {
		return unknown, diags
	}
	if triggered {
		change.Action, change.Reason = replaceAction(n.createBeforeDestroy()), plans.ReasonReplaceByTriggers
	}
	if obj != nil && change.Action != plans.Create && pw.opts.Mode == plans.NormalMode {
		if old, ok := pw.providerRecordOf(addr); ok {
			if cur, ok := pw.providerRecordFor(rt.provider.String()); ok {
				change.ProviderConfigChanged = identityChanges(old, cur)
				if lc.ReplaceOnProviderChange && old.Hash != cur.Hash {
					if len(change.ProviderConfigChanged) == 0 {
						change.ProviderConfigChanged = []string{"non-identity arguments changed (hash " + shortHash(old.Hash) + " → " + shortHash(cur.Hash) + ")"}
					}
					if !change.Action.IsReplace() {
						// As for -replace: Terraform's plan formats know
						// no other reason.
						change.Action, change.Reason = replaceAction(n.createBeforeDestroy()), plans.ReasonReplaceByRequest
						change.RequiredReplace = nil
					}
				}
			}
		}
	}
	if change.Action.IsReplace() {
		// Plan the replacement object as a create.
		null := cty.NullVal(rt.ty)
		// As Terraform, the replacement's plan is told the identity
		// planned for the update it replaces.
		planned, resp, pdiags = pw.planChange(ctx, n, rt, addr, null, rawConfig, configPaths, nil, change.AfterIdentity)
		diags = append(diags, pdiags...)
		if pdiags.HasErrors() {
			return unknown, diags
		}
		change.Private = resp.PlannedPrivate
		change.AfterIdentity = resp.PlannedIdentity
	}
	// A planned identity may be unknown only for a new object.
	if d := checkIdentity(rt, addr, change.AfterIdentity, change.Action != plans.Create && !change.Action.IsReplace()); d.HasErrors() {
		return unknown, append(diags, d...)
	}
	if change.AfterIdentity == cty.NilVal && (change.Action == plans.NoOp || change.Action == plans.Update) {
		change.AfterIdentity = priorIdentity
	}
	if change.Action == plans.NoOp || change.Action == plans.Update {
		if d := pw.identityStable(rt, addr, priorIdentity, change.AfterIdentity, "in the plan"); d.HasErrors() {
			return unknown, append(diags, d...)
		}
	}
	if lc.PreventDestroy && change.Action.IsReplace() {
		diags = append(diags, preventDestroyDiag(addr, n))
	}
	after := markSchemaSensitive(marks.Apply(planned, configPaths), rt.schema)
	change.After = after
	switch {
	case change.Action == plans.NoOp:
		change.After, after = prior, prior
	case change.Action.IsReplace():
		// Terraform records the planned object of a replacement with the
		// sensitivity of its configuration only, which shows in the
		// planned_values of show -json; everything else (evaluation,
		// rendering, resource_changes) adds the schema's back.
		change.After = marks.Apply(planned, configPaths)
	}
	diags = append(diags, pw.checkPostconditions(n, addr, x.keyData(key), after)...)
	if importing != nil {
		importing.GeneratedConfig = generated
		change.Importing = importing
	}
	if obj != nil && change.Action != plans.NoOp {
		pw.priorDependencies(rt, addr, obj, storedDeps)
	}
	pw.addChange(change)
	return after, diags
}

// priorDependencies records in the prior state of an object with a planned
// change the dependencies Terraform records there: those stored and those
// of the configuration (which readPrior gave obj) when the object was
// refreshed, those stored when it was not. An object with no change keeps
// the configuration's. Applying the change records the configuration's.
func (pw *planWalk) priorDependencies(rt *resourceType, addr addrs.AbsResourceInstance, obj *states.ObjectSrc, stored []addrs.AbsResource) {
	deps := stored
	if pw.opts.refresh(addr) && !pw.justImported(addr, "") {
		deps = mergeDependencies(stored, obj.Dependencies)
	}
	if slices.EqualFunc(deps, obj.Dependencies, func(a, b addrs.AbsResource) bool { return a.String() == b.String() }) {
		return
	}
	updated := *obj
	updated.Dependencies = deps
	pw.state.SetObject(addr, &updated, rt.provider)
}

// mergeDependencies returns the union of two lists of dependencies, in
// the order of their addresses; a when b adds nothing to it.
func mergeDependencies(a, b []addrs.AbsResource) []addrs.AbsResource {
	seen := make(map[string]bool, len(a)+len(b))
	var out []addrs.AbsResource
	for _, l := range [][]addrs.AbsResource{a, b} {
		for _, d := range l {
			if k := d.String(); !seen[k] {
				seen[k] = true
				out = append(out, d)
			}
		}
	}
	if len(out) == len(a) {
		return a
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// planChange runs ProposedNew and PlanResourceChange and checks the
// result against the plan validity rules.
func (pw *planWalk) planChange(ctx context.Context, n *resourceNode, rt *resourceType, addr addrs.AbsResourceInstance, prior, config cty.Value, sensitive []cty.Path, obj *states.ObjectSrc, priorIdentity cty.Value) (cty.Value, providers.PlanResourceChangeResponse, hcl.Diagnostics) {
	proposed := objchange.ProposedNew(rt.schema, prior, config)
	var private []byte
	if obj != nil {
		private = obj.Private
	}
	if err := pw.acquire(ctx); err != nil {
		return cty.NilVal, providers.PlanResourceChangeResponse{}, cancelledDiags(err)
	}
	resp := rt.p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: addr.Resource.Resource.Type, PriorState: prior, ProposedNewState: proposed,
		Config: config, PriorPrivate: private, PriorIdentity: priorIdentity,
	})
	pw.release()
	diags := withObject(providerDiags(resp.Diagnostics, n.cfg.Config, n.cfg.DeclRange.Ptr()), addr)
	if resp.Diagnostics.HasErrors() {
		return cty.NilVal, resp, diags
	}
	planned := resp.PlannedState
	if planned == cty.NilVal {
		return cty.NilVal, resp, append(diags, inconsistent("Provider produced invalid plan", rt, addr,
			[]error{fmt.Errorf("the provider returned no planned state")}, planInvalid))
	}
	if errs := conformanceErrors(planned.Type(), rt.ty); len(errs) > 0 {
		return cty.NilVal, resp, append(diags, inconsistent("Provider produced invalid plan", rt, addr, errs, planInvalid))
	}
	if d := pw.contractCheck(rt, addr, contract.PlanValid, resp.LegacyTypeSystem, objchange.AssertPlanValid(rt.schema, prior, config, planned),
		sensitive, "Provider produced invalid plan", planInvalid); d != nil {
		return cty.NilVal, resp, append(diags, d)
	}
	return planned, resp, diags
}

// planDataInstance reads a data source during plan when its configuration
// is known, or plans to read it during apply otherwise.
func (pw *planWalk) planDataInstance(ctx context.Context, n *resourceNode, rt *resourceType, key addrs.InstanceKey, x *expansion) (cty.Value, hcl.Diagnostics) {
	addr := rt.addr.Instance(key)
	unknown := cty.UnknownVal(rt.ty)
	rt, kdiags := pw.configuredProvider(ctx, n, rt, addr, x)
	if kdiags.HasErrors() {
		return unknown, kdiags
	}
	rt = pw.forInstance(rt, key)
	config, diags := pw.evalResourceConfig(ctx, n, rt, x.keyData(key))
	if diags.HasErrors() {
		return unknown, pw.checkNested(n, addr.Module, diags)
	}
	unmarked, paths := marks.Paths(config)
	if n.cfg.Check == "" {
		// In a refresh-only plan a failure is a warning, and the data
		// source is read all the same.
		pdiags := pw.refreshConditionSeverity(pw.checkPreconditions(n, addr, x.keyData(key)))
		diags = append(diags, pdiags...)
		if pdiags.HasErrors() {
			return unknown, diags
		}
	}
	reason := plans.ReasonNone
	switch {
	case !unmarked.IsWhollyKnown():
		reason = plans.ReasonReadBecauseConfigUnknown
	case pw.dependencyPending(n, addr.Module):
		reason = plans.ReasonReadBecauseDependencyPending
	}
	if pw.opts.Mode == plans.RefreshOnlyMode {
		// As in Terraform, a refresh plans no reads: a data source is
		// read now when it can be (a check's too, for the check), and
		// otherwise left unknown.
		if reason != plans.ReasonNone {
			return plannedDataObject(rt.schema, unmarked), diags
		}
		v, rdiags := readDataSource(ctx, pw.walker, n, rt, addr, unmarked, paths)
		diags = append(diags, rdiags...)
		if rdiags.HasErrors() {
			return unknown, pw.checkNested(n, addr.Module, diags)
		}
		if n.cfg.Check == "" {
			diags = append(diags, pw.refreshConditionSeverity(pw.checkPostconditions(n, addr, x.keyData(key), v))...)
		}
		return v, pw.checkNested(n, addr.Module, diags)
	}
	if n.cfg.Check != "" {
		// A check's data source is read now, for the check, and again
		// during apply, so that the check runs on fresh values.
		planned := plannedDataObject(rt.schema, unmarked)
		if reason == plans.ReasonNone {
			v, rdiags := readDataSource(ctx, pw.walker, n, rt, addr, unmarked, paths)
			diags = append(diags, rdiags...)
			if !rdiags.HasErrors() {
				planned = v
			}
		}
		pw.addChange(&plans.ResourceInstanceChange{
			Addr: addr, ProviderAddr: rt.provider, Action: plans.Read, Reason: plans.ReasonReadBecauseCheckNested,
			Before: cty.NullVal(rt.ty), After: planned,
		})
		return planned, pw.checkNested(n, addr.Module, diags)
	}
	if reason != plans.ReasonNone {
		pw.addChange(&plans.ResourceInstanceChange{
			Addr: addr, ProviderAddr: rt.provider, Action: plans.Read, Reason: reason,
			Before: cty.NullVal(rt.ty), After: plannedDataObject(rt.schema, unmarked),
		})
		// Postconditions on what only the apply will read are unknown.
		diags = append(diags, pw.checkPostconditions(n, addr, x.keyData(key), plannedDataObject(rt.schema, unmarked))...)
		return plannedDataObject(rt.schema, unmarked), diags
	}
	v, rdiags := readDataSource(ctx, pw.walker, n, rt, addr, unmarked, paths)
	diags = append(diags, rdiags...)
	if rdiags.HasErrors() {
		return unknown, diags
	}
	diags = append(diags, pw.checkPostconditions(n, addr, x.keyData(key), v)...)
	return v, diags
}

// dependencyPending reports whether a managed resource the data resource
// depends on explicitly has a change planned in module instance mi (or,
// for one in another module, in any instance).
func (pw *planWalk) dependencyPending(n *resourceNode, mi addrs.ModuleInstance) bool {
	if len(n.dependsOn) == 0 {
		return false
	}
	pw.mu.Lock()
	defer pw.mu.Unlock()
	for _, c := range pw.changes {
		if c.Action == plans.NoOp {
			continue
		}
		r := c.Addr.ContainingResource()
		for _, d := range n.dependsOn {
			if r.Resource != d.Resource || !r.Module.Module().Equal(d.Module) {
				continue
			}
			if d.Module.Equal(mi.Module()) && r.Module.String() != mi.String() {
				continue // another instance of the same module
			}
			return true
		}
	}
	return false
}

// readDataSource calls ReadDataSource and records the result in the state.
func readDataSource(ctx context.Context, w *walker, n *resourceNode, rt *resourceType, addr addrs.AbsResourceInstance, config cty.Value, paths []cty.Path) (cty.Value, hcl.Diagnostics) {
	if err := w.acquire(ctx); err != nil {
		return cty.NilVal, cancelledDiags(err)
	}
	w.hook(func(h hooks.Hook) { h.PreApply(addr, "", plans.Read, "") })
	start := time.Now()
	resp := rt.p.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: addr.Resource.Resource.Type, Config: config, Addr: addr.String()})
	w.release()
	diags := withObject(providerDiags(resp.Diagnostics, n.cfg.Config, n.cfg.DeclRange.Ptr()), addr)
	if resp.Diagnostics.HasErrors() {
		w.hook(func(h hooks.Hook) {
			h.PostApply(addr, "", plans.Read, "", time.Since(start), errors.New(resp.Diagnostics[0].Summary))
		})
		if n.cfg.Check != "" {
			// As Terraform, a check's data source that could not be
			// read is still recorded: its configuration, with the
			// attributes only the provider sets null.
			v := markSchemaSensitive(marks.Apply(unknownAsNull(plannedDataObject(rt.schema, config)), paths), rt.schema)
			if obj, err := encodeObject(v, rt, nil, nil, false); err == nil {
				w.state.SetObject(addr, obj, rt.provider)
			}
		}
		return cty.NilVal, diags
	}
	w.hook(func(h hooks.Hook) { h.PostApply(addr, "", plans.Read, hooks.IDOf(resp.State), time.Since(start), nil) })
	v := resp.State
	if v == cty.NilVal || v.IsNull() || !v.IsWhollyKnown() {
		return cty.NilVal, append(diags, inconsistent("Provider produced invalid object", rt, addr,
			[]error{fmt.Errorf("the result is null or not wholly known")}, objectInvalid))
	}
	v = markSchemaSensitive(marks.Apply(v, paths), rt.schema)
	obj, err := encodeObject(v, rt, nil, nil, false)
	if err != nil {
		return cty.NilVal, append(diags, errorDiags("Failed to encode data source state", err, nil)...)
	}
	w.state.SetObject(addr, obj, rt.provider)
	return v, diags
}

// planDelete plans the deletion of an instance's current object.
func (pw *planWalk) planDelete(ctx context.Context, rt *resourceType, addr addrs.AbsResourceInstance, reason plans.ActionReason, n *resourceNode) hcl.Diagnostics {
	if reason == plans.ReasonDeleteBecauseNoResourceConfig && pw.forgotten(addr) {
		// Objects to forget are not refreshed: they are no longer strata's.
		if prior, ok := pw.untargetedValue(ctx, rt, addr); ok {
			provider := rt.provider
			if sp, ok := pw.state.InstanceProvider(addr); ok {
				provider = sp
			}
			pw.addChange(&plans.ResourceInstanceChange{
				Addr: addr, ProviderAddr: provider, Action: plans.Forget, Reason: reason,
				Before: prior, After: cty.NullVal(rt.ty), SchemaVersion: rt.version,
			})
		}
		return nil
	}
	rt, diags := pw.withStateProvider(ctx, rt, addr, "")
	if diags.HasErrors() {
		return diags
	}
	prior, obj, diags := pw.readPrior(ctx, rt, addr, "", nil)
	if diags.HasErrors() || prior.IsNull() {
		return diags
	}
	if addr.Resource.Resource.Mode == addrs.DataResourceMode {
		// Data sources are simply forgotten.
		pw.state.SetObject(addr, nil, rt.provider)
		return diags
	}
	if n != nil && n.cfg.Managed != nil && n.cfg.Managed.PreventDestroy {
		diags = append(diags, preventDestroyDiag(addr, n))
	}
	private, pdiags := pw.planDestroyCall(ctx, rt, addr, prior, obj)
	diags = append(diags, pdiags...)
	if pdiags.HasErrors() {
		return diags
	}
	pw.addChange(&plans.ResourceInstanceChange{
		Addr: addr, ProviderAddr: rt.provider, Action: plans.Delete, Reason: reason,
		Before: prior, After: cty.NullVal(rt.ty), SchemaVersion: rt.version,
		BeforeIdentity: objectIdentity(rt, obj), Private: private,
	})
	return diags
}

// planDestroyCall asks the provider to plan the deletion of an object, as
// Terraform does. The plugin client passes the call on only to providers
// that declare the plan_destroy capability and answers for the others with
// the object's private data; either way the private data returned is what
// ApplyResourceChange receives when the object is deleted.
func (pw *planWalk) planDestroyCall(ctx context.Context, rt *resourceType, addr addrs.AbsResourceInstance, prior cty.Value, obj *states.ObjectSrc) ([]byte, hcl.Diagnostics) {
	var private []byte
	if obj != nil {
		private = obj.Private
	}
	if err := pw.acquire(ctx); err != nil {
		return nil, cancelledDiags(err)
	}
	null := cty.NullVal(rt.ty)
	resp := rt.p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: addr.Resource.Resource.Type, PriorState: marks.UnmarkDeep(prior), ProposedNewState: null,
		Config: null, PriorPrivate: private, PriorIdentity: objectIdentity(rt, obj),
	})
	pw.release()
	diags := providerDiags(resp.Diagnostics, nil, nil)
	if resp.Diagnostics.HasErrors() {
		return nil, diags
	}
	if resp.PlannedState != cty.NilVal && !resp.PlannedState.IsNull() {
		return nil, append(diags, inconsistent("Provider produced invalid plan", rt, addr,
			[]error{fmt.Errorf("the planned value of a destroy must be null")}, planInvalid))
	}
	return resp.PlannedPrivate, diags
}

// forgotten reports whether a removed block with destroy = false names the
// instance's resource: it leaves the state without being destroyed.
func (pw *planWalk) forgotten(addr addrs.AbsResourceInstance) bool {
	rm := removedBlock(pw.e.Config, addr)
	return rm != nil && !rm.Destroy
}

// removedBlock returns the removed block, in any module, that names the
// instance's resource or one of the modules it is in, or nil. A child
// module's removed blocks name addresses relative to it and apply in each
// of its instances.
func removedBlock(cfg *configs.Config, addr addrs.AbsResourceInstance) *configs.Removed {
	var found *configs.Removed
	cfg.DeepEach(func(c *configs.Config) {
		if found != nil || len(addr.Module) < len(c.Path) || !addr.Module[:len(c.Path)].Module().Equal(c.Path) {
			return
		}
		rel := addr
		rel.Module = addr.Module[len(c.Path):]
		for _, rm := range c.Module.Removed {
			if rm.From.ContainsInstance(rel) {
				found = rm
				return
			}
		}
	})
	return found
}

// planDeposedDeletes plans the deletion of an instance's deposed objects.
func (pw *planWalk) planDeposedDeletes(ctx context.Context, rt *resourceType, addr addrs.AbsResourceInstance) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, dk := range pw.state.DeposedKeys(addr) {
		rt, d := pw.withStateProvider(ctx, rt, addr, dk)
		if d.HasErrors() {
			diags = append(diags, d...)
			continue
		}
		prior, obj, d := pw.readPrior(ctx, rt, addr, dk, nil)
		diags = append(diags, d...)
		if d.HasErrors() || prior.IsNull() {
			continue
		}
		private, d := pw.planDestroyCall(ctx, rt, addr, prior, obj)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		pw.addChange(&plans.ResourceInstanceChange{
			Addr: addr, DeposedKey: dk, ProviderAddr: rt.provider, Action: plans.Delete,
			Before: prior, After: cty.NullVal(rt.ty), SchemaVersion: rt.version,
			BeforeIdentity: objectIdentity(rt, obj), Private: private,
		})
	}
	return diags
}

// evalResourceConfig evaluates a resource body for one instance and asks
// the provider to validate it.
func (w *walker) evalResourceConfig(ctx context.Context, n *resourceNode, rt *resourceType, key lang.InstanceKeyData) (cty.Value, hcl.Diagnostics) {
	config, diags := w.ev.scope(rt.addr.Module).WithKey(key).EvalPreparedBlock(w.preparedBlock(n.cfg.Config, rt.schema))
	if diags.HasErrors() {
		return config, diags
	}
	unmarked := marks.UnmarkDeep(config)
	diags = append(diags, deprecationWarnings(rt.schema, unmarked, n.cfg.Config)...)
	var pd providers.Diagnostics
	// Validation is a provider call like any other: bounded by the
	// parallelism, or every instance whose configuration is ready sends
	// it at once (a thousand concurrent requests in the plugin).
	if err := w.acquire(ctx); err != nil {
		return config, append(diags, cancelledDiag())
	}
	defer w.release()
	switch n.addr.Resource.Mode {
	case addrs.EphemeralResourceMode:
		pd = validateEphemeralConfig(ctx, rt, unmarked)
	case addrs.DataResourceMode:
		diags = append(diags, checkEphemeralArguments(config, rt.schema, n.cfg.Config, n.cfg.DeclRange, rt.addr)...)
		pd = rt.p.ValidateDataResourceConfig(ctx, providers.ValidateDataResourceConfigRequest{TypeName: n.addr.Resource.Type, Config: unmarked}).Diagnostics
	default:
		diags = append(diags, checkEphemeralArguments(config, rt.schema, n.cfg.Config, n.cfg.DeclRange, rt.addr)...)
		pd = rt.p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: n.addr.Resource.Type, Config: unmarked}).Diagnostics
	}
	return config, append(diags, withObject(providerDiags(pd, n.cfg.Config, n.cfg.DeclRange.Ptr()), rt.addr)...)
}

func replaceAction(createBeforeDestroy bool) plans.Action {
	if createBeforeDestroy {
		return plans.CreateThenDelete
	}
	return plans.DeleteThenCreate
}

// changed reports whether b differs from a or may differ (is unknown).
// samePaths reports whether the sensitive paths of v are stored.
func samePaths(stored []cty.Path, v cty.Value) bool {
	_, paths := marks.Paths(v)
	if len(paths) != len(stored) {
		return false
	}
	for _, p := range paths {
		found := false
		for _, q := range stored {
			if p.Equals(q) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func changed(a, b cty.Value) bool {
	eq := a.Equals(b)
	return !eq.IsKnown() || eq.False()
}

// changedPaths keeps the paths whose values differ between prior and
// planned (an unknown planned value counts as a change), each once: a
// provider may name the same path more than once, as SDK providers do
// for a set block once per changed element.
func changedPaths(paths []cty.Path, prior, planned cty.Value) []cty.Path {
	var out []cty.Path
	seen := func(p cty.Path) bool {
		for _, q := range out {
			if q.Equals(p) {
				return true
			}
		}
		return false
	}
	for _, p := range paths {
		if seen(p) {
			continue
		}
		pv, perr := p.Apply(prior)
		nv, nerr := p.Apply(planned)
		if perr != nil && nerr != nil {
			continue
		}
		if perr != nil || nerr != nil {
			out = append(out, p)
			continue
		}
		if eq := pv.Equals(nv); !eq.IsKnown() || eq.False() {
			out = append(out, p)
		}
	}
	return out
}

// ignoreChanges replaces the parts of config listed in
// lifecycle.ignore_changes with their prior values. Nothing is ignored on
// create, when there is no prior value.
func ignoreChanges(config, prior cty.Value, lc *configs.ManagedLifecycle) cty.Value {
	if lc == nil || prior.IsNull() || config.IsNull() {
		return config
	}
	if lc.IgnoreAllChanges {
		return prior
	}
	if len(lc.IgnoreChanges) == 0 {
		return config
	}
	ignored := make([]cty.Path, 0, len(lc.IgnoreChanges))
	for _, trav := range lc.IgnoreChanges {
		ignored = append(ignored, traversalPath(trav))
	}
	out, _ := cty.Transform(config, func(p cty.Path, v cty.Value) (cty.Value, error) {
		for _, ig := range ignored {
			if pathsEquivalent(p, ig) {
				if pv, err := p.Apply(prior); err == nil {
					return pv, nil
				}
			}
		}
		return v, nil
	})
	return out
}

// pathsEquivalent compares paths treating attribute access and string
// indexes alike, as ignore_changes = [input["k"]] and [input.k] both name
// the attribute k of an object.
func pathsEquivalent(a, b cty.Path) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if stepName(a[i]) != stepName(b[i]) {
			return false
		}
	}
	return true
}

func stepName(s cty.PathStep) string {
	switch s := s.(type) {
	case cty.GetAttrStep:
		return "." + s.Name
	case cty.IndexStep:
		if s.Key.Type() == cty.String && s.Key.IsKnown() && !s.Key.IsNull() {
			return "." + s.Key.AsString()
		}
		if s.Key.Type() == cty.Number && s.Key.IsKnown() && !s.Key.IsNull() {
			return "[" + s.Key.AsBigFloat().Text('f', -1) + "]"
		}
	}
	return "?"
}

// traversalPath converts a relative traversal such as tags["x"] into a
// cty.Path.
func traversalPath(trav hcl.Traversal) cty.Path {
	var p cty.Path
	for _, step := range trav {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			p = p.GetAttr(s.Name)
		case hcl.TraverseAttr:
			p = p.GetAttr(s.Name)
		case hcl.TraverseIndex:
			p = p.Index(s.Key)
		}
	}
	return p
}

// plannedDataObject is the planned value of a data source read during
// apply: configured values as given, computed attributes unknown.
func plannedDataObject(schema *configschema.Block, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return cty.UnknownVal(schema.ImpliedType())
	}
	attrs := config.AsValueMap()
	if attrs == nil {
		attrs = map[string]cty.Value{}
	}
	for name, a := range schema.Attributes {
		if a.Computed && attrs[name].IsNull() {
			attrs[name] = cty.UnknownVal(a.ImpliedType())
		}
	}
	return cty.ObjectVal(attrs)
}

func preventDestroyDiag(addr addrs.AbsResourceInstance, n *resourceNode) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Instance cannot be destroyed",
		Detail:   fmt.Sprintf("Resource %s has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or reduce the scope of the plan using the -target option.", addr),
		Subject:  n.cfg.DeclRange.Ptr(),
	}
}

// Detail templates for provider contract violations: %[1]s is the
// provider, %[2]s the instance and %[3]s the problem, which starts with
// the attribute path.
const (
	planInvalid      = "Provider %[1]q planned an invalid value for %[2]s: %[3]s."
	finalPlanInvalid = "When expanding the plan for %[2]s to include new values learned so far during apply, provider %[1]q produced an invalid new value for %[3]s."
	resultUnexpected = "When applying changes to %[2]s, provider %[1]q produced an unexpected new value: %[3]s."
	objectInvalid    = "Provider %[1]q produced an invalid object for %[2]s: %[3]s."
)

// inconsistent reports a provider that broke a lifecycle rule, naming each
// attribute path involved.
func inconsistent(summary string, rt *resourceType, addr addrs.AbsResourceInstance, errs []error, template string) *hcl.Diagnostic {
	detail := ""
	for _, err := range errs {
		detail += fmt.Sprintf(template, rt.provider.Provider.String(), addr, err) + "\n\n"
	}
	detail += "This is a bug in the provider, which should be reported in the provider's own issue tracker."
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
}

// instanceDiags converts provider diagnostics about a stored object.
func instanceDiags(pd providers.Diagnostics, addr addrs.AbsResourceInstance, prefix string) hcl.Diagnostics {
	diags := providerDiags(pd, nil, nil)
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			d.Detail = fmt.Sprintf("%s %s: %s", prefix, addr, d.Detail)
		}
	}
	return diags
}

// deprecationWarnings warns about deprecated attributes set in the
// configuration.
func deprecationWarnings(schema *configschema.Block, config cty.Value, body hcl.Body) hcl.Diagnostics {
	if config.IsNull() || !config.IsKnown() || !config.Type().IsObjectType() {
		return nil
	}
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(schema.Attributes) {
		a := schema.Attributes[name]
		if !a.Deprecated || !config.Type().HasAttribute(name) || config.GetAttr(name).IsNull() {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Argument is deprecated",
			Detail:   fmt.Sprintf("The argument %q is deprecated by the provider and may be removed in a future version. Check the provider's documentation for what to use instead.", name),
			Subject:  attributeRange(body, cty.GetAttrPath(name)),
		})
	}
	return diags
}

// conformanceErrors is got.TestConformance(want), without its allocations
// when it finds nothing.
func conformanceErrors(got, want cty.Type) []error {
	if objchange.TypeConforms(got, want) {
		return nil
	}
	return got.TestConformance(want)
}
