package engine

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/lang/marks"
)

// Provider for_each, as OpenTofu 1.9 has it. A provider block with an
// alias and for_each is configured once per element, each instance in its
// own provider process (addrs.AbsProviderConfig with a Key). A resource
// selects an instance with provider = NAME.ALIAS[KEY], evaluated for each
// of its instances, or inherits one from a module block's providers
// argument, evaluated for each instance of the module. The state records
// the instance of each resource instance, and the objects that are no
// longer configured are planned and applied with the instance that
// created them: it must still be declared.

// providerKeyExpr is where the instance key of a resource's provider
// configuration comes from.
type providerKeyExpr struct {
	expr hcl.Expression
	// call, when set, is the path of the module whose module block's
	// providers argument has the expression: it is evaluated in the
	// calling module with that module instance's count.index or each.
	// Otherwise the resource's own provider argument has it.
	call addrs.Module
}

// providerExpansion evaluates the for_each of a provider configuration and
// records its instance keys for the resources that select one.
func (w *walker) providerExpansion(n *providerNode) (*expansion, hcl.Diagnostics) {
	scope := w.ev.scope(staticInstance(n.addr.Module))
	if w.validating {
		key, diags := validateCount(nil, n.cfg.ForEach, scope)
		return &expansion{keys: []addrs.InstanceKey{addrs.NoKey}, unknown: &key}, diags
	}
	x, diags := expandCount(nil, n.cfg.ForEach, scope)
	if diags.HasErrors() {
		return nil, diags
	}
	keys := make(map[addrs.InstanceKey]bool, len(x.keys))
	for _, k := range x.keys {
		keys[k] = true
	}
	w.mu.Lock()
	if w.providerKeys == nil {
		w.providerKeys = map[string]map[addrs.InstanceKey]bool{}
	}
	w.providerKeys[n.addr.String()] = keys
	w.mu.Unlock()
	return x, diags
}

// providerKey evaluates the instance key of the provider configuration
// that instance addr of resource n uses (key is its count.index or each
// data). It is NoKey when the configuration has no for_each.
func (w *walker) providerKey(n *resourceNode, addr addrs.AbsResourceInstance, key lang.InstanceKeyData) (addrs.InstanceKey, hcl.Diagnostics) {
	pk := n.providerKey
	if pk == nil {
		return addrs.NoKey, nil
	}
	scope := w.ev.scope(addr.Module).WithKey(key)
	if pk.call != nil {
		callInst := addr.Module[:len(pk.call)]
		scope = w.ev.scope(callInst.Parent()).WithKey(w.ev.instanceKeyData(callInst))
	}
	v, diags := scope.EvalExpr(pk.expr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return nil, diags
	}
	invalid := func(detail string) hcl.Diagnostics {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider instance key",
			Detail:   detail,
			Subject:  pk.expr.Range().Ptr(),
		})
	}
	switch {
	case v.HasMark(marks.Sensitive):
		return nil, invalid("A provider instance key must not be derived from a sensitive value.")
	case marks.ContainsEphemeral(v):
		return nil, invalid("A provider instance key must not be derived from an ephemeral value.")
	case v.IsNull():
		return nil, invalid("A provider instance key must not be null.")
	case !v.IsKnown():
		return nil, invalid(fmt.Sprintf("The provider instance key for %s depends on values that cannot be determined until apply, and so strata cannot select a provider instance to create a plan for this resource instance.", addr))
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil {
		return nil, invalid(fmt.Sprintf("The given instance key is unsuitable: %s.", err))
	}
	return addrs.StringKey(s.AsString()), diags
}

// configuredProvider returns rt for the provider instance a configured
// resource instance selects (x is the resource's expansion).
func (w *walker) configuredProvider(ctx context.Context, n *resourceNode, rt *resourceType, addr addrs.AbsResourceInstance, x *expansion) (*resourceType, hcl.Diagnostics) {
	key, diags := w.providerKey(n, addr, x.keyData(addr.Resource.Key))
	if diags.HasErrors() {
		return nil, diags
	}
	rt, d := w.withProviderInstance(ctx, rt, key, addr, "", false)
	return rt, append(diags, d...)
}

// withProviderInstance returns rt for the instance of its provider
// configuration with the given key, which must be declared.
func (w *walker) withProviderInstance(ctx context.Context, rt *resourceType, key addrs.InstanceKey, addr addrs.AbsResourceInstance, deposed string, fromState bool) (*resourceType, hcl.Diagnostics) {
	config := rt.provider.Config()
	w.mu.Lock()
	keys, forEach := w.providerKeys[config.String()]
	w.mu.Unlock()
	if present := (forEach && keys[key]) || (!forEach && key == addrs.NoKey); !present {
		return nil, hcl.Diagnostics{providerInstanceMissing(config, key, addr, deposed, fromState)}
	}
	if key == rt.provider.Key {
		return rt, nil
	}
	c := *rt
	c.provider = config.Instance(key)
	if _, overridden := w.override(rt.addr); !overridden {
		p, err := w.ps.get(ctx, c.provider)
		if err != nil {
			return nil, errorDiags("Failed to start provider", err, nil)
		}
		c.p = p
	}
	return &c, nil
}

// withStateProvider returns rt for the provider instance the state records
// for addr, when the state's configuration is rt's: the objects no longer
// configured are planned with the instance that manages them.
func (w *walker) withStateProvider(ctx context.Context, rt *resourceType, addr addrs.AbsResourceInstance, deposed string) (*resourceType, hcl.Diagnostics) {
	key := addrs.NoKey
	if sp, ok := w.state.InstanceProvider(addr); ok && sp.Config().String() == rt.provider.Config().String() {
		key = sp.Key
	}
	return w.withProviderInstance(ctx, rt, key, addr, deposed, true)
}

// providerInstanceMissing reports an instance whose provider instance is
// not declared, with OpenTofu's explanations for the objects in the state.
func providerInstanceMissing(config addrs.AbsProviderConfig, key addrs.InstanceKey, addr addrs.AbsResourceInstance, deposed string, fromState bool) *hcl.Diagnostic {
	inst := config.Instance(key)
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Provider instance not present"}
	switch {
	case !fromState && key != addrs.NoKey:
		d.Detail = fmt.Sprintf("The provider configuration of %s selects the provider instance %s, but the for_each of %s has no element with that key.", addr, inst, config)
	case !fromState:
		d.Detail = fmt.Sprintf("The provider configuration %s uses for_each, so %s must select one of its instances with an instance key.", config, addr)
	case deposed == "" && key != addrs.NoKey:
		d.Detail = fmt.Sprintf("To work with %s its original provider instance at %s is required, but it has been removed. This occurs when an element is removed from the provider configuration's for_each collection while objects created by the associated provider instance still exist in the state. Re-add the for_each element to destroy %s, after which you can remove the provider configuration again.\n\nThis is commonly caused by using the same for_each collection both for a resource (or its containing module) and its associated provider configuration. To successfully remove an instance of a resource it must be possible to remove the corresponding element from the resource's for_each collection while retaining the corresponding element in the provider's for_each collection.", addr, inst, addr)
	case deposed == "":
		d.Detail = fmt.Sprintf("To work with %s its original provider instance at %s is required, but it has been removed. This suggests that you've added for_each to this provider configuration while there are existing instances of %s that need to be destroyed by the original single-instance provider configuration.\n\nTo proceed, return to your previous single-instance configuration for %s and ensure that %s has been destroyed or forgotten before using for_each with this provider, or change the resource configuration to still declare an instance with the key %s.", addr, inst, addr.ContainingResource(), config, addr, addrs.KeyString(addr.Resource.Key))
	case key != addrs.NoKey:
		d.Detail = fmt.Sprintf("To work with %s's deposed object %s its original provider instance at %s is required, but it has been removed. This occurs when an element is removed from the provider configuration's for_each collection while objects created by the associated provider instance still exist in the state. Re-add the for_each element to destroy this deposed object for %s, after which you can remove the provider configuration again.", addr, deposed, inst, addr)
	default:
		d.Detail = fmt.Sprintf("To work with %s's deposed object %s its original provider instance at %s is required, but it has been removed. This suggests that you've added for_each to this provider configuration while there are existing deposed objects of %s that need to be destroyed by the original single-instance provider configuration.\n\nTo proceed, return to your previous single-instance configuration for %s and ensure that all deposed instances of %s have been destroyed before using for_each with this provider.", addr, deposed, inst, addr, config, addr)
	}
	return d
}
