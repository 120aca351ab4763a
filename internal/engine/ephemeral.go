package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/dag"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
)

// Ephemeral resources (`ephemeral` blocks) are opened by plan and apply
// walks alike, when their configuration is wholly known, before anything
// that refers to them; their values are marked ephemeral and never reach
// state or plans. Each opened instance is renewed while it is needed, as
// its provider asks, and closed as soon as nothing needs it (at the latest
// when the walk ends). The rules for ephemeral values are in
// ephemeral_values.go.

// ephemeralSet holds the ephemeral resource instances opened in a walk.
type ephemeralSet struct {
	mu     sync.Mutex
	open   []*openEphemeral
	closed bool
}

// openEphemeral is one opened ephemeral resource instance.
type openEphemeral struct {
	addr     addrs.AbsResourceInstance
	typeName string
	p        providers.EphemeralResources

	mu      sync.Mutex
	private []byte
	timer   *time.Timer
	closed  bool
	// renewing counts renewals in flight: closing waits for them, so
	// that no renewal reaches the provider after the close and the close
	// carries the latest private data.
	renewing sync.WaitGroup
}

// openEphemeral opens every instance of an ephemeral resource in every
// instance of its module and publishes their values.
func (w *walker) openEphemeral(ctx context.Context, n *resourceNode) hcl.Diagnostics {
	return eachModuleInstance(w.ev.moduleInstances(n.addr.Module), func(mi addrs.ModuleInstance) hcl.Diagnostics {
		return w.openEphemeralIn(ctx, n, n.addr.Resource.Absolute(mi))
	})
}

func (w *walker) openEphemeralIn(ctx context.Context, n *resourceNode, addr addrs.AbsResource) hcl.Diagnostics {
	rt, diags := w.resourceType(ctx, addr, n.provider, n.cfg.TypeRange.Ptr())
	if diags.HasErrors() {
		w.ev.setResource(addr, cty.DynamicVal)
		return diags
	}
	x, xdiags := w.expandResource(n.cfg, addr.Module)
	diags = append(diags, xdiags...)
	if xdiags.HasErrors() {
		w.ev.setResource(addr, cty.DynamicVal)
		return diags
	}
	values := make(map[addrs.InstanceKey]cty.Value, len(x.keys))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, key := range x.keys {
		wg.Add(1)
		go func(key addrs.InstanceKey) {
			defer wg.Done()
			v, d := w.openEphemeralInstance(ctx, n, rt, addr.Instance(key), x.keyData(key))
			mu.Lock()
			values[key], diags = v, append(diags, d...)
			mu.Unlock()
		}(key)
	}
	wg.Wait()
	w.ev.setResource(addr, resourceValue(x, values))
	return diags
}

// openEphemeralInstance evaluates one instance's configuration, checks its
// preconditions, opens it when the configuration is wholly known and
// checks its postconditions. Its value is unknown when the configuration
// is not known yet, or when the provider defers the open during plan.
func (w *walker) openEphemeralInstance(ctx context.Context, n *resourceNode, rt *resourceType, addr addrs.AbsResourceInstance, key lang.InstanceKeyData) (cty.Value, hcl.Diagnostics) {
	unknown := cty.UnknownVal(rt.ty).Mark(marks.Ephemeral)
	if !w.validating {
		pk, diags := w.providerKey(n, addr, key)
		if !diags.HasErrors() {
			rt, diags = w.withProviderInstance(ctx, rt, pk, addr, "", false)
		}
		if diags.HasErrors() {
			return unknown, diags
		}
	}
	scope := w.ev.scope(addr.Module).WithKey(key)
	var diags hcl.Diagnostics
	for _, rule := range n.cfg.Preconditions {
		_, _, d := checkRuleIn(scope, rule.Condition, rule.ErrorMessage, "Resource precondition failed", "")
		diags = append(diags, d...)
	}
	if diags.HasErrors() {
		return unknown, diags
	}
	config, cdiags := w.evalResourceConfig(ctx, n, rt, key)
	diags = append(diags, cdiags...)
	if cdiags.HasErrors() {
		return unknown, diags
	}
	unmarked := marks.UnmarkDeep(config)
	if !unmarked.IsWhollyKnown() {
		w.ephemeralHook(func(h hooks.EphemeralHook) { h.PreEphemeralOp(addr, hooks.EphemeralDefer) })
		return unknown, diags
	}
	p, ok := rt.p.(providers.EphemeralResources)
	if !ok {
		return unknown, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid ephemeral resource type",
			Detail:   fmt.Sprintf("The provider %s does not support ephemeral resources.", rt.provider.Provider.ForDisplay()),
			Subject:  n.cfg.TypeRange.Ptr(),
		})
	}
	if err := w.acquire(ctx); err != nil {
		return unknown, append(diags, cancelledDiag())
	}
	w.ephemeralHook(func(h hooks.EphemeralHook) { h.PreEphemeralOp(addr, hooks.EphemeralOpen) })
	start := time.Now()
	resp := p.OpenEphemeralResource(ctx, providers.OpenEphemeralResourceRequest{TypeName: addr.Resource.Resource.Type, Config: unmarked})
	w.release()
	pd := withObject(providerDiags(resp.Diagnostics, n.cfg.Config, n.cfg.DeclRange.Ptr()), addr)
	w.ephemeralHook(func(h hooks.EphemeralHook) {
		h.PostEphemeralOp(addr, hooks.EphemeralOpen, time.Since(start), errOf(pd))
	})
	diags = append(diags, pd...)
	if pd.HasErrors() {
		return unknown, diags
	}
	if resp.Deferred != "" {
		if !w.ev.base.PureOnly {
			return unknown, append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Provider deferred an ephemeral resource",
				Detail:   fmt.Sprintf("The provider deferred opening %s during apply (reason: %s), so the values that depend on it cannot be determined.", addr, resp.Deferred),
				Subject:  n.cfg.DeclRange.Ptr(),
			})
		}
		return unknown, diags
	}
	result := resp.Result
	if result == cty.NilVal || result.IsNull() {
		result = cty.NullVal(rt.ty)
	}
	oe := &openEphemeral{addr: addr, typeName: addr.Resource.Resource.Type, p: p, private: resp.Private}
	if !w.ephemeral.add(oe) {
		// The walk already ended (it was cancelled): close at once.
		w.closeOne(context.WithoutCancel(ctx), oe)
		return unknown, diags
	}
	if !resp.RenewAt.IsZero() {
		w.scheduleRenew(ctx, oe, resp.RenewAt)
	}
	value := markSchemaSensitive(result, rt.schema).Mark(marks.Ephemeral)
	if len(n.cfg.Postconditions) > 0 {
		pscope := scope.WithSelf(value)
		for _, rule := range n.cfg.Postconditions {
			_, _, d := checkRuleIn(pscope, rule.Condition, rule.ErrorMessage, "Resource postcondition failed", "")
			diags = append(diags, d...)
		}
	}
	return value, diags
}

// validateEphemeralConfig asks the provider to validate an ephemeral
// resource configuration.
func validateEphemeralConfig(ctx context.Context, rt *resourceType, config cty.Value) providers.Diagnostics {
	p, ok := rt.p.(providers.EphemeralResources)
	if !ok {
		return nil // reported when it is opened
	}
	return p.ValidateEphemeralResourceConfig(ctx, providers.ValidateEphemeralResourceConfigRequest{TypeName: rt.addr.Resource.Type, Config: config}).Diagnostics
}

func (w *walker) ephemeralHook(fn func(h hooks.EphemeralHook)) {
	for _, h := range w.e.Hooks {
		if eh, ok := h.(hooks.EphemeralHook); ok {
			fn(eh)
		}
	}
}

func errOf(diags hcl.Diagnostics) error {
	if diags.HasErrors() {
		return diags
	}
	return nil
}

func cancelledDiag() *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Operation cancelled", Detail: context.Canceled.Error()}
}

// add records an opened instance; it returns false once the set is closed.
func (s *ephemeralSet) add(oe *openEphemeral) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.open = append(s.open, oe)
	return true
}

// scheduleRenew renews oe at renewAt, and again whenever the provider
// asks, until it is closed.
func (w *walker) scheduleRenew(ctx context.Context, oe *openEphemeral, renewAt time.Time) {
	oe.mu.Lock()
	defer oe.mu.Unlock()
	if oe.closed {
		return
	}
	oe.timer = time.AfterFunc(time.Until(renewAt), func() {
		oe.mu.Lock()
		if oe.closed {
			oe.mu.Unlock()
			return
		}
		oe.renewing.Add(1)
		defer oe.renewing.Done()
		private := oe.private
		oe.mu.Unlock()
		w.ephemeralHook(func(h hooks.EphemeralHook) { h.PreEphemeralOp(oe.addr, hooks.EphemeralRenew) })
		start := time.Now()
		resp := oe.p.RenewEphemeralResource(context.WithoutCancel(ctx), providers.RenewEphemeralResourceRequest{TypeName: oe.typeName, Private: private})
		var err error
		if resp.Diagnostics.HasErrors() {
			err = errors.New(diagText(resp.Diagnostics))
		}
		w.ephemeralHook(func(h hooks.EphemeralHook) {
			h.PostEphemeralOp(oe.addr, hooks.EphemeralRenew, time.Since(start), err)
		})
		if err != nil {
			return
		}
		oe.mu.Lock()
		oe.private = resp.Private
		oe.mu.Unlock()
		if !resp.RenewAt.IsZero() {
			w.scheduleRenew(ctx, oe, resp.RenewAt)
		}
	})
}

// closeEphemerals closes every ephemeral resource instance the walk
// opened, in reverse order of opening, and refuses new ones. It is called
// once the walk's graph is done, before providers are closed.
func (w *walker) closeEphemerals(ctx context.Context) hcl.Diagnostics {
	w.ephemeral.mu.Lock()
	open := w.ephemeral.open
	w.ephemeral.open, w.ephemeral.closed = nil, true
	w.ephemeral.mu.Unlock()
	var diags hcl.Diagnostics
	for i := len(open) - 1; i >= 0; i-- {
		diags = append(diags, w.closeOne(ctx, open[i])...)
	}
	return diags
}

// closeOne stops renewing an instance and closes it.
func (w *walker) closeOne(ctx context.Context, oe *openEphemeral) hcl.Diagnostics {
	oe.mu.Lock()
	if oe.closed {
		oe.mu.Unlock()
		return nil
	}
	oe.closed = true
	if oe.timer != nil {
		oe.timer.Stop()
	}
	oe.mu.Unlock()
	oe.renewing.Wait()
	oe.mu.Lock()
	private := oe.private
	oe.mu.Unlock()
	w.ephemeralHook(func(h hooks.EphemeralHook) { h.PreEphemeralOp(oe.addr, hooks.EphemeralClose) })
	start := time.Now()
	resp := oe.p.CloseEphemeralResource(ctx, providers.CloseEphemeralResourceRequest{TypeName: oe.typeName, Private: private})
	diags := withObject(providerDiags(resp.Diagnostics, nil, nil), oe.addr)
	w.ephemeralHook(func(h hooks.EphemeralHook) {
		h.PostEphemeralOp(oe.addr, hooks.EphemeralClose, time.Since(start), errOf(diags))
	})
	return diags
}

// applyEphemeral opens an ephemeral resource during apply. Applying a
// destroy plan opens only those a provider configuration needs, as
// Terraform does: nothing else is evaluated.
func (aw *applyWalk) applyEphemeral(ctx context.Context, n *resourceNode) hcl.Diagnostics {
	if aw.plan.Mode == plans.DestroyMode {
		needed := false
		for _, a := range aw.cg.g.Ancestors(n) {
			if _, ok := a.(*providerNode); ok {
				needed = true
				break
			}
		}
		if !needed {
			return nil
		}
	}
	return aw.openEphemeral(ctx, n)
}

// closeWhenDone wraps a walk's visit function so that the instances of
// each ephemeral resource are closed as soon as every node that depends
// on it, directly or not, has been visited, as Terraform closes them when
// nothing needs them any more. Those a failure leaves waiting are closed
// by closeEphemerals when the walk ends.
func (w *walker) closeWhenDone(g *dag.Graph[node], visit func(context.Context, node) hcl.Diagnostics) func(context.Context, node) hcl.Diagnostics {
	type waiting struct {
		n    *resourceNode
		left int
	}
	waits := map[node][]*waiting{}
	for _, v := range g.Vertices() {
		rn, ok := v.(*resourceNode)
		if !ok || rn.addr.Resource.Mode != addrs.EphemeralResourceMode {
			continue
		}
		dependents := g.Ancestors(rn)
		wt := &waiting{n: rn, left: len(dependents) + 1}
		waits[rn] = append(waits[rn], wt)
		for _, d := range dependents {
			waits[d] = append(waits[d], wt)
		}
	}
	if len(waits) == 0 {
		return visit
	}
	var mu sync.Mutex
	return func(ctx context.Context, n node) hcl.Diagnostics {
		diags := visit(ctx, n)
		var done []*resourceNode
		mu.Lock()
		for _, wt := range waits[n] {
			if wt.left--; wt.left == 0 {
				done = append(done, wt.n)
			}
		}
		mu.Unlock()
		for _, rn := range done {
			diags = append(diags, w.closeResource(context.WithoutCancel(ctx), rn.addr)...)
		}
		return diags
	}
}

// closeResource closes the open instances of one ephemeral resource.
func (w *walker) closeResource(ctx context.Context, addr addrs.ConfigResource) hcl.Diagnostics {
	w.ephemeral.mu.Lock()
	var mine, rest []*openEphemeral
	for _, oe := range w.ephemeral.open {
		if oe.addr.ContainingResource().Config().String() == addr.String() {
			mine = append(mine, oe)
		} else {
			rest = append(rest, oe)
		}
	}
	w.ephemeral.open = rest
	w.ephemeral.mu.Unlock()
	var diags hcl.Diagnostics
	for i := len(mine) - 1; i >= 0; i-- {
		diags = append(diags, w.closeOne(ctx, mine[i])...)
	}
	return diags
}
