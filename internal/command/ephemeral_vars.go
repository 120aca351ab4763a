package command

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

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
		case onCommandLine[name] && !hasFile && sameAsPlanned(plan, name, v.Value):
			// As Terraform: the value the plan was made with may be
			// given again.
		case onCommandLine[name] && !hasFile && changedVariableDiag(plan, name, v.Value) != nil:
			return append(diags, changedVariableDiag(plan, name, v.Value))
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

// sameAsPlanned reports whether a variable given when applying a saved
// plan has the value the plan was made with.
func sameAsPlanned(plan *plans.Plan, name string, given cty.Value) bool {
	planned, ok := plan.VariableValues[name]
	if !ok || planned == cty.NilVal || given == cty.NilVal {
		return false
	}
	conv, err := convert.Convert(given, planned.Type())
	if err != nil || !conv.IsWhollyKnown() || !planned.IsWhollyKnown() {
		return false
	}
	return conv.Equals(planned).True()
}

// changedVariableDiag is Terraform's error for a -var that gives a
// variable another value than the saved plan's, when both are primitive
// values it can show; nil otherwise.
func changedVariableDiag(plan *plans.Plan, name string, given cty.Value) *hcl.Diagnostic {
	planned, ok := plan.VariableValues[name]
	if !ok {
		return nil
	}
	p, pok := primitiveLiteral(planned)
	g, gok := primitiveLiteral(given)
	if !pok || !gok {
		return nil
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Can't change variable when applying a saved plan",
		Detail: fmt.Sprintf("The variable %s cannot be set using the -var and -var-file options when applying a saved plan file, because a saved plan includes the variable values that were set when it was created. "+
			"The saved plan specifies %s as the value whereas during apply the value %s was set by a CLI argument. To declare an ephemeral variable which is not saved in the plan file, use ephemeral = true.", name, p, g),
	}
}

// primitiveLiteral renders a known string, number or bool as Terraform's
// messages show one: "x" quoted, 1, true.
func primitiveLiteral(v cty.Value) (string, bool) {
	if v == cty.NilVal || !v.IsKnown() || v.IsNull() || v.IsMarked() {
		return "", false
	}
	switch v.Type() {
	case cty.String:
		return strconv.Quote(v.AsString()), true
	case cty.Number:
		return v.AsBigFloat().Text('f', -1), true
	case cty.Bool:
		return strconv.FormatBool(v.True()), true
	}
	return "", false
}
