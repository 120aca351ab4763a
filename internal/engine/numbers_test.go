package engine

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
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

// TestDependenciesChanged: dependency lists are compared as the state
// file writes them, each with its transitive closure, and only those of
// managed objects.
func TestDependenciesChanged(t *testing.T) {
	t.Parallel()
	provider := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	state := func(deps map[string][]string) *states.State {
		s := states.New()
		s.Lineage = "l"
		for addr, names := range deps {
			var list []addrs.AbsResource
			for _, n := range names {
				list = append(list, mustResource(t, n))
			}
			s.SetObject(mustInstance(t, addr), &states.ObjectSrc{AttrsJSON: []byte(`{"id":"` + addr + `"}`), Dependencies: list}, provider)
		}
		return s
	}
	direct := map[string][]string{
		"terraform_data.a": nil,
		"terraform_data.b": {"terraform_data.a"},
		"terraform_data.c": {"terraform_data.b"},
	}
	tests := map[string]struct {
		after map[string][]string
		want  bool
	}{
		"same lists": {direct, false},
		"the closure of the same": {map[string][]string{
			"terraform_data.a": nil,
			"terraform_data.b": {"terraform_data.a"},
			"terraform_data.c": {"terraform_data.a", "terraform_data.b"}, // as read from a state file
		}, false},
		"one added": {map[string][]string{
			"terraform_data.a": nil,
			"terraform_data.b": {"terraform_data.a"},
			"terraform_data.c": {"terraform_data.b", "terraform_data.d"},
			"terraform_data.d": nil,
		}, true},
		"one removed": {map[string][]string{
			"terraform_data.a": nil,
			"terraform_data.b": nil,
			"terraform_data.c": {"terraform_data.b"},
		}, true},
		"a data source's": {map[string][]string{
			"terraform_data.a":      nil,
			"terraform_data.b":      {"terraform_data.a"},
			"terraform_data.c":      {"terraform_data.b"},
			"data.terraform_data.x": {"terraform_data.a"},
		}, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			before := state(direct)
			if name == "one added" {
				// d exists before too, without dependents.
				before = state(map[string][]string{"terraform_data.a": nil, "terraform_data.b": {"terraform_data.a"}, "terraform_data.c": {"terraform_data.b"}, "terraform_data.d": nil})
			}
			if got := dependenciesChanged(before, state(tc.after)); got != tc.want {
				t.Errorf("dependenciesChanged = %t, want %t", got, tc.want)
			}
		})
	}
}
