package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin5"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin6"
)

func steps6(s ...*tfplugin6.AttributePath_Step) *tfplugin6.AttributePath {
	return &tfplugin6.AttributePath{Steps: s}
}

func name6(n string) *tfplugin6.AttributePath_Step {
	return &tfplugin6.AttributePath_Step{Selector: &tfplugin6.AttributePath_Step_AttributeName{AttributeName: n}}
}

func key6(k string) *tfplugin6.AttributePath_Step {
	return &tfplugin6.AttributePath_Step{Selector: &tfplugin6.AttributePath_Step_ElementKeyString{ElementKeyString: k}}
}

func idx6(i int64) *tfplugin6.AttributePath_Step {
	return &tfplugin6.AttributePath_Step{Selector: &tfplugin6.AttributePath_Step_ElementKeyInt{ElementKeyInt: i}}
}

// to5 is the protocol 5 path with the steps of p, a protocol 6 path.
func to5(p *tfplugin6.AttributePath) *tfplugin5.AttributePath {
	if p == nil {
		return nil
	}
	out := &tfplugin5.AttributePath{}
	for _, st := range p.Steps {
		s5 := &tfplugin5.AttributePath_Step{}
		switch sel := st.Selector.(type) {
		case *tfplugin6.AttributePath_Step_AttributeName:
			s5.Selector = &tfplugin5.AttributePath_Step_AttributeName{AttributeName: sel.AttributeName}
		case *tfplugin6.AttributePath_Step_ElementKeyString:
			s5.Selector = &tfplugin5.AttributePath_Step_ElementKeyString{ElementKeyString: sel.ElementKeyString}
		case *tfplugin6.AttributePath_Step_ElementKeyInt:
			s5.Selector = &tfplugin5.AttributePath_Step_ElementKeyInt{ElementKeyInt: sel.ElementKeyInt}
		}
		out.Steps = append(out.Steps, s5)
	}
	return out
}

func TestPaths(t *testing.T) {
	tests := []struct {
		name  string
		proto *tfplugin6.AttributePath
		want  cty.Path
	}{
		{"nil", nil, nil},
		{"attribute", steps6(name6("name")), cty.GetAttrPath("name")},
		{"list element attribute", steps6(name6("rules"), idx6(1), name6("port")), cty.GetAttrPath("rules").IndexInt(1).GetAttr("port")},
		{"map element", steps6(name6("labels"), key6("bad")), cty.GetAttrPath("labels").IndexString("bad")},
		{"nested map in list", steps6(name6("a"), idx6(0), name6("b"), key6("k"), name6("c")),
			cty.GetAttrPath("a").IndexInt(0).GetAttr("b").IndexString("k").GetAttr("c")},
		{"empty step is skipped", steps6(name6("a"), &tfplugin6.AttributePath_Step{}), cty.GetAttrPath("a")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Path6(tt.proto)
			if !got.Equals(tt.want) {
				t.Errorf("Path6 = %#v, want %#v", got, tt.want)
			}
			// The same path through protocol 5.
			p5 := to5(tt.proto)
			if got := Path5(p5); !got.Equals(tt.want) {
				t.Errorf("Path5 = %#v, want %#v", got, tt.want)
			}
			if got := Paths5([]*tfplugin5.AttributePath{p5, p5}); len(got) != 2 || !got[1].Equals(tt.want) {
				t.Errorf("Paths5 = %#v", got)
			}
		})
	}
}

func TestDiagnostics(t *testing.T) {
	in6 := []*tfplugin6.Diagnostic{
		{Severity: tfplugin6.Diagnostic_ERROR, Summary: "Invalid port", Detail: "Out of range.", Attribute: steps6(name6("rules"), idx6(2), name6("port"))},
		{Severity: tfplugin6.Diagnostic_WARNING, Summary: "Deprecated", Detail: "Use b."},
		{Severity: tfplugin6.Diagnostic_INVALID, Summary: "No severity"},
	}
	want := providers.Diagnostics{
		{Severity: providers.Error, Summary: "Invalid port", Detail: "Out of range.", Attribute: cty.GetAttrPath("rules").IndexInt(2).GetAttr("port")},
		{Severity: providers.Warning, Summary: "Deprecated", Detail: "Use b."},
		{Severity: providers.Error, Summary: "No severity"},
	}
	pathCmp := cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) })
	if diff := cmp.Diff(want, Diagnostics6(in6), pathCmp); diff != "" {
		t.Errorf("Diagnostics6 (-want +got):\n%s", diff)
	}
	in5 := []*tfplugin5.Diagnostic{
		{Severity: tfplugin5.Diagnostic_ERROR, Summary: "Invalid port", Detail: "Out of range.", Attribute: &tfplugin5.AttributePath{Steps: []*tfplugin5.AttributePath_Step{
			{Selector: &tfplugin5.AttributePath_Step_AttributeName{AttributeName: "rules"}},
			{Selector: &tfplugin5.AttributePath_Step_ElementKeyInt{ElementKeyInt: 2}},
			{Selector: &tfplugin5.AttributePath_Step_AttributeName{AttributeName: "port"}},
		}}},
		{Severity: tfplugin5.Diagnostic_WARNING, Summary: "Deprecated", Detail: "Use b."},
		{Severity: tfplugin5.Diagnostic_INVALID, Summary: "No severity"},
	}
	if diff := cmp.Diff(want, Diagnostics5(in5), pathCmp); diff != "" {
		t.Errorf("Diagnostics5 (-want +got):\n%s", diff)
	}
	if got := Diagnostics6(nil); got != nil {
		t.Errorf("no diagnostics: got %#v, want nil", got)
	}
}
