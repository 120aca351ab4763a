package engine

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang"
)

// selfTraversals returns the traversals rooted at self in expr.
func selfTraversals(expr hcl.Expression) []hcl.Traversal {
	if expr == nil {
		return nil
	}
	var out []hcl.Traversal
	for _, trav := range expr.Variables() {
		if trav.RootName() == "self" {
			out = append(out, trav)
		}
	}
	return out
}

// staticSelfDiags checks the self references of expr against the
// resource type's schema, as Terraform's validation does: self.nope is
// "Unsupported attribute" whatever self's value will be.
func staticSelfDiags(expr hcl.Expression, schema *configschema.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, trav := range selfTraversals(expr) {
		diags = append(diags, schema.StaticValidateTraversal(trav[1:])...)
	}
	return diags
}

// staticSelfBodyDiags is staticSelfDiags for a provisioner or connection
// body of the given schema.
func staticSelfBodyDiags(body hcl.Body, bodySchema, schema *configschema.Block) hcl.Diagnostics {
	if body == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, trav := range hcldec.Variables(body, bodySchema.DecoderSpec()) {
		if trav.RootName() == "self" {
			diags = append(diags, schema.StaticValidateTraversal(trav[1:])...)
		}
	}
	return diags
}

// validateConditionRefs checks a resource's preconditions and
// postconditions as Terraform's validation does: neither may name the
// resource itself ("Invalid reference in precondition"; a postcondition
// says self), and self's attributes in postconditions must exist in the
// schema. Terraform then also reports each self of an expression with
// such an error as an unknown variable (it evaluates the expression again
// without self); strata does the same, so that the output is the same.
func validateConditionRefs(n *resourceNode, schema *configschema.Block) hcl.Diagnostics {
	pre, post := resourceConditions(n)
	diags := selfNamed(n, pre, "precondition")
	if diags.HasErrors() {
		return diags
	}
	diags = selfNamed(n, post, "postcondition")
	for _, rule := range post {
		for _, expr := range []hcl.Expression{rule.Condition, rule.ErrorMessage} {
			d := staticSelfDiags(expr, schema)
			if !d.HasErrors() {
				continue
			}
			diags = append(diags, d...)
			for _, trav := range selfTraversals(expr) {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Unknown variable",
					Detail:   `There is no variable named "self".`,
					Subject:  trav[0].SourceRange().Ptr(),
				})
			}
		}
	}
	return diags
}

// selfNamed reports the references of rules' conditions to the resource
// that holds them.
func selfNamed(n *resourceNode, rules []*configs.CheckRule, what string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, rule := range rules {
		refs, _ := lang.ReferencesInExpr(rule.Condition)
		for _, ref := range refs {
			if r, ok := ref.Subject.(lang.ResourceRef); ok && r.Resource == n.addr.Resource {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid reference in " + what,
					Detail:   fmt.Sprintf("Configuration for %s may not refer to itself.", n.addr.Resource),
					Subject:  rule.Condition.Range().Ptr(),
				})
			}
		}
	}
	return diags
}
