package plugin

import (
	"context"

	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/plugin/convert"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin5"
)

// The ephemeral resource calls of protocol 5.7.

func (w *wire5) validateEphemeralResourceConfig(ctx context.Context, typeName string, config dynVal) (providers.Diagnostics, error) {
	resp, err := w.client.ValidateEphemeralResourceConfig(ctx, &tfplugin5.ValidateEphemeralResourceConfig_Request{
		TypeName: typeName, Config: dv5(config),
	})
	if err != nil {
		return nil, err
	}
	return convert.Diagnostics5(resp.GetDiagnostics()), nil
}

func (w *wire5) openEphemeralResource(ctx context.Context, typeName string, config dynVal) (openResponse, error) {
	resp, err := w.client.OpenEphemeralResource(ctx, &tfplugin5.OpenEphemeralResource_Request{
		TypeName: typeName, Config: dv5(config), ClientCapabilities: capabilities5,
	})
	if err != nil {
		return openResponse{}, err
	}
	out := openResponse{
		result:      fromDV5(resp.GetResult()),
		private:     resp.GetPrivate(),
		deferred:    deferred5(resp.GetDeferred()),
		diagnostics: convert.Diagnostics5(resp.GetDiagnostics()),
	}
	if resp.RenewAt != nil {
		out.renewAt = resp.GetRenewAt().AsTime()
	}
	return out, nil
}

func (w *wire5) renewEphemeralResource(ctx context.Context, typeName string, private []byte) (renewResponse, error) {
	resp, err := w.client.RenewEphemeralResource(ctx, &tfplugin5.RenewEphemeralResource_Request{
		TypeName: typeName, Private: private,
	})
	if err != nil {
		return renewResponse{}, err
	}
	out := renewResponse{private: resp.GetPrivate(), diagnostics: convert.Diagnostics5(resp.GetDiagnostics())}
	if resp.RenewAt != nil {
		out.renewAt = resp.GetRenewAt().AsTime()
	}
	return out, nil
}

func (w *wire5) closeEphemeralResource(ctx context.Context, typeName string, private []byte) (providers.Diagnostics, error) {
	resp, err := w.client.CloseEphemeralResource(ctx, &tfplugin5.CloseEphemeralResource_Request{
		TypeName: typeName, Private: private,
	})
	if err != nil {
		return nil, err
	}
	return convert.Diagnostics5(resp.GetDiagnostics()), nil
}
