package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/strata-dev/strata/internal/addrs"
)

// Removed is a `removed` block: a resource or module call taken out of the
// configuration, whose objects are to be destroyed (Destroy, the default)
// or only forgotten.
type Removed struct {
	From    addrs.Target
	Destroy bool
	// Provisioners are the destroy-time provisioners to run before a
	// removed resource's objects are destroyed.
	Provisioners []*Provisioner
	DeclRange    hcl.Range
}

var removedSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "lifecycle"}, {Type: "provisioner", LabelNames: []string{"type"}}, {Type: "connection"}},
}

func decodeRemoved(block *hcl.Block) (*Removed, hcl.Diagnostics) {
	content, diags := block.Body.Content(removedSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	r := &Removed{Destroy: true, DeclRange: block.DefRange}
	var connection *hcl.Block
	attr := content.Attributes["from"]
	trav, tdiags := hcl.AbsTraversalForExpr(attr.Expr)
	if tdiags.HasErrors() {
		return nil, append(diags, tdiags...)
	}
	mi, isModule := addrs.ParseModuleInstance(trav)
	inst, idiags := addrs.ParseAbsResourceInstance(trav)
	if idiags.HasErrors() && !isModule {
		// As Terraform: the address parser's own errors, but steps after
		// a module call or a resource are keys, which removed does not
		// take.
		switch idiags[0].Detail {
		case addrs.DetailModuleKeySteps, addrs.DetailExtraSteps, addrs.DetailExtraOperators:
			if d := instanceKeyDiag(trav); d != nil {
				return nil, append(diags, d)
			}
			return nil, append(diags, resourceKeysDiag(idiags[0].Subject))
		}
		return nil, append(diags, idiags...)
	}
	if d := instanceKeyDiag(trav); d != nil {
		return nil, append(diags, d)
	}
	if !isModule && inst.Resource.Resource.Mode == addrs.DataResourceMode {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Data source address not allowed",
			Detail:   "Data sources are never destroyed, so they are not valid targets of removed blocks. To remove the data source from state, remove the data source block from configuration.",
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	r.From = addrs.Target{Resource: inst.ContainingResource()}
	if isModule {
		r.From = addrs.Target{Resource: addrs.AbsResource{Module: mi}, Module: true}
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			lc, _, lcdiags := b.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "destroy"}}})
			diags = append(diags, lcdiags...)
			if a, ok := lc.Attributes["destroy"]; ok {
				diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &r.Destroy)...)
			}
		case "connection", "provisioner":
			if r.From.Module || r.From.Resource.Resource.Mode != addrs.ManagedResourceMode {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Invalid %s block", b.Type),
					Detail:   "Provisioners are valid only when a removed block targets a managed resource.",
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			if b.Type == "connection" {
				if connection != nil {
					diags = append(diags, duplicateConnection(b, "removed block", connection))
					continue
				}
				connection = b
				continue
			}
			p, pdiags := decodeProvisioner(b)
			diags = append(diags, pdiags...)
			if p == nil {
				continue
			}
			if p.When != ProvisionerWhenDestroy {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid provisioner block",
					Detail:   "Only destroy-time provisioners are valid in \"removed\" blocks. To declare a destroy-time provisioner, use:\n    when = destroy",
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			r.Provisioners = append(r.Provisioners, p)
		}
	}
	diags = append(diags, connectProvisioners(r.Provisioners, connection)...)
	return r, diags
}

// instanceKeyDiag reports the first instance key in a removed block's
// from address, as Terraform does: on a module call or on the resource,
// pointing at the key.
func instanceKeyDiag(trav hcl.Traversal) *hcl.Diagnostic {
	for i, step := range trav {
		idx, ok := step.(hcl.TraverseIndex)
		if !ok {
			continue
		}
		// A key right after module.NAME is a module instance's.
		onModule := i >= 2 && traversalName(trav[i-2]) == "module"
		d := resourceKeysDiag(idx.SrcRange.Ptr())
		if onModule {
			d.Summary = "Module instance keys not allowed"
			d.Detail = `Module address must be a module (e.g. "module.foo"), not a module instance (e.g. "module.foo[1]").`
		}
		return d
	}
	return nil
}

// resourceKeysDiag is Terraform's error for a removed block's address
// that names resource instances.
func resourceKeysDiag(subject *hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Resource instance keys not allowed",
		Detail:   `Resource address must be a resource (e.g. "test_instance.foo"), not a resource instance (e.g. "test_instance.foo[1]").`,
		Subject:  subject,
	}
}

// traversalName is the name of a root or attribute step, else "".
func traversalName(step hcl.Traverser) string {
	switch s := step.(type) {
	case hcl.TraverseRoot:
		return s.Name
	case hcl.TraverseAttr:
		return s.Name
	}
	return ""
}
