package convert

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin5"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin6"
)

// Diagnostics5 converts protocol 5 diagnostics. A diagnostic of invalid
// severity counts as an error, so that it is never silently dropped.
func Diagnostics5(in []*tfplugin5.Diagnostic) providers.Diagnostics {
	var out providers.Diagnostics
	for _, d := range in {
		sev := providers.Error
		if d.GetSeverity() == tfplugin5.Diagnostic_WARNING {
			sev = providers.Warning
		}
		out = append(out, providers.Diagnostic{
			Severity:  sev,
			Summary:   d.GetSummary(),
			Detail:    d.GetDetail(),
			Attribute: Path5(d.GetAttribute()),
		})
	}
	return out
}

// Diagnostics6 converts protocol 6 diagnostics. A diagnostic of invalid
// severity counts as an error, so that it is never silently dropped.
func Diagnostics6(in []*tfplugin6.Diagnostic) providers.Diagnostics {
	var out providers.Diagnostics
	for _, d := range in {
		sev := providers.Error
		if d.GetSeverity() == tfplugin6.Diagnostic_WARNING {
			sev = providers.Warning
		}
		out = append(out, providers.Diagnostic{
			Severity:  sev,
			Summary:   d.GetSummary(),
			Detail:    d.GetDetail(),
			Attribute: Path6(d.GetAttribute()),
		})
	}
	return out
}

// Path5 converts a protocol 5 attribute path; nil is an empty path.
func Path5(ap *tfplugin5.AttributePath) cty.Path {
	var path cty.Path
	for _, step := range ap.GetSteps() {
		switch sel := step.GetSelector().(type) {
		case *tfplugin5.AttributePath_Step_AttributeName:
			path = path.GetAttr(sel.AttributeName)
		case *tfplugin5.AttributePath_Step_ElementKeyString:
			path = path.Index(cty.StringVal(sel.ElementKeyString))
		case *tfplugin5.AttributePath_Step_ElementKeyInt:
			path = path.Index(cty.NumberIntVal(sel.ElementKeyInt))
		}
	}
	return path
}

// Path6 converts a protocol 6 attribute path; nil is an empty path.
func Path6(ap *tfplugin6.AttributePath) cty.Path {
	var path cty.Path
	for _, step := range ap.GetSteps() {
		switch sel := step.GetSelector().(type) {
		case *tfplugin6.AttributePath_Step_AttributeName:
			path = path.GetAttr(sel.AttributeName)
		case *tfplugin6.AttributePath_Step_ElementKeyString:
			path = path.Index(cty.StringVal(sel.ElementKeyString))
		case *tfplugin6.AttributePath_Step_ElementKeyInt:
			path = path.Index(cty.NumberIntVal(sel.ElementKeyInt))
		}
	}
	return path
}

// Paths5 converts a list of protocol 5 attribute paths, such as
// PlanResourceChange's requires_replace.
func Paths5(aps []*tfplugin5.AttributePath) []cty.Path {
	var out []cty.Path
	for _, ap := range aps {
		out = append(out, Path5(ap))
	}
	return out
}

// Paths6 converts a list of protocol 6 attribute paths.
func Paths6(aps []*tfplugin6.AttributePath) []cty.Path {
	var out []cty.Path
	for _, ap := range aps {
		out = append(out, Path6(ap))
	}
	return out
}
