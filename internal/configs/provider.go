package configs

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
)

// Provider is a provider configuration block.
type Provider struct {
	Name      string
	Alias     string
	Config    hcl.Body
	DeclRange hcl.Range
}

func (p *Provider) moduleKey() string {
	if p.Alias != "" {
		return p.Name + "." + p.Alias
	}
	return p.Name
}

var providerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "version"}},
}

func decodeProvider(block *hcl.Block) (*Provider, hcl.Diagnostics) {
	p := &Provider{Name: block.Labels[0], DeclRange: block.DefRange}
	diags := checkName(p.Name, "provider", block.LabelRanges[0])
	content, remain, cdiags := block.Body.PartialContent(providerSchema)
	diags = append(diags, cdiags...)
	p.Config = remain
	if attr, ok := content.Attributes["alias"]; ok {
		trav, tdiags := hcl.RelTraversalForExpr(attr.Expr)
		if tdiags.HasErrors() || len(trav) != 1 {
			diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &p.Alias)...)
		} else {
			p.Alias = trav.RootName()
		}
	}
	return p, diags
}
