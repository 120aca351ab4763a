package configs

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
)

// rootEphemeralOutputs reports the root module's outputs declared
// ephemeral: a root module's outputs are stored in state, so, as in
// Terraform, only child modules may return ephemeral values.
func rootEphemeralOutputs(mod *Module) hcl.Diagnostics {
	var diags hcl.Diagnostics
	names := make([]string, 0, len(mod.Outputs))
	for name := range mod.Outputs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if o := mod.Outputs[name]; o.Ephemeral {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Ephemeral output not allowed",
				Detail:   "Ephemeral outputs are not allowed in context of a root module",
				Subject:  o.DeclRange.Ptr(),
			})
		}
	}
	return diags
}
