package plugin

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/plans/objchange"
	"github.com/strata-dev/strata/internal/providers"
)

// identityCases are the test providers' resource types with a resource
// identity (protocol 5.9 / 6.9), and their identity schema versions.
var identityCases = []struct {
	binary, resource, plain string
	version                 int64
}{
	{binary: "stratav5", resource: "stratav5_keyed", plain: "stratav5_thing", version: 1},
	{binary: "stratafw", resource: "stratafw_keyed", plain: "stratafw_thing", version: 0},
}

func identityVal(name, region string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "region": cty.StringVal(region)})
}

func TestIdentitySchema(t *testing.T) {
	for _, tc := range identityCases {
		t.Run(tc.binary, func(t *testing.T) {
			p := start(t, tc.binary)
			resp := p.GetProviderSchema(context.Background())
			noErrors(t, "GetProviderSchema", resp.Diagnostics)
			s := resp.ResourceTypes[tc.resource]
			if s.Identity == nil {
				t.Fatalf("%s has no identity schema", tc.resource)
			}
			if s.IdentityVersion != tc.version {
				t.Errorf("identity version %d, want %d", s.IdentityVersion, tc.version)
			}
			name, region := s.Identity.Attributes["name"], s.Identity.Attributes["region"]
			if name == nil || region == nil || len(s.Identity.Attributes) != 2 {
				t.Fatalf("identity attributes %v", s.Identity.Attributes)
			}
			if !name.Required || name.Optional || region.Required || !region.Optional || !name.Type.Equals(cty.String) {
				t.Errorf("name %+v, region %+v: want name required for import and region optional", name, region)
			}
			if plain := resp.ResourceTypes[tc.plain]; plain.Identity != nil {
				t.Errorf("%s has identity %v, want none", tc.plain, plain.Identity)
			}
		})
	}
}

// TestIdentityLifecycle creates, reads, updates and deletes an object,
// checking that the identity goes out and comes back at every step.
func TestIdentityLifecycle(t *testing.T) {
	for _, tc := range identityCases {
		t.Run(tc.binary, func(t *testing.T) {
			p := start(t, tc.binary)
			ctx := context.Background()
			schema := resourceSchema(t, p, tc.resource)
			configure(t, p, "t-")
			config := objVal(schema, map[string]cty.Value{"name": cty.StringVal("one"), "note": cty.StringVal("a")})
			null := cty.NullVal(schema.ImpliedType())
			plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
				TypeName: tc.resource, PriorState: null, ProposedNewState: objchange.ProposedNew(schema, null, config), Config: config,
			})
			noDiags(t, "PlanResourceChange", plan.Diagnostics)
			if plan.PlannedIdentity != cty.NilVal && !plan.PlannedIdentity.Type().Equals(cty.Object(map[string]cty.Type{"name": cty.String, "region": cty.String})) {
				t.Errorf("planned identity of type %#v", plan.PlannedIdentity.Type())
			}
			apply := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
				TypeName: tc.resource, PriorState: null, PlannedState: plan.PlannedState, Config: config,
				PlannedPrivate: plan.PlannedPrivate, PlannedIdentity: plan.PlannedIdentity,
			})
			noDiags(t, "ApplyResourceChange", apply.Diagnostics)
			want := identityVal("one", "eu")
			if !apply.NewIdentity.RawEquals(want) {
				t.Fatalf("new identity %#v, want %#v", apply.NewIdentity, want)
			}
			if got := apply.NewState.GetAttr("id"); !got.RawEquals(cty.StringVal("t-eu/one")) {
				t.Errorf("id %#v", got)
			}

			read := p.ReadResource(ctx, providers.ReadResourceRequest{
				TypeName: tc.resource, PriorState: apply.NewState, Private: apply.Private, CurrentIdentity: apply.NewIdentity,
			})
			noDiags(t, "ReadResource", read.Diagnostics)
			if !read.Identity.RawEquals(want) {
				t.Errorf("read identity %#v, want %#v", read.Identity, want)
			}

			config2 := objVal(schema, map[string]cty.Value{"name": cty.StringVal("one"), "note": cty.StringVal("b")})
			plan2 := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
				TypeName: tc.resource, PriorState: read.NewState, ProposedNewState: objchange.ProposedNew(schema, read.NewState, config2),
				Config: config2, PriorPrivate: read.Private, PriorIdentity: read.Identity,
			})
			noDiags(t, "PlanResourceChange (update)", plan2.Diagnostics)
			if !plan2.PlannedIdentity.RawEquals(want) {
				t.Errorf("planned identity of update %#v, want %#v", plan2.PlannedIdentity, want)
			}
			apply2 := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
				TypeName: tc.resource, PriorState: read.NewState, PlannedState: plan2.PlannedState, Config: config2,
				PlannedPrivate: plan2.PlannedPrivate, PlannedIdentity: plan2.PlannedIdentity,
			})
			noDiags(t, "ApplyResourceChange (update)", apply2.Diagnostics)
			if !apply2.NewIdentity.RawEquals(want) {
				t.Errorf("identity after update %#v, want %#v", apply2.NewIdentity, want)
			}

			del := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
				TypeName: tc.resource, PriorState: apply2.NewState, PlannedState: null, Config: null, PlannedIdentity: apply2.NewIdentity,
			})
			noDiags(t, "ApplyResourceChange (delete)", del.Diagnostics)
			if !del.NewState.IsNull() {
				t.Errorf("state after delete %#v", del.NewState)
			}
		})
	}
}

func TestIdentityImport(t *testing.T) {
	for _, tc := range identityCases {
		t.Run(tc.binary, func(t *testing.T) {
			p := start(t, tc.binary)
			ctx := context.Background()
			configure(t, p, "t-")
			tests := map[string]struct {
				req  providers.ImportResourceStateRequest
				want cty.Value
			}{
				"by ID": {providers.ImportResourceStateRequest{ID: "us/two"}, identityVal("two", "us")},
				"by identity": {providers.ImportResourceStateRequest{Identity: cty.ObjectVal(map[string]cty.Value{
					"name": cty.StringVal("three"), "region": cty.NullVal(cty.String),
				})}, identityVal("three", "eu")},
			}
			for name, tt := range tests {
				t.Run(name, func(t *testing.T) {
					tt.req.TypeName = tc.resource
					resp := p.ImportResourceState(ctx, tt.req)
					noDiags(t, "ImportResourceState", resp.Diagnostics)
					if len(resp.ImportedResources) != 1 {
						t.Fatalf("imported %d objects", len(resp.ImportedResources))
					}
					got := resp.ImportedResources[0]
					if !got.Identity.RawEquals(tt.want) {
						t.Errorf("imported identity %#v, want %#v", got.Identity, tt.want)
					}
					read := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: tc.resource, PriorState: got.State, Private: got.Private, CurrentIdentity: got.Identity})
					noDiags(t, "ReadResource", read.Diagnostics)
					if !read.Identity.RawEquals(tt.want) {
						t.Errorf("identity read after import %#v, want %#v", read.Identity, tt.want)
					}
				})
			}
		})
	}
}

func TestUpgradeResourceIdentity(t *testing.T) {
	p := start(t, "stratav5")
	ctx := context.Background()
	resp := p.UpgradeResourceIdentity(ctx, providers.UpgradeResourceIdentityRequest{
		TypeName: "stratav5_keyed", Version: 0, RawIdentityJSON: []byte(`{"key":"ap/four"}`),
	})
	noDiags(t, "UpgradeResourceIdentity", resp.Diagnostics)
	if want := identityVal("four", "ap"); !resp.UpgradedIdentity.RawEquals(want) {
		t.Errorf("upgraded identity %#v, want %#v", resp.UpgradedIdentity, want)
	}
	bad := p.UpgradeResourceIdentity(ctx, providers.UpgradeResourceIdentityRequest{
		TypeName: "stratav5_keyed", Version: 0, RawIdentityJSON: []byte(`{"key":"nokey"}`),
	})
	if findDiag(bad.Diagnostics, "Invalid stored identity") == nil || bad.UpgradedIdentity != cty.NilVal {
		t.Errorf("bad identity: diagnostics %s, value %#v", fmtDiags(bad.Diagnostics), bad.UpgradedIdentity)
	}
	plain := p.UpgradeResourceIdentity(ctx, providers.UpgradeResourceIdentityRequest{TypeName: "stratav5_thing", RawIdentityJSON: []byte(`{}`)})
	if findDiag(plain.Diagnostics, "Resource type has no identity") == nil {
		t.Errorf("type without identity: diagnostics %s", fmtDiags(plain.Diagnostics))
	}
}

// TestIdentitySchemaCache checks that the identity schemas are kept with
// the schemas of a provider whose schemas may be cached, and read back.
func TestIdentitySchemaCache(t *testing.T) {
	dir := t.TempDir()
	sharedSchemas.Clear()
	p := start(t, "stratafw", WithSchemaCacheDir(dir))
	if s := p.GetProviderSchema(context.Background()).ResourceTypes["stratafw_keyed"]; s.Identity == nil {
		t.Fatal("no identity schema")
	}
	if p.binary == "" {
		t.Skip("the provider's binary is not identified")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"+identitySuffix))
	if len(files) != 1 {
		t.Fatalf("identity cache files %v", files)
	}
	// Another process of the same binary, with the in-memory copy gone,
	// reads them from the cache directory.
	sharedSchemas.Clear()
	q := start(t, "stratafw", WithSchemaCacheDir(dir))
	set := q.cachedSchema(context.Background())
	if set == nil {
		t.Fatal("the cache was not used")
	}
	s := set.resp.ResourceTypes["stratafw_keyed"]
	if s.Identity == nil || s.Identity.Attributes["name"] == nil {
		t.Errorf("cached identity schema %v", s.Identity)
	}
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
}
