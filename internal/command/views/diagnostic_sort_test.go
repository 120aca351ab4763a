package views

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

func TestSortDiagnostics(t *testing.T) {
	at := func(file string, start, end int) *hcl.Range {
		return &hcl.Range{Filename: file, Start: hcl.Pos{Byte: start}, End: hcl.Pos{Byte: end}}
	}
	d := func(name string, sev hcl.DiagnosticSeverity, subject *hcl.Range) *hcl.Diagnostic {
		return &hcl.Diagnostic{Severity: sev, Summary: name, Subject: subject}
	}
	in := hcl.Diagnostics{
		d("error-late", hcl.DiagError, at("main.tf", 50, 60)),
		d("warn-module", hcl.DiagWarning, at("modules/a/main.tf", 0, 5)),
		d("warn-late", hcl.DiagWarning, at("main.tf", 40, 45)),
		d("error-nowhere", hcl.DiagError, nil),
		d("warn-early", hcl.DiagWarning, at("main.tf", 10, 20)),
		d("warn-early-shorter", hcl.DiagWarning, at("main.tf", 10, 15)),
		d("warn-b-file", hcl.DiagWarning, at("b.tf", 0, 1)),
		d("warn-nowhere", hcl.DiagWarning, nil),
		d("error-early", hcl.DiagError, at("main.tf", 1, 2)),
	}
	var got []string
	for _, x := range sortDiagnostics(in) {
		got = append(got, x.Summary)
	}
	want := "warn-nowhere warn-b-file warn-early-shorter warn-early warn-late warn-module error-nowhere error-early error-late"
	if strings.Join(got, " ") != want {
		t.Fatalf("order:\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	if in[0].Summary != "error-late" {
		t.Fatal("the input was reordered in place")
	}
}
