package ctyjson

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/zclconf/go-cty/cty"
	gocty "github.com/zclconf/go-cty/cty/json"
)

// same asserts that Unmarshal and go-cty's decoder agree on buf: the same
// value, or the same error, or both panic.
func same(t *testing.T, buf []byte, ty cty.Type) {
	t.Helper()
	want, wantErr, wantPanic := decodeWith(gocty.Unmarshal, buf, ty)
	got, gotErr, gotPanic := decodeWith(Unmarshal, buf, ty)
	switch {
	case wantPanic || gotPanic:
		if wantPanic != gotPanic {
			t.Errorf("%s as %s: panic %v, go-cty panic %v", buf, ty.GoString(), gotPanic, wantPanic)
		}
	case wantErr != nil || gotErr != nil:
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s as %s: error %v, go-cty's %v", buf, ty.GoString(), gotErr, wantErr)
		}
	case !got.RawEquals(want):
		t.Errorf("%s as %s:\n got %#v\nwant %#v", buf, ty.GoString(), got, want)
	}
}

func decodeWith(f func([]byte, cty.Type) (cty.Value, error), buf []byte, ty cty.Type) (v cty.Value, err error, panicked bool) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	v, err = f(buf, ty)
	return v, err, false
}

func TestUnmarshalAgreesWithGoCty(t *testing.T) {
	obj := cty.Object(map[string]cty.Type{"a": cty.String, "n": cty.Number, "b": cty.Bool, "l": cty.List(cty.String), "d": cty.DynamicPseudoType})
	tests := []struct {
		json string
		ty   cty.Type
	}{
		{`"hello"`, cty.String},
		{`"caf\u00e9 \"q\" \\ \/ \b\f\n\r\t"`, cty.String},
		{`"\ud83d\ude00 astral"`, cty.String},
		{`"\ud83d lone"`, cty.String},
		{`"e\u0301"`, cty.String}, // NFC-normalised by cty
		{"\"raw \xff byte\"", cty.String},
		{"\"tab\tinside\"", cty.String},
		{`12`, cty.String},
		{`true`, cty.String},
		{`"12"`, cty.Number},
		{`"true"`, cty.Bool},
		{`-0`, cty.Number},
		{`1.5e300`, cty.Number},
		{`123456789012345678901234567890.123`, cty.Number},
		{`01`, cty.Number},
		{`1.`, cty.Number},
		{`- 1`, cty.Number},
		{`true`, cty.Bool},
		{`false`, cty.Bool},
		{`null`, cty.String},
		{`null`, obj},
		{`null`, cty.DynamicPseudoType},
		{` {"a":"x","n":1,"b":true,"l":["p","q"],"d":{"value":[1,"a"],"type":["tuple",["number","string"]]}} `, obj},
		{`{"a":"x"}`, obj},
		{`{"a":"x","a":"y"}`, obj},
		{`{"a":"x","zzz":1}`, obj},
		{`{}`, obj},
		{`{}`, cty.EmptyObject},
		{`{"a":"x",}`, obj},
		{`{"a":"x"} trailing`, obj},
		{`{"a":"x"}}`, obj},
		{`[]`, cty.List(cty.String)},
		{`["a",null,"c"]`, cty.List(cty.String)},
		{`["a","a","b"]`, cty.Set(cty.String)},
		{`[]`, cty.Set(cty.Number)},
		{`[1,2]`, cty.Tuple([]cty.Type{cty.Number, cty.Number})},
		{`[1]`, cty.Tuple([]cty.Type{cty.Number, cty.Number})},
		{`[1,2,3]`, cty.Tuple([]cty.Type{cty.Number, cty.Number})},
		{`[]`, cty.EmptyTuple},
		{`{"k":"v","k2":null}`, cty.Map(cty.String)},
		{`{}`, cty.Map(cty.Bool)},
		{`{"value":"start","type":"string"}`, cty.DynamicPseudoType},
		{`{"type":"number","value":5}`, cty.DynamicPseudoType},
		{`{"type":["map","string"],"value":{"x":"y"}}`, cty.DynamicPseudoType},
		{`{"type":"dynamic","value":null}`, cty.DynamicPseudoType},
		{`{"value":"x"}`, cty.DynamicPseudoType},
		{`{"type":"string"}`, cty.DynamicPseudoType},
		{`{"type":"string","value":"x","extra":1}`, cty.DynamicPseudoType},
		{`{"type":"nonsense","value":"x"}`, cty.DynamicPseudoType},
		{`[{"value":1,"type":"number"},{"value":"a","type":"string"}]`, cty.List(cty.DynamicPseudoType)},
		{`{"a":{"value":1,"type":"number"},"b":{"value":"a","type":"string"}}`, cty.Map(cty.DynamicPseudoType)},
		{``, cty.String},
		{`"unterminated`, cty.String},
		{`[1,2`, cty.List(cty.Number)},
		{`nul`, cty.String},
	}
	for _, tt := range tests {
		same(t, []byte(tt.json), tt.ty)
	}
}

// TestUnmarshalRandomValues: every value go-cty encodes decodes to the
// same value through both decoders.
func TestUnmarshalRandomValues(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		ty := randomType(rnd, 3)
		v := randomValue(rnd, ty, 3)
		buf, err := gocty.Marshal(v, ty)
		if err != nil {
			t.Fatalf("marshal %#v: %v", v, err)
		}
		same(t, buf, ty)
		if d := (decoder{buf: buf}); !fast(&d, ty) {
			t.Errorf("%s as %s: left to go-cty, though go-cty wrote it", buf, ty.GoString())
		}
		if i%10 == 0 {
			same(t, buf, cty.DynamicPseudoType)
			if dyn, err := gocty.Marshal(v, cty.DynamicPseudoType); err == nil {
				same(t, dyn, cty.DynamicPseudoType)
			}
		}
	}
}

// fast reports whether the single-pass decoder decodes all of d's input.
func fast(d *decoder, ty cty.Type) bool {
	_, ok := d.value(ty)
	d.space()
	return ok && d.pos == len(d.buf)
}

func BenchmarkUnmarshalState(b *testing.B) {
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType})
	buf := []byte(`{"id":"5b1f3e0a-8a7e-4c8e-9d5e-0f3c2a1b4c5d","input":{"value":"start","type":"string"},"output":{"value":"start","type":"string"},"triggers_replace":null}`)
	for _, impl := range []struct {
		name string
		f    func([]byte, cty.Type) (cty.Value, error)
	}{{"strata", Unmarshal}, {"go-cty", gocty.Unmarshal}} {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := impl.f(buf, ty); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func FuzzUnmarshal(f *testing.F) {
	types := []cty.Type{
		cty.String, cty.Number, cty.Bool, cty.DynamicPseudoType,
		cty.List(cty.String), cty.Set(cty.Number), cty.Map(cty.DynamicPseudoType),
		cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.List(cty.Bool)}),
		cty.Tuple([]cty.Type{cty.String, cty.Number}),
	}
	for _, s := range []string{`"x"`, `1`, `{"a":"b","b":[true]}`, `{"value":1,"type":"number"}`, `["a",1]`, `"\u00e9"`} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, buf []byte, which uint8) {
		same(t, buf, types[int(which)%len(types)])
	})
}

func randomType(r *rand.Rand, depth int) cty.Type {
	n := 4
	if depth > 0 {
		n = 10
	}
	switch r.Intn(n) {
	case 0:
		return cty.String
	case 1:
		return cty.Number
	case 2:
		return cty.Bool
	case 3:
		return cty.String
	case 4:
		return cty.List(randomType(r, depth-1))
	case 5:
		return cty.Set(randomType(r, depth-1))
	case 6:
		return cty.Map(randomType(r, depth-1))
	case 7:
		elems := make([]cty.Type, r.Intn(3))
		for i := range elems {
			elems[i] = randomType(r, depth-1)
		}
		return cty.Tuple(elems)
	default:
		attrs := map[string]cty.Type{}
		for i := r.Intn(4); i > 0; i-- {
			attrs[fmt.Sprintf("attr_%d", r.Intn(6))] = randomType(r, depth-1)
		}
		return cty.Object(attrs)
	}
}

var sampleStrings = []string{"", "a", "hello world", "quote \" backslash \\ slash /", "ctl \n\t\r\x01", "café", "e\u0301", "😀", "<&>"}

func randomValue(r *rand.Rand, ty cty.Type, depth int) cty.Value {
	if r.Intn(8) == 0 {
		return cty.NullVal(ty)
	}
	switch {
	case ty == cty.String:
		return cty.StringVal(sampleStrings[r.Intn(len(sampleStrings))])
	case ty == cty.Number:
		switch r.Intn(3) {
		case 0:
			return cty.NumberIntVal(r.Int63n(1<<40) - 1<<39)
		case 1:
			return cty.NumberFloatVal(r.NormFloat64() * 1e6)
		}
		v, _ := cty.ParseNumberVal("123456789012345678901234567890.5")
		return v
	case ty == cty.Bool:
		return cty.BoolVal(r.Intn(2) == 0)
	case ty.IsListType(), ty.IsSetType():
		n := r.Intn(4)
		if n == 0 {
			if ty.IsListType() {
				return cty.ListValEmpty(ty.ElementType())
			}
			return cty.SetValEmpty(ty.ElementType())
		}
		vals := make([]cty.Value, n)
		for i := range vals {
			vals[i] = randomValue(r, ty.ElementType(), depth-1)
		}
		if ty.IsListType() {
			return cty.ListVal(vals)
		}
		return cty.SetVal(vals)
	case ty.IsMapType():
		n := r.Intn(4)
		if n == 0 {
			return cty.MapValEmpty(ty.ElementType())
		}
		vals := map[string]cty.Value{}
		for i := 0; i < n; i++ {
			vals[sampleStrings[r.Intn(len(sampleStrings))]] = randomValue(r, ty.ElementType(), depth-1)
		}
		return cty.MapVal(vals)
	case ty.IsTupleType():
		etys := ty.TupleElementTypes()
		if len(etys) == 0 {
			return cty.EmptyTupleVal
		}
		vals := make([]cty.Value, len(etys))
		for i, et := range etys {
			vals[i] = randomValue(r, et, depth-1)
		}
		return cty.TupleVal(vals)
	}
	atys := ty.AttributeTypes()
	if len(atys) == 0 {
		return cty.EmptyObjectVal
	}
	vals := map[string]cty.Value{}
	for name, at := range atys {
		vals[name] = randomValue(r, at, depth-1)
	}
	return cty.ObjectVal(vals)
}
