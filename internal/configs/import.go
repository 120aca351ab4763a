package configs

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
)

// Import is an `import` block: adopt the object with ID at To during the
// next plan and apply.
type Import struct {
	To        addrs.AbsResourceInstance
	ID        hcl.Expression
	DeclRange hcl.Range
}

var importSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "to", Required: true}, {Name: "id", Required: true}, {Name: "provider"}},
}

func decodeImport(block *hcl.Block) (*Import, hcl.Diagnostics) {
	content, diags := block.Body.Content(importSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	attr := content.Attributes["to"]
	trav, tdiags := hcl.AbsTraversalForExpr(attr.Expr)
	if tdiags.HasErrors() {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid import address",
			Detail:   "The to address must be a resource instance such as terraform_data.a or terraform_data.a[\"key\"]; expressions in the index are not supported yet.",
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	to, idiags := addrs.ParseAbsResourceInstance(trav)
	if idiags.HasErrors() || to.Resource.Resource.Mode != addrs.ManagedResourceMode || !to.Module.IsRoot() {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid import address",
			Detail:   "The to address must be a managed resource instance in this module.",
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	if _, ok := content.Attributes["provider"]; ok {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported argument",
			Detail:   "The provider argument of import blocks is not supported yet; the resource's own provider is used.",
			Subject:  content.Attributes["provider"].NameRange.Ptr(),
		})
	}
	return &Import{To: to, ID: content.Attributes["id"].Expr, DeclRange: block.DefRange}, diags
}
