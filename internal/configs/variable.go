package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Variable is an input variable declaration.
type Variable struct {
	Name        string
	Description string
	// Type is the type constraint; cty.DynamicPseudoType when none.
	Type cty.Type
	// TypeDefaults holds defaults for optional() object attributes.
	TypeDefaults *typeexpr.Defaults
	// Default is cty.NilVal when there is no default (the variable is
	// required).
	Default   cty.Value
	Sensitive bool
	Nullable  bool
	Ephemeral bool
	// ParseLiteral is set when a value given as a string (-var, TF_VAR_,
	// the prompt) is taken as that string: with no type constraint or a
	// primitive one, as in Terraform. Otherwise (any, collections,
	// objects) the string is parsed as an HCL expression.
	ParseLiteral bool
	Validations  []*CheckRule
	DeclRange    hcl.Range
}

// Required reports whether the variable has no default.
func (v *Variable) Required() bool { return v.Default == cty.NilVal }

// CheckRule is a validation, precondition or postcondition.
type CheckRule struct {
	Condition    hcl.Expression
	ErrorMessage hcl.Expression
	DeclRange    hcl.Range
}

var variableSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"}, {Name: "default"}, {Name: "type"},
		{Name: "sensitive"}, {Name: "nullable"}, {Name: "ephemeral"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "validation"}},
}

var checkRuleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: true},
		{Name: "error_message", Required: true},
	},
}

func decodeVariable(block *hcl.Block) (*Variable, hcl.Diagnostics) {
	v := &Variable{Name: block.Labels[0], Type: cty.DynamicPseudoType, Nullable: true, ParseLiteral: true, DeclRange: block.DefRange}
	diags := checkName(block.Labels[0], "variable", block.LabelRanges[0])
	switch v.Name {
	case "source", "version", "providers", "count", "for_each", "lifecycle", "depends_on", "locals":
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid variable name",
			Detail:   fmt.Sprintf("The variable name %q is reserved for use by module blocks.", v.Name),
			Subject:  &block.LabelRanges[0],
		})
	}
	content, cdiags := block.Body.Content(variableSchema)
	diags = append(diags, cdiags...)
	if attr, ok := content.Attributes["description"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Description)...)
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Sensitive)...)
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Ephemeral)...)
	}
	if attr, ok := content.Attributes["nullable"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &v.Nullable)...)
	}
	if attr, ok := content.Attributes["type"]; ok {
		ty, defaults, tdiags := decodeVariableType(attr.Expr)
		diags = append(diags, tdiags...)
		v.Type, v.TypeDefaults = ty, defaults
		v.ParseLiteral = ty.IsPrimitiveType()
	}
	if attr, ok := content.Attributes["default"]; ok {
		val, vdiags := attr.Expr.Value(nil)
		diags = append(diags, vdiags...)
		if !vdiags.HasErrors() {
			if v.TypeDefaults != nil && !val.IsNull() {
				val = v.TypeDefaults.Apply(val)
			}
			conv, err := convert.Convert(val, v.Type)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid default value for variable",
					Detail:   fmt.Sprintf("This default value is not compatible with the variable's type constraint: %s.", err),
					Subject:  attr.Expr.Range().Ptr(),
				})
				conv = cty.DynamicVal
			}
			if conv.IsNull() && !v.Nullable {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid default value for variable",
					Detail:   "A null default value is not valid when nullable=false.",
					Subject:  attr.Expr.Range().Ptr(),
				})
			}
			v.Default = conv
		}
	}
	for _, b := range content.Blocks {
		rule, rdiags := decodeCheckRule(b)
		diags = append(diags, rdiags...)
		if rule != nil {
			diags = append(diags, checkRuleRefers(rule, "validation")...)
			diags = append(diags, checkValidationSelfRef(rule, v.Name)...)
			v.Validations = append(v.Validations, rule)
		}
	}
	return v, diags
}

// decodeVariableType decodes a type constraint as Terraform does: the bare
// keywords list and map (without an element type) mean list(any) and
// map(any), and the pre-0.12 quoted forms ("string", "list", "map") are
// rejected with a hint on how to write them now.
func decodeVariableType(expr hcl.Expression) (cty.Type, *typeexpr.Defaults, hcl.Diagnostics) {
	if tmpl, ok := expr.(*hclsyntax.TemplateExpr); ok && len(tmpl.Parts) == 1 {
		if lit, ok := tmpl.Parts[0].(*hclsyntax.LiteralValueExpr); ok && lit.Val.Type() == cty.String {
			name := lit.Val.AsString()
			diag := &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid quoted type constraints",
				Subject:  expr.Range().Ptr(),
			}
			switch name {
			case "string":
				diag.Detail = `Type constraints are no longer given in quotes, as they were in Terraform 0.11 and earlier. Remove the quotes around "string".`
			case "list", "map":
				diag.Detail = fmt.Sprintf(`Type constraints are no longer given in quotes, as they were in Terraform 0.11 and earlier. Remove the quotes around %q and write %s(string) instead to say explicitly that the elements are strings.`, name, name)
			default:
				diag.Summary = "Invalid legacy variable type hint"
				diag.Detail = "To give a type constraint, write the type expression directly, without quotes around it."
			}
			return cty.DynamicPseudoType, nil, hcl.Diagnostics{diag}
		}
	}
	switch hcl.ExprAsKeyword(expr) {
	case "list":
		return cty.List(cty.DynamicPseudoType), nil, nil
	case "map":
		return cty.Map(cty.DynamicPseudoType), nil, nil
	}
	return typeexpr.TypeConstraintWithDefaults(expr)
}

func decodeCheckRule(block *hcl.Block) (*CheckRule, hcl.Diagnostics) {
	content, diags := block.Body.Content(checkRuleSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	return &CheckRule{
		Condition:    content.Attributes["condition"].Expr,
		ErrorMessage: content.Attributes["error_message"].Expr,
		DeclRange:    block.DefRange,
	}, diags
}

// checkValidationSelfRef reports a validation condition of variable name
// that does not refer to var.NAME, as Terraform does: it may refer to
// other objects too, but must test the variable's own value.
func checkValidationSelfRef(rule *CheckRule, name string) hcl.Diagnostics {
	for _, trav := range rule.Condition.Variables() {
		if trav.RootName() != "var" || len(trav) < 2 {
			continue
		}
		if step, ok := trav[1].(hcl.TraverseAttr); ok && step.Name == name {
			return nil
		}
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid variable validation condition",
		Detail:   fmt.Sprintf("The condition for variable %q must refer to var.%s in order to test incoming values.", name, name),
		Subject:  rule.Condition.Range().Ptr(),
	}}
}

// checkRuleRefers reports a condition that refers to nothing, as
// Terraform does: its result could never depend on the configuration.
// kind is the block type, such as precondition or assert.
func checkRuleRefers(rule *CheckRule, kind string) hcl.Diagnostics {
	if len(rule.Condition.Variables()) > 0 {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid %s expression", kind),
		Detail:   "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
		Subject:  rule.Condition.Range().Ptr(),
	}}
}

func checkName(name, what string, rng hcl.Range) hcl.Diagnostics {
	return checkLabel(name, what+" name", rng)
}

// checkLabel is checkName with the whole of what the summary calls the
// label ("Invalid " + what).
func checkLabel(name, what string, rng hcl.Range) hcl.Diagnostics {
	if hclsyntax.ValidIdentifier(name) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid " + what,
		Detail:   "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.",
		Subject:  rng.Ptr(),
	}}
}
