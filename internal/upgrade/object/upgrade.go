package object

import (
	"context"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
)

// Upgrade runs one stored object through its provider's
// UpgradeResourceState, turning the raw JSON (or, from very old states,
// flat map) written with schema version `from` into a value of the
// provider's current schema. An object stored by a newer schema version
// than the provider's is refused.
func Upgrade(ctx context.Context, p providers.Interface, typeName string, schema *configschema.Block, current int64, from uint64, rawJSON []byte, flat map[string]string) (cty.Value, providers.Diagnostics) {
	return UpgradeTo(ctx, p, typeName, schema.ImpliedType(), current, from, rawJSON, flat)
}

// UpgradeTo is Upgrade given the schema's implied type, for callers that
// upgrade many objects of one type and build the type once.
func UpgradeTo(ctx context.Context, p providers.Interface, typeName string, want cty.Type, current int64, from uint64, rawJSON []byte, flat map[string]string) (cty.Value, providers.Diagnostics) {
	if from > uint64(current) {
		return cty.NilVal, providers.Diagnostics{}.Errorf("Resource instance managed by newer provider version",
			"The current state of %s was created by a newer provider version than is currently selected (schema version %d, but this provider supports up to %d). Upgrade the provider to work with this state.", typeName, from, current)
	}
	resp := p.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{
		TypeName:        typeName,
		Version:         int64(from),
		RawStateJSON:    rawJSON,
		RawStateFlatmap: flat,
	})
	if resp.Diagnostics.HasErrors() {
		return cty.NilVal, resp.Diagnostics
	}
	v := resp.UpgradedState
	if v == cty.NilVal || !v.Type().Equals(want) {
		if v != cty.NilVal {
			// Providers may return a value that converts losslessly.
			if errs := v.Type().TestConformance(want); len(errs) == 0 {
				return v, resp.Diagnostics
			}
		}
		return cty.NilVal, append(resp.Diagnostics, providers.Diagnostic{
			Severity: providers.Error,
			Summary:  "Invalid resource state upgrade",
			Detail:   fmt.Sprintf("The provider's UpgradeResourceState for %s returned an object that does not match the current schema. This is a bug in the provider; please report it to its developers.", typeName),
		})
	}
	return v, resp.Diagnostics
}

// UpgradeIdentity turns a stored resource identity (Terraform 1.12),
// written with identity schema version `from`, into a value of the
// provider's current identity schema: decoded as is when the versions
// match, otherwise through the provider's UpgradeResourceIdentity. An
// identity stored by a newer identity schema version is refused.
func UpgradeIdentity(ctx context.Context, p providers.Interface, typeName string, identity *configschema.Block, current int64, from uint64, rawJSON []byte) (cty.Value, providers.Diagnostics) {
	var diags providers.Diagnostics
	want := identity.ImpliedType()
	switch {
	case from > uint64(current):
		return cty.NilVal, diags.Errorf("Resource instance managed by newer provider version",
			"The identity of %s was stored by a newer provider version than is currently selected (identity schema version %d, but this provider supports up to %d). Upgrade the provider to work with this state.", typeName, from, current)
	case from == uint64(current):
		v, err := ctyjson.Unmarshal(rawJSON, want)
		if err != nil {
			return cty.NilVal, diags.Errorf("Invalid resource identity in state",
				"The stored identity of %s does not match the provider's identity schema (version %d): %s. The provider must change its identity schema version whenever it changes the identity schema.", typeName, current, err)
		}
		return v, nil
	}
	up, ok := p.(providers.IdentityUpgrader)
	if !ok {
		return cty.NilVal, diags.Errorf("Cannot upgrade resource identity",
			"The identity of %s was stored with identity schema version %d, and the provider cannot upgrade it to version %d.", typeName, from, current)
	}
	resp := up.UpgradeResourceIdentity(ctx, providers.UpgradeResourceIdentityRequest{
		TypeName: typeName, Version: int64(from), RawIdentityJSON: rawJSON,
	})
	if resp.Diagnostics.HasErrors() {
		return cty.NilVal, resp.Diagnostics
	}
	v := resp.UpgradedIdentity
	if v == cty.NilVal || len(v.Type().TestConformance(want)) > 0 {
		return cty.NilVal, append(resp.Diagnostics, providers.Diagnostic{
			Severity: providers.Error,
			Summary:  "Invalid resource identity upgrade",
			Detail:   fmt.Sprintf("The provider's UpgradeResourceIdentity for %s returned a value that does not match the current identity schema. This is a bug in the provider; please report it to its developers.", typeName),
		})
	}
	return v, resp.Diagnostics
}
