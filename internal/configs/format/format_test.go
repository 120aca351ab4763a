package format

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// The golden files in testdata were produced by running terraform fmt
// (Terraform 1.11) on copies of the inputs. A case is a file
// testdata/NAME.in.EXT, formatted as if it were called NAME.EXT. Its expected
// output is in testdata/NAME.out.EXT or, for inputs that must be rejected,
// the expected diagnostics are in testdata/NAME.diags, one
// "file:line: summary" line per diagnostic.
func TestSourceGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.in.*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) < 10 {
		t.Fatalf("found only %d golden cases", len(inputs))
	}
	for _, in := range inputs {
		base := filepath.Base(in)
		caseName, ext, _ := strings.Cut(base, ".in.")
		t.Run(caseName, func(t *testing.T) {
			src := readFile(t, in)
			got, diags := Source(src, caseName+"."+ext)

			diagsFile := filepath.Join("testdata", caseName+".diags")
			if _, err := os.Stat(diagsFile); err == nil {
				if !diags.HasErrors() {
					t.Fatalf("no error diagnostics; output:\n%s", got)
				}
				if got != nil {
					t.Errorf("returned output alongside errors:\n%s", got)
				}
				want := string(readFile(t, diagsFile))
				if summary := summarizeDiags(diags); summary != want {
					t.Errorf("wrong diagnostics\ngot:\n%s\nwant:\n%s", summary, want)
				}
				return
			}

			if diags.HasErrors() {
				t.Fatalf("unexpected diagnostics: %s", diags.Error())
			}
			want := readFile(t, filepath.Join("testdata", caseName+".out."+ext))
			if !bytes.Equal(got, want) {
				t.Errorf("wrong output\n%s", UnifiedDiff(base, want, got))
			}
		})
	}
}

func TestSourceDiagnosticRanges(t *testing.T) {
	src := []byte("locals {\n  a = \n}\n")
	got, diags := Source(src, "dir/main.tf")
	if got != nil {
		t.Errorf("got output %q, want nil", got)
	}
	if !diags.HasErrors() {
		t.Fatal("want error diagnostics")
	}
	for _, d := range diags {
		if d.Subject == nil {
			t.Errorf("diagnostic %q has no subject range", d.Summary)
			continue
		}
		if d.Subject.Filename != "dir/main.tf" {
			t.Errorf("diagnostic %q in file %q, want dir/main.tf", d.Summary, d.Subject.Filename)
		}
		if d.Subject.Start.Line < 2 {
			t.Errorf("diagnostic %q at line %d, want 2 or later", d.Summary, d.Subject.Start.Line)
		}
	}
}

// These cases are not golden files because they cover details where the
// output cannot be compared with terraform fmt's.
func TestSourceCases(t *testing.T) {
	tests := map[string]struct {
		in, want string
	}{
		"empty": {
			in:   "",
			want: "",
		},
		"only newlines": {
			in:   "\n\n",
			want: "\n\n",
		},
		"no final newline": {
			in:   `a="${b}"`,
			want: `a = b`,
		},
		// terraform fmt turns this into "(a)\n+ (b)", which does not parse,
		// because it takes the outer parentheses to be a single group.
		"multi-line with separate groups": {
			in:   "x = \"${(a)\n+ (b)}\"\n",
			want: "x = ((a)\n+ (b))\n",
		},
		"multi-line already parenthesised": {
			in:   "x = \"${(a\n+ b)}\"\n",
			want: "x = (a\n+ b)\n",
		},
		"type in a nested variable block": {
			in:   "module \"m\" {\n  variable \"v\" {\n    type = \"string\"\n  }\n}\n",
			want: "module \"m\" {\n  variable \"v\" {\n    type = \"string\"\n  }\n}\n",
		},
		"escaped legacy type is kept": {
			in:   "variable \"v\" {\n  type = \"str\\u0069ng\"\n}\n",
			want: "variable \"v\" {\n  type = \"str\\u0069ng\"\n}\n",
		},
		"label escapes survive": {
			in:   "a \"x\\\"y\" {}\n",
			want: "a \"x\\\"y\" {}\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, diags := Source([]byte(tc.in), "test.tf")
			if diags.HasErrors() {
				t.Fatalf("unexpected diagnostics: %s", diags.Error())
			}
			if string(got) != tc.want {
				t.Errorf("wrong output\ngot:  %q\nwant: %q", got, tc.want)
			}
			if _, diags := hclsyntax.ParseConfig(got, "test.tf", hcl.InitialPos); diags.HasErrors() {
				t.Errorf("output does not parse: %s", diags.Error())
			}
		})
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func summarizeDiags(diags hcl.Diagnostics) string {
	var sb strings.Builder
	for _, d := range diags {
		if d.Subject == nil {
			fmt.Fprintf(&sb, "-: %s\n", d.Summary)
			continue
		}
		fmt.Fprintf(&sb, "%s:%d: %s\n", d.Subject.Filename, d.Subject.Start.Line, d.Summary)
	}
	return sb.String()
}
