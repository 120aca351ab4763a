package main

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Ephemeral resource stratav5_lease (protocol 5.7): opening it returns
// the value "lease-NAME" and asks to be renewed in an hour; its private
// data is the name, renewals and closes check they get it back.

var leaseT = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": strT, "value": strT}}

func leaseSchema() *tfprotov5.Schema {
	return &tfprotov5.Schema{Block: &tfprotov5.SchemaBlock{Attributes: []*tfprotov5.SchemaAttribute{
		attr("name", strT, "r"), attr("value", strT, "cs"),
	}}}
}

func (s *server) ValidateEphemeralResourceConfig(_ context.Context, req *tfprotov5.ValidateEphemeralResourceConfigRequest) (*tfprotov5.ValidateEphemeralResourceConfigResponse, error) {
	v, diags := decode(req.Config, leaseT)
	if diags != nil {
		return &tfprotov5.ValidateEphemeralResourceConfigResponse{Diagnostics: diags}, nil
	}
	if name, ok := str(fields(v)["name"]); ok && name == "" {
		diags = errorDiag("Invalid name", "The name must not be empty.", tftypes.NewAttributePath().WithAttributeName("name"))
	}
	return &tfprotov5.ValidateEphemeralResourceConfigResponse{Diagnostics: diags}, nil
}

func (s *server) OpenEphemeralResource(_ context.Context, req *tfprotov5.OpenEphemeralResourceRequest) (*tfprotov5.OpenEphemeralResourceResponse, error) {
	v, diags := decode(req.Config, leaseT)
	if diags != nil {
		return &tfprotov5.OpenEphemeralResourceResponse{Diagnostics: diags}, nil
	}
	name, _ := str(fields(v)["name"])
	result, diags := dynamic(leaseT, tftypes.NewValue(leaseT, map[string]tftypes.Value{
		"name": tftypes.NewValue(strT, name), "value": tftypes.NewValue(strT, "lease-"+name),
	}))
	return &tfprotov5.OpenEphemeralResourceResponse{
		Result: result, Diagnostics: diags, Private: []byte(name), RenewAt: time.Now().Add(time.Hour),
	}, nil
}

func (s *server) RenewEphemeralResource(_ context.Context, req *tfprotov5.RenewEphemeralResourceRequest) (*tfprotov5.RenewEphemeralResourceResponse, error) {
	if len(req.Private) == 0 {
		return &tfprotov5.RenewEphemeralResourceResponse{Diagnostics: errorDiag("Missing private data", "Renew was called without the private data Open returned.", nil)}, nil
	}
	return &tfprotov5.RenewEphemeralResourceResponse{Private: append(req.Private, '+'), RenewAt: time.Now().Add(time.Hour)}, nil
}

func (s *server) CloseEphemeralResource(_ context.Context, req *tfprotov5.CloseEphemeralResourceRequest) (*tfprotov5.CloseEphemeralResourceResponse, error) {
	if len(req.Private) == 0 {
		return &tfprotov5.CloseEphemeralResourceResponse{Diagnostics: errorDiag("Missing private data", "Close was called without the private data Open returned.", nil)}, nil
	}
	return &tfprotov5.CloseEphemeralResourceResponse{}, nil
}
