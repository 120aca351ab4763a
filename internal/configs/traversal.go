package configs

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// absTraversalForExpr is hcl.AbsTraversalForExpr that also accepts a
// reference written as a quoted string ("aws_instance.a"), the form
// Terraform 0.11 required. Like Terraform, it warns about the quotes.
func absTraversalForExpr(expr hcl.Expression) (hcl.Traversal, hcl.Diagnostics) {
	tmpl, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok || len(tmpl.Parts) != 1 {
		return hcl.AbsTraversalForExpr(expr)
	}
	lit, ok := tmpl.Parts[0].(*hclsyntax.LiteralValueExpr)
	if !ok || lit.Val.Type() != cty.String || lit.Val.IsNull() {
		return hcl.AbsTraversalForExpr(expr)
	}
	// The string's content starts just after the opening quote.
	start := lit.SrcRange.Start
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(lit.Val.AsString()), lit.SrcRange.Filename, start)
	if diags.HasErrors() {
		return hcl.AbsTraversalForExpr(expr)
	}
	return trav, hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "Quoted references are deprecated",
		Detail:   "In this context, references are expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of strata. Remove the quotes surrounding this reference to silence this warning.",
		Subject:  expr.Range().Ptr(),
	}}
}

// relTraversalForExpr is the relative form of absTraversalForExpr.
func relTraversalForExpr(expr hcl.Expression) (hcl.Traversal, hcl.Diagnostics) {
	trav, diags := absTraversalForExpr(expr)
	if diags.HasErrors() || len(trav) == 0 {
		return trav, diags
	}
	root, ok := trav[0].(hcl.TraverseRoot)
	if !ok {
		return trav, diags
	}
	ret := make(hcl.Traversal, len(trav))
	copy(ret, trav)
	ret[0] = hcl.TraverseAttr{Name: root.Name, SrcRange: root.SrcRange}
	return ret, diags
}
