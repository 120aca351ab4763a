package terraform

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/states/statefile"
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

// readRemoteState reads the root outputs of another configuration's
// state. Only the local backend is supported.
func readRemoteState(req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	var resp providers.ReadDataSourceResponse
	cfg := req.Config
	backend := cfg.GetAttr("backend").AsString()
	if backend != "local" {
		resp.Diagnostics = resp.Diagnostics.Errorf("Unsupported backend for terraform_remote_state",
			"This version of strata reads remote state only from the \"local\" backend, not %q.", backend)
		return resp
	}
	path := "terraform.tfstate"
	workspaceDir := "terraform.tfstate.d"
	if c := cfg.GetAttr("config"); !c.IsNull() && c.Type().IsObjectType() {
		if c.Type().HasAttribute("path") {
			if p := c.GetAttr("path"); p.Type() == cty.String && !p.IsNull() {
				path = p.AsString()
			}
		}
		if c.Type().HasAttribute("workspace_dir") {
			if p := c.GetAttr("workspace_dir"); p.Type() == cty.String && !p.IsNull() {
				workspaceDir = p.AsString()
			}
		}
	}
	if ws := cfg.GetAttr("workspace"); !ws.IsNull() && ws.AsString() != "default" {
		path = filepath.Join(workspaceDir, ws.AsString(), filepath.Base(path))
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
	src, err := os.ReadFile(path)
	if os.IsNotExist(err) || (err == nil && len(src) == 0) {
		// As in Terraform, even with defaults.
		resp.Diagnostics = resp.Diagnostics.Errorf("Unable to find remote state", "No stored state was found for the given workspace in the given backend.")
		return resp
	}
	if err != nil {
		resp.Diagnostics = providers.ErrorDiag("Unable to read remote state", err)
		return resp
	}
	s, err := statefile.Read(src)
	if err != nil {
		resp.Diagnostics = providers.ErrorDiag("Unable to read remote state", fmt.Errorf("%s: %w", path, err))
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
