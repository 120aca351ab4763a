package objchange

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
)

func TestFormatPath(t *testing.T) {
	tests := map[string]struct {
		path cty.Path
		want string
	}{
		"empty": {
			path: nil,
			want: "",
		},
		"attribute": {
			path: cty.GetAttrPath("input"),
			want: ".input",
		},
		"nested attributes": {
			path: cty.GetAttrPath("a").GetAttr("b"),
			want: ".a.b",
		},
		"list index": {
			path: cty.GetAttrPath("a").IndexInt(0),
			want: ".a[0]",
		},
		"map key": {
			path: cty.GetAttrPath("a").IndexString("k"),
			want: `.a["k"]`,
		},
		"mixed": {
			path: cty.GetAttrPath("a").GetAttr("b").IndexInt(12).IndexString("k").GetAttr("c"),
			want: `.a.b[12]["k"].c`,
		},
		"key needing escapes": {
			path: cty.GetAttrPath("m").IndexString("say \"hi\"\n"),
			want: `.m["say \"hi\"\n"]`,
		},
		"unknown key": {
			path: cty.GetAttrPath("m").Index(cty.UnknownVal(cty.String)),
			want: `.m[?]`,
		},
		"set element key": {
			path: cty.GetAttrPath("s").Index(cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")})),
			want: `.s[...]`,
		},
		"bool key": {
			path: cty.GetAttrPath("s").Index(cty.True),
			want: `.s[true]`,
		},
		"fractional number key": {
			path: cty.GetAttrPath("s").Index(cty.NumberFloatVal(1.5)),
			want: `.s[1.5]`,
		},
		"marked key": {
			path: cty.GetAttrPath("m").Index(cty.StringVal("k").Mark("sensitive")),
			want: `.m["k"]`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := FormatPath(tc.path)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("wrong result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewErrorIsPathError(t *testing.T) {
	path := cty.GetAttrPath("a").IndexInt(1)
	err := newError(path, "broken %d", 1)
	if got, want := err.Error(), ".a[1]: broken 1"; got != want {
		t.Errorf("wrong message %q; want %q", got, want)
	}
	var pe cty.PathError
	if !errors.As(err, &pe) {
		t.Fatalf("error is not a cty.PathError: %#v", err)
	}
	if !pe.Path.Equals(path) {
		t.Errorf("wrong path %#v", pe.Path)
	}
	if got, want := newError(nil, "root").Error(), "root"; got != want {
		t.Errorf("wrong root message %q; want %q", got, want)
	}
}

func TestMaxMatching(t *testing.T) {
	// Greedy in-order matching would pair left 0 with right 0 and leave
	// left 1 unmatched; a maximum matching pairs both.
	ok := [][]bool{
		{true, true},
		{true, false},
	}
	got := maxMatching(2, 2, func(i, j int) bool { return ok[i][j] })
	if diff := cmp.Diff([]int{1, 0}, got); diff != "" {
		t.Errorf("wrong matching (-want +got):\n%s", diff)
	}
	got = maxMatching(2, 1, func(i, j int) bool { return true })
	if diff := cmp.Diff([]int{0, -1}, got); diff != "" {
		t.Errorf("wrong matching (-want +got):\n%s", diff)
	}
}

// errorStrings renders errors as sorted strings for comparison; nil and
// empty both become nil.
func errorStrings(errs []error) []string {
	var ret []string
	for _, err := range errs {
		ret = append(ret, err.Error())
	}
	sort.Strings(ret)
	return ret
}

// checkErrors compares errors against the wanted messages and checks that
// each error is a cty.PathError.
func checkErrors(t *testing.T, errs []error, want []string) {
	t.Helper()
	sort.Strings(want)
	if diff := cmp.Diff(want, errorStrings(errs)); diff != "" {
		t.Errorf("wrong errors (-want +got):\n%s", diff)
	}
	for _, err := range errs {
		var pe cty.PathError
		if !errors.As(err, &pe) {
			t.Errorf("error %q is not a cty.PathError", err)
		}
	}
}

// checkValue compares two values exactly, showing a line diff of an indented
// rendering when they differ.
func checkValue(t *testing.T, got, want cty.Value) {
	t.Helper()
	if got.RawEquals(want) {
		return
	}
	t.Errorf("wrong result (-want +got):\n%s", cmp.Diff(dumpValue(want), dumpValue(got)))
}

// dumpValue renders a value with one leaf per line so that cmp.Diff of two
// renderings shows where they differ.
func dumpValue(v cty.Value) string {
	var b strings.Builder
	dumpValueTo(&b, v, 0)
	return b.String()
}

func dumpValueTo(b *strings.Builder, v cty.Value, depth int) {
	indent := strings.Repeat("  ", depth)
	ty := v.Type()
	if v.IsMarked() || !v.IsKnown() || v.IsNull() || !(ty.IsCollectionType() || ty.IsObjectType() || ty.IsTupleType()) || v.LengthInt() == 0 {
		fmt.Fprintf(b, "%#v\n", v)
		return
	}
	fmt.Fprintf(b, "%s {\n", ty.FriendlyName())
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		fmt.Fprintf(b, "%s  %#v = ", indent, k)
		dumpValueTo(b, e, depth+1)
	}
	fmt.Fprintf(b, "%s}\n", indent)
}

// TestTypeConforms checks TypeConforms against cty's TestConformance on
// every pair of a set of types.
func TestTypeConforms(t *testing.T) {
	obj := func(attrs map[string]cty.Type) cty.Type { return cty.Object(attrs) }
	types := []cty.Type{
		cty.String, cty.Number, cty.Bool, cty.DynamicPseudoType,
		cty.List(cty.String), cty.List(cty.DynamicPseudoType), cty.List(cty.Number),
		cty.Set(cty.String), cty.Set(cty.DynamicPseudoType),
		cty.Map(cty.String), cty.Map(cty.DynamicPseudoType),
		cty.EmptyTuple, cty.Tuple([]cty.Type{cty.String}), cty.Tuple([]cty.Type{cty.DynamicPseudoType}), cty.Tuple([]cty.Type{cty.String, cty.Number}),
		cty.EmptyObject,
		obj(map[string]cty.Type{"a": cty.String}),
		obj(map[string]cty.Type{"a": cty.DynamicPseudoType}),
		obj(map[string]cty.Type{"a": cty.Number}),
		obj(map[string]cty.Type{"b": cty.String}),
		obj(map[string]cty.Type{"a": cty.String, "b": cty.String}),
		obj(map[string]cty.Type{"a": cty.List(obj(map[string]cty.Type{"x": cty.DynamicPseudoType}))}),
		obj(map[string]cty.Type{"a": cty.List(obj(map[string]cty.Type{"x": cty.String}))}),
		cty.ObjectWithOptionalAttrs(map[string]cty.Type{"a": cty.String, "b": cty.String}, []string{"b"}),
	}
	for _, got := range types {
		for _, want := range types {
			if g, w := TypeConforms(got, want), len(got.TestConformance(want)) == 0; g != w {
				t.Errorf("TypeConforms(%#v, %#v) = %t, TestConformance says %t", got, want, g, w)
			}
		}
	}
}

// TestSchemaConforms checks schemaConforms against the conformance of the
// schema's implied type.
func TestSchemaConforms(t *testing.T) {
	schema := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"id":    {Type: cty.String, Computed: true},
			"input": {Type: cty.DynamicPseudoType, Optional: true},
			"obj": {NestedType: &configschema.Object{Nesting: configschema.NestingList, Attributes: map[string]*configschema.Attribute{
				"x": {Type: cty.Number, Optional: true},
			}}, Optional: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"blk": {Nesting: configschema.NestingSet, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"y": {Type: cty.String, Optional: true},
			}}},
		},
	}
	objList := cty.List(cty.Object(map[string]cty.Type{"x": cty.Number}))
	blkSet := cty.Set(cty.Object(map[string]cty.Type{"y": cty.String}))
	types := []cty.Type{
		schema.ImpliedType(),
		cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.String, "obj": objList, "blk": blkSet}),
		cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.List(cty.Bool), "obj": objList, "blk": blkSet}),
		cty.Object(map[string]cty.Type{"id": cty.Number, "input": cty.String, "obj": objList, "blk": blkSet}),
		cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.String, "obj": cty.List(cty.Object(map[string]cty.Type{"x": cty.String})), "blk": blkSet}),
		cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.String, "obj": objList}),
		cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.String, "obj": objList, "blk": blkSet, "extra": cty.String}),
		cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.String, "obj": objList, "blk": cty.List(cty.Object(map[string]cty.Type{"y": cty.String}))}),
		cty.String, cty.DynamicPseudoType, cty.EmptyObject,
	}
	want := objectType(schema.Attributes, schema.BlockTypes)
	for _, ty := range types {
		if got, conforms := schemaConforms(ty, schema.Attributes, schema.BlockTypes), len(ty.TestConformance(want)) == 0; got != conforms {
			t.Errorf("schemaConforms(%#v) = %t, TestConformance says %t", ty, got, conforms)
		}
	}
}
