package plugin

import (
	"context"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
)

// wire is one protocol version's view of the provider service, with
// values still encoded. wire5 and wire6 map it onto the generated gRPC
// clients field by field; provider holds everything the two versions
// share (schemas, types, encoding, error handling). A non-nil error means
// the call itself failed (transport, crash, unimplemented).
type wire interface {
	getProviderSchema(ctx context.Context) (*schemaSet, error)
	decodeSchema(raw []byte) (*schemaSet, error)
	validateProviderConfig(ctx context.Context, config dynVal) (prepared *dynVal, diags providers.Diagnostics, err error)
	validateResourceConfig(ctx context.Context, typeName string, config dynVal) (providers.Diagnostics, error)
	validateDataResourceConfig(ctx context.Context, typeName string, config dynVal) (providers.Diagnostics, error)
	upgradeResourceState(ctx context.Context, req upgradeRequest) (dynVal, providers.Diagnostics, error)
	configureProvider(ctx context.Context, terraformVersion string, config dynVal) (providers.Diagnostics, error)
	readResource(ctx context.Context, req readRequest) (readResponse, error)
	planResourceChange(ctx context.Context, req planRequest) (planResponse, error)
	applyResourceChange(ctx context.Context, req applyRequest) (applyResponse, error)
	importResourceState(ctx context.Context, typeName, id string, identity *dynVal) (importResponse, error)
	readDataSource(ctx context.Context, typeName string, config dynVal, meta *dynVal) (readDataResponse, error)
	getFunctions(ctx context.Context) (map[string]providers.FunctionDecl, providers.Diagnostics, error)
	callFunction(ctx context.Context, name string, args []dynVal) (callFunctionResponse, error)
	stop(ctx context.Context) error

	// getResourceIdentitySchemas returns the identity schemas by resource
	// type and the response as received, for the schema cache.
	getResourceIdentitySchemas(ctx context.Context) (identitySchemas, []byte, error)
	decodeIdentitySchemas(raw []byte) (identitySchemas, error)
	upgradeResourceIdentity(ctx context.Context, typeName string, version int64, raw []byte) (*dynVal, providers.Diagnostics, error)

	validateEphemeralResourceConfig(ctx context.Context, typeName string, config dynVal) (providers.Diagnostics, error)
	openEphemeralResource(ctx context.Context, typeName string, config dynVal) (openResponse, error)
	renewEphemeralResource(ctx context.Context, typeName string, private []byte) (renewResponse, error)
	closeEphemeralResource(ctx context.Context, typeName string, private []byte) (providers.Diagnostics, error)
}

// dynVal is an encoded DynamicValue: msgpack, or JSON from providers that
// send it.
type dynVal struct {
	msgpack, json []byte
}

// schemaSet is a converted GetProviderSchema response.
type schemaSet struct {
	resp providers.GetProviderSchemaResponse
	// providerMeta is the schema of provider_meta blocks, nil if the
	// provider declares none (then none is sent).
	providerMeta *configschema.Block
	planDestroy  bool
	// optional is the get_provider_schema_optional capability: other
	// processes of the same binary may use these schemas without asking.
	optional bool
	// raw is the response as received, kept when optional to be written
	// to the schema cache.
	raw []byte
	// identityRaw is the GetResourceIdentitySchemas response as
	// received, nil when the provider does not implement it.
	identityRaw []byte
}

// identitySchemas is a converted GetResourceIdentitySchemas response.
type identitySchemas struct {
	schemas     map[string]identitySchema
	diagnostics providers.Diagnostics
}

type identitySchema struct {
	block   *configschema.Block
	version int64
}

type upgradeRequest struct {
	typeName string
	version  int64
	json     []byte
	flatmap  map[string]string
}

type readRequest struct {
	typeName     string
	currentState dynVal
	private      []byte
	providerMeta *dynVal
	identity     *dynVal
}

type readResponse struct {
	newState    dynVal
	identity    *dynVal
	private     []byte
	deferred    string
	diagnostics providers.Diagnostics
}

type planRequest struct {
	typeName         string
	priorState       dynVal
	proposedNewState dynVal
	config           dynVal
	priorPrivate     []byte
	providerMeta     *dynVal
	priorIdentity    *dynVal
}

type planResponse struct {
	plannedState     dynVal
	plannedIdentity  *dynVal
	requiresReplace  []cty.Path
	plannedPrivate   []byte
	legacyTypeSystem bool
	deferred         string
	diagnostics      providers.Diagnostics
}

type applyRequest struct {
	typeName        string
	priorState      dynVal
	plannedState    dynVal
	config          dynVal
	plannedPrivate  []byte
	providerMeta    *dynVal
	plannedIdentity *dynVal
}

type applyResponse struct {
	newState         dynVal
	newIdentity      *dynVal
	private          []byte
	legacyTypeSystem bool
	diagnostics      providers.Diagnostics
}

type importedResource struct {
	typeName string
	state    dynVal
	identity *dynVal
	private  []byte
}

type importResponse struct {
	resources   []importedResource
	deferred    string
	diagnostics providers.Diagnostics
}

type readDataResponse struct {
	state       dynVal
	deferred    string
	diagnostics providers.Diagnostics
}

type callFunctionResponse struct {
	result dynVal
	// err is the function's error, nil when it succeeded.
	err *providers.FunctionError
}

type openResponse struct {
	result      dynVal
	private     []byte
	renewAt     time.Time
	deferred    string
	diagnostics providers.Diagnostics
}

type renewResponse struct {
	private     []byte
	renewAt     time.Time
	diagnostics providers.Diagnostics
}

// blockTypes caches the implied types of the schema blocks this process
// received from providers, which are never changed once converted: every
// request encodes and decodes with its type's, and building one for each
// (a map per object type, nested) was a measurable part of a large run.
var blockTypes sync.Map // *configschema.Block → cty.Type

// blockType returns b's implied type, built once.
func blockType(b *configschema.Block) cty.Type {
	if t, ok := blockTypes.Load(b); ok {
		return t.(cty.Type)
	}
	t := b.ImpliedType()
	blockTypes.Store(b, t)
	return t
}
