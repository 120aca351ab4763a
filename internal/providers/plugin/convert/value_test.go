package convert

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestValueRoundTrip(t *testing.T) {
	objTy := cty.Object(map[string]cty.Type{
		"id":   cty.String,
		"n":    cty.Number,
		"tags": cty.Map(cty.String),
		"list": cty.List(cty.Object(map[string]cty.Type{"a": cty.String})),
		"set":  cty.Set(cty.String),
		"dyn":  cty.DynamicPseudoType,
	})
	full := cty.ObjectVal(map[string]cty.Value{
		"id":   cty.StringVal("x"),
		"n":    cty.NumberIntVal(42),
		"tags": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
		"list": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("b")})}),
		"set":  cty.SetVal([]cty.Value{cty.StringVal("s1"), cty.StringVal("s2")}),
		"dyn":  cty.TupleVal([]cty.Value{cty.True, cty.StringVal("t")}),
	})
	withUnknowns := cty.ObjectVal(map[string]cty.Value{
		"id":   cty.UnknownVal(cty.String),
		"n":    cty.NullVal(cty.Number),
		"tags": cty.MapVal(map[string]cty.Value{"k": cty.UnknownVal(cty.String)}),
		"list": cty.UnknownVal(cty.List(cty.Object(map[string]cty.Type{"a": cty.String}))),
		"set":  cty.SetVal([]cty.Value{cty.StringVal("s1"), cty.UnknownVal(cty.String)}),
		"dyn":  cty.DynamicVal,
	})
	tests := []struct {
		name string
		in   cty.Value
		ty   cty.Type
		want cty.Value // defaults to in
	}{
		{"known object", full, objTy, cty.NilVal},
		{"unknowns at every level", withUnknowns, objTy, cty.NilVal},
		{"wholly unknown", cty.UnknownVal(objTy), objTy, cty.NilVal},
		{"null", cty.NullVal(objTy), objTy, cty.NilVal},
		{"NilVal encodes as null", cty.NilVal, objTy, cty.NullVal(objTy)},
		{"marks are dropped", full.Mark("sensitive"), objTy, full},
		{"nested marks are dropped", cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("p").Mark("sensitive")}),
			cty.Object(map[string]cty.Type{"s": cty.String}), cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("p")})},
		{"refined unknown stays unknown", cty.UnknownVal(cty.String).RefineNotNull(), cty.String, cty.UnknownVal(cty.String).RefineNotNull()},
		{"dynamic type sends its type", cty.StringVal("x"), cty.DynamicPseudoType, cty.NilVal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if want == cty.NilVal {
				want = tt.in
			}
			mp, err := EncodeValue(tt.in, tt.ty)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeValue(mp, nil, tt.ty)
			if err != nil {
				t.Fatal(err)
			}
			if !got.RawEquals(want) {
				t.Errorf("got %#v, want %#v", got, want)
			}
		})
	}
}

func TestDecodeValue(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"a": cty.String, "n": cty.Number, "l": cty.List(cty.Bool)})
	tests := []struct {
		name    string
		mp, js  []byte
		want    cty.Value
		wantErr string
	}{
		{
			name: "JSON",
			js:   []byte(`{"a":"x","n":1.5,"l":[true,false]}`),
			want: cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "n": cty.NumberFloatVal(1.5), "l": cty.ListVal([]cty.Value{cty.True, cty.False})}),
		},
		{
			name: "JSON with nulls",
			js:   []byte(`{"a":null,"n":null,"l":null}`),
			want: cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String), "n": cty.NullVal(cty.Number), "l": cty.NullVal(cty.List(cty.Bool))}),
		},
		{name: "JSON null", js: []byte(`null`), want: cty.NullVal(ty)},
		{name: "neither encoding is null", want: cty.NullVal(ty)},
		{name: "msgpack nil", mp: []byte{0xc0}, want: cty.NullVal(ty)},
		{name: "msgpack wins over JSON", mp: []byte{0xc0}, js: []byte(`{"a":"x"}`), want: cty.NullVal(ty)},
		{name: "JSON of the wrong shape", js: []byte(`{"a":"x","zzz":1}`), wantErr: "unsupported attribute"},
		{name: "JSON of the wrong type", js: []byte(`{"a":"x","n":"not a number","l":[]}`), wantErr: "number"},
		{name: "truncated msgpack", mp: []byte{0x83, 0xa1, 0x61}, wantErr: "EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeValue(tt.mp, tt.js, ty)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %#v, %v; want an error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !got.RawEquals(tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestEncodeValueErrors(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"a": cty.String})
	if _, err := EncodeValue(cty.StringVal("not an object"), ty); err == nil {
		t.Error("encoding a string as an object: want an error")
	}
}
