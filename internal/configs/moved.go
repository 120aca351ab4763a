package configs

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
)

// Moved is a `moved` block: objects recorded at From are now at To. The
// addresses are relative to the module declaring the block. A block moves
// either resources (From and To) or modules (FromModule and ToModule).
type Moved struct {
	From, To addrs.Target
	// IsModule is set for a move of a whole module call (module.a to
	// module.b) or of one module instance (module.a[0] to module.b["x"]).
	IsModule             bool
	FromModule, ToModule addrs.ModuleInstance
	// ModuleInstance is set when the module addresses name instances, so
	// only that instance moves; otherwise every instance of the call moves
	// with its key.
	ModuleInstance bool
	DeclRange      hcl.Range
}

// FromAddr returns the source address as written, relative to the module.
func (m *Moved) FromAddr() string {
	if m.IsModule {
		return m.FromModule.String()
	}
	return m.From.String()
}

// ToAddr returns the destination address as written.
func (m *Moved) ToAddr() string {
	if m.IsModule {
		return m.ToModule.String()
	}
	return m.To.String()
}

var movedSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}, {Name: "to", Required: true}},
}

// moveEndpoint is one parsed side of a moved block.
type moveEndpoint struct {
	target   addrs.Target
	isModule bool
	module   addrs.ModuleInstance
	keyed    bool // the last step has an index
}

func decodeMoved(block *hcl.Block) (*Moved, hcl.Diagnostics) {
	content, diags := block.Body.Content(movedSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	m := &Moved{DeclRange: block.DefRange}
	parse := func(name string) (moveEndpoint, bool) {
		attr := content.Attributes[name]
		trav, tdiags := hcl.AbsTraversalForExpr(attr.Expr)
		if tdiags.HasErrors() {
			diags = append(diags, tdiags...)
			return moveEndpoint{}, false
		}
		_, keyed := trav[len(trav)-1].(hcl.TraverseIndex)
		if mi, ok := addrs.ParseModuleInstance(trav); ok {
			return moveEndpoint{isModule: true, module: mi, keyed: keyed}, true
		}
		inst, idiags := addrs.ParseAbsResourceInstance(trav)
		if idiags.HasErrors() {
			// As Terraform: the address parser's own errors.
			diags = append(diags, idiags...)
			return moveEndpoint{}, false
		}
		return moveEndpoint{target: addrs.Target{Resource: inst.ContainingResource(), Key: inst.Resource.Key, Instance: keyed}}, true
	}
	from, ok1 := parse("from")
	to, ok2 := parse("to")
	if !ok1 || !ok2 {
		return nil, diags
	}
	if from.isModule != to.isModule {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid \"moved\" addresses",
			Detail:   "The \"from\" and \"to\" addresses must either both refer to resources or both refer to modules.",
			Subject:  block.DefRange.Ptr(),
		})
		return nil, diags
	}
	if from.isModule {
		m.IsModule, m.FromModule, m.ToModule = true, from.module, to.module
		// A move between a call and an instance means the call's single,
		// unkeyed instance, as for resources.
		m.ModuleInstance = from.keyed || to.keyed
		return m, diags
	}
	f, t := from.target, to.target
	if f.Instance != t.Instance {
		// Moving between a resource and an instance: the resource side
		// means its single, unkeyed instance, as in Terraform.
		f.Instance, t.Instance = true, true
	}
	if f.Resource.Resource.Type != t.Resource.Resource.Type {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Resource type mismatch",
			Detail:   "This statement declares a move from an object of type " + f.Resource.Resource.Type + " to type " + t.Resource.Resource.Type + ". A resource can only be moved to a resource of the same type.",
			Subject:  block.DefRange.Ptr(),
		})
		return nil, diags
	}
	m.From, m.To = f, t
	return m, diags
}
