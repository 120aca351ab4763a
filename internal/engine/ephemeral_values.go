package engine

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
)

// Ephemeral values (those of ephemeral resources, ephemeral variables and
// outputs, and terraform.applying) carry marks.Ephemeral through
// expressions. These checks keep them out of everything stored, as
// Terraform does, and keep ephemeral variables' values out of plan files.

// checkEphemeralArguments reports the arguments of a managed or data
// resource set to ephemeral values: only write-only attributes may take
// them, since everything else is stored in state.
func checkEphemeralArguments(config cty.Value, schema *configschema.Block, body hcl.Body, decl hcl.Range, addr fmt.Stringer) hcl.Diagnostics {
	var diags hcl.Diagnostics
	reported := map[string]bool{}
	for _, path := range marks.EphemeralPaths(config) {
		if len(path) == 0 {
			continue
		}
		if writeOnlyPath(schema, path) {
			continue
		}
		name := ""
		if step, ok := path[0].(cty.GetAttrStep); ok {
			name = step.Name
		}
		if reported[name] {
			continue
		}
		reported[name] = true
		subject := attributeRange(body, path)
		if subject == nil {
			subject = decl.Ptr()
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid use of ephemeral value",
			Detail:   fmt.Sprintf("Ephemeral values are not valid for %q, because it is not a write-only attribute and must be persisted to state.", name),
			Subject:  subject,
		})
	}
	return withObject(diags, addr)
}

// writeOnlyPath reports whether path leads to, or into, a write-only
// attribute of schema.
func writeOnlyPath(schema *configschema.Block, path cty.Path) bool {
	b := schema
	for i := 0; i < len(path) && b != nil; i++ {
		step, ok := path[i].(cty.GetAttrStep)
		if !ok {
			continue // an index into a nested block collection
		}
		if a, ok := b.Attributes[step.Name]; ok {
			return a.WriteOnly
		}
		nb, ok := b.BlockTypes[step.Name]
		if !ok {
			return false
		}
		b = &nb.Block
	}
	return false
}

// ephemeralVariable marks the value of a variable declared ephemeral, and
// reports an ephemeral value given to one that is not. rng is where the
// value was set.
func ephemeralVariable(cfg *configs.Variable, v cty.Value, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if cfg.Ephemeral {
		return v.Mark(marks.Ephemeral), nil
	}
	if !marks.ContainsEphemeral(v) {
		return v, nil
	}
	return v, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Ephemeral value not allowed",
		Detail:   "This input variable is not declared as accepting a ephemeral values, so it cannot be set to a result derived from an ephemeral value.",
		Subject:  rng.Ptr(),
	}}
}

// ephemeralOutput checks a child module output's value against its
// ephemeral argument and marks the value of an ephemeral one.
func ephemeralOutput(cfg *configs.Output, v cty.Value) (cty.Value, hcl.Diagnostics) {
	has := marks.ContainsEphemeral(v)
	switch {
	case cfg.Ephemeral && !has && v.IsWhollyKnown():
		return v, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Value not allowed in ephemeral output",
			Detail:   "This output value is declared as returning an ephemeral value, so it can only be set to an ephemeral value.",
			Subject:  cfg.Expr.Range().Ptr(),
		}}
	case cfg.Ephemeral:
		return v.Mark(marks.Ephemeral), nil
	case has:
		return v, hcl.Diagnostics{ephemeralNotAllowed(cfg)}
	}
	return v, nil
}

// ephemeralNotAllowed reports an output not declared ephemeral whose value
// is.
func ephemeralNotAllowed(cfg *configs.Output) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Ephemeral value not allowed",
		Detail:   "This output value is not declared as returning an ephemeral value, so it cannot be set to a result derived from an ephemeral value.",
		Subject:  cfg.Expr.Range().Ptr(),
	}
}

// recordEphemeralVariables names the ephemeral root variables the user
// set as the plan's apply-time variables, whose values a plan file does
// not keep; the values of those left to their defaults are kept, as
// Terraform does. The ephemeral mark comes back when the plan is applied.
func recordEphemeralVariables(plan *plans.Plan, decls map[string]*configs.Variable, given map[string]InputValue) {
	for _, name := range sortedKeys(decls) {
		if !decls[name].Ephemeral {
			continue
		}
		if _, ok := given[name]; ok {
			plan.ApplyTimeVariables = append(plan.ApplyTimeVariables, name)
		}
		if v, ok := plan.VariableValues[name]; ok {
			unmarked, sensitive := marks.Paths(v)
			plan.VariableValues[name] = marks.Apply(unmarked, sensitive)
		}
	}
}
