package engine

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestChangedPaths: the replace paths a plan records are those whose
// value changes, each once however many times the provider named it.
func TestChangedPaths(t *testing.T) {
	setTy := cty.Set(cty.Object(map[string]cty.Type{"s": cty.String}))
	obj := func(name string, set ...string) cty.Value {
		elems := make([]cty.Value, 0, len(set))
		for _, s := range set {
			elems = append(elems, cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal(s)}))
		}
		sv := cty.SetValEmpty(setTy.ElementType())
		if len(elems) > 0 {
			sv = cty.SetVal(elems)
		}
		return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "set": sv})
	}
	name, set := cty.GetAttrPath("name"), cty.GetAttrPath("set")
	tests := map[string]struct {
		paths          []cty.Path
		prior, planned cty.Value
		want           []cty.Path
	}{
		"unchanged path left out": {[]cty.Path{name}, obj("a", "x"), obj("a", "y"), nil},
		"changed path kept":       {[]cty.Path{name, set}, obj("a", "x"), obj("b", "x"), []cty.Path{name}},
		"set named once per new element": {
			[]cty.Path{set, set}, obj("a", "x"), obj("a", "y", "z"), []cty.Path{set},
		},
		"repeats among others": {
			[]cty.Path{set, name, set, name}, obj("a", "x"), obj("b", "y", "z"), []cty.Path{set, name},
		},
		"unknown counts as a change": {
			[]cty.Path{name, name}, obj("a"),
			cty.ObjectVal(map[string]cty.Value{"name": cty.UnknownVal(cty.String), "set": cty.SetValEmpty(setTy.ElementType())}),
			[]cty.Path{name},
		},
	}
	for desc, tc := range tests {
		t.Run(desc, func(t *testing.T) {
			got := changedPaths(tc.paths, tc.prior, tc.planned)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d paths %#v, want %#v", len(got), got, tc.want)
			}
			for i := range got {
				if !got[i].Equals(tc.want[i]) {
					t.Errorf("path %d: got %#v, want %#v", i, got[i], tc.want[i])
				}
			}
		})
	}
}
