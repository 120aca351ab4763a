package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The resource stratav5_keyed has a resource identity (protocol 5.9):
// {name, region}, identity schema version 1, name required to import it
// and region optional (default "eu"). Version 0 stored the identity as
// {"key": "<region>/<name>"}, which UpgradeResourceIdentity converts. Its
// id is "<prefix><region>/<name>"; import takes "<region>/<name>" as ID,
// or the identity. ReadResource checks that the identity it is given
// matches the object, so a client that loses the identity is caught. A
// note of "unknown-identity" makes the plan of an update return an
// unknown identity, which breaks the protocol's contract; "change-identity"
// makes an update return another identity (region "<region>-moved"),
// which strata reports as a contract violation.

var (
	keyedT = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"id": strT, "name": strT, "region": strT, "note": strT,
	}}
	keyedIdentityT = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": strT, "region": strT}}
)

func keyedSchema() *tfprotov5.Schema {
	return &tfprotov5.Schema{Block: &tfprotov5.SchemaBlock{Attributes: []*tfprotov5.SchemaAttribute{
		attr("id", strT, "c"), attr("name", strT, "r"), attr("region", strT, "oc"), attr("note", strT, "o"),
	}}}
}

func (s *server) GetResourceIdentitySchemas(context.Context, *tfprotov5.GetResourceIdentitySchemasRequest) (*tfprotov5.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov5.GetResourceIdentitySchemasResponse{IdentitySchemas: map[string]*tfprotov5.ResourceIdentitySchema{
		"stratav5_keyed": {Version: 1, IdentityAttributes: []*tfprotov5.ResourceIdentitySchemaAttribute{
			{Name: "name", Type: strT, RequiredForImport: true},
			{Name: "region", Type: strT, OptionalForImport: true},
		}},
	}}, nil
}

func (s *server) UpgradeResourceIdentity(_ context.Context, req *tfprotov5.UpgradeResourceIdentityRequest) (*tfprotov5.UpgradeResourceIdentityResponse, error) {
	resp := &tfprotov5.UpgradeResourceIdentityResponse{}
	if req.TypeName != "stratav5_keyed" || req.Version != 0 || req.RawIdentity == nil {
		resp.Diagnostics = errorDiag("Cannot upgrade identity", fmt.Sprintf("No upgrade from version %d of %s.", req.Version, req.TypeName), nil)
		return resp, nil
	}
	var old struct{ Key string }
	if err := json.Unmarshal(req.RawIdentity.JSON, &old); err != nil {
		resp.Diagnostics = errorDiag("Invalid stored identity", err.Error(), nil)
		return resp, nil
	}
	region, name, ok := strings.Cut(old.Key, "/")
	if !ok {
		resp.Diagnostics = errorDiag("Invalid stored identity", fmt.Sprintf("%q is not <region>/<name>.", old.Key), nil)
		return resp, nil
	}
	resp.UpgradedIdentity, resp.Diagnostics = keyedIdentity(tftypes.NewValue(strT, name), tftypes.NewValue(strT, region))
	return resp, nil
}

func keyedIdentity(name, region tftypes.Value) (*tfprotov5.ResourceIdentityData, []*tfprotov5.Diagnostic) {
	dv, diags := dynamic(keyedIdentityT, tftypes.NewValue(keyedIdentityT, map[string]tftypes.Value{"name": name, "region": region}))
	if diags != nil {
		return nil, diags
	}
	return &tfprotov5.ResourceIdentityData{IdentityData: dv}, nil
}

func (s *server) keyedRead(_ context.Context, req *tfprotov5.ReadResourceRequest) (*tfprotov5.ReadResourceResponse, error) {
	state, diags := decode(req.CurrentState, keyedT)
	resp := &tfprotov5.ReadResourceResponse{Diagnostics: diags, Private: req.Private}
	if diags != nil {
		return resp, nil
	}
	f := fields(state)
	if req.CurrentIdentity != nil {
		id, diags := decode(req.CurrentIdentity.IdentityData, keyedIdentityT)
		if diags != nil {
			resp.Diagnostics = diags
			return resp, nil
		}
		if !fields(id)["name"].Equal(f["name"]) || !fields(id)["region"].Equal(f["region"]) {
			resp.Diagnostics = errorDiag("Identity mismatch", "The identity sent does not match the object.", nil)
			return resp, nil
		}
	}
	resp.NewState, resp.Diagnostics = dynamic(keyedT, state)
	if resp.Diagnostics == nil {
		resp.NewIdentity, resp.Diagnostics = keyedIdentity(f["name"], f["region"])
	}
	return resp, nil
}

func (s *server) keyedPlan(_ context.Context, req *tfprotov5.PlanResourceChangeRequest) (*tfprotov5.PlanResourceChangeResponse, error) {
	prior, d1 := decode(req.PriorState, keyedT)
	proposed, d2 := decode(req.ProposedNewState, keyedT)
	if d1 != nil || d2 != nil {
		return &tfprotov5.PlanResourceChangeResponse{Diagnostics: append(d1, d2...)}, nil
	}
	resp := &tfprotov5.PlanResourceChangeResponse{}
	if proposed.IsNull() {
		resp.PlannedState, resp.Diagnostics = dynamic(keyedT, proposed)
		if req.PriorIdentity != nil {
			resp.PlannedIdentity = req.PriorIdentity
		}
		return resp, nil
	}
	f, pf := fields(proposed), fields(prior)
	if f["region"].IsNull() {
		f["region"] = tftypes.NewValue(strT, "eu")
	}
	if prior.IsNull() {
		f["id"] = tftypes.NewValue(strT, tftypes.UnknownValue)
	} else {
		f["id"] = pf["id"]
		for _, a := range []string{"name", "region"} {
			if !pf[a].Equal(f[a]) {
				resp.RequiresReplace = append(resp.RequiresReplace, tftypes.NewAttributePath().WithAttributeName(a))
				f["id"] = tftypes.NewValue(strT, tftypes.UnknownValue)
			}
		}
	}
	region := f["region"]
	if note, _ := str(f["note"]); note == "unknown-identity" && !prior.IsNull() {
		region = tftypes.NewValue(strT, tftypes.UnknownValue)
	}
	resp.PlannedState, resp.Diagnostics = dynamic(keyedT, tftypes.NewValue(keyedT, f))
	if resp.Diagnostics == nil {
		resp.PlannedIdentity, resp.Diagnostics = keyedIdentity(f["name"], region)
	}
	return resp, nil
}

func (s *server) keyedApply(_ context.Context, req *tfprotov5.ApplyResourceChangeRequest) (*tfprotov5.ApplyResourceChangeResponse, error) {
	planned, diags := decode(req.PlannedState, keyedT)
	if diags != nil {
		return &tfprotov5.ApplyResourceChangeResponse{Diagnostics: diags}, nil
	}
	resp := &tfprotov5.ApplyResourceChangeResponse{}
	if planned.IsNull() {
		resp.NewState, resp.Diagnostics = dynamic(keyedT, planned)
		return resp, nil
	}
	f := fields(planned)
	name, _ := str(f["name"])
	region, _ := str(f["region"])
	if !f["id"].IsKnown() {
		f["id"] = tftypes.NewValue(strT, s.getPrefix()+region+"/"+name)
	}
	resp.NewState, resp.Diagnostics = dynamic(keyedT, tftypes.NewValue(keyedT, f))
	identityRegion := f["region"]
	if note, _ := str(f["note"]); note == "change-identity" && !fields(decodeOrNull(req.PriorState))["id"].IsNull() {
		identityRegion = tftypes.NewValue(strT, region+"-moved")
	}
	if resp.Diagnostics == nil {
		resp.NewIdentity, resp.Diagnostics = keyedIdentity(f["name"], identityRegion)
	}
	return resp, nil
}

// decodeOrNull decodes a stratav5_keyed object, null when it cannot.
func decodeOrNull(dv *tfprotov5.DynamicValue) tftypes.Value {
	v, diags := decode(dv, keyedT)
	if diags != nil {
		return tftypes.NewValue(keyedT, nil)
	}
	return v
}

func (s *server) keyedImport(_ context.Context, req *tfprotov5.ImportResourceStateRequest) (*tfprotov5.ImportResourceStateResponse, error) {
	var name, region tftypes.Value
	if req.Identity != nil {
		id, diags := decode(req.Identity.IdentityData, keyedIdentityT)
		if diags != nil {
			return &tfprotov5.ImportResourceStateResponse{Diagnostics: diags}, nil
		}
		f := fields(id)
		name, region = f["name"], f["region"]
		if region.IsNull() {
			region = tftypes.NewValue(strT, "eu")
		}
	} else {
		r, n, ok := strings.Cut(req.ID, "/")
		if !ok || r == "" || n == "" {
			return &tfprotov5.ImportResourceStateResponse{Diagnostics: errorDiag("Invalid import ID", fmt.Sprintf("%q is not <region>/<name>.", req.ID), nil)}, nil
		}
		name, region = tftypes.NewValue(strT, n), tftypes.NewValue(strT, r)
	}
	n, _ := str(name)
	r, _ := str(region)
	state, diags := dynamic(keyedT, tftypes.NewValue(keyedT, map[string]tftypes.Value{
		"id": tftypes.NewValue(strT, s.getPrefix()+r+"/"+n), "name": name, "region": region, "note": tftypes.NewValue(strT, nil),
	}))
	if diags != nil {
		return &tfprotov5.ImportResourceStateResponse{Diagnostics: diags}, nil
	}
	identity, diags := keyedIdentity(name, region)
	return &tfprotov5.ImportResourceStateResponse{
		Diagnostics: diags,
		ImportedResources: []*tfprotov5.ImportedResource{{
			TypeName: "stratav5_keyed", State: state, Identity: identity,
		}},
	}, nil
}
