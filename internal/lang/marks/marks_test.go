package marks

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestPathsApplyRoundTrip(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"a": cty.StringVal("x"),
		"b": cty.ListVal([]cty.Value{cty.StringVal("1"), cty.StringVal("2")}),
	})
	paths := []cty.Path{cty.GetAttrPath("a"), cty.GetAttrPath("b").IndexInt(1)}
	marked := Apply(v, paths)
	if !Contains(marked) {
		t.Fatal("Contains should see the marks")
	}
	if Contains(v) {
		t.Fatal("an unmarked value contains no marks")
	}
	unmarked, got := Paths(marked)
	if !unmarked.RawEquals(v) {
		t.Fatalf("unmarked value differs: %#v", unmarked)
	}
	if len(got) != 2 {
		t.Fatalf("got %d paths, want 2", len(got))
	}
	for _, want := range paths {
		found := false
		for _, p := range got {
			found = found || p.Equals(want)
		}
		if !found {
			t.Errorf("path %#v lost", want)
		}
	}
	if !Apply(v, nil).RawEquals(v) {
		t.Error("Apply with no paths should return the value unchanged")
	}
}
