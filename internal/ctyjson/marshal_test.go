package ctyjson

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/zclconf/go-cty/cty"
	gocty "github.com/zclconf/go-cty/cty/json"
)

// TestMarshalAgreesWithGoCty checks that Marshal gives go-cty's bytes, or
// go-cty's error, for values of every kind, including the ones it hands
// to go-cty.
func TestMarshalAgreesWithGoCty(t *testing.T) {
	obj := cty.Object(map[string]cty.Type{"a": cty.String, "n": cty.Number, "d": cty.DynamicPseudoType})
	objVal := func(a string, d cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal(a), "n": cty.NumberIntVal(7), "d": d})
	}
	huge, _, _ := big.ParseFloat("1e400", 10, 512, big.ToNearestEven)
	tests := []struct {
		v  cty.Value
		ty cty.Type
	}{
		{cty.StringVal("plain"), cty.String},
		{cty.StringVal(""), cty.String},
		{cty.StringVal(`quote " backslash \ <b> & tab	nl
`), cty.String},
		{cty.StringVal("café \u2028 \x7f \x01"), cty.String},
		{cty.NumberIntVal(-12), cty.Number},
		{cty.NumberFloatVal(1.5), cty.Number},
		{cty.NumberFloatVal(1e-7), cty.Number},
		{cty.NumberVal(huge), cty.Number},
		{cty.PositiveInfinity, cty.Number},
		{cty.True, cty.Bool},
		{cty.False, cty.Bool},
		{cty.NullVal(cty.String), cty.String},
		{cty.NullVal(cty.DynamicPseudoType), cty.DynamicPseudoType},
		{cty.UnknownVal(cty.String), cty.String},
		{cty.StringVal("x").Mark("sensitive"), cty.String},
		{objVal("x", cty.StringVal("dyn")), obj},
		{objVal("x<y", cty.ListVal([]cty.Value{cty.NumberIntVal(1)})), obj},
		{objVal("x", cty.NullVal(cty.DynamicPseudoType)), obj},
		{objVal("x", cty.NumberFloatVal(2.5)), obj},
		{cty.True, cty.DynamicPseudoType},
		{objVal("x", cty.UnknownVal(cty.String)), obj},
		{cty.EmptyObjectVal, cty.EmptyObject},
		{cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), cty.List(cty.String)},
		{cty.ListValEmpty(cty.String), cty.List(cty.String)},
		{cty.SetVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a")}), cty.Set(cty.String)},
		{cty.MapVal(map[string]cty.Value{"z": cty.True, "a&b": cty.False}), cty.Map(cty.Bool)},
		{cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(2)}), cty.Tuple([]cty.Type{cty.String, cty.Number})},
		{cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(2)}), cty.DynamicPseudoType},
		{cty.StringVal("12"), cty.Number},  // converted by go-cty
		{cty.NumberIntVal(12), cty.String}, // converted by go-cty
		{cty.StringVal("x"), cty.List(cty.String)},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			want, wantErr := gocty.Marshal(tc.v, tc.ty)
			got, gotErr := Marshal(tc.v, tc.ty)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Fatalf("%#v: error %v, go-cty's %v", tc.v, gotErr, wantErr)
			}
			if string(got) != string(want) {
				t.Errorf("%#v:\n got %s\nwant %s", tc.v, got, want)
			}
		})
	}
}

func BenchmarkMarshalObject(b *testing.B) {
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType})
	v := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("2d3f1c1e-5b4a-4c1e-9e4f-0a1b2c3d4e5f"), "input": cty.StringVal("start"),
		"output": cty.StringVal("start"), "triggers_replace": cty.NullVal(cty.DynamicPseudoType),
	})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Marshal(v, ty); err != nil {
			b.Fatal(err)
		}
	}
}
