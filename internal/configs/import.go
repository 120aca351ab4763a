package configs

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/strata-dev/strata/internal/addrs"
)

// Import is an `import` block: adopt the object with ID at To during the
// next plan and apply. With for_each, the block stands for one import per
// element, and ID and ToKey are evaluated with each.key and each.value.
type Import struct {
	// To is the target instance. When ToKey is set, To has no key and
	// names only the resource.
	To addrs.AbsResourceInstance
	// ToKey is the index expression of a target such as
	// terraform_data.a[each.key]; nil when the target is static.
	ToKey     hcl.Expression
	ForEach   hcl.Expression
	ID        hcl.Expression
	DeclRange hcl.Range
}

var importSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "to", Required: true}, {Name: "id", Required: true}, {Name: "for_each"}, {Name: "provider"}},
}

func decodeImport(block *hcl.Block) (*Import, hcl.Diagnostics) {
	content, diags := block.Body.Content(importSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	attr := content.Attributes["to"]
	invalid := func(detail string) hcl.Diagnostics {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid import address",
			Detail:   detail,
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	im := &Import{ID: content.Attributes["id"].Expr, DeclRange: block.DefRange}
	if fe, ok := content.Attributes["for_each"]; ok {
		im.ForEach = fe.Expr
	}
	toExpr := attr.Expr
	if ix, ok := toExpr.(*hclsyntax.IndexExpr); ok {
		// A computed index: the resource is static, the key an expression.
		toExpr, im.ToKey = ix.Collection, ix.Key
		diags = append(diags, noFunctionCalls(ix.Key)...)
	}
	trav, tdiags := hcl.AbsTraversalForExpr(toExpr)
	if tdiags.HasErrors() {
		return nil, invalid(`The to address must be a resource instance such as terraform_data.a, terraform_data.a["key"] or, with for_each, terraform_data.a[each.key].`)
	}
	to, idiags := addrs.ParseAbsResourceInstance(trav)
	if idiags.HasErrors() || to.Resource.Resource.Mode != addrs.ManagedResourceMode || !to.Module.IsRoot() || (im.ToKey != nil && to.Resource.Key != addrs.NoKey) {
		return nil, invalid("The to address must be a managed resource instance in this module.")
	}
	im.To = to
	if _, ok := content.Attributes["provider"]; ok {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported argument",
			Detail:   "The provider argument of import blocks is not supported yet; the resource's own provider is used.",
			Subject:  content.Attributes["provider"].NameRange.Ptr(),
		})
	}
	return im, diags
}

// noFunctionCalls reports function calls in expr, which Terraform does not
// allow in an import block's to address.
func noFunctionCalls(expr hclsyntax.Expression) hcl.Diagnostics {
	var diags hcl.Diagnostics
	_ = hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
		if call, ok := n.(*hclsyntax.FunctionCallExpr); ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Function calls not allowed",
				Detail:   "Functions may not be called here.",
				Subject:  call.Range().Ptr(),
			})
		}
		return nil
	})
	return diags
}
