package engine

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/genconfig"
)

// addGeneratedResources adds a resource, with no configuration yet, for
// each import block of the root module whose target is not configured:
// plan -generate-config-out writes the configuration from the imported
// object (generateResourceConfig). Import blocks with for_each or a
// computed target cannot have configuration generated.
func addGeneratedResources(cfg *configs.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, im := range cfg.Module.Imports {
		if cfg.Resource(im.To.Module.Module(), im.To.Resource.Resource) != nil {
			continue
		}
		if im.ForEach != nil || im.ToKey != nil || !im.To.Module.IsRoot() || im.To.Resource.Key != addrs.NoKey {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Cannot generate configuration",
				Detail:   fmt.Sprintf("strata generates configuration only for import blocks whose target is a single resource in the root module, without for_each or an instance key; write the configuration for %s yourself.", im.To),
				Subject:  im.DeclRange.Ptr(),
			})
			continue
		}
		r := im.To.Resource.Resource
		cfg.Module.ManagedResources[r.String()] = &configs.Resource{
			Mode: r.Mode, Type: r.Type, Name: r.Name, Config: hcl.EmptyBody(),
			Managed: &configs.ManagedLifecycle{}, Generated: true, ProviderRef: im.Provider,
			DeclRange: im.DeclRange, TypeRange: im.DeclRange,
		}
	}
	return diags
}

// generateResourceConfig writes the configuration of a generated resource
// from the object just imported for it, and makes it the resource's body
// for the rest of the plan. It returns the resource block.
func (pw *planWalk) generateResourceConfig(n *resourceNode, rt *resourceType, addr addrs.AbsResourceInstance) (string, hcl.Diagnostics) {
	obj := pw.state.Object(addr)
	if obj == nil {
		return "", nil
	}
	v, err := decodeObject(obj, rt)
	if err != nil {
		return "", errorDiags("Failed to generate configuration", err, n.cfg.DeclRange.Ptr())
	}
	provider := ""
	if n.cfg.ProviderRef != nil {
		provider = n.cfg.ProviderRef.String()
	}
	src := genconfig.Resource(n.addr.Resource, provider, rt.schema, markSchemaSensitive(v, rt.schema))
	f, diags := hclsyntax.ParseConfig([]byte(src), pw.opts.GenerateConfigOut, hcl.InitialPos)
	if diags.HasErrors() {
		return "", diags
	}
	content, _ := f.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "resource", LabelNames: []string{"type", "name"}}}})
	if len(content.Blocks) == 1 {
		// The provider argument is a meta-argument, not the type's.
		_, body, _ := content.Blocks[0].Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "provider"}}})
		n.cfg.Config = body
	}
	return src, nil
}
