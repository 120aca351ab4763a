package plugin

import (
	"context"

	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/plugin/convert"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin6"
)

// The ephemeral resource calls of protocol 6.7.

func (w *wire6) validateEphemeralResourceConfig(ctx context.Context, typeName string, config dynVal) (providers.Diagnostics, error) {
	resp, err := w.client.ValidateEphemeralResourceConfig(ctx, &tfplugin6.ValidateEphemeralResourceConfig_Request{
		TypeName: typeName, Config: dv6(config),
	})
	if err != nil {
		return nil, err
	}
	return convert.Diagnostics6(resp.GetDiagnostics()), nil
}

func (w *wire6) openEphemeralResource(ctx context.Context, typeName string, config dynVal) (openResponse, error) {
	resp, err := w.client.OpenEphemeralResource(ctx, &tfplugin6.OpenEphemeralResource_Request{
		TypeName: typeName, Config: dv6(config), ClientCapabilities: capabilities6,
	})
	if err != nil {
		return openResponse{}, err
	}
	out := openResponse{
		result:      fromDV6(resp.GetResult()),
		private:     resp.GetPrivate(),
		deferred:    deferred6(resp.GetDeferred()),
		diagnostics: convert.Diagnostics6(resp.GetDiagnostics()),
	}
	if resp.RenewAt != nil {
		out.renewAt = resp.GetRenewAt().AsTime()
	}
	return out, nil
}

func (w *wire6) renewEphemeralResource(ctx context.Context, typeName string, private []byte) (renewResponse, error) {
	resp, err := w.client.RenewEphemeralResource(ctx, &tfplugin6.RenewEphemeralResource_Request{
		TypeName: typeName, Private: private,
	})
	if err != nil {
		return renewResponse{}, err
	}
	out := renewResponse{private: resp.GetPrivate(), diagnostics: convert.Diagnostics6(resp.GetDiagnostics())}
	if resp.RenewAt != nil {
		out.renewAt = resp.GetRenewAt().AsTime()
	}
	return out, nil
}

func (w *wire6) closeEphemeralResource(ctx context.Context, typeName string, private []byte) (providers.Diagnostics, error) {
	resp, err := w.client.CloseEphemeralResource(ctx, &tfplugin6.CloseEphemeralResource_Request{
		TypeName: typeName, Private: private,
	})
	if err != nil {
		return nil, err
	}
	return convert.Diagnostics6(resp.GetDiagnostics()), nil
}
