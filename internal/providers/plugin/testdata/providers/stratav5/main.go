// Command stratav5 is a test provider speaking plugin protocol version 5,
// written directly on terraform-plugin-go's tf5server and tftypes (the
// layer beneath the SDKs). strata's plugin tests build and run it.
//
// Resource stratav5_thing (schema version 1) has a computed id, a
// replacement-forcing name, an optional+computed size defaulting to 1, a
// sensitive secret, a map of tags and nested blocks of all five nesting
// modes. A name of "panic" crashes the provider during apply; a
// sleep_seconds value makes apply wait until StopProvider. State version 0
// stored size as a string, which UpgradeResourceState converts. The data
// source stratav5_echo answers in JSON rather than msgpack. The functions
// upper and repeat are in functions.go, the ephemeral resource
// stratav5_lease in ephemeral.go, the resource stratav5_keyed, which has
// a resource identity, in keyed.go.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5/tf5server"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

func main() {
	// -debug serves in the background and prints TF_REATTACH_PROVIDERS,
	// for the tests of unmanaged providers.
	debug := flag.Bool("debug", false, "run as an unmanaged provider")
	flag.Parse()
	var opts []tf5server.ServeOpt
	if *debug {
		opts = append(opts, tf5server.WithManagedDebug())
	}
	if err := tf5server.Serve("registry.terraform.io/strata/stratav5", func() tfprotov5.ProviderServer { return &server{} }, opts...); err != nil {
		log.Fatal(err)
	}
}

type server struct {
	tfprotov5.ProviderServer // methods strata does not call are left nil

	mu     sync.Mutex
	prefix string
}

var (
	strT  = tftypes.String
	numT  = tftypes.Number
	tagsT = tftypes.Map{ElementType: tftypes.String}

	singleT = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": strT}}
	groupT  = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"g": strT}}
	itemT   = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"k": strT, "v": strT}}
	setT    = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"s": strT}}
	namedT  = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"v": strT}}

	thingT = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"id": strT, "name": strT, "size": numT, "secret": strT, "description": strT,
		"tags": tagsT, "sleep_seconds": numT,
		"single": singleT, "group": groupT,
		"item":  tftypes.List{ElementType: itemT},
		"set":   tftypes.Set{ElementType: setT},
		"named": tftypes.Map{ElementType: namedT},
	}}
	echoT     = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"input": strT, "result": strT}}
	providerT = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"prefix": strT}}
	metaT     = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"module_name": strT}}
)

func attr(name string, ty tftypes.Type, mods string) *tfprotov5.SchemaAttribute {
	return &tfprotov5.SchemaAttribute{
		Name: name, Type: ty,
		Required:  strings.Contains(mods, "r"),
		Optional:  strings.Contains(mods, "o"),
		Computed:  strings.Contains(mods, "c"),
		Sensitive: strings.Contains(mods, "s"),
	}
}

func block(name string, mode tfprotov5.SchemaNestedBlockNestingMode, attrs ...*tfprotov5.SchemaAttribute) *tfprotov5.SchemaNestedBlock {
	return &tfprotov5.SchemaNestedBlock{TypeName: name, Nesting: mode, Block: &tfprotov5.SchemaBlock{Attributes: attrs}}
}

func schemas() *tfprotov5.GetProviderSchemaResponse {
	thing := &tfprotov5.Schema{Version: 1, Block: &tfprotov5.SchemaBlock{
		Description: "A thing.",
		Attributes: []*tfprotov5.SchemaAttribute{
			attr("id", strT, "c"),
			attr("name", strT, "r"),
			attr("size", numT, "oc"),
			attr("secret", strT, "os"),
			attr("description", strT, "o"),
			attr("tags", tagsT, "o"),
			attr("sleep_seconds", numT, "o"),
		},
		BlockTypes: []*tfprotov5.SchemaNestedBlock{
			block("single", tfprotov5.SchemaNestedBlockNestingModeSingle, attr("a", strT, "o")),
			block("group", tfprotov5.SchemaNestedBlockNestingModeGroup, attr("g", strT, "o")),
			{TypeName: "item", Nesting: tfprotov5.SchemaNestedBlockNestingModeList, MaxItems: 5,
				Block: &tfprotov5.SchemaBlock{Attributes: []*tfprotov5.SchemaAttribute{attr("k", strT, "r"), attr("v", strT, "o")}}},
			block("set", tfprotov5.SchemaNestedBlockNestingModeSet, attr("s", strT, "r")),
			block("named", tfprotov5.SchemaNestedBlockNestingModeMap, attr("v", strT, "o")),
		},
	}}
	return &tfprotov5.GetProviderSchemaResponse{
		ServerCapabilities: &tfprotov5.ServerCapabilities{PlanDestroy: true},
		Provider: &tfprotov5.Schema{Block: &tfprotov5.SchemaBlock{Attributes: []*tfprotov5.SchemaAttribute{
			attr("prefix", strT, "o"),
		}}},
		ProviderMeta: &tfprotov5.Schema{Block: &tfprotov5.SchemaBlock{Attributes: []*tfprotov5.SchemaAttribute{
			attr("module_name", strT, "o"),
		}}},
		ResourceSchemas:          map[string]*tfprotov5.Schema{"stratav5_thing": thing, "stratav5_keyed": keyedSchema()},
		EphemeralResourceSchemas: map[string]*tfprotov5.Schema{"stratav5_lease": leaseSchema()},
		Functions:                functions(),
		DataSourceSchemas: map[string]*tfprotov5.Schema{"stratav5_echo": {Block: &tfprotov5.SchemaBlock{
			Attributes: []*tfprotov5.SchemaAttribute{attr("input", strT, "r"), attr("result", strT, "c")},
		}}},
	}
}

// Value helpers.

func fields(v tftypes.Value) map[string]tftypes.Value {
	m := map[string]tftypes.Value{}
	if v.IsNull() || !v.IsKnown() {
		return m
	}
	_ = v.As(&m)
	return m
}

// newSetElements returns the elements of the set value after that the set
// value before lacks.
func newSetElements(before, after tftypes.Value) []tftypes.Value {
	var b, a []tftypes.Value
	if !before.IsNull() && before.IsKnown() {
		_ = before.As(&b)
	}
	if after.IsNull() || !after.IsKnown() {
		return nil
	}
	_ = after.As(&a)
	var out []tftypes.Value
	for _, x := range a {
		found := false
		for _, y := range b {
			found = found || x.Equal(y)
		}
		if !found {
			out = append(out, x)
		}
	}
	return out
}

func str(v tftypes.Value) (string, bool) {
	if v.IsNull() || !v.IsKnown() {
		return "", false
	}
	var s string
	_ = v.As(&s)
	return s, true
}

func num(v tftypes.Value) (*big.Float, bool) {
	if v.IsNull() || !v.IsKnown() {
		return nil, false
	}
	f := new(big.Float)
	_ = v.As(&f)
	return f, true
}

func dynamic(ty tftypes.Type, v tftypes.Value) (*tfprotov5.DynamicValue, []*tfprotov5.Diagnostic) {
	dv, err := tfprotov5.NewDynamicValue(ty, v)
	if err != nil {
		return nil, errorDiag("Encoding failed", err.Error(), nil)
	}
	return &dv, nil
}

func decode(dv *tfprotov5.DynamicValue, ty tftypes.Type) (tftypes.Value, []*tfprotov5.Diagnostic) {
	if dv == nil {
		return tftypes.NewValue(ty, nil), nil
	}
	v, err := dv.Unmarshal(ty)
	if err != nil {
		return v, errorDiag("Decoding failed", err.Error(), nil)
	}
	return v, nil
}

func errorDiag(summary, detail string, path *tftypes.AttributePath) []*tfprotov5.Diagnostic {
	return []*tfprotov5.Diagnostic{{Severity: tfprotov5.DiagnosticSeverityError, Summary: summary, Detail: detail, Attribute: path}}
}

func warnDiag(summary, detail string, path *tftypes.AttributePath) *tfprotov5.Diagnostic {
	return &tfprotov5.Diagnostic{Severity: tfprotov5.DiagnosticSeverityWarning, Summary: summary, Detail: detail, Attribute: path}
}

// Provider operations.

func (s *server) GetProviderSchema(context.Context, *tfprotov5.GetProviderSchemaRequest) (*tfprotov5.GetProviderSchemaResponse, error) {
	return schemas(), nil
}

func (s *server) PrepareProviderConfig(_ context.Context, req *tfprotov5.PrepareProviderConfigRequest) (*tfprotov5.PrepareProviderConfigResponse, error) {
	cfg, diags := decode(req.Config, providerT)
	if diags != nil {
		return &tfprotov5.PrepareProviderConfigResponse{Diagnostics: diags}, nil
	}
	f := fields(cfg)
	resp := &tfprotov5.PrepareProviderConfigResponse{}
	if p, ok := str(f["prefix"]); ok && strings.ContainsAny(p, " !") {
		resp.Diagnostics = errorDiag("Invalid prefix", "The prefix must not contain spaces or '!'.", tftypes.NewAttributePath().WithAttributeName("prefix"))
		return resp, nil
	}
	// The prepared config fills in the default prefix.
	if f["prefix"].IsNull() {
		f["prefix"] = tftypes.NewValue(strT, "v5-")
	}
	resp.PreparedConfig, resp.Diagnostics = dynamic(providerT, tftypes.NewValue(providerT, f))
	return resp, nil
}

func (s *server) ConfigureProvider(ctx context.Context, req *tfprotov5.ConfigureProviderRequest) (*tfprotov5.ConfigureProviderResponse, error) {
	cfg, diags := decode(req.Config, providerT)
	if diags != nil {
		return &tfprotov5.ConfigureProviderResponse{Diagnostics: diags}, nil
	}
	f := fields(cfg)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prefix = "v5-"
	if p, ok := str(f["prefix"]); ok {
		s.prefix = p
	}
	tflog.Info(ctx, "stratav5 configured", map[string]any{"prefix": s.prefix, "terraform_version": req.TerraformVersion})
	resp := &tfprotov5.ConfigureProviderResponse{}
	if !f["prefix"].IsKnown() {
		resp.Diagnostics = append(resp.Diagnostics, warnDiag("Prefix unknown", "The prefix is not known yet.", tftypes.NewAttributePath().WithAttributeName("prefix")))
	}
	return resp, nil
}

func (s *server) StopProvider(context.Context, *tfprotov5.StopProviderRequest) (*tfprotov5.StopProviderResponse, error) {
	return &tfprotov5.StopProviderResponse{}, nil
}

func (s *server) getPrefix() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.prefix
}

// Resource operations.

func (s *server) ValidateResourceTypeConfig(_ context.Context, req *tfprotov5.ValidateResourceTypeConfigRequest) (*tfprotov5.ValidateResourceTypeConfigResponse, error) {
	if req.TypeName == "stratav5_keyed" {
		return &tfprotov5.ValidateResourceTypeConfigResponse{}, nil
	}
	cfg, diags := decode(req.Config, thingT)
	resp := &tfprotov5.ValidateResourceTypeConfigResponse{Diagnostics: diags}
	if diags != nil {
		return resp, nil
	}
	f := fields(cfg)
	if name, ok := str(f["name"]); ok && name == "invalid" {
		resp.Diagnostics = append(resp.Diagnostics, errorDiag("Invalid name", `The name "invalid" is not allowed.`, tftypes.NewAttributePath().WithAttributeName("name"))...)
	}
	for k := range fields(f["tags"]) {
		if k == "bad" {
			resp.Diagnostics = append(resp.Diagnostics, errorDiag("Invalid tag", "The tag key bad is not allowed.", tftypes.NewAttributePath().WithAttributeName("tags").WithElementKeyString("bad"))...)
		}
	}
	if items := f["item"]; items.IsKnown() && !items.IsNull() {
		var list []tftypes.Value
		_ = items.As(&list)
		for i, it := range list {
			if k, ok := str(fields(it)["k"]); ok && k == "bad" {
				resp.Diagnostics = append(resp.Diagnostics, errorDiag("Invalid item key", "The key bad is not allowed.",
					tftypes.NewAttributePath().WithAttributeName("item").WithElementKeyInt(i).WithAttributeName("k"))...)
			}
		}
	}
	if d, ok := str(f["description"]); ok && d == "deprecated" {
		resp.Diagnostics = append(resp.Diagnostics, warnDiag("Deprecated description", "This description is deprecated.", tftypes.NewAttributePath().WithAttributeName("description")))
	}
	return resp, nil
}

func (s *server) UpgradeResourceState(_ context.Context, req *tfprotov5.UpgradeResourceStateRequest) (*tfprotov5.UpgradeResourceStateResponse, error) {
	resp := &tfprotov5.UpgradeResourceStateResponse{}
	if req.TypeName == "stratav5_keyed" {
		v, err := req.RawState.Unmarshal(keyedT)
		if err != nil {
			resp.Diagnostics = errorDiag("Invalid stored state", err.Error(), nil)
			return resp, nil
		}
		resp.UpgradedState, resp.Diagnostics = dynamic(keyedT, v)
		return resp, nil
	}
	var val tftypes.Value
	switch {
	case req.Version == 0 || req.RawState.JSON == nil:
		// Version 0 stored size as a string, and very old states are flat
		// maps of strings; both carry id, name and size only.
		raw := map[string]any{}
		if req.RawState.JSON != nil {
			if err := json.Unmarshal(req.RawState.JSON, &raw); err != nil {
				resp.Diagnostics = errorDiag("Invalid stored state", err.Error(), nil)
				return resp, nil
			}
		} else {
			for k, v := range req.RawState.Flatmap {
				raw[k] = v
			}
		}
		f := map[string]tftypes.Value{}
		for name, ty := range thingT.AttributeTypes {
			f[name] = tftypes.NewValue(ty, nil)
		}
		if id, ok := raw["id"].(string); ok {
			f["id"] = tftypes.NewValue(strT, id)
		}
		if name, ok := raw["name"].(string); ok {
			f["name"] = tftypes.NewValue(strT, name)
		}
		if size, ok := raw["size"].(string); ok {
			n, err := strconv.ParseFloat(size, 64)
			if err != nil {
				resp.Diagnostics = errorDiag("Invalid stored size", err.Error(), tftypes.NewAttributePath().WithAttributeName("size"))
				return resp, nil
			}
			f["size"] = tftypes.NewValue(numT, big.NewFloat(n))
		}
		f["group"] = tftypes.NewValue(groupT, map[string]tftypes.Value{"g": tftypes.NewValue(strT, nil)})
		f["item"] = tftypes.NewValue(tftypes.List{ElementType: itemT}, []tftypes.Value{})
		f["set"] = tftypes.NewValue(tftypes.Set{ElementType: setT}, []tftypes.Value{})
		f["named"] = tftypes.NewValue(tftypes.Map{ElementType: namedT}, map[string]tftypes.Value{})
		val = tftypes.NewValue(thingT, f)
	default:
		v, err := req.RawState.Unmarshal(thingT)
		if err != nil {
			resp.Diagnostics = errorDiag("Invalid stored state", err.Error(), nil)
			return resp, nil
		}
		val = v
	}
	resp.UpgradedState, resp.Diagnostics = dynamic(thingT, val)
	return resp, nil
}

func (s *server) ReadResource(ctx context.Context, req *tfprotov5.ReadResourceRequest) (*tfprotov5.ReadResourceResponse, error) {
	if req.TypeName == "stratav5_keyed" {
		return s.keyedRead(ctx, req)
	}
	state, diags := decode(req.CurrentState, thingT)
	resp := &tfprotov5.ReadResourceResponse{Diagnostics: diags, Private: req.Private}
	if diags != nil {
		return resp, nil
	}
	f := fields(state)
	id, _ := str(f["id"])
	if id == "gone" {
		resp.NewState, resp.Diagnostics = dynamic(thingT, tftypes.NewValue(thingT, nil))
		return resp, nil
	}
	if f["name"].IsNull() {
		// An import stub: fill in what the ID tells.
		f["name"] = tftypes.NewValue(strT, strings.TrimPrefix(id, s.getPrefix()))
		f["size"] = tftypes.NewValue(numT, big.NewFloat(1))
		f["group"] = tftypes.NewValue(groupT, map[string]tftypes.Value{"g": tftypes.NewValue(strT, nil)})
		f["item"] = tftypes.NewValue(tftypes.List{ElementType: itemT}, []tftypes.Value{})
		f["set"] = tftypes.NewValue(tftypes.Set{ElementType: setT}, []tftypes.Value{})
		f["named"] = tftypes.NewValue(tftypes.Map{ElementType: namedT}, map[string]tftypes.Value{})
	}
	if len(req.Private) == 0 {
		resp.Diagnostics = append(resp.Diagnostics, warnDiag("Private data missing", "ReadResource received no private data.", nil))
	}
	resp.NewState, diags = dynamic(thingT, tftypes.NewValue(thingT, f))
	resp.Diagnostics = append(resp.Diagnostics, diags...)
	return resp, nil
}

func (s *server) PlanResourceChange(ctx context.Context, req *tfprotov5.PlanResourceChangeRequest) (*tfprotov5.PlanResourceChangeResponse, error) {
	if req.TypeName == "stratav5_keyed" {
		return s.keyedPlan(ctx, req)
	}
	prior, d1 := decode(req.PriorState, thingT)
	proposed, d2 := decode(req.ProposedNewState, thingT)
	if _, d3 := decode(req.ProviderMeta, metaT); d1 != nil || d2 != nil || d3 != nil {
		return &tfprotov5.PlanResourceChangeResponse{Diagnostics: append(append(d1, d2...), d3...)}, nil
	}
	resp := &tfprotov5.PlanResourceChangeResponse{}
	if proposed.IsNull() {
		// A destroy, planned because this provider declares plan_destroy.
		resp.PlannedState, resp.Diagnostics = dynamic(thingT, proposed)
		resp.PlannedPrivate = []byte("destroy-planned")
		return resp, nil
	}
	f := fields(proposed)
	pf := fields(prior)
	if f["size"].IsNull() {
		f["size"] = tftypes.NewValue(numT, big.NewFloat(1))
	}
	if prior.IsNull() {
		f["id"] = tftypes.NewValue(strT, tftypes.UnknownValue)
	} else {
		f["id"] = pf["id"]
		if !pf["name"].Equal(f["name"]) {
			resp.RequiresReplace = append(resp.RequiresReplace, tftypes.NewAttributePath().WithAttributeName("name"))
			f["id"] = tftypes.NewValue(strT, tftypes.UnknownValue)
		}
		// A new element of the set block forces replacement. A set
		// element has no address in the protocol, so, like providers
		// built on the SDK, this reports the path of the set itself,
		// once for each new element.
		for range newSetElements(pf["set"], f["set"]) {
			resp.RequiresReplace = append(resp.RequiresReplace, tftypes.NewAttributePath().WithAttributeName("set"))
			f["id"] = tftypes.NewValue(strT, tftypes.UnknownValue)
		}
	}
	resp.PlannedState, resp.Diagnostics = dynamic(thingT, tftypes.NewValue(thingT, f))
	resp.PlannedPrivate = append([]byte("planned:"), req.PriorPrivate...)
	return resp, nil
}

func (s *server) ApplyResourceChange(ctx context.Context, req *tfprotov5.ApplyResourceChangeRequest) (*tfprotov5.ApplyResourceChangeResponse, error) {
	if req.TypeName == "stratav5_keyed" {
		return s.keyedApply(ctx, req)
	}
	planned, diags := decode(req.PlannedState, thingT)
	if diags != nil {
		return &tfprotov5.ApplyResourceChangeResponse{Diagnostics: diags}, nil
	}
	resp := &tfprotov5.ApplyResourceChangeResponse{}
	if planned.IsNull() {
		// As with Terraform, a deletion receives the private data that
		// planning it returned ("destroy-planned", or what the plan of
		// a replacement returned), never the stored object's.
		if strings.HasPrefix(string(req.PlannedPrivate), "applied:") {
			resp.Diagnostics = errorDiag("Destroy not planned", fmt.Sprintf("ApplyResourceChange received the stored private data %q, not what planning the deletion returned.", req.PlannedPrivate), nil)
			return resp, nil
		}
		resp.NewState, resp.Diagnostics = dynamic(thingT, planned)
		return resp, nil
	}
	if !strings.HasPrefix(string(req.PlannedPrivate), "planned:") {
		resp.Diagnostics = append(resp.Diagnostics, warnDiag("Private data missing", "ApplyResourceChange received no planned private data.", nil))
	}
	f := fields(planned)
	name, _ := str(f["name"])
	if name == "panic" {
		panic("stratav5 crashed on purpose")
	}
	if secs, ok := num(f["sleep_seconds"]); ok {
		n, _ := secs.Int64()
		select {
		case <-ctx.Done():
			resp.Diagnostics = append(resp.Diagnostics, errorDiag("Interrupted", "The apply was stopped.", nil)...)
			resp.NewState, _ = dynamic(thingT, tftypes.NewValue(thingT, nil))
			return resp, nil
		case <-time.After(time.Duration(n) * time.Second):
		}
	}
	if !f["id"].IsKnown() {
		f["id"] = tftypes.NewValue(strT, s.getPrefix()+name)
	}
	resp.NewState, diags = dynamic(thingT, tftypes.NewValue(thingT, f))
	resp.Diagnostics = append(resp.Diagnostics, diags...)
	resp.Private = []byte("applied:" + string(req.PlannedPrivate))
	return resp, nil
}

func (s *server) ImportResourceState(ctx context.Context, req *tfprotov5.ImportResourceStateRequest) (*tfprotov5.ImportResourceStateResponse, error) {
	if req.TypeName == "stratav5_keyed" {
		return s.keyedImport(ctx, req)
	}
	if req.ID == "" || strings.Contains(req.ID, " ") {
		return &tfprotov5.ImportResourceStateResponse{Diagnostics: errorDiag("Invalid import ID", fmt.Sprintf("%q is not a valid ID.", req.ID), nil)}, nil
	}
	f := map[string]tftypes.Value{}
	for name, ty := range thingT.AttributeTypes {
		f[name] = tftypes.NewValue(ty, nil)
	}
	f["id"] = tftypes.NewValue(strT, req.ID)
	state, diags := dynamic(thingT, tftypes.NewValue(thingT, f))
	return &tfprotov5.ImportResourceStateResponse{
		Diagnostics: diags,
		ImportedResources: []*tfprotov5.ImportedResource{{
			TypeName: "stratav5_thing", State: state, Private: []byte("imported"),
		}},
	}, nil
}

// Data source operations.

func (s *server) ValidateDataSourceConfig(_ context.Context, req *tfprotov5.ValidateDataSourceConfigRequest) (*tfprotov5.ValidateDataSourceConfigResponse, error) {
	cfg, diags := decode(req.Config, echoT)
	resp := &tfprotov5.ValidateDataSourceConfigResponse{Diagnostics: diags}
	if in, ok := str(fields(cfg)["input"]); ok && in == "invalid" {
		resp.Diagnostics = append(resp.Diagnostics, errorDiag("Invalid input", `The input "invalid" is not allowed.`, tftypes.NewAttributePath().WithAttributeName("input"))...)
	}
	return resp, nil
}

func (s *server) ReadDataSource(_ context.Context, req *tfprotov5.ReadDataSourceRequest) (*tfprotov5.ReadDataSourceResponse, error) {
	cfg, diags := decode(req.Config, echoT)
	if diags != nil {
		return &tfprotov5.ReadDataSourceResponse{Diagnostics: diags}, nil
	}
	in, _ := str(fields(cfg)["input"])
	// "fail" and "fail twice" fail the read, with one error or two.
	switch in {
	case "fail":
		return &tfprotov5.ReadDataSourceResponse{Diagnostics: []*tfprotov5.Diagnostic{
			{Severity: tfprotov5.DiagnosticSeverityError, Summary: "Read failed", Detail: "The echo was asked to fail."},
		}}, nil
	case "fail twice":
		return &tfprotov5.ReadDataSourceResponse{Diagnostics: []*tfprotov5.Diagnostic{
			{Severity: tfprotov5.DiagnosticSeverityError, Summary: "Read failed", Detail: "The echo was asked to fail."},
			{Severity: tfprotov5.DiagnosticSeverityError, Summary: "Read failed again", Detail: "The echo failed a second time."},
		}}, nil
	}
	// Answer in JSON, which the protocol allows and few providers use.
	js, _ := json.Marshal(map[string]string{"input": in, "result": s.getPrefix() + in})
	return &tfprotov5.ReadDataSourceResponse{State: &tfprotov5.DynamicValue{JSON: js}}, nil
}
