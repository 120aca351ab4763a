package command

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestParseUndeclaredValue: values for variables the root module does not
// declare (strata test) are HCL when they are self-contained expressions,
// strings otherwise (Terraform's env-vars-in-module fixture: TF_VAR_input=foo
// for a helper module's untyped variable).
func TestParseUndeclaredValue(t *testing.T) {
	t.Parallel()
	tests := map[string]cty.Value{
		"foo":           cty.StringVal("foo"),
		"Hello, world!": cty.StringVal("Hello, world!"),
		"3":             cty.NumberIntVal(3),
		`"quoted"`:      cty.StringVal("quoted"),
		`["a", "b"]`:    cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		"var.x":         cty.StringVal("var.x"),
		"":              cty.StringVal(""),
	}
	for raw, want := range tests {
		if got := parseUndeclaredValue(raw); !got.RawEquals(want) {
			t.Errorf("parseUndeclaredValue(%q) = %#v, want %#v", raw, got, want)
		}
	}
}
