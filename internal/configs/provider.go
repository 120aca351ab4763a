package configs

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Provider is a provider configuration block.
type Provider struct {
	Name      string
	Alias     string
	Config    hcl.Body
	DeclRange hcl.Range
}

// IsEmpty reports whether the block sets nothing but alias (and version).
// In a child module such a block is a proxy, as Terraform calls it: it
// declares that the module expects its caller to pass in a configuration,
// and the caller's configuration takes its place when one is passed.
func (p *Provider) IsEmpty() bool {
	_, diags := p.Config.Content(&hcl.BodySchema{})
	return !diags.HasErrors()
}

func (p *Provider) moduleKey() string {
	if p.Alias != "" {
		return p.Name + "." + p.Alias
	}
	return p.Name
}

var providerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "version"}, {Name: "for_each"}},
}

func decodeProvider(block *hcl.Block) (*Provider, hcl.Diagnostics) {
	p := &Provider{Name: block.Labels[0], DeclRange: block.DefRange}
	diags := checkName(p.Name, "provider", block.LabelRanges[0])
	content, remain, cdiags := block.Body.PartialContent(providerSchema)
	diags = append(diags, cdiags...)
	p.Config = remain
	if attr, ok := content.Attributes["for_each"]; ok {
		// OpenTofu 1.9's provider for_each is not supported: refused as
		// Terraform refuses it.
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Reserved argument name in provider block",
			Detail:   `The provider argument name "for_each" is reserved for use by strata in a future version.`,
			Subject:  attr.NameRange.Ptr(),
		})
	}
	if attr, ok := content.Attributes["alias"]; ok {
		// A string, as in Terraform. (hcl.RelTraversalForExpr was tried
		// first here, but its result has no root, so RootName panicked for
		// a bare `alias = x` and for every alias in JSON syntax.)
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &p.Alias)...)
		if p.Alias != "" && !hclsyntax.ValidIdentifier(p.Alias) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider configuration alias",
				Detail:   "An alias must be a valid name. A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.",
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	return p, diags
}
