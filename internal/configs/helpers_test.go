package configs

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// diag is the part of a diagnostic the tests compare: severity, summary
// and subject range, the range written as "file:line,col-line,col" with
// the file's base name ("" when there is no subject).
type diag struct {
	Severity string
	Summary  string
	Subject  string
}

func errDiag(summary, subject string) diag  { return diag{"error", summary, subject} }
func warnDiag(summary, subject string) diag { return diag{"warning", summary, subject} }

func fmtRange(rng *hcl.Range) string {
	if rng == nil {
		return ""
	}
	return fmt.Sprintf("%s:%d,%d-%d,%d", filepath.Base(rng.Filename),
		rng.Start.Line, rng.Start.Column, rng.End.Line, rng.End.Column)
}

// summarizeDiags sorts diagnostics by position (some are produced while
// iterating maps) and reduces them to diags.
func summarizeDiags(diags hcl.Diagnostics) []diag {
	sorted := make(hcl.Diagnostics, len(diags))
	copy(sorted, diags)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i].Subject, sorted[j].Subject
		switch {
		case a == nil || b == nil:
			return a == nil && b != nil
		case a.Filename != b.Filename:
			return a.Filename < b.Filename
		case a.Start.Byte != b.Start.Byte:
			return a.Start.Byte < b.Start.Byte
		}
		return sorted[i].Summary < sorted[j].Summary
	})
	var ret []diag
	for _, d := range sorted {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		ret = append(ret, diag{Severity: sev, Summary: d.Summary, Subject: fmtRange(d.Subject)})
	}
	return ret
}

// assertDiags fails the test when diags differ from want (compared after
// summarizeDiags). Every error diagnostic must also have a subject range.
func assertDiags(t *testing.T, diags hcl.Diagnostics, want []diag) {
	t.Helper()
	got := summarizeDiags(diags)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong diagnostics (-want +got)\n%s\nall diagnostics:\n%s", diff, diagDetails(diags))
	}
}

func diagDetails(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "  %s: %s; %s\n", fmtRange(d.Subject), d.Summary, d.Detail)
	}
	return b.String()
}

// loadModuleSrc writes files (name -> content) to a fresh directory and
// loads it as a module.
func loadModuleSrc(t *testing.T, files map[string]string) (*Module, hcl.Diagnostics) {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mod, diags := NewParser().LoadModule(dir)
	if mod == nil {
		t.Fatalf("LoadModule returned no module; diagnostics:\n%s", diagDetails(diags))
	}
	return mod, diags
}

// loadMainTF loads a module consisting of one main.tf with src.
func loadMainTF(t *testing.T, src string) (*Module, hcl.Diagnostics) {
	t.Helper()
	return loadModuleSrc(t, map[string]string{"main.tf": src})
}

// ctyOpts lets go-cmp compare cty types and values.
var ctyOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) }),
	cmp.Comparer(func(a, b cty.Value) bool {
		if a == cty.NilVal || b == cty.NilVal {
			return a == cty.NilVal && b == cty.NilVal
		}
		return a.RawEquals(b)
	}),
}

// travString renders a traversal as it would be written: a.b["c"][0].
func travString(trav hcl.Traversal) string {
	var b strings.Builder
	for _, step := range trav {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		case hcl.TraverseIndex:
			switch s.Key.Type() {
			case cty.String:
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			case cty.Number:
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().Text('f', -1))
			default:
				fmt.Fprintf(&b, "[%#v]", s.Key)
			}
		default:
			fmt.Fprintf(&b, "<%T>", step)
		}
	}
	return b.String()
}

func travStrings(travs []hcl.Traversal) []string {
	var ret []string
	for _, t := range travs {
		ret = append(ret, travString(t))
	}
	return ret
}

// evalConst evaluates an expression that needs no variables or functions.
func evalConst(t *testing.T, expr hcl.Expression) cty.Value {
	t.Helper()
	if expr == nil {
		return cty.NilVal
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		t.Fatalf("evaluating %s: %s", fmtRange(expr.Range().Ptr()), diags.Error())
	}
	return v
}
