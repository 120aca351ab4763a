package object

import (
	"context"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
)

// Upgrade runs one stored object through its provider's
// UpgradeResourceState, turning the raw JSON (or, from very old states,
// flat map) written with schema version `from` into a value of the
// provider's current schema. An object stored by a newer schema version
// than the provider's is refused.
func Upgrade(ctx context.Context, p providers.Interface, typeName string, schema *configschema.Block, current int64, from uint64, rawJSON []byte, flat map[string]string) (cty.Value, providers.Diagnostics) {
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
	want := schema.ImpliedType()
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
