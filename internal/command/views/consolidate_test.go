package views

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

type noConsolidate struct{}

func (noConsolidate) DoNotConsolidate() bool { return true }

// TestConsolidateWarnings: warnings with a source location that share a
// summary are shown once, with a count of the others; errors, warnings
// without a location and those that opt out are all shown.
func TestConsolidateWarnings(t *testing.T) {
	at := func(line int) *hcl.Range {
		return &hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: line}, End: hcl.Pos{Line: line}}
	}
	warn := func(summary string, line int) *hcl.Diagnostic {
		d := &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: "d"}
		if line > 0 {
			d.Subject = at(line)
		}
		return d
	}
	optOut := warn("Check", 7)
	optOut.Extra = noConsolidate{}
	optOut2 := warn("Check", 8)
	optOut2.Extra = noConsolidate{}
	in := hcl.Diagnostics{
		warn("Deprecated", 1), warn("Deprecated", 2), warn("Deprecated", 3),
		warn("Other", 4), warn("Other", 5),
		warn("Single", 6),
		warn("No location", 0), warn("No location", 0),
		optOut, optOut2,
		{Severity: hcl.DiagError, Summary: "Deprecated", Subject: at(9)},
	}
	type line struct{ Summary, Detail string }
	var got []line
	for _, d := range consolidateWarnings(in) {
		got = append(got, line{d.Summary, d.Detail})
	}
	want := []line{
		{"Deprecated", "d\n\n(and 2 more similar warnings elsewhere)"},
		{"Other", "d\n\n(and one more similar warning elsewhere)"},
		{"Single", "d"},
		{"No location", "d"}, {"No location", "d"},
		{"Check", "d"}, {"Check", "d"},
		{"Deprecated", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong result (-want +got)\n%s", diff)
	}
	if in[0].Detail != "d" {
		t.Error("the diagnostics given were changed")
	}
}
