package engine

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestNumbersAsDecoded(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		v    cty.Value
		want bool
	}{
		"parsed":              {cty.MustParseNumberVal("10"), true},
		"parsed decimal":      {cty.MustParseNumberVal("0.1"), true},
		"msgpack integer":     {cty.NumberIntVal(10), false},
		"msgpack unsigned":    {cty.NumberUIntVal(10), false},
		"msgpack float":       {cty.NumberFloatVal(1.5), false},
		"no numbers":          {cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("x"), "b": cty.True}), true},
		"null number":         {cty.NullVal(cty.Number), true},
		"unknown number":      {cty.UnknownVal(cty.Number), true},
		"nested, parsed":      {cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{cty.MustParseNumberVal("1"), cty.MustParseNumberVal("2")})}), true},
		"nested, one integer": {cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{cty.MustParseNumberVal("1"), cty.NumberIntVal(2)})}), false},
		"in a map":            {cty.MapVal(map[string]cty.Value{"a": cty.NumberFloatVal(0.5)}), false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := numbersAsDecoded(tc.v); got != tc.want {
				t.Errorf("numbersAsDecoded(%#v) = %t, want %t", tc.v, got, tc.want)
			}
		})
	}
}
