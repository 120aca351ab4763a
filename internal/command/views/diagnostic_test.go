package views

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
)

func TestFormatDiagnostic(t *testing.T) {
	src := "resource \"terraform_data\" \"a\" {\n  input = var.nope\n}\n"
	p := hclparse.NewParser()
	f, diags := p.ParseHCL([]byte(src), "main.tf")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	subject := hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 2, Column: 11, Byte: 42}, End: hcl.Pos{Line: 2, Column: 19, Byte: 50}}
	tests := map[string]struct {
		diag    *hcl.Diagnostic
		noColor bool
		want    string
	}{
		"error with snippet": {
			diag: &hcl.Diagnostic{
				Severity: hcl.DiagError, Summary: "Reference to undeclared input variable",
				Detail:  `An input variable with the name "nope" has not been declared.`,
				Subject: &subject,
			},
			noColor: true,
			want: `
Error: Reference to undeclared input variable

  on main.tf line 2, in resource "terraform_data" "a":
   2:   input = var.nope

An input variable with the name "nope" has not been declared.
`,
		},
		"warning without subject": {
			diag:    &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Something odd", Detail: "Details here."},
			noColor: true,
			want:    "\nWarning: Something odd\n\nDetails here.\n",
		},
		"error in color draws a box": {
			diag:    &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Bad", Detail: "Worse.", Subject: &subject},
			noColor: false,
			// Byte for byte what terraform validate prints for such a
			// diagnostic: each coloured piece ends with its own reset.
			want: "\x1b[31m╷\x1b[0m\x1b[0m\n" +
				"\x1b[31m│\x1b[0m \x1b[0m\x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mBad\x1b[0m\n" +
				"\x1b[31m│\x1b[0m \x1b[0m\n" +
				"\x1b[31m│\x1b[0m \x1b[0m\x1b[0m  on main.tf line 2, in resource \"terraform_data\" \"a\":\n" +
				"\x1b[31m│\x1b[0m \x1b[0m   2:   input = \x1b[4mvar.nope\x1b[0m\x1b[0m\n" +
				"\x1b[31m│\x1b[0m \x1b[0m\n" +
				"\x1b[31m│\x1b[0m \x1b[0mWorse.\n" +
				"\x1b[31m╵\x1b[0m\x1b[0m\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := FormatDiagnostic(tc.diag, map[string]*hcl.File{"main.tf": f}, tc.noColor)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("wrong result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestViewDiagnosticsStreams(t *testing.T) {
	var out, errb bytes.Buffer
	v := &View{Stdout: &out, Stderr: &errb, NoColor: true}
	v.Diagnostics(hcl.Diagnostics{
		{Severity: hcl.DiagWarning, Summary: "W"},
		{Severity: hcl.DiagError, Summary: "E"},
	})
	if !strings.Contains(out.String(), "Warning: W") || strings.Contains(out.String(), "Error") {
		t.Errorf("warnings belong on stdout: %q", out.String())
	}
	if !strings.Contains(errb.String(), "Error: E") {
		t.Errorf("errors belong on stderr: %q", errb.String())
	}
}

func TestFormatOutputs(t *testing.T) {
	// Covered with real values by the command package's golden tests; here
	// only the empty case and ordering.
	if got := FormatOutputs(nil); got != "" {
		t.Errorf("empty outputs rendered %q", got)
	}
}

// TestDescribeValue: collections and objects are described as Terraform
// describes them under a failed condition, counted in the singular for
// one element or attribute and as empty for none.
func TestDescribeValue(t *testing.T) {
	tests := map[string]struct {
		v    cty.Value
		want string
	}{
		"empty tuple":      {cty.EmptyTupleVal, "is empty tuple"},
		"one element":      {cty.TupleVal([]cty.Value{cty.NumberIntVal(1)}), "is tuple with 1 element"},
		"two elements":     {cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), "is list of string with 2 elements"},
		"empty map":        {cty.MapValEmpty(cty.String), "is empty map of string"},
		"no attributes":    {cty.EmptyObjectVal, "is object with no attributes"},
		"one attribute":    {cty.ObjectVal(map[string]cty.Value{"x": cty.True}), `is object with 1 attribute "x"`},
		"two attributes":   {cty.ObjectVal(map[string]cty.Value{"x": cty.True, "y": cty.True}), "is object with 2 attributes"},
		"string unchanged": {cty.StringVal("a"), `is "a"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := describeValue(tc.v, false, true); got != tc.want {
				t.Errorf("describeValue = %q, want %q", got, tc.want)
			}
		})
	}
}
