package plugin

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/providers"
)

func validateEphemeralReq(config cty.Value) providers.ValidateEphemeralResourceConfigRequest {
	return providers.ValidateEphemeralResourceConfigRequest{TypeName: "stratafw_token", Config: config}
}

func openReq(config cty.Value) providers.OpenEphemeralResourceRequest {
	return openReqType("stratafw_token", config)
}

func openReqType(typeName string, config cty.Value) providers.OpenEphemeralResourceRequest {
	return providers.OpenEphemeralResourceRequest{TypeName: typeName, Config: config}
}

func renewReq(private []byte) providers.RenewEphemeralResourceRequest {
	return providers.RenewEphemeralResourceRequest{TypeName: "stratafw_token", Private: private}
}

func closeReq(private []byte) providers.CloseEphemeralResourceRequest {
	return providers.CloseEphemeralResourceRequest{TypeName: "stratafw_token", Private: private}
}
