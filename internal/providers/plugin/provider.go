package plugin

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	plugin "github.com/hashicorp/go-plugin"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/plugin/convert"
	"github.com/strata-dev/strata/internal/tailbuf"
)

// Client is a running provider plugin process, seen through
// providers.Interface. NewClient returns one; it is safe for concurrent
// use.
type Client struct {
	name    string
	version int
	pid     int
	wire    wire
	client  *plugin.Client
	stderr  *tailbuf.Buffer
	logFile *os.File

	schemaMu sync.Mutex
	schemas  *schemaSet
	// binary identifies the plugin's executable for the schemas shared
	// between processes of it ("" for a reattached provider).
	binary string
	// schemaCacheDir is where schemas are kept between commands ("": not).
	schemaCacheDir string

	closed    atomic.Bool
	closeOnce sync.Once
}

var (
	_ providers.Interface        = (*Client)(nil)
	_ providers.IdentityUpgrader = (*Client)(nil)
)

// ProtocolVersion returns the negotiated plugin protocol version, 5 or 6.
func (p *Client) ProtocolVersion() int { return p.version }

// Pid returns the plugin process's ID.
func (p *Client) Pid() int { return p.pid }

// GetProviderSchema returns the provider's schemas. The plugin is asked
// once per Client; later calls return the same response, whose maps the
// caller must not modify.
func (p *Client) GetProviderSchema(ctx context.Context) providers.GetProviderSchemaResponse {
	set, diags := p.schema(ctx)
	if set == nil {
		return providers.GetProviderSchemaResponse{Diagnostics: diags}
	}
	return set.resp
}

// schema fetches and caches the converted schemas. It returns a nil set
// only when the call itself failed; a set whose response carries errors is
// cached, and those errors are returned to every operation.
func (p *Client) schema(ctx context.Context) (*schemaSet, providers.Diagnostics) {
	p.schemaMu.Lock()
	defer p.schemaMu.Unlock()
	if p.schemas != nil {
		return p.schemas, p.schemas.resp.Diagnostics
	}
	if set := p.cachedSchema(ctx); set != nil {
		p.schemas = set
		return set, set.resp.Diagnostics
	}
	set, err := p.wire.getProviderSchema(ctx)
	if set == nil {
		return nil, p.callError(ctx, "GetProviderSchema", err)
	}
	if err != nil {
		set.resp.Diagnostics = set.resp.Diagnostics.Errorf("Invalid provider schema",
			"The provider %s returned a schema strata cannot use: %s. This is a bug in the provider; please report it in the provider's issue tracker.", p.name, err)
	}
	if !set.resp.Diagnostics.HasErrors() {
		ids, raw, ierr := p.wire.getResourceIdentitySchemas(ctx)
		if ierr != nil && status.Code(ierr) != codes.Unimplemented && ids.schemas == nil {
			set.resp.Diagnostics = append(set.resp.Diagnostics, p.callError(ctx, "GetResourceIdentitySchemas", ierr)...)
			err = ierr
		} else {
			set.identityRaw = raw
			if ierr := p.mergeIdentity(set, ids, ierr); ierr != nil {
				err = ierr
			}
		}
	}
	p.schemas = set
	if err == nil {
		p.keepSchema(set)
	}
	return set, set.resp.Diagnostics
}

// mergeIdentity adds the identity schemas of a GetResourceIdentitySchemas
// response (protocol 5.9 / 6.9) to the resource types of set. Called
// before set is shared. A provider that does not implement the call has
// no identities (err is then codes.Unimplemented and ids empty).
func (p *Client) mergeIdentity(set *schemaSet, ids identitySchemas, err error) error {
	if err != nil && status.Code(err) == codes.Unimplemented {
		return nil
	}
	set.resp.Diagnostics = append(set.resp.Diagnostics, ids.diagnostics...)
	if err != nil {
		set.resp.Diagnostics = set.resp.Diagnostics.Errorf("Invalid provider schema",
			"The provider %s returned an identity schema strata cannot use: %s. This is a bug in the provider; please report it in the provider's issue tracker.", p.name, err)
		return err
	}
	for name, id := range ids.schemas {
		s, ok := set.resp.ResourceTypes[name]
		if !ok {
			// Terraform ignores identities of types the provider does
			// not declare; so does strata.
			continue
		}
		s.Identity, s.IdentityVersion = id.block, id.version
		set.resp.ResourceTypes[name] = s
	}
	return nil
}

func (p *Client) resourceSchema(ctx context.Context, typeName string) (*schemaSet, providers.Schema, providers.Diagnostics) {
	set, diags := p.schema(ctx)
	if diags.HasErrors() {
		return nil, providers.Schema{}, diags
	}
	s, ok := set.resp.ResourceTypes[typeName]
	if !ok {
		return nil, providers.Schema{}, diags.Errorf("Unsupported resource type",
			"The provider %s does not support resource type %q.", p.name, typeName)
	}
	return set, s, diags
}

func (p *Client) dataSchema(ctx context.Context, typeName string) (*schemaSet, providers.Schema, providers.Diagnostics) {
	set, diags := p.schema(ctx)
	if diags.HasErrors() {
		return nil, providers.Schema{}, diags
	}
	s, ok := set.resp.DataSources[typeName]
	if !ok {
		return nil, providers.Schema{}, diags.Errorf("Unsupported data source",
			"The provider %s does not support data source %q.", p.name, typeName)
	}
	return set, s, diags
}

// warnings returns the warnings of schema diagnostics, which an operation
// passes on; their errors have already stopped it.
func warnings(diags providers.Diagnostics) providers.Diagnostics {
	var out providers.Diagnostics
	for _, d := range diags {
		if d.Severity == providers.Warning {
			out = append(out, d)
		}
	}
	return out
}

// encoder collects the encoding errors of one request.
type encoder struct {
	diags providers.Diagnostics
}

func (e *encoder) encode(what string, v cty.Value, ty cty.Type) dynVal {
	mp, err := convert.EncodeValue(v, ty)
	if err != nil {
		e.diags = e.diags.Errorf("Failed to encode a value for the provider",
			"strata could not encode the %s as the provider's schema requires: %s. This is a bug in strata.", what, err)
	}
	return dynVal{msgpack: mp}
}

// meta encodes a provider_meta value, or returns nil when the provider
// declares no provider_meta schema and so expects none.
func (e *encoder) meta(set *schemaSet, v cty.Value) *dynVal {
	if set.providerMeta == nil {
		return nil
	}
	dv := e.encode("provider_meta", v, blockType(set.providerMeta))
	return &dv
}

// identity encodes an identity value for a type with schema s, or
// returns nil when the type has no identity or v is none (cty.NilVal or
// null), so that nothing is sent.
func (e *encoder) identity(what string, s providers.Schema, v cty.Value) *dynVal {
	if s.Identity == nil || v == cty.NilVal || v.IsNull() {
		return nil
	}
	dv := e.encode(what, v, s.IdentityType())
	return &dv
}

// decodeIdentity decodes an identity the provider returned, cty.NilVal
// when it returned none or the type has no identity schema (the
// identity of such a type is ignored, as Terraform does).
func (p *Client) decodeIdentity(diags *providers.Diagnostics, what string, dv *dynVal, s providers.Schema) cty.Value {
	if dv == nil || s.Identity == nil {
		return cty.NilVal
	}
	return p.decode(diags, what, *dv, s.IdentityType())
}

func (p *Client) decode(diags *providers.Diagnostics, what string, dv dynVal, ty cty.Type) cty.Value {
	v, err := convert.DecodeValue(dv.msgpack, dv.json, ty)
	if err != nil {
		*diags = diags.Errorf("Invalid provider response",
			"The provider %s returned an invalid %s: %s. This is a bug in the provider; please report it in the provider's issue tracker.", p.name, what, err)
		return cty.NullVal(ty)
	}
	return v
}

func (p *Client) refuseDeferral(diags providers.Diagnostics, reason, what string) providers.Diagnostics {
	if reason == "" {
		return diags
	}
	return diags.Errorf("Provider deferred an action",
		"The provider %s asked to defer %s (reason: %s), but strata does not support deferred actions. Make the values this depends on known first, for example by applying the resources they come from with -target, and run again.",
		p.name, what, strings.ToLower(reason))
}

// ValidateProviderConfig calls ValidateProviderConfig (PrepareProviderConfig
// in protocol 5, whose prepared config is returned when the provider sends
// one; otherwise the request's config is).
func (p *Client) ValidateProviderConfig(ctx context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	resp := providers.ValidateProviderConfigResponse{PreparedConfig: req.Config}
	set, diags := p.schema(ctx)
	if diags.HasErrors() {
		resp.Diagnostics = diags
		return resp
	}
	resp.Diagnostics = warnings(diags)
	ty := blockType(set.resp.Provider.Block)
	var enc encoder
	config := enc.encode("provider configuration", req.Config, ty)
	if enc.diags.HasErrors() {
		resp.Diagnostics = append(resp.Diagnostics, enc.diags...)
		return resp
	}
	prepared, pdiags, err := p.wire.validateProviderConfig(ctx, config)
	if err != nil {
		resp.Diagnostics = append(resp.Diagnostics, p.callError(ctx, "ValidateProviderConfig", err)...)
		return resp
	}
	resp.Diagnostics = append(resp.Diagnostics, pdiags...)
	if prepared != nil {
		resp.PreparedConfig = p.decode(&resp.Diagnostics, "prepared provider configuration", *prepared, ty)
	}
	return resp
}

// ValidateResourceConfig calls ValidateResourceConfig
// (ValidateResourceTypeConfig in protocol 5).
func (p *Client) ValidateResourceConfig(ctx context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	_, s, diags := p.resourceSchema(ctx, req.TypeName)
	if diags.HasErrors() {
		return providers.ValidateResourceConfigResponse{Diagnostics: diags}
	}
	var enc encoder
	config := enc.encode("resource configuration", req.Config, blockType(s.Block))
	if enc.diags.HasErrors() {
		return providers.ValidateResourceConfigResponse{Diagnostics: append(diags, enc.diags...)}
	}
	vdiags, err := p.wire.validateResourceConfig(ctx, req.TypeName, config)
	if err != nil {
		return providers.ValidateResourceConfigResponse{Diagnostics: append(diags, p.callError(ctx, "ValidateResourceConfig", err)...)}
	}
	return providers.ValidateResourceConfigResponse{Diagnostics: append(warnings(diags), vdiags...)}
}

// ValidateDataResourceConfig calls ValidateDataResourceConfig
// (ValidateDataSourceConfig in protocol 5).
func (p *Client) ValidateDataResourceConfig(ctx context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	_, s, diags := p.dataSchema(ctx, req.TypeName)
	if diags.HasErrors() {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: diags}
	}
	var enc encoder
	config := enc.encode("data source configuration", req.Config, blockType(s.Block))
	if enc.diags.HasErrors() {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: append(diags, enc.diags...)}
	}
	vdiags, err := p.wire.validateDataResourceConfig(ctx, req.TypeName, config)
	if err != nil {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: append(diags, p.callError(ctx, "ValidateDataResourceConfig", err)...)}
	}
	return providers.ValidateDataResourceConfigResponse{Diagnostics: append(warnings(diags), vdiags...)}
}

// UpgradeResourceState sends the raw stored object (JSON, or a legacy
// flat map) and decodes the result with the current schema.
func (p *Client) UpgradeResourceState(ctx context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	_, s, diags := p.resourceSchema(ctx, req.TypeName)
	if diags.HasErrors() {
		return providers.UpgradeResourceStateResponse{UpgradedState: cty.NilVal, Diagnostics: diags}
	}
	ty := blockType(s.Block)
	resp := providers.UpgradeResourceStateResponse{UpgradedState: cty.NullVal(ty), Diagnostics: warnings(diags)}
	upgraded, udiags, err := p.wire.upgradeResourceState(ctx, upgradeRequest{
		typeName: req.TypeName, version: req.Version, json: req.RawStateJSON, flatmap: req.RawStateFlatmap,
	})
	if err != nil {
		resp.Diagnostics = append(resp.Diagnostics, p.callError(ctx, "UpgradeResourceState", err)...)
		return resp
	}
	resp.Diagnostics = append(resp.Diagnostics, udiags...)
	resp.UpgradedState = p.decode(&resp.Diagnostics, "upgraded state", upgraded, ty)
	return resp
}

// ConfigureProvider calls ConfigureProvider (Configure in protocol 5). The
// configuration may contain unknown values.
func (p *Client) ConfigureProvider(ctx context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	set, diags := p.schema(ctx)
	if diags.HasErrors() {
		return providers.ConfigureProviderResponse{Diagnostics: diags}
	}
	var enc encoder
	config := enc.encode("provider configuration", req.Config, blockType(set.resp.Provider.Block))
	if enc.diags.HasErrors() {
		return providers.ConfigureProviderResponse{Diagnostics: append(diags, enc.diags...)}
	}
	cdiags, err := p.wire.configureProvider(ctx, req.TerraformVersion, config)
	if err != nil {
		return providers.ConfigureProviderResponse{Diagnostics: append(diags, p.callError(ctx, "ConfigureProvider", err)...)}
	}
	return providers.ConfigureProviderResponse{Diagnostics: append(warnings(diags), cdiags...)}
}

// ReadResource refreshes a resource; a null NewState means it is gone.
func (p *Client) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	set, s, diags := p.resourceSchema(ctx, req.TypeName)
	if diags.HasErrors() {
		return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private, Diagnostics: diags}
	}
	ty := blockType(s.Block)
	resp := providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private, Diagnostics: warnings(diags)}
	var enc encoder
	wreq := readRequest{
		typeName:     req.TypeName,
		currentState: enc.encode("prior state", req.PriorState, ty),
		private:      req.Private,
		providerMeta: enc.meta(set, req.ProviderMeta),
		identity:     enc.identity("current identity", s, req.CurrentIdentity),
	}
	if enc.diags.HasErrors() {
		resp.Diagnostics = append(resp.Diagnostics, enc.diags...)
		return resp
	}
	wresp, err := p.wire.readResource(ctx, wreq)
	if err != nil {
		resp.Diagnostics = append(resp.Diagnostics, p.callError(ctx, "ReadResource", err)...)
		return resp
	}
	resp.Diagnostics = append(resp.Diagnostics, wresp.diagnostics...)
	resp.Diagnostics = p.refuseDeferral(resp.Diagnostics, wresp.deferred, "reading "+req.TypeName)
	resp.NewState = p.decode(&resp.Diagnostics, "new state", wresp.newState, ty)
	resp.Identity = p.decodeIdentity(&resp.Diagnostics, "new identity", wresp.identity, s)
	resp.Private = wresp.private
	return resp
}

// PlanResourceChange plans a change. A destroy (null proposed new state)
// is only sent to providers that declare the plan_destroy capability; for
// the others the planned state is null at once, as with Terraform.
func (p *Client) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	set, s, diags := p.resourceSchema(ctx, req.TypeName)
	if diags.HasErrors() {
		return providers.PlanResourceChangeResponse{Diagnostics: diags}
	}
	ty := blockType(s.Block)
	resp := providers.PlanResourceChangeResponse{PlannedState: cty.NullVal(ty), Diagnostics: warnings(diags)}
	destroy := req.ProposedNewState == cty.NilVal || req.ProposedNewState.IsNull()
	if destroy && !set.planDestroy {
		resp.PlannedPrivate = req.PriorPrivate
		return resp
	}
	var enc encoder
	wreq := planRequest{
		typeName:         req.TypeName,
		priorState:       enc.encode("prior state", req.PriorState, ty),
		proposedNewState: enc.encode("proposed new state", req.ProposedNewState, ty),
		config:           enc.encode("configuration", req.Config, ty),
		priorPrivate:     req.PriorPrivate,
		providerMeta:     enc.meta(set, req.ProviderMeta),
		priorIdentity:    enc.identity("prior identity", s, req.PriorIdentity),
	}
	if enc.diags.HasErrors() {
		resp.Diagnostics = append(resp.Diagnostics, enc.diags...)
		return resp
	}
	wresp, err := p.wire.planResourceChange(ctx, wreq)
	if err != nil {
		resp.Diagnostics = append(resp.Diagnostics, p.callError(ctx, "PlanResourceChange", err)...)
		return resp
	}
	resp.Diagnostics = append(resp.Diagnostics, wresp.diagnostics...)
	resp.Diagnostics = p.refuseDeferral(resp.Diagnostics, wresp.deferred, "planning "+req.TypeName)
	resp.PlannedState = p.decode(&resp.Diagnostics, "planned state", wresp.plannedState, ty)
	resp.PlannedIdentity = p.decodeIdentity(&resp.Diagnostics, "planned identity", wresp.plannedIdentity, s)
	resp.RequiresReplace = wresp.requiresReplace
	resp.PlannedPrivate = wresp.plannedPrivate
	resp.LegacyTypeSystem = wresp.legacyTypeSystem
	return resp
}

// ApplyResourceChange applies a planned change; a null PlannedState
// destroys the object.
func (p *Client) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	set, s, diags := p.resourceSchema(ctx, req.TypeName)
	if diags.HasErrors() {
		return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Diagnostics: diags}
	}
	ty := blockType(s.Block)
	resp := providers.ApplyResourceChangeResponse{NewState: cty.NullVal(ty), Diagnostics: warnings(diags)}
	var enc encoder
	wreq := applyRequest{
		typeName:        req.TypeName,
		priorState:      enc.encode("prior state", req.PriorState, ty),
		plannedState:    enc.encode("planned state", req.PlannedState, ty),
		config:          enc.encode("configuration", req.Config, ty),
		plannedPrivate:  req.PlannedPrivate,
		providerMeta:    enc.meta(set, req.ProviderMeta),
		plannedIdentity: enc.identity("planned identity", s, req.PlannedIdentity),
	}
	if enc.diags.HasErrors() {
		resp.NewState = req.PriorState
		resp.Diagnostics = append(resp.Diagnostics, enc.diags...)
		return resp
	}
	wresp, err := p.wire.applyResourceChange(ctx, wreq)
	if err != nil {
		// The outcome is unknown; keep the prior state so that nothing
		// that existed is forgotten.
		resp.NewState = req.PriorState
		resp.Diagnostics = append(resp.Diagnostics, p.callError(ctx, "ApplyResourceChange", err)...)
		return resp
	}
	resp.Diagnostics = append(resp.Diagnostics, wresp.diagnostics...)
	resp.NewState = p.decode(&resp.Diagnostics, "new state", wresp.newState, ty)
	resp.NewIdentity = p.decodeIdentity(&resp.Diagnostics, "new identity", wresp.newIdentity, s)
	resp.Private = wresp.private
	resp.LegacyTypeSystem = wresp.legacyTypeSystem
	return resp
}

// ImportResourceState turns an import ID into import stub states, each
// decoded with the schema of the type the provider names for it.
func (p *Client) ImportResourceState(ctx context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	set, rs, diags := p.resourceSchema(ctx, req.TypeName)
	if diags.HasErrors() {
		return providers.ImportResourceStateResponse{Diagnostics: diags}
	}
	resp := providers.ImportResourceStateResponse{Diagnostics: warnings(diags)}
	var enc encoder
	identity := enc.identity("identity to import", rs, req.Identity)
	if enc.diags.HasErrors() {
		resp.Diagnostics = append(resp.Diagnostics, enc.diags...)
		return resp
	}
	wresp, err := p.wire.importResourceState(ctx, req.TypeName, req.ID, identity)
	if err != nil {
		resp.Diagnostics = append(resp.Diagnostics, p.callError(ctx, "ImportResourceState", err)...)
		return resp
	}
	resp.Diagnostics = append(resp.Diagnostics, wresp.diagnostics...)
	resp.Diagnostics = p.refuseDeferral(resp.Diagnostics, wresp.deferred, "importing "+req.TypeName)
	for _, r := range wresp.resources {
		s, ok := set.resp.ResourceTypes[r.typeName]
		if !ok {
			resp.Diagnostics = resp.Diagnostics.Errorf("Invalid provider response",
				"The provider %s returned an imported object of resource type %q, which its schema does not have. This is a bug in the provider; please report it in the provider's issue tracker.", p.name, r.typeName)
			continue
		}
		state := p.decode(&resp.Diagnostics, "imported state", r.state, blockType(s.Block))
		resp.ImportedResources = append(resp.ImportedResources, providers.ImportedResource{
			TypeName: r.typeName, State: state, Private: r.private,
			Identity: p.decodeIdentity(&resp.Diagnostics, "imported identity", r.identity, s),
		})
	}
	return resp
}

// UpgradeResourceIdentity sends an identity stored with an older identity
// schema version and decodes the result with the current identity schema.
func (p *Client) UpgradeResourceIdentity(ctx context.Context, req providers.UpgradeResourceIdentityRequest) providers.UpgradeResourceIdentityResponse {
	_, s, diags := p.resourceSchema(ctx, req.TypeName)
	if diags.HasErrors() {
		return providers.UpgradeResourceIdentityResponse{UpgradedIdentity: cty.NilVal, Diagnostics: diags}
	}
	resp := providers.UpgradeResourceIdentityResponse{UpgradedIdentity: cty.NilVal, Diagnostics: warnings(diags)}
	if s.Identity == nil {
		resp.Diagnostics = resp.Diagnostics.Errorf("Resource type has no identity",
			"The provider %s declares no identity schema for resource type %q, but the state holds an identity for one of its objects.", p.name, req.TypeName)
		return resp
	}
	upgraded, udiags, err := p.wire.upgradeResourceIdentity(ctx, req.TypeName, req.Version, req.RawIdentityJSON)
	if err != nil {
		resp.Diagnostics = append(resp.Diagnostics, p.callError(ctx, "UpgradeResourceIdentity", err)...)
		return resp
	}
	resp.Diagnostics = append(resp.Diagnostics, udiags...)
	if upgraded == nil {
		if !resp.Diagnostics.HasErrors() {
			resp.Diagnostics = resp.Diagnostics.Errorf("Invalid provider response",
				"The provider %s returned no upgraded identity for resource type %q. This is a bug in the provider; please report it in the provider's issue tracker.", p.name, req.TypeName)
		}
		return resp
	}
	resp.UpgradedIdentity = p.decode(&resp.Diagnostics, "upgraded identity", *upgraded, s.IdentityType())
	return resp
}

// ReadDataSource reads a data source.
func (p *Client) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	set, s, diags := p.dataSchema(ctx, req.TypeName)
	if diags.HasErrors() {
		return providers.ReadDataSourceResponse{Diagnostics: diags}
	}
	ty := blockType(s.Block)
	resp := providers.ReadDataSourceResponse{State: cty.NullVal(ty), Diagnostics: warnings(diags)}
	var enc encoder
	config := enc.encode("data source configuration", req.Config, ty)
	meta := enc.meta(set, req.ProviderMeta)
	if enc.diags.HasErrors() {
		resp.Diagnostics = append(resp.Diagnostics, enc.diags...)
		return resp
	}
	wresp, err := p.wire.readDataSource(ctx, req.TypeName, config, meta)
	if err != nil {
		resp.Diagnostics = append(resp.Diagnostics, p.callError(ctx, "ReadDataSource", err)...)
		return resp
	}
	resp.Diagnostics = append(resp.Diagnostics, wresp.diagnostics...)
	resp.Diagnostics = p.refuseDeferral(resp.Diagnostics, wresp.deferred, "reading data source "+req.TypeName)
	resp.State = p.decode(&resp.Diagnostics, "data source state", wresp.state, ty)
	return resp
}

// Stop calls StopProvider (Stop in protocol 5), asking the provider to
// cancel its in-flight operations. It returns once the provider has
// acknowledged it, or with the provider's error.
func (p *Client) Stop(ctx context.Context) error {
	if p.closed.Load() {
		return nil
	}
	if err := p.wire.stop(ctx); err != nil {
		return fmt.Errorf("stopping provider %s: %w", p.name, err)
	}
	return nil
}

// Close ends the plugin process: gracefully through go-plugin's shutdown
// call, then killed if it has not exited within two seconds. It waits for
// the process to be gone and may be called more than once.
func (p *Client) Close(context.Context) error {
	p.closeOnce.Do(func() {
		p.closed.Store(true)
		p.client.Kill()
		if p.logFile != nil {
			_ = p.logFile.Close()
		}
	})
	return nil
}

// callError turns a failed call into a diagnostic. When the process has
// died (a provider crash), the end of its output, which holds the panic
// message, goes into the detail.
func (p *Client) callError(ctx context.Context, method string, err error) providers.Diagnostics {
	var diags providers.Diagnostics
	if p.closed.Load() {
		return diags.Errorf("Provider is closed",
			"strata called %s on the provider %s after closing it. This is a bug in strata.", method, p.name)
	}
	code := status.Code(err)
	switch {
	case code == codes.Unimplemented:
		return diags.Errorf("Unsupported provider operation",
			"The provider %s does not implement %s: %s.", p.name, method, status.Convert(err).Message())
	case ctx.Err() != nil || code == codes.Canceled:
		return diags.Errorf("Provider operation cancelled",
			"The %s call to the provider %s was cancelled before it finished.", method, p.name)
	}
	if code == codes.Unavailable {
		// Give go-plugin a moment to notice that the process ended.
		for i := 0; i < 20 && !p.client.Exited(); i++ {
			time.Sleep(25 * time.Millisecond)
		}
	}
	if p.client.Exited() {
		detail := fmt.Sprintf("The provider %s exited unexpectedly during the %s call; it probably crashed. This is a bug in the provider; please report it in the provider's issue tracker.", p.name, method)
		if out := crashOutput(p.stderr.String()); out != "" {
			detail += "\n\nThe provider's last output:\n" + out
		}
		return diags.Errorf("Plugin did not respond", "%s", detail)
	}
	return diags.Errorf("Plugin did not respond",
		"The provider %s failed to respond to the %s call: %s. Run with TF_LOG=trace for the provider's logs.", p.name, method, status.Convert(err).Message())
}

// crashOutput picks from the end of a plugin's stderr what explains a
// crash: everything from a Go panic or fatal error on, or else the lines
// that are not structured log entries (which TF_LOG shows anyway).
func crashOutput(stderr string) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	for i, line := range lines {
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
			return strings.Join(lines[i:], "\n")
		}
	}
	var keep []string
	for _, line := range lines {
		if !strings.HasPrefix(line, `{"@`) && strings.TrimSpace(line) != "" {
			keep = append(keep, line)
		}
	}
	if len(keep) > 40 {
		keep = keep[len(keep)-40:]
	}
	return strings.Join(keep, "\n")
}
