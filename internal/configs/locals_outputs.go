package configs

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
)

// Local is one named value from a locals block.
type Local struct {
	Name      string
	Expr      hcl.Expression
	DeclRange hcl.Range
}

func decodeLocals(block *hcl.Block) ([]*Local, hcl.Diagnostics) {
	attrs, diags := block.Body.JustAttributes()
	ret := make([]*Local, 0, len(attrs))
	for name, attr := range attrs {
		diags = append(diags, checkName(name, "local value", attr.NameRange)...)
		ret = append(ret, &Local{Name: name, Expr: attr.Expr, DeclRange: attr.Range})
	}
	return ret, diags
}

// Output is an output value declaration.
type Output struct {
	Name          string
	Description   string
	Expr          hcl.Expression
	Sensitive     bool
	Ephemeral     bool
	DependsOn     []hcl.Traversal
	Preconditions []*CheckRule
	DeclRange     hcl.Range
}

var outputSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "value", Required: true}, {Name: "description"},
		{Name: "sensitive"}, {Name: "ephemeral"}, {Name: "depends_on"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}},
}

func decodeOutput(block *hcl.Block) (*Output, hcl.Diagnostics) {
	o := &Output{Name: block.Labels[0], DeclRange: block.DefRange}
	diags := checkName(o.Name, "output", block.LabelRanges[0])
	content, cdiags := block.Body.Content(outputSchema)
	diags = append(diags, cdiags...)
	if attr, ok := content.Attributes["value"]; ok {
		o.Expr = attr.Expr
	}
	if attr, ok := content.Attributes["description"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Description)...)
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Sensitive)...)
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &o.Ephemeral)...)
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, ddiags := decodeDependsOn(attr)
		diags = append(diags, ddiags...)
		o.DependsOn = deps
	}
	for _, b := range content.Blocks {
		rule, rdiags := decodeCheckRule(b)
		diags = append(diags, rdiags...)
		if rule != nil {
			diags = append(diags, checkRuleRefers(rule, b.Type)...)
			o.Preconditions = append(o.Preconditions, rule)
		}
	}
	return o, diags
}

func decodeDependsOn(attr *hcl.Attribute) ([]hcl.Traversal, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(attr.Expr)
	var ret []hcl.Traversal
	for _, e := range exprs {
		trav, tdiags := absTraversalForExpr(e)
		diags = append(diags, tdiags...)
		if !tdiags.HasErrors() {
			ret = append(ret, trav)
		}
	}
	return ret, diags
}
