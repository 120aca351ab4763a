package terraform

import (
	"context"
	"os"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/ctyjson"
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/providers"
)

// Provider implements providers.Interface for terraform.io/builtin/terraform.
type Provider struct {
	// RemoteStateEncryption returns the encryption of the state the
	// terraform_remote_state data source key reads (key is its address
	// without "data.terraform_remote_state." and "module.", as OpenTofu
	// names them in remote_state_data_sources); nil reads unencrypted
	// states only.
	RemoteStateEncryption func(key string) *encryption.Target
	// WorkDir is the absolute working directory, which the relative paths
	// of terraform_remote_state's configuration (a local backend's path)
	// are in; empty means the process's.
	WorkDir string
	// Getenv reads the environment variables that stand in for unset
	// backend arguments; nil means the process's.
	Getenv func(string) string
}

// getenv is the provider's environment.
func (p *Provider) getenv() func(string) string {
	if p.Getenv == nil {
		return os.Getenv
	}
	return p.Getenv
}

var _ providers.Interface = (*Provider)(nil)

// GetProviderSchema implements providers.Interface.
func (p *Provider) GetProviderSchema(context.Context) providers.GetProviderSchemaResponse {
	return providers.GetProviderSchemaResponse{
		Provider:      providers.Schema{Block: &configschema.Block{}},
		ResourceTypes: map[string]providers.Schema{"terraform_data": {Block: dataSchema()}},
		DataSources:   map[string]providers.Schema{"terraform_remote_state": {Block: remoteStateSchema()}},
		Functions:     functionDecls(),
	}
}

// ValidateProviderConfig implements providers.Interface.
func (p *Provider) ValidateProviderConfig(_ context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	return providers.ValidateProviderConfigResponse{PreparedConfig: req.Config}
}

// ValidateResourceConfig implements providers.Interface.
func (p *Provider) ValidateResourceConfig(_ context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	var resp providers.ValidateResourceConfigResponse
	if req.TypeName != "terraform_data" {
		resp.Diagnostics = unsupported(req.TypeName)
	}
	return resp
}

// ValidateDataResourceConfig implements providers.Interface.
func (p *Provider) ValidateDataResourceConfig(_ context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	if req.TypeName == "terraform_remote_state" {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: p.validateRemoteState(req.Config)}
	}
	return providers.ValidateDataResourceConfigResponse{Diagnostics: unsupported(req.TypeName)}
}

// UpgradeResourceState implements providers.Interface. terraform_data has
// only ever had schema version 0, so this decodes the stored JSON.
func (p *Provider) UpgradeResourceState(_ context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	var resp providers.UpgradeResourceStateResponse
	if req.TypeName != "terraform_data" {
		resp.Diagnostics = unsupported(req.TypeName)
		return resp
	}
	if req.Version != 0 {
		resp.Diagnostics = resp.Diagnostics.Errorf("Unsupported schema version",
			"terraform_data has schema version 0; the state holds version %d, written by a newer tool.", req.Version)
		return resp
	}
	v, err := ctyjson.Unmarshal(req.RawStateJSON, dataType())
	if err != nil {
		resp.Diagnostics = providers.ErrorDiag("Invalid terraform_data state", err)
		return resp
	}
	resp.UpgradedState = v
	return resp
}

// ConfigureProvider implements providers.Interface.
func (p *Provider) ConfigureProvider(context.Context, providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	return providers.ConfigureProviderResponse{}
}

// ReadResource implements providers.Interface: terraform_data exists only
// in state, so the prior state is the current one. As Terraform's, it
// returns no private data (terraform_data keeps none; a state edited to
// hold some loses it at the next refresh).
func (p *Provider) ReadResource(_ context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	return providers.ReadResourceResponse{NewState: req.PriorState}
}

// PlanResourceChange implements providers.Interface.
func (p *Provider) PlanResourceChange(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	return planData(req)
}

// ApplyResourceChange implements providers.Interface.
func (p *Provider) ApplyResourceChange(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	return applyData(req)
}

// ImportResourceState implements providers.Interface: the ID becomes the id
// of an object with no input.
func (p *Provider) ImportResourceState(_ context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	var resp providers.ImportResourceStateResponse
	if req.TypeName != "terraform_data" {
		resp.Diagnostics = unsupported(req.TypeName)
		return resp
	}
	v := cty.ObjectVal(map[string]cty.Value{
		"id":               cty.StringVal(req.ID),
		"input":            cty.NullVal(cty.DynamicPseudoType),
		"output":           cty.NullVal(cty.DynamicPseudoType),
		"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
	})
	resp.ImportedResources = []providers.ImportedResource{{TypeName: req.TypeName, State: v}}
	return resp
}

// ReadDataSource implements providers.Interface.
func (p *Provider) ReadDataSource(_ context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	if req.TypeName == "terraform_remote_state" {
		return p.readRemoteState(req)
	}
	return providers.ReadDataSourceResponse{Diagnostics: unsupported(req.TypeName)}
}

// Stop implements providers.Interface; nothing here is long-running.
func (p *Provider) Stop(context.Context) error { return nil }

// Close implements providers.Interface.
func (p *Provider) Close(context.Context) error { return nil }

func unsupported(typeName string) providers.Diagnostics {
	return providers.Diagnostics{}.Errorf("Unsupported type",
		"The provider terraform.io/builtin/terraform has no %q type.", typeName)
}
