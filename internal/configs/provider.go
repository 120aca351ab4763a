package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Provider is a provider configuration block.
type Provider struct {
	Name  string
	Alias string
	// ForEach is OpenTofu's for_each on an aliased provider configuration:
	// one provider instance per element, each configured with its own
	// each.key and each.value. nil when absent.
	ForEach   hcl.Expression
	Config    hcl.Body
	DeclRange hcl.Range
}

// IsEmpty reports whether the block sets nothing but alias (and version).
// In a child module such a block is a proxy, as Terraform calls it: it
// declares that the module expects its caller to pass in a configuration,
// and the caller's configuration takes its place when one is passed.
func (p *Provider) IsEmpty() bool {
	if p.ForEach != nil {
		return false // instances of a configuration, not a proxy
	}
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
	Attributes: []hcl.AttributeSchema{
		{Name: "alias"}, {Name: "version"}, {Name: "for_each"},
		// Reserved for future use, as in Terraform.
		{Name: "count"}, {Name: "depends_on"}, {Name: "source"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "lifecycle"}, {Type: "locals"}},
}

func decodeProvider(block *hcl.Block) (*Provider, hcl.Diagnostics) {
	p := &Provider{Name: block.Labels[0], DeclRange: block.DefRange}
	diags := checkProviderLocalName(p.Name, block.DefRange)
	content, remain, cdiags := block.Body.PartialContent(providerSchema)
	diags = append(diags, cdiags...)
	p.Config = remain
	if attr, ok := content.Attributes["version"]; ok {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Version constraints inside provider configuration blocks are deprecated",
			Detail:   "Terraform 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of Terraform. To silence this warning, move the provider version constraint into the required_providers block.",
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	for _, name := range []string{"count", "depends_on", "source"} {
		if attr, ok := content.Attributes[name]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reserved argument name in provider block",
				Detail:   fmt.Sprintf("The provider argument name %q is reserved for use by strata in a future version.", name),
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	for _, b := range content.Blocks {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Reserved block type name in provider block",
			Detail:   fmt.Sprintf("The block type name %q is reserved for use by strata in a future version.", b.Type),
			Subject:  b.TypeRange.Ptr(),
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
	if attr, ok := content.Attributes["for_each"]; ok {
		// OpenTofu 1.9's provider for_each (Terraform reserves the name).
		p.ForEach = attr.Expr
		if p.Alias == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Alias required when using "for_each"`,
				Detail:   `The for_each argument is allowed only for provider configurations with an alias.`,
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
		diags = append(diags, checkProviderForEachRefs(attr.Expr)...)
	}
	return p, diags
}

// checkProviderForEachRefs refuses references a provider's for_each
// cannot use. Its instances must be known before anything is planned
// (OpenTofu evaluates it when it loads the configuration): input
// variables, local values, path and terraform.workspace only.
func checkProviderForEachRefs(expr hcl.Expression) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, trav := range expr.Variables() {
		switch trav.RootName() {
		case "var", "local", "path", "terraform":
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider for_each",
			Detail:   fmt.Sprintf("The for_each argument of a provider configuration can refer only to input variables, local values, path and terraform.workspace, whose values are known before anything is planned, not to %s.", traversalString(trav)),
			Subject:  trav.SourceRange().Ptr(),
		})
	}
	return diags
}
