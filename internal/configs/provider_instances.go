package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/strata-dev/strata/internal/addrs"
)

// Provider for_each, as OpenTofu 1.9 has it: a provider block with an
// alias and for_each declares one provider instance per element, and a
// reference to it must select one with an instance key, NAME.ALIAS[KEY],
// in a resource's provider argument or on the right of a module block's
// providers map. The checks here need only the module itself: a key
// selects an instance of a provider block of the same module.

// checkProviderInstances reports the provider references of module c that
// do not fit the configurations they name: a key for a configuration
// without for_each, none for one with it, a key on the child's side of a
// providers map. It also warns, as OpenTofu does, when a resource or
// module call iterates over the same collection as the provider
// configuration it selects instances of: removing an element would then
// remove the provider instance its objects need to be destroyed.
func checkProviderInstances(c *Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	mod := c.Module
	check := func(ref *ProviderRef, what string) hcl.Diagnostics {
		summary := fmt.Sprintf("Invalid %s provider configuration", what)
		pc, declared := mod.ProviderConfigs[ref.String()]
		instanced := declared && pc.ForEach != nil
		switch {
		case ref.KeyExpr != nil && !declared:
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  summary,
				Detail:   fmt.Sprintf("This module doesn't declare a provider %q block with alias = %q, which is required for use with for_each.", ref.Name, ref.Alias),
				Subject:  ref.NameRange.Ptr(),
			}}
		case ref.KeyExpr != nil && !instanced:
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  summary,
				Detail:   "An instance key can be specified only for a provider configuration that uses for_each.",
				Subject:  ref.KeyExpr.Range().Ptr(),
			}}
		case ref.KeyExpr == nil && instanced:
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  summary,
				Detail:   "A reference to a provider configuration which uses for_each requires an instance key. Passing a collection of provider instances into a child module is not allowed.",
				Subject:  ref.NameRange.Ptr(),
			}}
		}
		return nil
	}
	for _, name := range sortedMapKeys(mod.ModuleCalls) {
		mc := mod.ModuleCalls[name]
		for _, pp := range mc.Providers {
			if pp.InChild.KeyExpr != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid module provider configuration",
					Detail:   "Instance keys are not allowed on the left side of a provider configuration assignment.",
					Subject:  pp.InChild.KeyExpr.Range().Ptr(),
				})
			}
			d := check(&pp.InParent, "module")
			diags = append(diags, d...)
			if d == nil && pp.InParent.KeyExpr != nil {
				pc := mod.ProviderConfigs[pp.InParent.String()]
				diags = append(diags, sameForEachWarning("module", "-target="+c.Path.Child(name).String(), mc.ForEach, pc.ForEach)...)
			}
		}
	}
	for _, m := range []map[string]*Resource{mod.ManagedResources, mod.DataResources, mod.EphemeralResources} {
		for _, key := range sortedMapKeys(m) {
			r := m[key]
			if r.ProviderRef == nil {
				continue
			}
			d := check(r.ProviderRef, "resource")
			diags = append(diags, d...)
			if d == nil && r.ProviderRef.KeyExpr != nil && r.Mode == addrs.ManagedResourceMode {
				target := r.Addr().String()
				if !c.Path.IsRoot() {
					target = c.Path.String() + "." + target
				}
				pc := mod.ProviderConfigs[r.ProviderRef.String()]
				diags = append(diags, sameForEachWarning("resource", "-target="+target, r.ForEach, pc.ForEach)...)
			}
		}
	}
	return diags
}

// sameForEachWarning warns when a resource or module call (what) uses the
// same for_each expression as the provider configuration whose instances
// it selects, in OpenTofu's words.
func sameForEachWarning(what, target string, forEach, providerForEach hcl.Expression) hcl.Diagnostics {
	if forEach == nil || providerForEach == nil || len(forEach.Variables()) == 0 || !sameExpr(forEach, providerForEach) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "Provider configuration for_each matches " + what,
		Detail: fmt.Sprintf("This provider configuration uses the same for_each expression as a %s, which means that subsequent removal of elements from this collection would cause a planning error.\n\n"+
			"strata relies on a provider instance to destroy resource instances that are associated with it, and so the provider instance must outlive all of its resource instances by at least one plan/apply round. For removal of instances to succeed in future you must structure the configuration so that the provider block's for_each expression can produce a superset of the instances of the resources associated with the provider configuration.\n\n"+
			"To destroy this object before removing the provider configuration, consider first performing a targeted destroy:\n    strata apply -destroy %s", what, target),
		Subject: forEach.Range().Ptr(),
	}}
}

// sameExpr reports whether two expressions are written alike, ignoring
// parentheses: the same references, function calls and literals. It is a
// best effort, for a warning.
func sameExpr(a, b hcl.Expression) bool {
	if p, ok := a.(*hclsyntax.ParenthesesExpr); ok {
		return sameExpr(p.Expression, b)
	}
	if p, ok := b.(*hclsyntax.ParenthesesExpr); ok {
		return sameExpr(a, p.Expression)
	}
	switch a := a.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		b, ok := b.(*hclsyntax.ScopeTraversalExpr)
		return ok && sameTraversal(a.Traversal, b.Traversal)
	case *hclsyntax.FunctionCallExpr:
		b, ok := b.(*hclsyntax.FunctionCallExpr)
		if !ok || a.Name != b.Name || len(a.Args) != len(b.Args) || a.ExpandFinal != b.ExpandFinal {
			return false
		}
		for i := range a.Args {
			if !sameExpr(a.Args[i], b.Args[i]) {
				return false
			}
		}
		return true
	case *hclsyntax.LiteralValueExpr:
		b, ok := b.(*hclsyntax.LiteralValueExpr)
		return ok && a.Val.RawEquals(b.Val)
	case *hclsyntax.TemplateExpr:
		b, ok := b.(*hclsyntax.TemplateExpr)
		if !ok || len(a.Parts) != len(b.Parts) {
			return false
		}
		for i := range a.Parts {
			if !sameExpr(a.Parts[i], b.Parts[i]) {
				return false
			}
		}
		return true
	case *hclsyntax.TupleConsExpr:
		b, ok := b.(*hclsyntax.TupleConsExpr)
		if !ok || len(a.Exprs) != len(b.Exprs) {
			return false
		}
		for i := range a.Exprs {
			if !sameExpr(a.Exprs[i], b.Exprs[i]) {
				return false
			}
		}
		return true
	}
	return false
}

func sameTraversal(a, b hcl.Traversal) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		switch sa := a[i].(type) {
		case hcl.TraverseRoot:
			sb, ok := b[i].(hcl.TraverseRoot)
			if !ok || sa.Name != sb.Name {
				return false
			}
		case hcl.TraverseAttr:
			sb, ok := b[i].(hcl.TraverseAttr)
			if !ok || sa.Name != sb.Name {
				return false
			}
		case hcl.TraverseIndex:
			sb, ok := b[i].(hcl.TraverseIndex)
			if !ok || !sa.Key.RawEquals(sb.Key) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
