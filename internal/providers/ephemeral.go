package providers

import (
	"context"
	"time"

	"github.com/zclconf/go-cty/cty"
)

// EphemeralResources is implemented by providers that can serve ephemeral
// resource types (protocol 5.7 and 6.7). An ephemeral resource is opened
// when a run needs its value, renewed while the run still needs it, and
// closed afterwards; nothing about it is stored in state or plans.
// Providers without this interface have no ephemeral resource types.
type EphemeralResources interface {
	// ValidateEphemeralResourceConfig checks an ephemeral resource
	// configuration, which may contain unknown values.
	ValidateEphemeralResourceConfig(ctx context.Context, req ValidateEphemeralResourceConfigRequest) ValidateEphemeralResourceConfigResponse
	// OpenEphemeralResource opens an ephemeral resource with a wholly known
	// configuration and returns its value.
	OpenEphemeralResource(ctx context.Context, req OpenEphemeralResourceRequest) OpenEphemeralResourceResponse
	// RenewEphemeralResource extends the life of an opened resource.
	RenewEphemeralResource(ctx context.Context, req RenewEphemeralResourceRequest) RenewEphemeralResourceResponse
	// CloseEphemeralResource releases an opened resource.
	CloseEphemeralResource(ctx context.Context, req CloseEphemeralResourceRequest) CloseEphemeralResourceResponse
}

// ValidateEphemeralResourceConfigRequest is the input of
// ValidateEphemeralResourceConfig.
type ValidateEphemeralResourceConfigRequest struct {
	TypeName string
	Config   cty.Value
}

// ValidateEphemeralResourceConfigResponse is the result of
// ValidateEphemeralResourceConfig.
type ValidateEphemeralResourceConfigResponse struct {
	Diagnostics Diagnostics
}

// OpenEphemeralResourceRequest is the input of OpenEphemeralResource.
type OpenEphemeralResourceRequest struct {
	TypeName string
	Config   cty.Value
}

// OpenEphemeralResourceResponse is the result of OpenEphemeralResource.
type OpenEphemeralResourceResponse struct {
	// Result is the resource's value, conforming to its schema.
	Result cty.Value
	// Private is the provider's own data, sent back on renew and close.
	Private []byte
	// RenewAt, when not zero, is when the resource must be renewed if it
	// is still needed.
	RenewAt time.Time
	// Deferred is the reason the provider gave for deferring the open, or
	// "" when it did not.
	Deferred    string
	Diagnostics Diagnostics
}

// RenewEphemeralResourceRequest is the input of RenewEphemeralResource.
type RenewEphemeralResourceRequest struct {
	TypeName string
	Private  []byte
}

// RenewEphemeralResourceResponse is the result of RenewEphemeralResource.
type RenewEphemeralResourceResponse struct {
	Private     []byte
	RenewAt     time.Time
	Diagnostics Diagnostics
}

// CloseEphemeralResourceRequest is the input of CloseEphemeralResource.
type CloseEphemeralResourceRequest struct {
	TypeName string
	Private  []byte
}

// CloseEphemeralResourceResponse is the result of CloseEphemeralResource.
type CloseEphemeralResourceResponse struct {
	Diagnostics Diagnostics
}
