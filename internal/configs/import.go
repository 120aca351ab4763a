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
	ToKey hcl.Expression
	// ToModuleKeys holds, per step of To.Module, the index expression of a
	// target such as module.m[each.key].terraform_data.a, or nil where the
	// step's key is static.
	ToModuleKeys []hcl.Expression
	ForEach      hcl.Expression
	// ID is the import ID expression; nil when Identity is given instead.
	ID hcl.Expression
	// Identity is the object expression of the resource identity to
	// import (Terraform 1.12); nil when ID is given. Exactly one of the
	// two is set in a valid block.
	Identity hcl.Expression
	// Provider is the provider argument, for a target whose configuration
	// is generated; nil when absent.
	Provider *ProviderRef
	// ProviderRange is the range of the provider argument.
	ProviderRange hcl.Range
	DeclRange     hcl.Range
}

var importSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "to", Required: true}, {Name: "id"}, {Name: "identity"}, {Name: "for_each"}, {Name: "provider"}},
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
	im := &Import{DeclRange: block.DefRange}
	if a, ok := content.Attributes["id"]; ok {
		im.ID = a.Expr
	}
	if a, ok := content.Attributes["identity"]; ok {
		im.Identity = a.Expr
	}
	switch {
	case im.ID == nil && im.Identity == nil:
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid import block",
			Detail:   "At least one of 'id' or 'identity' must be specified.",
			Subject:  block.DefRange.Ptr(),
		})
	case im.ID != nil && im.Identity != nil:
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid import block",
			Detail:   "Only one of 'id' or 'identity' can be specified.",
			Subject:  block.DefRange.Ptr(),
		})
	}
	if fe, ok := content.Attributes["for_each"]; ok {
		im.ForEach = fe.Expr
	}
	parts, ok := flattenAddrExpr(attr.Expr)
	if !ok {
		return nil, invalid(`The to address must be a resource instance such as terraform_data.a, terraform_data.a["key"] or, with for_each, terraform_data.a[each.key].`)
	}
	for _, p := range parts {
		if p.key != nil {
			diags = append(diags, noFunctionCalls(p.key)...)
		}
	}
	to, moduleKeys, toKey, ok := importTarget(parts)
	if !ok {
		return nil, invalid("The to address must be a managed resource instance, such as terraform_data.a or module.m[each.key].terraform_data.a.")
	}
	im.ToKey, im.ToModuleKeys = toKey, moduleKeys
	im.To = to
	if attr, ok := content.Attributes["provider"]; ok {
		ref, pdiags := decodeProviderRef(attr.Expr)
		diags = append(diags, pdiags...)
		if d := noProviderKey(ref, "The provider argument of an import block"); d != nil {
			diags, ref = append(diags, d), nil
		}
		im.Provider, im.ProviderRange = ref, attr.Range
	}
	return im, diags
}

// checkImportProviders reports import blocks whose provider argument is
// not for generating configuration, as Terraform does: their target is in
// a module, or it is configured without naming the same provider
// configuration. It runs once every file is loaded.
func (m *Module) checkImportProviders() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, im := range m.Imports {
		if im.Provider == nil {
			continue
		}
		var advice string
		if !im.To.Module.IsRoot() {
			advice = "Use the providers argument within the module block to configure providers for all resources within a module, including imported resources."
		} else if r, ok := m.ManagedResources[im.To.Resource.Resource.String()]; ok && (r.ProviderRef == nil || r.ProviderRef.String() != im.Provider.String()) {
			advice = "Use the provider argument in the target resource block to configure the provider for a resource with explicit provider configuration."
		}
		if advice != "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid import provider argument",
				Detail:   "The provider argument can only be specified in import blocks that will generate configuration.\n\n" + advice,
				Subject:  im.ProviderRange.Ptr(),
			})
		}
	}
	return diags
}

// addrPart is one step of an address written as an expression: a name, or
// an index that is either static (step) or computed (key).
type addrPart struct {
	name string
	step hcl.TraverseIndex
	key  hclsyntax.Expression
}

// flattenAddrExpr turns an address expression, possibly with computed
// indexes such as module.m[each.key].terraform_data.a, into its steps.
func flattenAddrExpr(expr hcl.Expression) ([]addrPart, bool) {
	var trav hcl.Traversal
	var prefix []addrPart
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		trav = e.Traversal
	case *hclsyntax.IndexExpr:
		parts, ok := flattenAddrExpr(e.Collection)
		if !ok {
			return nil, false
		}
		return append(parts, addrPart{key: e.Key}), true
	case *hclsyntax.RelativeTraversalExpr:
		parts, ok := flattenAddrExpr(e.Source)
		if !ok {
			return nil, false
		}
		prefix, trav = parts, e.Traversal
	default:
		return nil, false
	}
	out := prefix
	for _, step := range trav {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			out = append(out, addrPart{name: s.Name})
		case hcl.TraverseAttr:
			out = append(out, addrPart{name: s.Name})
		case hcl.TraverseIndex:
			out = append(out, addrPart{step: s})
		default:
			return nil, false
		}
	}
	return out, true
}

// importTarget builds an import block's target from its steps: the module
// path and managed resource, with each computed index returned as an
// expression (for module steps in moduleKeys, for the resource in key).
func importTarget(parts []addrPart) (to addrs.AbsResourceInstance, moduleKeys []hcl.Expression, key hcl.Expression, ok bool) {
	isIndex := func(i int) bool { return i < len(parts) && parts[i].name == "" }
	index := func(i int) (addrs.InstanceKey, hcl.Expression, bool) {
		if !isIndex(i) {
			return addrs.NoKey, nil, true
		}
		if parts[i].key != nil {
			return addrs.NoKey, parts[i].key, true
		}
		k, err := addrs.ParseInstanceKeyValue(parts[i].step.Key)
		return k, nil, err == nil
	}
	i := 0
	for i+1 < len(parts) && parts[i].name == "module" && parts[i+1].name != "" {
		k, expr, ok := index(i + 2)
		if !ok {
			return to, nil, nil, false
		}
		to.Module = append(to.Module, addrs.ModuleInstanceStep{Name: parts[i+1].name, Key: k})
		moduleKeys = append(moduleKeys, expr)
		i += 2
		if isIndex(i) {
			i++
		}
	}
	if i+2 > len(parts) || parts[i].name == "" || parts[i].name == "data" || parts[i+1].name == "" {
		return to, nil, nil, false
	}
	to.Resource.Resource = addrs.Resource{Mode: addrs.ManagedResourceMode, Type: parts[i].name, Name: parts[i+1].name}
	k, expr, ok := index(i + 2)
	end := i + 2
	if isIndex(end) {
		end++
	}
	if !ok || end != len(parts) {
		return to, nil, nil, false
	}
	to.Resource.Key = k
	return to, moduleKeys, expr, true
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
