package engine

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/contract"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/upgrade/object"
)

// Resource identity (Terraform 1.12, protocol 5.9 / 6.9): a provider may
// declare, per managed resource type, a small versioned object that
// identifies a remote object. strata sends the stored identity with every
// read, plan and apply of the object, records the one the provider
// returns in the state beside the attributes, and checks it as Terraform
// does: wholly known, except while planning a create or a replacement.
// Types without an identity schema, and providers that predate the
// protocol, never see or store one.

// storedIdentity returns the identity stored in obj, upgraded to the
// provider's current identity schema, or cty.NilVal when the resource
// type has no identity or the object none.
func storedIdentity(ctx context.Context, rt *resourceType, addr addrs.AbsResourceInstance, obj *states.ObjectSrc) (cty.Value, hcl.Diagnostics) {
	if rt.identity == nil || obj == nil || len(obj.IdentityJSON) == 0 {
		return cty.NilVal, nil
	}
	var from uint64
	if obj.IdentitySchemaVersion != nil {
		from = *obj.IdentitySchemaVersion
	}
	v, pd := object.UpgradeIdentity(ctx, rt.p, addr.Resource.Resource.Type, rt.identity, rt.identityVersion, from, obj.IdentityJSON)
	diags := instanceDiags(pd, addr, "Failed to upgrade resource identity")
	if pd.HasErrors() {
		return cty.NilVal, diags
	}
	return v, diags
}

// objectIdentity decodes the identity of an object this run stored (so at
// the current identity schema version), cty.NilVal when there is none.
func objectIdentity(rt *resourceType, obj *states.ObjectSrc) cty.Value {
	if rt.identity == nil || obj == nil || len(obj.IdentityJSON) == 0 {
		return cty.NilVal
	}
	if obj.IdentitySchemaVersion != nil && *obj.IdentitySchemaVersion != uint64(rt.identityVersion) {
		return cty.NilVal
	}
	v, err := ctyjson.Unmarshal(obj.IdentityJSON, rt.identity.ImpliedType())
	if err != nil {
		return cty.NilVal
	}
	return v
}

// setIdentity records identity in obj, with the current identity schema
// version. Nothing is recorded for a type without an identity schema or
// when identity is none (cty.NilVal or null): such objects are written as
// Terraform 1.11 writes them.
func setIdentity(obj *states.ObjectSrc, rt *resourceType, identity cty.Value) error {
	if obj == nil {
		return nil
	}
	obj.IdentityJSON, obj.IdentitySchemaVersion = nil, nil
	if rt.identity == nil || identity == cty.NilVal || identity.IsNull() || !identity.IsWhollyKnown() {
		return nil
	}
	raw, err := ctyjson.Marshal(identity, rt.identity.ImpliedType())
	if err != nil {
		return fmt.Errorf("encoding the resource identity: %w", err)
	}
	version := uint64(rt.identityVersion)
	obj.IdentityJSON, obj.IdentitySchemaVersion = raw, &version
	return nil
}

// checkIdentity checks an identity a provider returned against the
// identity schema: it must conform and, where mustBeKnown, be wholly
// known (everywhere but the plan of a create or a replacement).
func checkIdentity(rt *resourceType, addr addrs.AbsResourceInstance, v cty.Value, mustBeKnown bool) hcl.Diagnostics {
	if rt.identity == nil || v == cty.NilVal || v.IsNull() {
		return nil
	}
	provider := rt.provider.Provider.String()
	var diags hcl.Diagnostics
	if errs := v.Type().TestConformance(rt.identity.ImpliedType()); len(errs) > 0 {
		for _, err := range errs {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Provider produced an identity that doesn't match the schema",
				Detail:   fmt.Sprintf("Provider %q returned an identity for %s that doesn't match the identity schema: %s. \n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", provider, addr, err),
			})
		}
		return diags
	}
	if mustBeKnown && !v.IsWhollyKnown() {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Provider produced invalid identity",
			Detail:   fmt.Sprintf("Provider %q returned an identity with unknown values for %s. \n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", provider, addr),
		})
	}
	return diags
}

// identityStable checks that the identity of an existing object did not
// change (the identity_stable rule): what a read, a plan or an update
// returned (next) against what the object had (prior), when both are
// known. Terraform does not check this and providers may declare an
// identity mutable, so a change is a tolerated violation, reported after
// the run, and an error only in strict mode.
func (w *walker) identityStable(rt *resourceType, addr addrs.AbsResourceInstance, prior, next cty.Value, when string) hcl.Diagnostics {
	if rt.identity == nil || prior == cty.NilVal || next == cty.NilVal || prior.IsNull() || next.IsNull() ||
		!prior.IsWhollyKnown() || !next.IsWhollyKnown() || prior.RawEquals(next) {
		return nil
	}
	err := fmt.Errorf("the identity changed %s, from %s to %s", when, identityString(prior), identityString(next))
	if w.e.Strict {
		d := inconsistent("Provider changed the identity of an existing object", rt, addr, []error{err}, identityChanged)
		d.Detail += "\n\nstrata requires an existing object's identity to stay the same in strict mode (-strict or STRATA_STRICT=1), as it is now."
		return hcl.Diagnostics{d}
	}
	w.e.Contract.Add(violations(rt, addr, contract.IdentityStable, false, []error{err})...)
	return nil
}

// identityChanged is the template of identity_stable errors.
const identityChanged = "Provider %[1]q returned a different identity for %[2]s: %[3]s."
