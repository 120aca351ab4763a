package plugin

import (
	"context"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/providers"
)

var _ providers.EphemeralResources = (*Client)(nil)

func (p *Client) ephemeralSchema(ctx context.Context, typeName string) (providers.Schema, providers.Diagnostics) {
	set, diags := p.schema(ctx)
	if diags.HasErrors() {
		return providers.Schema{}, diags
	}
	s, ok := set.resp.EphemeralResourceTypes[typeName]
	if !ok {
		return providers.Schema{}, diags.Errorf("Unsupported ephemeral resource type",
			"The provider %s does not support ephemeral resource type %q.", p.name, typeName)
	}
	return s, diags
}

// ValidateEphemeralResourceConfig calls ValidateEphemeralResourceConfig.
func (p *Client) ValidateEphemeralResourceConfig(ctx context.Context, req providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	s, diags := p.ephemeralSchema(ctx, req.TypeName)
	if diags.HasErrors() {
		return providers.ValidateEphemeralResourceConfigResponse{Diagnostics: diags}
	}
	var enc encoder
	config := enc.encode("ephemeral resource configuration", req.Config, blockType(s.Block))
	if enc.diags.HasErrors() {
		return providers.ValidateEphemeralResourceConfigResponse{Diagnostics: append(diags, enc.diags...)}
	}
	vdiags, err := p.wire.validateEphemeralResourceConfig(ctx, req.TypeName, config)
	if err != nil {
		return providers.ValidateEphemeralResourceConfigResponse{Diagnostics: append(diags, p.callError(ctx, "ValidateEphemeralResourceConfig", err)...)}
	}
	return providers.ValidateEphemeralResourceConfigResponse{Diagnostics: append(warnings(diags), vdiags...)}
}

// OpenEphemeralResource calls OpenEphemeralResource and decodes its result
// with the type's schema.
func (p *Client) OpenEphemeralResource(ctx context.Context, req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	s, diags := p.ephemeralSchema(ctx, req.TypeName)
	if diags.HasErrors() {
		return providers.OpenEphemeralResourceResponse{Result: cty.NilVal, Diagnostics: diags}
	}
	ty := blockType(s.Block)
	resp := providers.OpenEphemeralResourceResponse{Result: cty.NullVal(ty), Diagnostics: warnings(diags)}
	var enc encoder
	config := enc.encode("ephemeral resource configuration", req.Config, ty)
	if enc.diags.HasErrors() {
		resp.Diagnostics = append(resp.Diagnostics, enc.diags...)
		return resp
	}
	wresp, err := p.wire.openEphemeralResource(ctx, req.TypeName, config)
	if err != nil {
		resp.Diagnostics = append(resp.Diagnostics, p.callError(ctx, "OpenEphemeralResource", err)...)
		return resp
	}
	resp.Diagnostics = append(resp.Diagnostics, wresp.diagnostics...)
	resp.Deferred = wresp.deferred
	resp.Private = wresp.private
	resp.RenewAt = wresp.renewAt
	if wresp.result.msgpack != nil || wresp.result.json != nil {
		resp.Result = p.decode(&resp.Diagnostics, "ephemeral resource result", wresp.result, ty)
	}
	return resp
}

// RenewEphemeralResource calls RenewEphemeralResource.
func (p *Client) RenewEphemeralResource(ctx context.Context, req providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	wresp, err := p.wire.renewEphemeralResource(ctx, req.TypeName, req.Private)
	if err != nil {
		return providers.RenewEphemeralResourceResponse{Private: req.Private, Diagnostics: p.callError(ctx, "RenewEphemeralResource", err)}
	}
	return providers.RenewEphemeralResourceResponse{Private: wresp.private, RenewAt: wresp.renewAt, Diagnostics: wresp.diagnostics}
}

// CloseEphemeralResource calls CloseEphemeralResource.
func (p *Client) CloseEphemeralResource(ctx context.Context, req providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	diags, err := p.wire.closeEphemeralResource(ctx, req.TypeName, req.Private)
	if err != nil {
		return providers.CloseEphemeralResourceResponse{Diagnostics: p.callError(ctx, "CloseEphemeralResource", err)}
	}
	return providers.CloseEphemeralResourceResponse{Diagnostics: diags}
}
