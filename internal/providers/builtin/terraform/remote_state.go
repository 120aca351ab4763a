package terraform

import (
	"context"
	"errors"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/providers"
)

// remoteStateSchema is the schema of the terraform_remote_state data
// source, as Terraform defines it.
func remoteStateSchema() *configschema.Block {
	return &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"backend":   {Type: cty.String, Required: true, Description: "The remote backend to use, e.g. `remote` or `http`.", DescriptionKind: "markdown"},
			"config":    {Type: cty.DynamicPseudoType, Optional: true, Description: "The configuration of the remote backend. Although this is optional, most backends require some configuration.\n\nThe object can use any arguments that would be valid in the equivalent `terraform { backend \"<TYPE>\" { ... } }` block.", DescriptionKind: "markdown"},
			"defaults":  {Type: cty.DynamicPseudoType, Optional: true, Description: "Default values for outputs, in case the state file is empty or lacks a required output.", DescriptionKind: "markdown"},
			"outputs":   {Type: cty.DynamicPseudoType, Computed: true, Description: "An object containing every root-level output in the remote state.", DescriptionKind: "markdown"},
			"workspace": {Type: cty.String, Optional: true, Description: "The Terraform workspace to use, if the backend supports workspaces.", DescriptionKind: "markdown"},
		},
	}
}

// RemoteStateKey is the name of the terraform_remote_state data source
// at addr in remote_state_data_sources: data.terraform_remote_state.foo[4]
// is foo[4], module.m[1].data.terraform_remote_state.bar is m[1].bar (OpenTofu's
// names).
func RemoteStateKey(addr string) string {
	key := strings.Replace(addr, "data.terraform_remote_state.", "", 1)
	key = strings.TrimPrefix(key, "module.")
	return key
}

// readRemoteState reads the root outputs of another configuration's
// state, from a backend whose type can be read so (see
// backend.StateReader).
func (p *Provider) readRemoteState(req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	var resp providers.ReadDataSourceResponse
	cfg := req.Config
	name := cfg.GetAttr("backend").AsString()
	typ, ok := backend.Lookup(name)
	if !ok || !typ.ReadsState() {
		resp.Diagnostics = resp.Diagnostics.Errorf("Unsupported backend for terraform_remote_state",
			"This version of strata reads remote state from the %s backends, not %q.", backend.StateReaderNames(), name)
		return resp
	}
	args, diags := remoteStateArgs(typ, cfg.GetAttr("config"))
	if diags.HasErrors() {
		resp.Diagnostics = diags
		return resp
	}
	workspace := "default"
	if ws := cfg.GetAttr("workspace"); !ws.IsNull() {
		workspace = ws.AsString()
	}
	outputs := map[string]cty.Value{}
	if d := cfg.GetAttr("defaults"); !d.IsNull() {
		if !d.Type().IsObjectType() && !d.Type().IsMapType() {
			resp.Diagnostics = resp.Diagnostics.Errorf("Invalid defaults", "The defaults argument must be an object.")
			return resp
		}
		for it := d.ElementIterator(); it.Next(); {
			k, v := it.Element()
			outputs[k.AsString()] = v
		}
	}
	var enc *encryption.Target
	if p.RemoteStateEncryption != nil {
		enc = p.RemoteStateEncryption(RemoteStateKey(req.Addr))
	}
	s, found, err := typ.ReadState(context.Background(), args, backend.Options{Getenv: p.getenv(), WorkDir: p.WorkDir}, workspace, enc)
	var invalid *backend.InvalidError
	if errors.As(err, &invalid) {
		resp.Diagnostics = resp.Diagnostics.Errorf(invalid.Summary, "%s", invalid.Detail)
		return resp
	}
	var cfgErr *backend.ConfigError
	if errors.As(err, &cfgErr) {
		// As Terraform: the backend's error, bare.
		resp.Diagnostics = append(resp.Diagnostics, providers.Diagnostic{Severity: providers.Error, Summary: cfgErr.Msg, Sourceless: true})
		return resp
	}
	if err != nil {
		resp.Diagnostics = providers.ErrorDiag("Unable to read remote state", err)
		return resp
	}
	if !found {
		// As in Terraform, even with defaults.
		resp.Diagnostics = resp.Diagnostics.Errorf("Unable to find remote state", "No stored state was found for the given workspace in the given backend.")
		return resp
	}
	for name, o := range s.Outputs {
		outputs[name] = o.Value
	}
	vals := cfg.AsValueMap()
	vals["outputs"] = cty.ObjectVal(outputs)
	resp.State = cty.ObjectVal(vals)
	return resp
}

// remoteStateArgs checks config, terraform_remote_state's config
// argument, against backend type typ's arguments (backend.ValueArgs),
// reporting a problem on the argument, as Terraform does.
func remoteStateArgs(typ *backend.Type, config cty.Value) (map[string]cty.Value, providers.Diagnostics) {
	args, diags := backend.ValueArgs(typ, config)
	var out providers.Diagnostics
	for _, d := range diags {
		out = append(out, providers.Diagnostic{Severity: providers.Error, Summary: d.Summary, Detail: d.Detail, Attribute: cty.GetAttrPath("config")})
	}
	return args, out
}

// validateRemoteState checks, as Terraform validates it before planning,
// a terraform_remote_state's config against its backend's arguments, and
// what the backend checks in them without reaching its store.
func (p *Provider) validateRemoteState(cfg cty.Value) providers.Diagnostics {
	if cfg.IsNull() || !cfg.IsKnown() {
		return nil
	}
	name := cfg.GetAttr("backend")
	if !name.IsKnown() || name.IsNull() {
		return nil
	}
	typ, ok := backend.Lookup(name.AsString())
	if !ok || !typ.ReadsState() {
		return nil // reported when it is read
	}
	config := cfg.GetAttr("config")
	args, diags := remoteStateArgs(typ, config)
	if diags.HasErrors() || !config.IsWhollyKnown() {
		return diags
	}
	for _, e := range typ.CheckArgs(args, backend.Options{Getenv: p.getenv(), WorkDir: p.WorkDir}) {
		diags = diags.Errorf(e.Summary, "%s", e.Detail)
	}
	return diags
}
