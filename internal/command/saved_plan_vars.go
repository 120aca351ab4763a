package command

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/plans"
)

// applyTimeVariables checks, as Terraform does, the variable values given
// when applying a saved plan (-var, -var-file, TF_VAR_ and the variables
// files read automatically), and sets in the plan the ephemeral variables
// that were set when it was made and so were not stored in it: they must
// be given again. Variables files are read with p.
//
// A variable the plan was given a value for may be given the same value
// again (the same value as given, before conversion: -var n=1 gives the
// string "1", a variables file the number 1). Another value is an error
// from -var or -var-file, a warning from the environment, and ignored
// from an automatic variables file. A variable the plan took the default
// of is treated as undeclared (see gatherVariables).
func applyTimeVariables(d *Deps, p *configs.Parser, f *varFlags, cfg *configs.Config, plan *plans.Plan) hcl.Diagnostics {
	applyTime := map[string]bool{}
	for _, name := range plan.ApplyTimeVariables {
		applyTime[name] = true
	}
	defaulted := map[string]bool{}
	for _, name := range plan.DefaultedVariables {
		defaulted[name] = true
	}
	declared := func(name string) bool {
		decl := cfg.Module.Variables[name]
		if decl == nil {
			return false
		}
		_, planned := plan.VariableValues[name]
		return applyTime[name] || decl.Ephemeral || planned && !defaulted[name]
	}
	vals, diags := gatherVariables(d, cfg.Module, p, &varFlags{items: f.items}, declared)
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
		case !set:
		case decl.Ephemeral:
			if v.From == fromCLI || v.From == fromNamedFile {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Ephemeral variable was not set during planning",
					Detail:   fmt.Sprintf("The ephemeral input variable %q was not set during the planning phase, and so must remain unset during the apply phase.", name),
					Subject:  rangePtr(v.Source),
				})
			}
		default:
			if cd := changedVariableDiag(plan.VariableValues[name], name, v); cd != nil {
				diags = append(diags, cd)
			}
		}
	}
	return diags
}

// rangePtr is r, or nil when r is the zero range.
func rangePtr(r hcl.Range) *hcl.Range {
	if r.Filename == "" {
		return nil
	}
	return &r
}

// changedVariableDiag is Terraform's diagnostic for a variable given a
// value other than the saved plan's, planned: an error for -var and
// -var-file, a warning for TF_VAR_; nil when the values are the same or
// the value comes from a variables file read automatically.
func changedVariableDiag(planned cty.Value, name string, given givenVariable) *hcl.Diagnostic {
	if planned != cty.NilVal && given.Value != cty.NilVal {
		p, _ := planned.UnmarkDeep()
		g, _ := given.Value.UnmarkDeep()
		if p.RawEquals(g) {
			return nil
		}
	}
	const tail = "To declare an ephemeral variable which is not saved in the plan file, use ephemeral = true."
	detail := func(verb, by string) string {
		return fmt.Sprintf("The variable %s cannot be %s when applying a saved plan file, because a saved plan includes the variable values that were set when it was created. "+
			"The saved plan specifies %s as the value whereas during apply the value %s was set by %s. "+tail, name, verb, compactValue(planned), compactValue(given.Value), by)
	}
	switch given.From {
	case fromCLI:
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Can't change variable when applying a saved plan",
			Detail:   detail("set using the -var and -var-file options", "a CLI argument"),
		}
	case fromNamedFile:
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Can't change variable when applying a saved plan",
			Detail:   detail("set using the -var and -var-file options", "a .tfvars file passed through -var-file argument"),
			Subject:  rangePtr(given.Source),
		}
	case fromEnv:
		// Terraform's spelling.
		return &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Ignoring variable when applying a saved plan",
			Detail:   detail("overriden", "an environment variable"),
		}
	}
	return nil
}

// compactValue renders a value as Terraform's messages about variable
// values show one: "x" quoted, 1, true, null, and a collection or
// structure by its type and size ("tuple with 1 element").
func compactValue(v cty.Value) string {
	switch {
	case v == cty.NilVal:
		return "null"
	case v.IsMarked():
		return "(sensitive value)"
	case !v.IsKnown():
		return "(not yet known)"
	case v.IsNull():
		return "null"
	}
	if s := views.CompactValue(v); s != "" {
		return s
	}
	return v.Type().FriendlyName()
}
