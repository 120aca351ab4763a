package convert

import (
	"fmt"
	"math/big"

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

// DiagnosticsToProto6 converts diagnostics to protocol 6 (the server side's
// direction, used by tests and fakes).
func DiagnosticsToProto6(in providers.Diagnostics) ([]*tfplugin6.Diagnostic, error) {
	var out []*tfplugin6.Diagnostic
	for _, d := range in {
		sev := tfplugin6.Diagnostic_ERROR
		if d.Severity == providers.Warning {
			sev = tfplugin6.Diagnostic_WARNING
		}
		pd := &tfplugin6.Diagnostic{Severity: sev, Summary: d.Summary, Detail: d.Detail}
		if len(d.Attribute) > 0 {
			ap, err := PathToProto6(d.Attribute)
			if err != nil {
				return nil, err
			}
			pd.Attribute = ap
		}
		out = append(out, pd)
	}
	return out, nil
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

// pathStep is one step of an attribute path in the protocol's terms.
type pathStep struct {
	kind  stepKind
	name  string // for stepAttr
	key   string // for stepKeyString
	index int64  // for stepKeyInt
}

type stepKind int

const (
	stepAttr stepKind = iota
	stepKeyString
	stepKeyInt
)

func pathSteps(path cty.Path) ([]pathStep, error) {
	var out []pathStep
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			out = append(out, pathStep{kind: stepAttr, name: s.Name})
		case cty.IndexStep:
			switch {
			case s.Key.IsNull() || !s.Key.IsKnown():
				return nil, fmt.Errorf("path %s has a null or unknown index", fmtPath(path))
			case s.Key.Type() == cty.String:
				out = append(out, pathStep{kind: stepKeyString, key: s.Key.AsString()})
			case s.Key.Type() == cty.Number:
				bf := s.Key.AsBigFloat()
				i, acc := bf.Int64()
				if acc != big.Exact {
					return nil, fmt.Errorf("path %s has a non-integer index", fmtPath(path))
				}
				out = append(out, pathStep{kind: stepKeyInt, index: i})
			default:
				// Set elements have no key the protocol can express.
				return nil, fmt.Errorf("path %s indexes a %s, which the protocol cannot express", fmtPath(path), s.Key.Type().FriendlyName())
			}
		default:
			return nil, fmt.Errorf("path has an unsupported step %T", step)
		}
	}
	return out, nil
}

// PathToProto5 converts a cty.Path to a protocol 5 attribute path. Paths
// that index a set by value cannot be expressed and are an error.
func PathToProto5(path cty.Path) (*tfplugin5.AttributePath, error) {
	steps, err := pathSteps(path)
	if err != nil {
		return nil, err
	}
	ap := &tfplugin5.AttributePath{}
	for _, s := range steps {
		st := &tfplugin5.AttributePath_Step{}
		switch s.kind {
		case stepAttr:
			st.Selector = &tfplugin5.AttributePath_Step_AttributeName{AttributeName: s.name}
		case stepKeyString:
			st.Selector = &tfplugin5.AttributePath_Step_ElementKeyString{ElementKeyString: s.key}
		case stepKeyInt:
			st.Selector = &tfplugin5.AttributePath_Step_ElementKeyInt{ElementKeyInt: s.index}
		}
		ap.Steps = append(ap.Steps, st)
	}
	return ap, nil
}

// PathToProto6 converts a cty.Path to a protocol 6 attribute path. Paths
// that index a set by value cannot be expressed and are an error.
func PathToProto6(path cty.Path) (*tfplugin6.AttributePath, error) {
	steps, err := pathSteps(path)
	if err != nil {
		return nil, err
	}
	ap := &tfplugin6.AttributePath{}
	for _, s := range steps {
		st := &tfplugin6.AttributePath_Step{}
		switch s.kind {
		case stepAttr:
			st.Selector = &tfplugin6.AttributePath_Step_AttributeName{AttributeName: s.name}
		case stepKeyString:
			st.Selector = &tfplugin6.AttributePath_Step_ElementKeyString{ElementKeyString: s.key}
		case stepKeyInt:
			st.Selector = &tfplugin6.AttributePath_Step_ElementKeyInt{ElementKeyInt: s.index}
		}
		ap.Steps = append(ap.Steps, st)
	}
	return ap, nil
}

// fmtPath renders a path the way Terraform writes it in messages:
// name.nested["key"][0].
func fmtPath(path cty.Path) string {
	var s string
	for i, step := range path {
		switch st := step.(type) {
		case cty.GetAttrStep:
			if i > 0 {
				s += "."
			}
			s += st.Name
		case cty.IndexStep:
			switch {
			case !st.Key.IsKnown() || st.Key.IsNull():
				s += "[?]"
			case st.Key.Type() == cty.String:
				s += fmt.Sprintf("[%q]", st.Key.AsString())
			case st.Key.Type() == cty.Number:
				s += "[" + st.Key.AsBigFloat().Text('f', -1) + "]"
			default:
				s += "[...]"
			}
		}
	}
	return s
}
