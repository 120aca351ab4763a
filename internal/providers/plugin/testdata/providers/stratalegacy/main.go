// Command stratalegacy is a test provider (plugin protocol version 5, on
// terraform-plugin-go) that declares the legacy type system, as providers
// on the old SDK do, and breaks the provider contract on purpose, for the
// tests of strata's contract report and strict mode.
//
// Resource stratalegacy_thing has a required name, an optional mode, an
// optional non-computed note, a sensitive secret, and computed id, stamp
// and region (the provider's region when the object was created; the
// object stays there). mode is a comma-separated list of the rules to
// break:
//
//   - plan_config: the planned name is the configured one upper-cased;
//   - plan_noncomputed: the planned note is set although null in config;
//   - plan_secret: the planned secret differs from the configured one;
//   - final_plan: the stamp is known at plan and different at apply
//     (Terraform and strata refuse this even from a legacy provider);
//   - final_note_null: the note is set in a plan made while the name is
//     unknown, and null in the final plan, once the name is known
//     (refused as final_plan is);
//   - final_note_set: the reverse: null while the name is unknown, set
//     once it is known;
//   - apply_result: apply returns a name other than the planned one;
//   - read_noncanonical: read returns the name lower-cased.
//
// The provider's region argument (default "us-east-1") is what strata's
// provider-configuration check watches; retries changes nothing but the
// configuration's hash.
package main

import (
	"context"
	"log"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5/tf5server"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func main() {
	if err := tf5server.Serve("registry.terraform.io/strata/stratalegacy", func() tfprotov5.ProviderServer { return &server{region: "us-east-1"} }); err != nil {
		log.Fatal(err)
	}
}

type server struct {
	tfprotov5.ProviderServer // methods strata does not call are left nil

	mu     sync.Mutex
	region string
}

var (
	strT      = tftypes.String
	numT      = tftypes.Number
	providerT = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"region": strT, "token": strT, "endpoint": strT, "retries": numT}}
	thingT    = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"id": strT, "name": strT, "mode": strT, "note": strT, "secret": strT, "stamp": numT, "region": strT,
	}}
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

func (s *server) GetProviderSchema(context.Context, *tfprotov5.GetProviderSchemaRequest) (*tfprotov5.GetProviderSchemaResponse, error) {
	return &tfprotov5.GetProviderSchemaResponse{
		Provider: &tfprotov5.Schema{Block: &tfprotov5.SchemaBlock{Attributes: []*tfprotov5.SchemaAttribute{
			attr("region", strT, "o"), attr("token", strT, "os"), attr("endpoint", strT, "o"), attr("retries", numT, "o"),
		}}},
		ResourceSchemas: map[string]*tfprotov5.Schema{"stratalegacy_thing": {Block: &tfprotov5.SchemaBlock{Attributes: []*tfprotov5.SchemaAttribute{
			attr("id", strT, "c"), attr("name", strT, "r"), attr("mode", strT, "o"), attr("note", strT, "o"),
			attr("secret", strT, "os"), attr("stamp", numT, "c"), attr("region", strT, "c"),
		}}}},
	}, nil
}

func (s *server) GetResourceIdentitySchemas(context.Context, *tfprotov5.GetResourceIdentitySchemasRequest) (*tfprotov5.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov5.GetResourceIdentitySchemasResponse{}, nil
}

func (s *server) PrepareProviderConfig(_ context.Context, req *tfprotov5.PrepareProviderConfigRequest) (*tfprotov5.PrepareProviderConfigResponse, error) {
	return &tfprotov5.PrepareProviderConfigResponse{PreparedConfig: req.Config}, nil
}

func (s *server) ConfigureProvider(_ context.Context, req *tfprotov5.ConfigureProviderRequest) (*tfprotov5.ConfigureProviderResponse, error) {
	cfg, diags := decode(req.Config, providerT)
	if diags != nil {
		return &tfprotov5.ConfigureProviderResponse{Diagnostics: diags}, nil
	}
	if r, ok := str(fields(cfg)["region"]); ok {
		s.mu.Lock()
		s.region = r
		s.mu.Unlock()
	}
	return &tfprotov5.ConfigureProviderResponse{}, nil
}

func (s *server) StopProvider(context.Context, *tfprotov5.StopProviderRequest) (*tfprotov5.StopProviderResponse, error) {
	return &tfprotov5.StopProviderResponse{}, nil
}

func (s *server) ValidateResourceTypeConfig(context.Context, *tfprotov5.ValidateResourceTypeConfigRequest) (*tfprotov5.ValidateResourceTypeConfigResponse, error) {
	return &tfprotov5.ValidateResourceTypeConfigResponse{}, nil
}

func (s *server) UpgradeResourceState(_ context.Context, req *tfprotov5.UpgradeResourceStateRequest) (*tfprotov5.UpgradeResourceStateResponse, error) {
	v, err := req.RawState.Unmarshal(thingT)
	if err != nil {
		return &tfprotov5.UpgradeResourceStateResponse{Diagnostics: errorDiag("Upgrade failed", err.Error())}, nil
	}
	dv, diags := dynamic(thingT, v)
	return &tfprotov5.UpgradeResourceStateResponse{UpgradedState: dv, Diagnostics: diags}, nil
}

// modes returns the rules the object's mode asks to break.
func modes(f map[string]tftypes.Value) map[string]bool {
	m := map[string]bool{}
	if s, ok := str(f["mode"]); ok {
		for _, x := range strings.Split(s, ",") {
			m[strings.TrimSpace(x)] = true
		}
	}
	return m
}

func (s *server) PlanResourceChange(_ context.Context, req *tfprotov5.PlanResourceChangeRequest) (*tfprotov5.PlanResourceChangeResponse, error) {
	resp := &tfprotov5.PlanResourceChangeResponse{UnsafeToUseLegacyTypeSystem: true}
	proposed, diags := decode(req.ProposedNewState, thingT)
	if diags != nil || proposed.IsNull() {
		resp.Diagnostics = diags
		resp.PlannedState = req.ProposedNewState
		return resp, nil
	}
	prior, _ := decode(req.PriorState, thingT)
	config, _ := decode(req.Config, thingT)
	f, pf, cf := fields(proposed), fields(prior), fields(config)
	m := modes(cf)
	s.mu.Lock()
	region := s.region
	s.mu.Unlock()
	if prior.IsNull() {
		f["id"] = tftypes.NewValue(strT, tftypes.UnknownValue)
		f["stamp"] = tftypes.NewValue(numT, tftypes.UnknownValue)
		f["region"] = tftypes.NewValue(strT, region)
	} else {
		f["id"], f["stamp"], f["region"] = pf["id"], pf["stamp"], pf["region"]
	}
	if name, ok := str(cf["name"]); ok && m["plan_config"] {
		f["name"] = tftypes.NewValue(strT, strings.ToUpper(name))
	}
	if m["plan_noncomputed"] && cf["note"].IsNull() {
		f["note"] = tftypes.NewValue(strT, "chosen by the provider")
	}
	if secret, ok := str(cf["secret"]); ok && m["plan_secret"] {
		f["secret"] = tftypes.NewValue(strT, secret+"-planned")
	}
	if nameKnown := cf["name"].IsKnown(); (m["final_note_null"] && !nameKnown) || (m["final_note_set"] && nameKnown) {
		f["note"] = tftypes.NewValue(strT, "chosen by the provider")
	} else if m["final_note_null"] || m["final_note_set"] {
		f["note"] = tftypes.NewValue(strT, nil)
	}
	if m["final_plan"] {
		f["stamp"] = tftypes.NewValue(numT, big.NewFloat(float64(time.Now().UnixNano())))
	}
	resp.PlannedState, resp.Diagnostics = dynamic(thingT, tftypes.NewValue(thingT, f))
	return resp, nil
}

func (s *server) ApplyResourceChange(_ context.Context, req *tfprotov5.ApplyResourceChangeRequest) (*tfprotov5.ApplyResourceChangeResponse, error) {
	resp := &tfprotov5.ApplyResourceChangeResponse{UnsafeToUseLegacyTypeSystem: true}
	planned, diags := decode(req.PlannedState, thingT)
	if diags != nil || planned.IsNull() {
		resp.Diagnostics = diags
		resp.NewState = req.PlannedState
		return resp, nil
	}
	f := fields(planned)
	name, _ := str(f["name"])
	if !f["id"].IsKnown() {
		f["id"] = tftypes.NewValue(strT, "legacy-"+strings.ToLower(name))
	}
	if !f["stamp"].IsKnown() {
		f["stamp"] = tftypes.NewValue(numT, big.NewFloat(1))
	}
	if modes(f)["apply_result"] {
		f["name"] = tftypes.NewValue(strT, name+"-applied")
	}
	resp.NewState, resp.Diagnostics = dynamic(thingT, tftypes.NewValue(thingT, f))
	return resp, nil
}

func (s *server) ReadResource(_ context.Context, req *tfprotov5.ReadResourceRequest) (*tfprotov5.ReadResourceResponse, error) {
	v, diags := decode(req.CurrentState, thingT)
	if diags != nil || v.IsNull() {
		return &tfprotov5.ReadResourceResponse{NewState: req.CurrentState, Diagnostics: diags}, nil
	}
	f := fields(v)
	if name, ok := str(f["name"]); ok && modes(f)["read_noncanonical"] {
		f["name"] = tftypes.NewValue(strT, strings.ToLower(name))
	}
	dv, diags := dynamic(thingT, tftypes.NewValue(thingT, f))
	return &tfprotov5.ReadResourceResponse{NewState: dv, Diagnostics: diags, Private: req.Private}, nil
}

func (s *server) ImportResourceState(_ context.Context, req *tfprotov5.ImportResourceStateRequest) (*tfprotov5.ImportResourceStateResponse, error) {
	return &tfprotov5.ImportResourceStateResponse{Diagnostics: errorDiag("Import not supported", "stratalegacy_thing cannot be imported.")}, nil
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

func str(v tftypes.Value) (string, bool) {
	if v.IsNull() || !v.IsKnown() {
		return "", false
	}
	var s string
	_ = v.As(&s)
	return s, true
}

func dynamic(ty tftypes.Type, v tftypes.Value) (*tfprotov5.DynamicValue, []*tfprotov5.Diagnostic) {
	dv, err := tfprotov5.NewDynamicValue(ty, v)
	if err != nil {
		return nil, errorDiag("Encoding failed", err.Error())
	}
	return &dv, nil
}

func decode(dv *tfprotov5.DynamicValue, ty tftypes.Type) (tftypes.Value, []*tfprotov5.Diagnostic) {
	if dv == nil {
		return tftypes.NewValue(ty, nil), nil
	}
	v, err := dv.Unmarshal(ty)
	if err != nil {
		return v, errorDiag("Decoding failed", err.Error())
	}
	return v, nil
}

func errorDiag(summary, detail string) []*tfprotov5.Diagnostic {
	return []*tfprotov5.Diagnostic{{Severity: tfprotov5.DiagnosticSeverityError, Summary: summary, Detail: detail}}
}
