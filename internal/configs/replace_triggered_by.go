package configs

import "github.com/hashicorp/hcl/v2"

// checkReplaceTriggeredBy reports replace_triggered_by entries that refer
// to anything but resources, count.index and each.key, or to no resource
// at all, as Terraform does when loading the configuration.
func checkReplaceTriggeredBy(exprs []hcl.Expression) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, e := range exprs {
		hasResource := false
		for _, trav := range e.Variables() {
			switch root := trav.RootName(); root {
			case "count", "each":
				if allowedInstanceRef(trav) {
					continue
				}
			case "var", "local", "module", "path", "terraform", "self":
			default: // a managed resource type, or data
				hasResource = true
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid reference in replace_triggered_by expression",
				Detail:   "Only resources, count.index, and each.key may be used in replace_triggered_by.",
				Subject:  trav.SourceRange().Ptr(),
			})
		}
		if !hasResource {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid replace_triggered_by expression",
				Detail:   "Missing resource reference in replace_triggered_by expression.",
				Subject:  e.Range().Ptr(),
			})
		}
	}
	return diags
}

// allowedInstanceRef reports whether trav is count.index or each.key.
func allowedInstanceRef(trav hcl.Traversal) bool {
	if len(trav) != 2 {
		return false
	}
	attr, ok := trav[1].(hcl.TraverseAttr)
	if !ok {
		return false
	}
	return (trav.RootName() == "count" && attr.Name == "index") || (trav.RootName() == "each" && attr.Name == "key")
}
