package object

import (
	"context"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
)

func TestUpgrade(t *testing.T) {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":   {Type: cty.String, Computed: true},
		"size": {Type: cty.Number, Optional: true},
	}}
	dynSchema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":  {Type: cty.String, Computed: true},
		"any": {Type: cty.DynamicPseudoType, Optional: true},
	}}
	want := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x"), "size": cty.NumberIntVal(3)})
	warning := providers.Diagnostic{Severity: providers.Warning, Summary: "upgraded"}

	tests := map[string]struct {
		schema  *configschema.Block
		current int64
		from    uint64
		raw     string
		flat    map[string]string
		fn      func(providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse
		want    cty.Value
		// wantErr is a substring of the first error diagnostic's summary
		// and detail.
		wantErr   string
		wantCalls int
		wantDiags int
	}{
		"same version": {
			schema: schema, current: 1, from: 1, raw: `{"id":"x","size":3}`,
			want: want, wantCalls: 1,
		},
		"older version": {
			schema: schema, current: 5, from: 2, raw: `{"id":"x","size":3}`,
			want: want, wantCalls: 1,
		},
		"request fields": {
			schema: schema, current: 2, from: 1, flat: map[string]string{"id": "x", "size": "3"},
			fn: func(req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
				if req.TypeName != "test_thing" || req.Version != 1 || req.RawStateJSON != nil || req.RawStateFlatmap["size"] != "3" {
					return providers.UpgradeResourceStateResponse{Diagnostics: providers.Diagnostics{}.Errorf("bad request", "%+v", req)}
				}
				return providers.UpgradeResourceStateResponse{UpgradedState: want, Diagnostics: providers.Diagnostics{warning}}
			},
			want: want, wantCalls: 1, wantDiags: 1,
		},
		"newer version is refused": {
			schema: schema, current: 1, from: 2, raw: `{}`,
			wantErr: "Resource instance managed by newer provider version: The current state of test_thing was created by a newer provider version than is currently selected (schema version 2, but this provider supports up to 1)",
		},
		"provider error": {
			schema: schema, current: 1, from: 0, raw: `{"id":`,
			wantErr: "Invalid state", wantCalls: 1,
		},
		"provider error keeps warnings": {
			schema: schema, current: 1, from: 0, raw: `{}`,
			fn: func(providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
				return providers.UpgradeResourceStateResponse{Diagnostics: providers.Diagnostics{warning}.Errorf("boom", "detail")}
			},
			wantErr: "boom: detail", wantCalls: 1, wantDiags: 2,
		},
		"wrong type": {
			schema: schema, current: 1, from: 0, raw: `{}`,
			fn: func(providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
				return providers.UpgradeResourceStateResponse{UpgradedState: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x")})}
			},
			wantErr: "Invalid resource state upgrade: The provider's UpgradeResourceState for test_thing returned an object that does not match the current schema", wantCalls: 1,
		},
		"wrong type keeps warnings": {
			schema: schema, current: 1, from: 0, raw: `{}`,
			fn: func(providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
				return providers.UpgradeResourceStateResponse{UpgradedState: cty.StringVal("x"), Diagnostics: providers.Diagnostics{warning}}
			},
			wantErr: "Invalid resource state upgrade", wantCalls: 1, wantDiags: 2,
		},
		"no value": {
			schema: schema, current: 1, from: 0, raw: `{}`,
			fn: func(providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
				return providers.UpgradeResourceStateResponse{}
			},
			wantErr: "Invalid resource state upgrade", wantCalls: 1,
		},
		"dynamic attribute conforms": {
			schema: dynSchema, current: 0, from: 0, raw: `{}`,
			fn: func(providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
				return providers.UpgradeResourceStateResponse{UpgradedState: cty.ObjectVal(map[string]cty.Value{
					"id": cty.StringVal("x"), "any": cty.ListVal([]cty.Value{cty.True}),
				})}
			},
			want:      cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x"), "any": cty.ListVal([]cty.Value{cty.True})}),
			wantCalls: 1,
		},
		"null object of the right type": {
			schema: schema, current: 0, from: 0, raw: `null`,
			want: cty.NullVal(schema.ImpliedType()), wantCalls: 1,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &providertest.Provider{
				Schema: providers.GetProviderSchemaResponse{ResourceTypes: map[string]providers.Schema{
					"test_thing": {Version: tc.current, Block: tc.schema},
				}},
				UpgradeResourceFn: tc.fn,
			}
			var raw []byte
			if tc.raw != "" {
				raw = []byte(tc.raw)
			}
			got, diags := Upgrade(context.Background(), p, "test_thing", tc.schema, tc.current, tc.from, raw, tc.flat)
			if n := len(p.Calls()); n != tc.wantCalls {
				t.Errorf("provider called %d times, want %d", n, tc.wantCalls)
			}
			if tc.wantErr != "" {
				if !diags.HasErrors() {
					t.Fatalf("no error; got %#v", got)
				}
				if got != cty.NilVal {
					t.Errorf("got value %#v with errors", got)
				}
				var msg string
				for _, d := range diags {
					if d.Severity == providers.Error {
						msg = d.Summary + ": " + d.Detail
						break
					}
				}
				if !strings.Contains(msg, tc.wantErr) {
					t.Errorf("error %q does not contain %q", msg, tc.wantErr)
				}
			} else {
				if diags.HasErrors() {
					t.Fatalf("unexpected errors: %+v", diags)
				}
				if !got.RawEquals(tc.want) {
					t.Errorf("got %#v, want %#v", got, tc.want)
				}
			}
			if tc.wantDiags != 0 && len(diags) != tc.wantDiags {
				t.Errorf("got %d diagnostics, want %d: %+v", len(diags), tc.wantDiags, diags)
			}
		})
	}
}
