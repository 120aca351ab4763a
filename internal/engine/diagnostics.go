package engine

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/providers"
)

// providerDiags converts provider diagnostics into hcl.Diagnostics. A
// diagnostic with an attribute path gets the source range of that
// attribute in body when the configuration sets it, otherwise fallback.
func providerDiags(pd providers.Diagnostics, body hcl.Body, fallback *hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, d := range pd {
		sev := hcl.DiagError
		if d.Severity == providers.Warning {
			sev = hcl.DiagWarning
		}
		subject := fallback
		if rng := attributeRange(body, d.Attribute); rng != nil {
			subject = rng
		}
		diags = append(diags, &hcl.Diagnostic{Severity: sev, Summary: d.Summary, Detail: d.Detail, Subject: subject})
	}
	return diags
}

// attributeRange finds the range of the expression for the first
// attribute step of path in body, or nil.
func attributeRange(body hcl.Body, path cty.Path) *hcl.Range {
	if body == nil || len(path) == 0 {
		return nil
	}
	step, ok := path[0].(cty.GetAttrStep)
	if !ok {
		return nil
	}
	content, _, _ := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: step.Name}}})
	if content == nil {
		return nil
	}
	if attr, ok := content.Attributes[step.Name]; ok {
		return attr.Expr.Range().Ptr()
	}
	return nil
}
