package plugin

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans/objchange"
	"github.com/strata-dev/strata/internal/providers"
)

// providerCase describes one of the two test providers: stratav5 on
// terraform-plugin-go (protocol 5) and stratafw on terraform-plugin-framework
// (protocol 6).
type providerCase struct {
	binary   string
	version  int
	resource string
	data     string
	// defaultPrefix is the provider's ID prefix when none is configured.
	defaultPrefix string
}

var cases = []providerCase{
	{binary: "stratav5", version: 5, resource: "stratav5_thing", data: "stratav5_echo", defaultPrefix: "v5-"},
	{binary: "stratafw", version: 6, resource: "stratafw_thing", data: "stratafw_echo", defaultPrefix: "fw-"},
}

func forEachProvider(t *testing.T, f func(t *testing.T, pc providerCase)) {
	for _, pc := range cases {
		t.Run(pc.binary, func(t *testing.T) { f(t, pc) })
	}
}

func resourceSchema(t *testing.T, p providers.Interface, typeName string) *configschema.Block {
	t.Helper()
	resp := p.GetProviderSchema(context.Background())
	noErrors(t, "GetProviderSchema", resp.Diagnostics)
	s, ok := resp.ResourceTypes[typeName]
	if !ok {
		t.Fatalf("no schema for %s", typeName)
	}
	return s.Block
}

func providerConfig(prefix cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"prefix": prefix})
}

func configure(t *testing.T, p providers.Interface, prefix string) {
	t.Helper()
	resp := p.ConfigureProvider(context.Background(), providers.ConfigureProviderRequest{
		TerraformVersion: "1.11.0", Config: providerConfig(cty.StringVal(prefix)),
	})
	noDiags(t, "ConfigureProvider", resp.Diagnostics)
}

func TestSchema(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		p := start(t, pc.binary)
		if got := p.ProtocolVersion(); got != pc.version {
			t.Errorf("negotiated protocol %d, want %d", got, pc.version)
		}
		resp := p.GetProviderSchema(context.Background())
		noDiags(t, "GetProviderSchema", resp.Diagnostics)
		if a := resp.Provider.Block.Attributes["prefix"]; a == nil || !a.Optional || !a.Type.Equals(cty.String) {
			t.Errorf("provider schema prefix = %#v", a)
		}
		rs, ok := resp.ResourceTypes[pc.resource]
		if !ok {
			t.Fatalf("resource types %v lack %s", resp.ResourceTypes, pc.resource)
		}
		b := rs.Block
		check := func(name string, ok bool) {
			t.Helper()
			if !ok {
				t.Errorf("attribute %s: %#v", name, b.Attributes[name])
			}
		}
		check("id", b.Attributes["id"].Computed && !b.Attributes["id"].Optional)
		check("name", b.Attributes["name"].Required)
		check("size", b.Attributes["size"].Optional && b.Attributes["size"].Computed && b.Attributes["size"].Type.Equals(cty.Number))
		check("secret", b.Attributes["secret"].Sensitive && b.Attributes["secret"].Optional)
		if b.Description != "A thing." {
			t.Errorf("description %q", b.Description)
		}
		if _, ok := resp.DataSources[pc.data]; !ok {
			t.Errorf("data sources %v lack %s", resp.DataSources, pc.data)
		}
		switch pc.version {
		case 5:
			if rs.Version != 1 {
				t.Errorf("schema version %d, want 1", rs.Version)
			}
			modes := map[string]configschema.NestingMode{
				"single": configschema.NestingSingle, "group": configschema.NestingGroup, "item": configschema.NestingList,
				"set": configschema.NestingSet, "named": configschema.NestingMap,
			}
			for name, mode := range modes {
				if nb := b.BlockTypes[name]; nb == nil || nb.Nesting != mode {
					t.Errorf("block %s = %#v, want nesting %s", name, nb, mode)
				}
			}
			if b.BlockTypes["item"].MaxItems != 5 {
				t.Errorf("item max items %d", b.BlockTypes["item"].MaxItems)
			}
		case 6:
			check("password_wo", b.Attributes["password_wo"].WriteOnly)
			rules := b.Attributes["rules"]
			if rules == nil || rules.NestedType == nil || rules.NestedType.Nesting != configschema.NestingList ||
				!rules.NestedType.Attributes["port"].Required || !rules.NestedType.Attributes["proto"].Computed {
				t.Errorf("rules = %#v", rules)
			}
			if s := b.Attributes["settings"]; s == nil || s.NestedType == nil || s.NestedType.Nesting != configschema.NestingSingle {
				t.Errorf("settings = %#v", s)
			}
			if tag := b.BlockTypes["tag"]; tag == nil || tag.Nesting != configschema.NestingList {
				t.Errorf("tag block = %#v", tag)
			}
		}
		// The schema is fetched once per client.
		again := p.GetProviderSchema(context.Background())
		if reflect.ValueOf(again.ResourceTypes).UnsafePointer() != reflect.ValueOf(resp.ResourceTypes).UnsafePointer() {
			t.Error("GetProviderSchema was not cached")
		}
	})
}

func TestValidate(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		p := start(t, pc.binary)
		ctx := context.Background()
		schema := resourceSchema(t, p, pc.resource)

		t.Run("provider config", func(t *testing.T) {
			resp := p.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: providerConfig(cty.NullVal(cty.String))})
			noDiags(t, "ValidateProviderConfig", resp.Diagnostics)
			want := providerConfig(cty.NullVal(cty.String))
			if pc.version == 5 {
				// PrepareProviderConfig fills in the default.
				want = providerConfig(cty.StringVal("v5-"))
			}
			if !resp.PreparedConfig.RawEquals(want) {
				t.Errorf("prepared config %#v, want %#v", resp.PreparedConfig, want)
			}
			resp = p.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: providerConfig(cty.StringVal("bad!"))})
			d := findDiag(resp.Diagnostics, "Invalid prefix")
			if d == nil || d.Severity != providers.Error || !d.Attribute.Equals(cty.GetAttrPath("prefix")) {
				t.Errorf("diagnostics %s, want Invalid prefix at prefix", fmtDiags(resp.Diagnostics))
			}
		})

		type pathCase struct {
			name    string
			vals    map[string]cty.Value
			summary string
			path    cty.Path
		}
		pathCases := []pathCase{
			{"attribute", map[string]cty.Value{"name": cty.StringVal("invalid")}, "Invalid name", cty.GetAttrPath("name")},
		}
		tagObj := func(k string) cty.Value {
			return cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal(k), "value": cty.NullVal(cty.String)})
		}
		rule := func(port int64) cty.Value {
			return cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(port), "proto": cty.NullVal(cty.String)})
		}
		item := func(k string) cty.Value {
			return cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal(k), "v": cty.NullVal(cty.String)})
		}
		if pc.version == 6 {
			pathCases = append(pathCases,
				pathCase{"nested attribute list element", map[string]cty.Value{"name": cty.StringVal("n"), "rules": cty.ListVal([]cty.Value{rule(80), rule(70000)})},
					"Invalid port", cty.GetAttrPath("rules").IndexInt(1).GetAttr("port")},
				pathCase{"map key", map[string]cty.Value{"name": cty.StringVal("n"), "labels": cty.MapVal(map[string]cty.Value{"bad": cty.StringVal("x")})},
					"Invalid label", cty.GetAttrPath("labels").IndexString("bad")},
				pathCase{"block list element", map[string]cty.Value{"name": cty.StringVal("n"), "tag": cty.ListVal([]cty.Value{tagObj("bad")})},
					"Invalid tag key", cty.GetAttrPath("tag").IndexInt(0).GetAttr("key")},
			)
		} else {
			pathCases = append(pathCases,
				pathCase{"block list element", map[string]cty.Value{"name": cty.StringVal("n"), "item": cty.ListVal([]cty.Value{item("ok"), item("bad")})},
					"Invalid item key", cty.GetAttrPath("item").IndexInt(1).GetAttr("k")},
				pathCase{"map key", map[string]cty.Value{"name": cty.StringVal("n"), "tags": cty.MapVal(map[string]cty.Value{"bad": cty.StringVal("x")})},
					"Invalid tag", cty.GetAttrPath("tags").IndexString("bad")},
			)
		}
		for _, tc := range pathCases {
			t.Run("error path "+tc.name, func(t *testing.T) {
				resp := p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: pc.resource, Config: objVal(schema, tc.vals)})
				d := findDiag(resp.Diagnostics, tc.summary)
				if d == nil || d.Severity != providers.Error || !d.Attribute.Equals(tc.path) {
					t.Errorf("diagnostics %s, want %q at %#v", fmtDiags(resp.Diagnostics), tc.summary, tc.path)
				}
			})
		}

		t.Run("warning", func(t *testing.T) {
			resp := p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: pc.resource,
				Config: objVal(schema, map[string]cty.Value{"name": cty.StringVal("n"), "description": cty.StringVal("deprecated")})})
			if resp.Diagnostics.HasErrors() || len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Severity != providers.Warning ||
				!resp.Diagnostics[0].Attribute.Equals(cty.GetAttrPath("description")) {
				t.Errorf("diagnostics %s, want one warning at description", fmtDiags(resp.Diagnostics))
			}
		})

		t.Run("unknown values", func(t *testing.T) {
			resp := p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: pc.resource,
				Config: objVal(schema, map[string]cty.Value{"name": cty.UnknownVal(cty.String), "size": cty.UnknownVal(cty.Number)})})
			noDiags(t, "ValidateResourceConfig", resp.Diagnostics)
		})

		t.Run("data source", func(t *testing.T) {
			cfg := cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("invalid"), "result": cty.NullVal(cty.String)})
			if pc.version == 6 {
				cfg = cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("invalid"), "result": cty.NullVal(cty.String), "length": cty.NullVal(cty.Number)})
			}
			resp := p.ValidateDataResourceConfig(ctx, providers.ValidateDataResourceConfigRequest{TypeName: pc.data, Config: cfg})
			d := findDiag(resp.Diagnostics, "Invalid input")
			if d == nil || !d.Attribute.Equals(cty.GetAttrPath("input")) {
				t.Errorf("diagnostics %s, want Invalid input at input", fmtDiags(resp.Diagnostics))
			}
		})

		t.Run("unsupported types", func(t *testing.T) {
			resp := p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: "nope", Config: cty.EmptyObjectVal})
			if findDiag(resp.Diagnostics, "Unsupported resource type") == nil {
				t.Errorf("diagnostics %s", fmtDiags(resp.Diagnostics))
			}
			dresp := p.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: "nope", Config: cty.EmptyObjectVal})
			if findDiag(dresp.Diagnostics, "Unsupported data source") == nil {
				t.Errorf("diagnostics %s", fmtDiags(dresp.Diagnostics))
			}
		})

		t.Run("value not matching the schema", func(t *testing.T) {
			resp := p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: pc.resource, Config: cty.StringVal("x")})
			if findDiag(resp.Diagnostics, "Failed to encode a value for the provider") == nil {
				t.Errorf("diagnostics %s", fmtDiags(resp.Diagnostics))
			}
		})
	})
}

func TestConfigureWithUnknowns(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		p := start(t, pc.binary)
		resp := p.ConfigureProvider(context.Background(), providers.ConfigureProviderRequest{
			TerraformVersion: "1.11.0", Config: providerConfig(cty.UnknownVal(cty.String)),
		})
		d := findDiag(resp.Diagnostics, "Prefix unknown")
		if resp.Diagnostics.HasErrors() || d == nil || d.Severity != providers.Warning || !d.Attribute.Equals(cty.GetAttrPath("prefix")) {
			t.Errorf("diagnostics %s, want the provider's warning that the prefix is unknown", fmtDiags(resp.Diagnostics))
		}
	})
}

// TestLifecycle runs one object through create, refresh, update,
// replacement planning and destroy, checking every response against the
// core's plan validity and consistency rules.
func TestLifecycle(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		p := start(t, pc.binary)
		ctx := context.Background()
		schema := resourceSchema(t, p, pc.resource)
		ty := schema.ImpliedType()
		configure(t, p, "t-")

		vals := map[string]cty.Value{
			"name":        cty.StringVal("one"),
			"secret":      cty.StringVal("hush"),
			"description": cty.UnknownVal(cty.String),
		}
		if pc.version == 6 {
			vals["password_wo"] = cty.StringVal("pw")
			vals["rules"] = cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80), "proto": cty.NullVal(cty.String)})})
		} else {
			vals["group"] = cty.ObjectVal(map[string]cty.Value{"g": cty.StringVal("grouped")})
			vals["named"] = cty.MapVal(map[string]cty.Value{"a": cty.ObjectVal(map[string]cty.Value{"v": cty.StringVal("x")})})
			vals["set"] = cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("one")})})
		}
		plan := func(t *testing.T, prior cty.Value, priorPrivate []byte, config cty.Value) providers.PlanResourceChangeResponse {
			t.Helper()
			proposed := objchange.ProposedNew(schema, prior, config)
			resp := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
				TypeName: pc.resource, PriorState: prior, ProposedNewState: proposed, Config: config, PriorPrivate: priorPrivate,
			})
			noDiags(t, "PlanResourceChange", resp.Diagnostics)
			for _, err := range objchange.AssertPlanValid(schema, prior, config, resp.PlannedState) {
				t.Errorf("invalid plan: %v", err)
			}
			return resp
		}

		// Plan a create with an unknown in the configuration.
		config := objVal(schema, vals)
		planned := plan(t, cty.NullVal(ty), nil, config).PlannedState
		if planned.GetAttr("id").IsKnown() {
			t.Errorf("planned id %#v, want unknown", planned.GetAttr("id"))
		}
		if planned.GetAttr("description").IsKnown() {
			t.Errorf("planned description %#v, want unknown as in config", planned.GetAttr("description"))
		}
		if got := planned.GetAttr("size"); !got.RawEquals(cty.NumberIntVal(1)) {
			t.Errorf("planned size %#v, want the default 1", got)
		}
		if pc.version == 6 {
			if got := planned.GetAttr("rules").Index(cty.NumberIntVal(0)).GetAttr("proto"); !got.RawEquals(cty.StringVal("tcp")) {
				t.Errorf("planned rules[0].proto %#v, want the default", got)
			}
			if !planned.GetAttr("password_wo").IsNull() {
				t.Errorf("planned password_wo %#v, want null (write-only)", planned.GetAttr("password_wo"))
			}
		}

		// The final plan, with everything known, and the create.
		vals["description"] = cty.StringVal("d")
		config = objVal(schema, vals)
		finalPlan := plan(t, cty.NullVal(ty), nil, config)
		applied := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
			TypeName: pc.resource, PriorState: cty.NullVal(ty), PlannedState: finalPlan.PlannedState, Config: config, PlannedPrivate: finalPlan.PlannedPrivate,
		})
		noDiags(t, "ApplyResourceChange (create)", applied.Diagnostics)
		for _, err := range objchange.AssertObjectCompatible(schema, finalPlan.PlannedState, applied.NewState) {
			t.Errorf("inconsistent result: %v", err)
		}
		state := applied.NewState
		if !state.IsWhollyKnown() {
			t.Errorf("new state has unknowns: %#v", state)
		}
		if got := state.GetAttr("id"); !got.RawEquals(cty.StringVal("t-one")) {
			t.Errorf("id %#v, want the configured prefix", got)
		}
		if len(applied.Private) == 0 {
			t.Error("no private data after create")
		}
		if pc.version == 6 {
			if !state.GetAttr("password_wo").IsNull() || !state.GetAttr("password_set").RawEquals(cty.True) {
				t.Errorf("write-only: password_wo %#v, password_set %#v", state.GetAttr("password_wo"), state.GetAttr("password_set"))
			}
		} else if got := string(applied.Private); got != "applied:planned:" {
			t.Errorf("private %q", got)
		}
		private := applied.Private

		// Refresh, with and without the private data.
		read := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: pc.resource, PriorState: state, Private: private})
		noDiags(t, "ReadResource", read.Diagnostics)
		if !read.NewState.RawEquals(state) {
			t.Errorf("refreshed state %#v, want %#v", read.NewState, state)
		}
		if !bytes.Equal(read.Private, private) {
			t.Errorf("refreshed private %q, want %q", read.Private, private)
		}
		if read := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: pc.resource, PriorState: state}); findDiag(read.Diagnostics, "Private data missing") == nil {
			t.Errorf("reading without private data: diagnostics %s, want the provider to notice", fmtDiags(read.Diagnostics))
		}

		// An in-place update.
		vals["size"] = cty.NumberIntVal(5)
		config = objVal(schema, vals)
		update := plan(t, state, private, config)
		if len(update.RequiresReplace) != 0 {
			t.Errorf("update requires replace %#v", update.RequiresReplace)
		}
		if got := update.PlannedState.GetAttr("id"); !got.RawEquals(cty.StringVal("t-one")) {
			t.Errorf("planned id %#v, want it kept", got)
		}
		if len(update.PlannedPrivate) == 0 {
			t.Error("no planned private data")
		}
		applied = p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
			TypeName: pc.resource, PriorState: state, PlannedState: update.PlannedState, Config: config, PlannedPrivate: update.PlannedPrivate,
		})
		noDiags(t, "ApplyResourceChange (update)", applied.Diagnostics)
		for _, err := range objchange.AssertObjectCompatible(schema, update.PlannedState, applied.NewState) {
			t.Errorf("inconsistent result: %v", err)
		}
		if got := applied.NewState.GetAttr("size"); !got.RawEquals(cty.NumberIntVal(5)) {
			t.Errorf("size %#v after update", got)
		}
		state, private = applied.NewState, applied.Private

		// A change that forces replacement.
		vals["name"] = cty.StringVal("two")
		replace := plan(t, state, private, objVal(schema, vals))
		if len(replace.RequiresReplace) != 1 || !replace.RequiresReplace[0].Equals(cty.GetAttrPath("name")) {
			t.Errorf("requires replace %#v, want [name]", replace.RequiresReplace)
		}

		// Destroy: both providers declare plan_destroy, so the plan call
		// reaches them.
		destroy := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
			TypeName: pc.resource, PriorState: state, ProposedNewState: cty.NullVal(ty), Config: cty.NullVal(ty), PriorPrivate: private,
		})
		noDiags(t, "PlanResourceChange (destroy)", destroy.Diagnostics)
		if !destroy.PlannedState.IsNull() {
			t.Errorf("planned destroy state %#v", destroy.PlannedState)
		}
		if pc.version == 5 && string(destroy.PlannedPrivate) != "destroy-planned" {
			t.Errorf("destroy planned private %q: the provider was not asked", destroy.PlannedPrivate)
		}
		gone := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
			TypeName: pc.resource, PriorState: state, PlannedState: cty.NullVal(ty), Config: cty.NullVal(ty), PlannedPrivate: destroy.PlannedPrivate,
		})
		noDiags(t, "ApplyResourceChange (destroy)", gone.Diagnostics)
		if !gone.NewState.IsNull() {
			t.Errorf("state after destroy %#v", gone.NewState)
		}

		// An object deleted outside strata reads as null.
		vanished := objVal(schema, map[string]cty.Value{"id": cty.StringVal("gone"), "name": cty.StringVal("x")})
		read = p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: pc.resource, PriorState: vanished, Private: private})
		noErrors(t, "ReadResource (gone)", read.Diagnostics)
		if !read.NewState.IsNull() {
			t.Errorf("vanished object reads as %#v, want null", read.NewState)
		}
	})
}

func TestPlanDestroyWithoutCapability(t *testing.T) {
	// A provider that does not declare plan_destroy is not asked.
	p := start(t, "stratav5")
	ctx := context.Background()
	ty := resourceSchema(t, p, "stratav5_thing").ImpliedType()
	p.schemas.planDestroy = false
	resp := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName: "stratav5_thing", PriorState: cty.UnknownVal(ty), ProposedNewState: cty.NullVal(ty), Config: cty.NullVal(ty), PriorPrivate: []byte("keep"),
	})
	noDiags(t, "PlanResourceChange", resp.Diagnostics)
	if !resp.PlannedState.RawEquals(cty.NullVal(ty)) || string(resp.PlannedPrivate) != "keep" {
		t.Errorf("got %#v, %q; want a null plan and the prior private data", resp.PlannedState, resp.PlannedPrivate)
	}
}

func TestImport(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		p := start(t, pc.binary)
		ctx := context.Background()
		schema := resourceSchema(t, p, pc.resource)
		configure(t, p, "t-")

		resp := p.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: pc.resource, ID: "t-imported"})
		noDiags(t, "ImportResourceState", resp.Diagnostics)
		if len(resp.ImportedResources) != 1 {
			t.Fatalf("imported %d objects, want 1", len(resp.ImportedResources))
		}
		stub := resp.ImportedResources[0]
		if stub.TypeName != pc.resource || !stub.State.GetAttr("id").RawEquals(cty.StringVal("t-imported")) || !stub.State.GetAttr("name").IsNull() {
			t.Errorf("import stub %s %#v", stub.TypeName, stub.State)
		}
		if len(stub.Private) == 0 {
			t.Error("import stub has no private data")
		}
		// Import is always followed by a read, which gets the private data.
		read := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: pc.resource, PriorState: stub.State, Private: stub.Private})
		noDiags(t, "ReadResource", read.Diagnostics)
		if got := read.NewState.GetAttr("name"); !got.RawEquals(cty.StringVal("imported")) {
			t.Errorf("imported name %#v", got)
		}
		if !read.NewState.Type().Equals(schema.ImpliedType()) {
			t.Errorf("imported state type %#v", read.NewState.Type())
		}

		bad := p.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: pc.resource, ID: "has spaces"})
		if d := findDiag(bad.Diagnostics, "Invalid import ID"); d == nil || len(bad.ImportedResources) != 0 {
			t.Errorf("bad ID: diagnostics %s, %d objects", fmtDiags(bad.Diagnostics), len(bad.ImportedResources))
		}
	})
}

func TestReadDataSource(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		p := start(t, pc.binary)
		ctx := context.Background()
		configure(t, p, "t-")
		attrs := map[string]cty.Value{"input": cty.StringVal("hello"), "result": cty.NullVal(cty.String)}
		if pc.version == 6 {
			attrs["length"] = cty.NullVal(cty.Number)
		}
		// stratav5 answers in JSON, stratafw in msgpack.
		resp := p.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: pc.data, Config: cty.ObjectVal(attrs)})
		noDiags(t, "ReadDataSource", resp.Diagnostics)
		if got := resp.State.GetAttr("result"); !got.RawEquals(cty.StringVal("t-hello")) {
			t.Errorf("result %#v", got)
		}
		if pc.version == 6 {
			if got := resp.State.GetAttr("length"); !got.RawEquals(cty.NumberIntVal(5)) {
				t.Errorf("length %#v", got)
			}
		}
	})
}

func TestUpgradeResourceState(t *testing.T) {
	ctx := context.Background()
	t.Run("stratav5", func(t *testing.T) {
		p := start(t, "stratav5")
		schema := resourceSchema(t, p, "stratav5_thing")
		upgrade := func(req providers.UpgradeResourceStateRequest) cty.Value {
			t.Helper()
			req.TypeName = "stratav5_thing"
			resp := p.UpgradeResourceState(ctx, req)
			noDiags(t, "UpgradeResourceState", resp.Diagnostics)
			return resp.UpgradedState
		}
		// Version 0 stored size as a string.
		got := upgrade(providers.UpgradeResourceStateRequest{Version: 0, RawStateJSON: []byte(`{"id":"a","name":"n","size":"3"}`)})
		if !got.GetAttr("size").RawEquals(cty.NumberIntVal(3)) || !got.GetAttr("id").RawEquals(cty.StringVal("a")) {
			t.Errorf("upgraded v0 state %#v", got)
		}
		got = upgrade(providers.UpgradeResourceStateRequest{Version: 0, RawStateFlatmap: map[string]string{"id": "b", "name": "m", "size": "4"}})
		if !got.GetAttr("size").RawEquals(cty.NumberIntVal(4)) || !got.GetAttr("name").RawEquals(cty.StringVal("m")) {
			t.Errorf("upgraded flatmap state %#v", got)
		}
		// A current state comes back as it was.
		current := objVal(schema, map[string]cty.Value{
			"id": cty.StringVal("c"), "name": cty.StringVal("o"), "size": cty.NumberIntVal(2),
			"tags": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
		})
		raw, err := ctyjson.Marshal(current, schema.ImpliedType())
		if err != nil {
			t.Fatal(err)
		}
		if got := upgrade(providers.UpgradeResourceStateRequest{Version: 1, RawStateJSON: raw}); !got.RawEquals(current) {
			t.Errorf("upgraded current state %#v, want %#v", got, current)
		}
		resp := p.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{TypeName: "stratav5_thing", Version: 0, RawStateJSON: []byte(`{`)})
		if findDiag(resp.Diagnostics, "Invalid stored state") == nil {
			t.Errorf("broken JSON: diagnostics %s", fmtDiags(resp.Diagnostics))
		}
	})
	t.Run("stratafw", func(t *testing.T) {
		p := start(t, "stratafw")
		schema := resourceSchema(t, p, "stratafw_thing")
		current := objVal(schema, map[string]cty.Value{
			"id": cty.StringVal("c"), "name": cty.StringVal("o"), "size": cty.NumberIntVal(2), "password_set": cty.False,
			"rules": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(22), "proto": cty.StringVal("tcp")})}),
		})
		raw, err := ctyjson.Marshal(current, schema.ImpliedType())
		if err != nil {
			t.Fatal(err)
		}
		resp := p.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{TypeName: "stratafw_thing", Version: 0, RawStateJSON: raw})
		noDiags(t, "UpgradeResourceState", resp.Diagnostics)
		if !resp.UpgradedState.RawEquals(current) {
			t.Errorf("upgraded state %#v, want %#v", resp.UpgradedState, current)
		}
	})
}

func TestStop(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		p := start(t, pc.binary)
		ctx := context.Background()
		schema := resourceSchema(t, p, pc.resource)
		ty := schema.ImpliedType()
		configure(t, p, "t-")
		if err := p.Stop(ctx); err != nil {
			t.Fatalf("Stop on an idle provider: %v", err)
		}

		config := objVal(schema, map[string]cty.Value{"name": cty.StringVal("slow"), "sleep_seconds": cty.NumberIntVal(60)})
		planResp := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
			TypeName: pc.resource, PriorState: cty.NullVal(ty), ProposedNewState: objchange.ProposedNew(schema, cty.NullVal(ty), config), Config: config,
		})
		noDiags(t, "PlanResourceChange", planResp.Diagnostics)
		done := make(chan providers.ApplyResourceChangeResponse, 1)
		began := time.Now()
		go func() {
			done <- p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
				TypeName: pc.resource, PriorState: cty.NullVal(ty), PlannedState: planResp.PlannedState, Config: config,
			})
		}()
		// StopProvider cancels the calls in flight when it arrives; repeat
		// it until the apply has begun and returned.
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case resp := <-done:
				if d := findDiag(resp.Diagnostics, "Interrupted"); d == nil {
					t.Errorf("apply after Stop: diagnostics %s, want the provider's Interrupted error", fmtDiags(resp.Diagnostics))
				}
				if time.Since(began) > 30*time.Second {
					t.Errorf("apply took %s to stop", time.Since(began))
				}
				return
			case <-tick.C:
				if err := p.Stop(ctx); err != nil {
					t.Fatalf("Stop: %v", err)
				}
			case <-time.After(45 * time.Second):
				t.Fatal("apply did not return after Stop")
			}
		}
	})
}

func TestCloseEndsProcess(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		p, err := NewClient(testProvider(t, pc.binary))
		if err != nil {
			t.Fatal(err)
		}
		c := p.(*Client)
		pid := c.Pid()
		if !processAlive(pid) {
			t.Fatalf("plugin process %d is not running", pid)
		}
		ctx := context.Background()
		noDiags(t, "GetProviderSchema", p.GetProviderSchema(ctx).Diagnostics)
		if err := p.Close(ctx); err != nil {
			t.Fatal(err)
		}
		if processAlive(pid) {
			t.Errorf("plugin process %d still running after Close", pid)
		}
		if err := p.Close(ctx); err != nil {
			t.Errorf("second Close: %v", err)
		}
		if err := p.Stop(ctx); err != nil {
			t.Errorf("Stop after Close: %v", err)
		}
		resp := p.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: pc.data, Config: cty.NullVal(cty.EmptyObject)})
		if !resp.Diagnostics.HasErrors() {
			t.Error("a call after Close succeeded")
		}
		// Closing before any call also ends the process.
		p2, err := NewClient(testProvider(t, pc.binary))
		if err != nil {
			t.Fatal(err)
		}
		pid2 := p2.(*Client).Pid()
		_ = p2.Close(ctx)
		if processAlive(pid2) {
			t.Errorf("plugin process %d still running after Close", pid2)
		}
	})
}

func TestFactory(t *testing.T) {
	f := Factory(testProvider(t, "stratafw"), WithName("stratafw"))
	p1, err := f()
	if err != nil {
		t.Fatal(err)
	}
	defer p1.Close(context.Background())
	p2, err := f()
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close(context.Background())
	if p1.(*Client).Pid() == p2.(*Client).Pid() {
		t.Error("each factory call should start its own process")
	}
}

func TestProviderCrash(t *testing.T) {
	p := start(t, "stratav5")
	ctx := context.Background()
	schema := resourceSchema(t, p, "stratav5_thing")
	ty := schema.ImpliedType()
	config := objVal(schema, map[string]cty.Value{"name": cty.StringVal("panic")})
	planned := objchange.ProposedNew(schema, cty.NullVal(ty), config)
	resp := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: "stratav5_thing", PriorState: cty.NullVal(ty), PlannedState: planned, Config: config,
	})
	d := findDiag(resp.Diagnostics, "Plugin did not respond")
	if d == nil {
		t.Fatalf("diagnostics %s, want Plugin did not respond", fmtDiags(resp.Diagnostics))
	}
	if !strings.Contains(d.Detail, "stratav5 crashed on purpose") || !strings.Contains(d.Detail, "ApplyResourceChange") {
		t.Errorf("detail does not show the panic:\n%s", d.Detail)
	}
	if !resp.NewState.RawEquals(cty.NullVal(ty)) {
		t.Errorf("new state after a crash %#v, want the prior state", resp.NewState)
	}
	if processAlive(p.Pid()) {
		t.Error("crashed plugin still running")
	}
}

func TestNegotiation(t *testing.T) {
	// stratafw serves protocol 6 only.
	_, err := NewClient(testProvider(t, "stratafw"), WithProtocolVersions(5))
	if err == nil || !strings.Contains(err.Error(), "incompatible API version") {
		t.Errorf("got %v, want an incompatible version error", err)
	}
	if _, err := NewClient(testProvider(t, "stratafw"), WithProtocolVersions(7)); err == nil {
		t.Error("protocol version 7: want an error")
	}
}

func TestProviderLogs(t *testing.T) {
	t.Run("TF_LOG set", func(t *testing.T) {
		t.Setenv("TF_LOG", "INFO")
		var buf syncBuffer
		p := start(t, "stratav5", WithLogOutput(&buf))
		configure(t, p, "t-")
		_ = p.Close(context.Background()) // flushes the log reader
		if !strings.Contains(buf.String(), "stratav5 configured") {
			t.Errorf("provider log not shown with TF_LOG=INFO; got:\n%s", buf.String())
		}
	})
	t.Run("TF_LOG unset", func(t *testing.T) {
		t.Setenv("TF_LOG", "")
		var buf syncBuffer
		p := start(t, "stratafw", WithLogOutput(&buf), WithGetenv(func(string) string { return "" }))
		configure(t, p, "t-")
		_ = p.Close(context.Background())
		if buf.String() != "" {
			t.Errorf("log output without TF_LOG:\n%s", buf.String())
		}
	})
}
