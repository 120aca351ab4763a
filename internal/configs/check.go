package configs

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
)

// Check is a top-level `check` block: assertions about the infrastructure
// that are reported as warnings, never errors, optionally with a data
// source of their own (scoped to the check) read on every plan and apply.
type Check struct {
	Name string
	// DataResources are the check's nested data blocks. They are also in
	// the module's DataResources, with Resource.Check set.
	DataResources []*Resource
	Asserts       []*CheckRule
	DeclRange     hcl.Range
}

var checkSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "assert"},
	},
}

func decodeCheck(block *hcl.Block) (*Check, hcl.Diagnostics) {
	c := &Check{Name: block.Labels[0], DeclRange: block.DefRange}
	diags := checkName(c.Name, "check block", block.LabelRanges[0])
	content, cdiags := block.Body.Content(checkSchema)
	diags = append(diags, cdiags...)
	for _, b := range content.Blocks {
		switch b.Type {
		case "data":
			r, rdiags := decodeResource(b, addrs.DataResourceMode)
			diags = append(diags, rdiags...)
			if r == nil {
				continue
			}
			if r.Count != nil || r.ForEach != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid nested data block",
					Detail:   "A data block inside a check block cannot use count or for_each.",
					Subject:  r.DeclRange.Ptr(),
				})
			}
			r.Check = c.Name
			c.DataResources = append(c.DataResources, r)
		case "assert":
			rule, rdiags := decodeCheckRule(b)
			diags = append(diags, rdiags...)
			if rule == nil {
				continue
			}
			if d := checkRuleRefers(rule, "assert"); d.HasErrors() {
				diags = append(diags, d...)
				continue
			}
			c.Asserts = append(c.Asserts, rule)
		}
	}
	if len(c.Asserts) == 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Zero assert blocks",
			Detail:   "Check blocks must have at least one assert block.",
			Subject:  block.DefRange.Ptr(),
		})
	}
	return c, diags
}
