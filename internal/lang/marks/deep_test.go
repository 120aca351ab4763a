package marks

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestAnyAgreesWithCty checks the fast deep check against cty's own
// ContainsMarked on values with marks at every kind of nesting, and that
// UnmarkDeep returns what cty's does.
func TestAnyAgreesWithCty(t *testing.T) {
	s := cty.StringVal("x")
	m := s.Mark(Sensitive)
	e := s.Mark(Ephemeral)
	obj := func(v cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": v})
	}
	tests := map[string]cty.Value{
		"primitive":         s,
		"marked primitive":  m,
		"null":              cty.NullVal(cty.String),
		"marked null":       cty.NullVal(cty.String).Mark(Sensitive),
		"unknown":           cty.UnknownVal(cty.String),
		"marked unknown":    cty.UnknownVal(cty.String).Mark(Sensitive),
		"object":            obj(s),
		"object marked in":  obj(m),
		"object marked":     obj(s).Mark(Sensitive),
		"empty object":      cty.EmptyObjectVal,
		"list":              cty.ListVal([]cty.Value{s, s}),
		"list marked in":    cty.ListVal([]cty.Value{s, m}),
		"empty list":        cty.ListValEmpty(cty.String),
		"set marked in":     cty.SetVal([]cty.Value{s, e}),
		"map":               cty.MapVal(map[string]cty.Value{"k": s}),
		"map marked in":     cty.MapVal(map[string]cty.Value{"k": s, "l": m}),
		"tuple":             cty.TupleVal([]cty.Value{s, cty.True}),
		"tuple marked in":   cty.TupleVal([]cty.Value{cty.True, obj(e)}),
		"deep":              obj(cty.ListVal([]cty.Value{obj(s)})),
		"deep marked":       obj(cty.ListVal([]cty.Value{obj(m)})),
		"dynamic in object": cty.ObjectVal(map[string]cty.Value{"d": cty.DynamicVal}),
		"empty map":         cty.MapValEmpty(cty.String),
	}
	for name, v := range tests {
		t.Run(name, func(t *testing.T) {
			if got, want := Any(v), v.ContainsMarked(); got != want {
				t.Errorf("Any = %v, cty's ContainsMarked = %v", got, want)
			}
			want, _ := v.UnmarkDeep()
			if got := UnmarkDeep(v); !got.RawEquals(want) {
				t.Errorf("UnmarkDeep = %#v, want %#v", got, want)
			}
			if got, _ := Paths(v); !got.RawEquals(want) {
				t.Errorf("Paths value = %#v, want %#v", got, want)
			}
		})
	}
}

// TestAnyAllocatesNothingOnObjects pins the point of Any: checking an
// unmarked object costs no allocations.
func TestAnyAllocatesNothingOnObjects(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("x"), "input": cty.StringVal("y"), "n": cty.NumberIntVal(3),
		"nested": cty.ObjectVal(map[string]cty.Value{"z": cty.NullVal(cty.String)}),
	})
	if n := testing.AllocsPerRun(100, func() { Any(v) }); n != 0 {
		t.Errorf("Any allocated %v times per run, want 0", n)
	}
}

// TestKnownEqualImpliesCty checks that whenever KnownEqual says equal,
// cty's Equals is True and RawEquals true, and that it says equal for
// the plain cases it exists for.
func TestKnownEqualImpliesCty(t *testing.T) {
	s, o := cty.StringVal("x"), cty.StringVal("y")
	obj := func(v cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": v})
	}
	tests := []struct {
		name string
		a, b cty.Value
		want bool
	}{
		{"same strings", s, s, true},
		{"different strings", s, o, false},
		{"numbers", cty.NumberIntVal(3), cty.NumberFloatVal(3), true},
		{"different numbers", cty.NumberIntVal(3), cty.NumberIntVal(4), false},
		{"bools", cty.True, cty.True, true},
		{"nulls", cty.NullVal(cty.String), cty.NullVal(cty.String), true},
		{"nulls of different types", cty.NullVal(cty.String), cty.NullVal(cty.Number), false},
		{"null and value", cty.NullVal(cty.String), s, false},
		{"objects", obj(s), obj(s), true},
		{"objects differing deep", obj(s), obj(o), false},
		{"objects with nulls", obj(cty.NullVal(cty.String)), obj(cty.NullVal(cty.String)), true},
		{"marked", s.Mark(Sensitive), s.Mark(Sensitive), false},
		{"marked inside", obj(s.Mark(Sensitive)), obj(s.Mark(Sensitive)), false},
		{"unknown", cty.UnknownVal(cty.String), cty.UnknownVal(cty.String), false},
		{"unknown inside", obj(cty.UnknownVal(cty.String)), obj(cty.UnknownVal(cty.String)), false},
		{"lists", cty.ListVal([]cty.Value{s, o}), cty.ListVal([]cty.Value{s, o}), true},
		{"lists of different lengths", cty.ListVal([]cty.Value{s}), cty.ListVal([]cty.Value{s, o}), false},
		{"maps", cty.MapVal(map[string]cty.Value{"k": s}), cty.MapVal(map[string]cty.Value{"k": s}), true},
		{"maps with other keys", cty.MapVal(map[string]cty.Value{"k": s}), cty.MapVal(map[string]cty.Value{"l": s}), false},
		{"tuples", cty.TupleVal([]cty.Value{s, cty.True}), cty.TupleVal([]cty.Value{s, cty.True}), true},
		{"sets (left to cty)", cty.SetVal([]cty.Value{s}), cty.SetVal([]cty.Value{s}), false},
		{"empty lists of dynamic", cty.ListValEmpty(cty.DynamicPseudoType), cty.ListValEmpty(cty.DynamicPseudoType), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := KnownEqual(tc.a, tc.b)
			if got != tc.want {
				t.Errorf("KnownEqual = %v, want %v", got, tc.want)
			}
			if !got {
				return
			}
			if eq := tc.a.Equals(tc.b); !eq.IsKnown() || eq.IsMarked() || !eq.True() {
				t.Errorf("KnownEqual is true but cty's Equals is %#v", eq)
			}
			if !tc.a.RawEquals(tc.b) {
				t.Error("KnownEqual is true but cty's RawEquals is false")
			}
		})
	}
}
