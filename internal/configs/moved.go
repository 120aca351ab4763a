package configs

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
)

// Moved is a `moved` block: objects recorded at From are now at To.
type Moved struct {
	From, To  addrs.Target
	DeclRange hcl.Range
}

var movedSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}, {Name: "to", Required: true}},
}

func decodeMoved(block *hcl.Block) (*Moved, hcl.Diagnostics) {
	content, diags := block.Body.Content(movedSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	m := &Moved{DeclRange: block.DefRange}
	parse := func(name string) (addrs.Target, bool) {
		attr := content.Attributes[name]
		trav, tdiags := hcl.AbsTraversalForExpr(attr.Expr)
		if tdiags.HasErrors() {
			diags = append(diags, tdiags...)
			return addrs.Target{}, false
		}
		inst, idiags := addrs.ParseAbsResourceInstance(trav)
		if idiags.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid \"moved\" address",
				Detail:   "The " + name + " address must be a resource or resource instance in this module, such as terraform_data.a or terraform_data.a[0]. Moving modules is not supported yet.",
				Subject:  attr.Expr.Range().Ptr(),
			})
			return addrs.Target{}, false
		}
		_, indexed := trav[len(trav)-1].(hcl.TraverseIndex)
		return addrs.Target{Resource: inst.ContainingResource(), Key: inst.Resource.Key, Instance: indexed}, true
	}
	from, ok1 := parse("from")
	to, ok2 := parse("to")
	if !ok1 || !ok2 {
		return nil, diags
	}
	if from.Instance != to.Instance {
		// Moving between a resource and an instance: the resource side
		// means its single, unkeyed instance, as in Terraform.
		from.Instance, to.Instance = true, true
	}
	if from.Resource.Resource.Type != to.Resource.Resource.Type {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Resource type mismatch",
			Detail:   "This statement declares a move from an object of type " + from.Resource.Resource.Type + " to type " + to.Resource.Resource.Type + ". A resource can only be moved to a resource of the same type.",
			Subject:  block.DefRange.Ptr(),
		})
		return nil, diags
	}
	m.From, m.To = from, to
	return m, diags
}
