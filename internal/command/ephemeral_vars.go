package command

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/plans"
)

// applyTimeVariables sets, in a saved plan about to be applied, the
// ephemeral variables that were set when it was made and so were not
// stored in it: as in Terraform, they must be given again (-var,
// -var-file, TF_VAR_ or a variables file). Only they may be set when
// applying a saved plan.
func applyTimeVariables(d *Deps, f *varFlags, cfg *configs.Config, plan *plans.Plan) hcl.Diagnostics {
	applyTime := map[string]bool{}
	for _, name := range plan.ApplyTimeVariables {
		applyTime[name] = true
	}
	var diags hcl.Diagnostics
	if len(applyTime) == 0 && len(*f.items) == 0 {
		return nil
	}
	// Names the command line sets: those of -var, and of every variable
	// when a -var-file is given.
	onCommandLine := map[string]bool{}
	for _, it := range *f.items {
		if it.file {
			continue
		}
		name, _, _ := strings.Cut(it.value, "=")
		onCommandLine[strings.TrimSpace(name)] = true
	}
	hasFile := false
	for _, it := range *f.items {
		hasFile = hasFile || it.file
	}
	vals, vdiags := collectVariables(d, cfg.Module, d.newParser(), f, false)
	diags = append(diags, vdiags...)
	if diags.HasErrors() {
		return diags
	}
	names := make([]string, 0, len(cfg.Module.Variables))
	for name := range cfg.Module.Variables {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		decl := cfg.Module.Variables[name]
		v, set := vals[name]
		switch {
		case applyTime[name] && set:
			plan.VariableValues[name] = v.Value
		case applyTime[name]:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "No value for required variable",
				Detail:   fmt.Sprintf("The ephemeral input variable %q was set during the plan phase, and so must also be set during the apply phase.", name),
			})
		case decl.Ephemeral && set && (onCommandLine[name] || hasFile):
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Ephemeral variable was not set during planning",
				Detail:   fmt.Sprintf("The ephemeral input variable %q was not set during the planning phase, and so must remain unset during the apply phase.", name),
			})
		case onCommandLine[name] || (hasFile && len(applyTime) == 0 && !decl.Ephemeral):
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Can't set variables when applying a saved plan",
				Detail:   "The -var and -var-file options cannot be used when applying a saved plan file, because a saved plan includes the variable values that were set when it was created.",
			})
			return diags
		}
	}
	return diags
}
