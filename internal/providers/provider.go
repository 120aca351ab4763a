package providers

import (
	"context"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
)

// Interface is the set of operations a provider offers. Each takes a context
// first and one request struct, and returns one response struct carrying any
// diagnostics. Implementations must be safe for concurrent use.
type Interface interface {
	// GetProviderSchema returns the schemas of the provider configuration,
	// its managed resource types and its data sources.
	GetProviderSchema(ctx context.Context) GetProviderSchemaResponse
	// ValidateProviderConfig checks a provider configuration.
	ValidateProviderConfig(ctx context.Context, req ValidateProviderConfigRequest) ValidateProviderConfigResponse
	// ValidateResourceConfig checks a managed resource configuration, which
	// may contain unknown values.
	ValidateResourceConfig(ctx context.Context, req ValidateResourceConfigRequest) ValidateResourceConfigResponse
	// ValidateDataResourceConfig checks a data source configuration.
	ValidateDataResourceConfig(ctx context.Context, req ValidateDataResourceConfigRequest) ValidateDataResourceConfigResponse
	// UpgradeResourceState turns a stored object, in raw JSON of some older
	// schema version, into a value of the current schema.
	UpgradeResourceState(ctx context.Context, req UpgradeResourceStateRequest) UpgradeResourceStateResponse
	// ConfigureProvider configures the provider before any resource operation.
	ConfigureProvider(ctx context.Context, req ConfigureProviderRequest) ConfigureProviderResponse
	// ReadResource refreshes a prior state from the remote system. A null
	// NewState means the object no longer exists.
	ReadResource(ctx context.Context, req ReadResourceRequest) ReadResourceResponse
	// PlanResourceChange predicts the new state of a managed resource.
	PlanResourceChange(ctx context.Context, req PlanResourceChangeRequest) PlanResourceChangeResponse
	// ApplyResourceChange makes the remote object match the planned state
	// and returns the new state.
	ApplyResourceChange(ctx context.Context, req ApplyResourceChangeRequest) ApplyResourceChangeResponse
	// ImportResourceState turns an import ID into import stub state(s).
	ImportResourceState(ctx context.Context, req ImportResourceStateRequest) ImportResourceStateResponse
	// ReadDataSource reads a data source.
	ReadDataSource(ctx context.Context, req ReadDataSourceRequest) ReadDataSourceResponse
	// CallFunction calls a provider-defined function that the schema
	// declares. The provider need not be configured.
	CallFunction(ctx context.Context, req CallFunctionRequest) CallFunctionResponse
	// Stop asks the provider to abort in-flight operations as soon as it
	// safely can. It returns at once.
	Stop(ctx context.Context) error
	// Close releases the provider (for plugins, ends the process).
	Close(ctx context.Context) error
}

// Factory starts a new instance of a provider.
type Factory func() (Interface, error)

// Schema is a block schema with its version, as the protocol sends it.
type Schema struct {
	Version int64
	Block   *configschema.Block
	// Identity is the schema of the resource type's identity (protocol
	// 5.9 / 6.9), nil when the type has none: a block of attributes only,
	// Required for those the provider needs to import an object, Optional
	// for the others. IdentityVersion is its own version, independent of
	// Version.
	Identity        *configschema.Block
	IdentityVersion int64
}

// IdentityType returns the type of the identity values of a resource type
// with schema s, cty.NilType when it has no identity.
func (s Schema) IdentityType() cty.Type {
	if s.Identity == nil {
		return cty.NilType
	}
	return s.Identity.ImpliedType()
}

// IdentityUpgrader is implemented by providers that can upgrade an
// identity stored with an older identity schema version
// (UpgradeResourceIdentity, protocol 5.9 / 6.9).
type IdentityUpgrader interface {
	UpgradeResourceIdentity(ctx context.Context, req UpgradeResourceIdentityRequest) UpgradeResourceIdentityResponse
}

// UpgradeResourceIdentityRequest is the input of UpgradeResourceIdentity.
type UpgradeResourceIdentityRequest struct {
	TypeName string
	// Version is the identity schema version the raw identity was
	// written with.
	Version int64
	// RawIdentityJSON is the identity exactly as stored.
	RawIdentityJSON []byte
}

// UpgradeResourceIdentityResponse is the result of UpgradeResourceIdentity.
type UpgradeResourceIdentityResponse struct {
	UpgradedIdentity cty.Value
	Diagnostics      Diagnostics
}

// GetProviderSchemaResponse is the result of GetProviderSchema.
type GetProviderSchemaResponse struct {
	Provider      Schema
	ResourceTypes map[string]Schema
	DataSources   map[string]Schema
	// EphemeralResourceTypes are the schemas of the provider's ephemeral
	// resource types (protocol 5.7 / 6.7); see EphemeralResources.
	EphemeralResourceTypes map[string]Schema
	// Functions are the provider-defined functions, by name.
	Functions   map[string]FunctionDecl
	Diagnostics Diagnostics
}

// ValidateProviderConfigRequest is the input of ValidateProviderConfig.
type ValidateProviderConfigRequest struct {
	Config cty.Value
}

// ValidateProviderConfigResponse is the result of ValidateProviderConfig.
type ValidateProviderConfigResponse struct {
	PreparedConfig cty.Value
	Diagnostics    Diagnostics
}

// ValidateResourceConfigRequest is the input of ValidateResourceConfig.
type ValidateResourceConfigRequest struct {
	TypeName string
	Config   cty.Value
}

// ValidateResourceConfigResponse is the result of ValidateResourceConfig.
type ValidateResourceConfigResponse struct {
	Diagnostics Diagnostics
}

// ValidateDataResourceConfigRequest is the input of ValidateDataResourceConfig.
type ValidateDataResourceConfigRequest struct {
	TypeName string
	Config   cty.Value
}

// ValidateDataResourceConfigResponse is the result of ValidateDataResourceConfig.
type ValidateDataResourceConfigResponse struct {
	Diagnostics Diagnostics
}

// UpgradeResourceStateRequest is the input of UpgradeResourceState.
type UpgradeResourceStateRequest struct {
	TypeName string
	// Version is the schema version the raw state was written with.
	Version int64
	// RawStateJSON is the object's attributes exactly as stored.
	RawStateJSON []byte
	// RawStateFlatmap holds the attributes of objects from very old
	// states, which stored them as a flat map of strings.
	RawStateFlatmap map[string]string
}

// UpgradeResourceStateResponse is the result of UpgradeResourceState.
type UpgradeResourceStateResponse struct {
	UpgradedState cty.Value
	Diagnostics   Diagnostics
}

// ConfigureProviderRequest is the input of ConfigureProvider.
type ConfigureProviderRequest struct {
	TerraformVersion string
	Config           cty.Value
}

// ConfigureProviderResponse is the result of ConfigureProvider.
type ConfigureProviderResponse struct {
	Diagnostics Diagnostics
}

// ReadResourceRequest is the input of ReadResource.
type ReadResourceRequest struct {
	TypeName     string
	PriorState   cty.Value
	Private      []byte
	ProviderMeta cty.Value
	// CurrentIdentity is the stored identity, cty.NilVal or null when
	// there is none (for types with an identity schema only).
	CurrentIdentity cty.Value
}

// ReadResourceResponse is the result of ReadResource.
type ReadResourceResponse struct {
	NewState    cty.Value
	Private     []byte
	Diagnostics Diagnostics
	// Identity is the identity the provider returned, cty.NilVal when it
	// returned none.
	Identity cty.Value
}

// PlanResourceChangeRequest is the input of PlanResourceChange. A null
// PriorState means create; a null ProposedNewState means destroy.
type PlanResourceChangeRequest struct {
	TypeName         string
	PriorState       cty.Value
	ProposedNewState cty.Value
	Config           cty.Value
	PriorPrivate     []byte
	ProviderMeta     cty.Value
	// PriorIdentity is the identity of the prior object, cty.NilVal or
	// null when there is none.
	PriorIdentity cty.Value
}

// PlanResourceChangeResponse is the result of PlanResourceChange.
type PlanResourceChangeResponse struct {
	PlannedState cty.Value
	// RequiresReplace lists the attribute paths whose change forces the
	// object to be replaced.
	RequiresReplace []cty.Path
	PlannedPrivate  []byte
	Diagnostics     Diagnostics
	// LegacyTypeSystem exempts old-SDK providers from some consistency
	// checks, which then only produce warnings in logs.
	LegacyTypeSystem bool
	// PlannedIdentity is the identity the provider planned, cty.NilVal
	// when it returned none.
	PlannedIdentity cty.Value
}

// ApplyResourceChangeRequest is the input of ApplyResourceChange. A null
// PlannedState means destroy.
type ApplyResourceChangeRequest struct {
	TypeName       string
	PriorState     cty.Value
	PlannedState   cty.Value
	Config         cty.Value
	PlannedPrivate []byte
	ProviderMeta   cty.Value
	// PlannedIdentity is the planned identity, cty.NilVal or null when
	// there is none.
	PlannedIdentity cty.Value
}

// ApplyResourceChangeResponse is the result of ApplyResourceChange.
type ApplyResourceChangeResponse struct {
	NewState         cty.Value
	Private          []byte
	Diagnostics      Diagnostics
	LegacyTypeSystem bool
	// NewIdentity is the identity of the new object, cty.NilVal when the
	// provider returned none.
	NewIdentity cty.Value
}

// ImportResourceStateRequest is the input of ImportResourceState.
type ImportResourceStateRequest struct {
	TypeName string
	// ID is the import ID; empty when Identity is set instead.
	ID string
	// Identity identifies the object to import by its resource identity
	// (import blocks with identity), cty.NilVal otherwise.
	Identity cty.Value
}

// ImportedResource is one import stub returned by ImportResourceState.
type ImportedResource struct {
	TypeName string
	State    cty.Value
	Private  []byte
	// Identity is the imported object's identity, cty.NilVal when the
	// provider returned none.
	Identity cty.Value
}

// ImportResourceStateResponse is the result of ImportResourceState.
type ImportResourceStateResponse struct {
	ImportedResources []ImportedResource
	Diagnostics       Diagnostics
}

// ReadDataSourceRequest is the input of ReadDataSource.
type ReadDataSourceRequest struct {
	TypeName string
	// Addr is the data source instance read, for built-in providers
	// (plugins are not told).
	Addr         string
	Config       cty.Value
	ProviderMeta cty.Value
}

// ReadDataSourceResponse is the result of ReadDataSource.
type ReadDataSourceResponse struct {
	State       cty.Value
	Diagnostics Diagnostics
}
