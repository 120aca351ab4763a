package engine

import (
	"fmt"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/providers"
)

// providerDiags converts provider diagnostics into hcl.Diagnostics. A
// diagnostic with an attribute path gets the source range of that
// attribute in body when the configuration sets it, otherwise fallback.
func providerDiags(pd providers.Diagnostics, body hcl.Body, fallback *hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, d := range pd {
		sev := hcl.DiagError
		if d.Severity == providers.Warning {
			sev = hcl.DiagWarning
		}
		subject := fallback
		if d.Sourceless {
			diags = append(diags, &hcl.Diagnostic{Severity: sev, Summary: d.Summary, Detail: d.Detail})
			continue
		}
		if rng := attributeRange(body, d.Attribute); rng != nil {
			subject = rng
		} else if body != nil && fallback != nil {
			// As Terraform does, a diagnostic about the whole object points
			// at its body's opening brace.
			mr := body.MissingItemRange()
			subject = &mr
		}
		diags = append(diags, &hcl.Diagnostic{Severity: sev, Summary: d.Summary, Detail: d.Detail, Subject: subject})
	}
	return diags
}

// diagObject names the object a diagnostic is about, shown as
// "with ADDR," above its source location, as Terraform does for what
// providers report.
type diagObject string

// DiagnosticObject returns the object's address.
func (o diagObject) DiagnosticObject() string { return string(o) }

// withObject marks provider diagnostics as being about the object at addr.
func withObject(diags hcl.Diagnostics, addr fmt.Stringer) hcl.Diagnostics {
	for _, d := range diags {
		if d.Extra == nil && d.Subject != nil {
			d.Extra = diagObject(addr.String())
		}
	}
	return diags
}

// attributeRange finds the range of the expression for the first
// attribute step of path in body, or nil.
func attributeRange(body hcl.Body, path cty.Path) *hcl.Range {
	if body == nil || len(path) == 0 {
		return nil
	}
	step, ok := path[0].(cty.GetAttrStep)
	if !ok {
		return nil
	}
	content, _, _ := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: step.Name}}})
	if content == nil {
		return nil
	}
	if attr, ok := content.Attributes[step.Name]; ok {
		return attr.Expr.Range().Ptr()
	}
	return nil
}

// cancelledSummary is the summary of the one diagnostic an interrupted
// operation reports.
const cancelledSummary = "Operation cancelled"

// cancelledDiags reports an operation not started because the run was
// interrupted.
func cancelledDiags(err error) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: cancelledSummary, Detail: err.Error()}}
}

// collapseCancelled keeps one "Operation cancelled" diagnostic, however
// many operations an interrupt stopped, and says how many there were.
func collapseCancelled(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	var first *hcl.Diagnostic
	n := 0
	for _, d := range diags {
		if d.Summary != cancelledSummary {
			out = append(out, d)
			continue
		}
		n++
		if first == nil {
			first = d
			out = append(out, d)
		}
	}
	if n > 1 {
		first.Detail = "The run was interrupted, so operations that had not started were skipped."
	}
	return out
}
