package providertest

import (
	"context"

	"github.com/strata-dev/strata/internal/providers"
)

var _ providers.EphemeralResources = (*Provider)(nil)

// ValidateEphemeralResourceConfig implements providers.EphemeralResources.
func (p *Provider) ValidateEphemeralResourceConfig(_ context.Context, req providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	p.record("ValidateEphemeralResourceConfig")
	if p.ValidateEphemeralFn != nil {
		return p.ValidateEphemeralFn(req)
	}
	return providers.ValidateEphemeralResourceConfigResponse{}
}

// OpenEphemeralResource implements providers.EphemeralResources: by
// default the result is the configuration.
func (p *Provider) OpenEphemeralResource(_ context.Context, req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	p.record("OpenEphemeralResource " + req.TypeName)
	if p.OpenEphemeralFn != nil {
		return p.OpenEphemeralFn(req)
	}
	return providers.OpenEphemeralResourceResponse{Result: req.Config}
}

// RenewEphemeralResource implements providers.EphemeralResources.
func (p *Provider) RenewEphemeralResource(_ context.Context, req providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	p.record("RenewEphemeralResource " + req.TypeName)
	if p.RenewEphemeralFn != nil {
		return p.RenewEphemeralFn(req)
	}
	return providers.RenewEphemeralResourceResponse{Private: req.Private}
}

// CloseEphemeralResource implements providers.EphemeralResources.
func (p *Provider) CloseEphemeralResource(_ context.Context, req providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	p.record("CloseEphemeralResource " + req.TypeName)
	if p.CloseEphemeralFn != nil {
		return p.CloseEphemeralFn(req)
	}
	return providers.CloseEphemeralResourceResponse{}
}
