package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/states"
)

func identityType() *resourceType {
	return &resourceType{
		identity: &configschema.Block{Attributes: map[string]*configschema.Attribute{
			"name": {Type: cty.String, Required: true},
		}},
		identityVersion: 2,
	}
}

// TestStoredIdentity: an identity stored with the current identity
// schema version is decoded as is; one from a newer version, or that does
// not match the schema, is an error; objects without one have none.
func TestStoredIdentity(t *testing.T) {
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t_a", Name: "a"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	v := func(n uint64) *uint64 { return &n }
	tests := map[string]struct {
		obj     *states.ObjectSrc
		want    cty.Value
		wantErr string
	}{
		"none":    {obj: &states.ObjectSrc{}, want: cty.NilVal},
		"current": {obj: &states.ObjectSrc{IdentityJSON: []byte(`{"name":"x"}`), IdentitySchemaVersion: v(2)}, want: cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("x")})},
		"newer":   {obj: &states.ObjectSrc{IdentityJSON: []byte(`{"name":"x"}`), IdentitySchemaVersion: v(3)}, wantErr: "newer provider version"},
		"invalid": {obj: &states.ObjectSrc{IdentityJSON: []byte(`{"other":"x"}`), IdentitySchemaVersion: v(2)}, wantErr: "Invalid resource identity in state"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got, diags := storedIdentity(context.Background(), identityType(), addr, tt.obj)
			if tt.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tt.wantErr) {
					t.Fatalf("diagnostics %v, want %q", diags, tt.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if !got.RawEquals(tt.want) {
				t.Errorf("identity %#v, want %#v", got, tt.want)
			}
		})
	}
}

// TestSetIdentity: a known identity is stored with the current identity
// schema version; none, a null or an unknown one stores nothing, and so
// does a type without an identity schema.
func TestSetIdentity(t *testing.T) {
	known := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("x")})
	tests := map[string]struct {
		rt       *resourceType
		identity cty.Value
		want     string
	}{
		"known":       {rt: identityType(), identity: known, want: `{"name":"x"}`},
		"none":        {rt: identityType(), identity: cty.NilVal},
		"null":        {rt: identityType(), identity: cty.NullVal(known.Type())},
		"unknown":     {rt: identityType(), identity: cty.ObjectVal(map[string]cty.Value{"name": cty.UnknownVal(cty.String)})},
		"no identity": {rt: &resourceType{}, identity: known},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			obj := &states.ObjectSrc{IdentityJSON: []byte(`{"old":1}`)}
			if err := setIdentity(obj, tt.rt, tt.identity); err != nil {
				t.Fatal(err)
			}
			if string(obj.IdentityJSON) != tt.want {
				t.Errorf("identity %s, want %s", obj.IdentityJSON, tt.want)
			}
			if (obj.IdentitySchemaVersion != nil) != (tt.want != "") || (obj.IdentitySchemaVersion != nil && *obj.IdentitySchemaVersion != 2) {
				t.Errorf("identity_schema_version %v", obj.IdentitySchemaVersion)
			}
			if tt.want != "" && objectIdentity(tt.rt, obj) == cty.NilVal {
				t.Error("objectIdentity does not read back what setIdentity stored")
			}
		})
	}
}
