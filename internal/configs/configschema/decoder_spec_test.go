package configschema

import (
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
)

type diag struct {
	Summary string
	Subject string
}

func summarizeDiags(diags hcl.Diagnostics) []diag {
	var ret []diag
	for _, d := range diags {
		s := ""
		if r := d.Subject; r != nil {
			s = fmt.Sprintf("%d,%d-%d,%d", r.Start.Line, r.Start.Column, r.End.Line, r.End.Column)
		}
		ret = append(ret, diag{d.Summary, s})
	}
	sort.Slice(ret, func(i, j int) bool { return ret[i].Subject < ret[j].Subject })
	return ret
}

// decode parses src (HCL native syntax, or JSON when json is set) and
// decodes it with schema's decoder spec.
func decode(t *testing.T, schema *Block, src string, isJSON bool) (cty.Value, hcl.Diagnostics) {
	t.Helper()
	var f *hcl.File
	var diags hcl.Diagnostics
	if isJSON {
		f, diags = json.Parse([]byte(src), "test.tf.json")
	} else {
		f, diags = hclsyntax.ParseConfig([]byte(src), "test.tf", hcl.InitialPos)
	}
	if diags.HasErrors() {
		t.Fatalf("parse: %s", diags.Error())
	}
	return hcldec.Decode(f.Body, schema.DecoderSpec(), nil)
}

func TestBlockDecoderSpec(t *testing.T) {
	t.Parallel()
	leafObj := func(name cty.Value, size cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"name": name, "size": size})
	}
	nullSize := cty.NullVal(cty.Number)
	nullName := cty.NullVal(cty.String)
	nestedObj := func(name, size cty.Value) cty.Value { return leafObj(name, size) }

	tests := map[string]struct {
		schema    *Block
		src       string
		json      bool
		want      cty.Value
		wantDiags []diag
	}{
		"nil schema": {
			schema: nil,
			src:    ``,
			want:   cty.EmptyObjectVal,
		},
		"attributes": {
			schema: &Block{Attributes: map[string]*Attribute{
				"s":   {Type: cty.String, Required: true},
				"n":   {Type: cty.Number, Optional: true},
				"l":   {Type: cty.List(cty.String), Optional: true},
				"any": {Type: cty.DynamicPseudoType, Optional: true},
				"oc":  {Type: cty.String, Optional: true, Computed: true},
			}},
			src: `
s   = "x"
n   = "12"
l   = [1, true]
any = { a = [1] }
`,
			want: cty.ObjectVal(map[string]cty.Value{
				"s":   cty.StringVal("x"),
				"n":   cty.NumberIntVal(12),
				"l":   cty.ListVal([]cty.Value{cty.StringVal("1"), cty.StringVal("true")}),
				"any": cty.ObjectVal(map[string]cty.Value{"a": cty.TupleVal([]cty.Value{cty.NumberIntVal(1)})}),
				"oc":  cty.NullVal(cty.String),
			}),
		},
		"missing required attribute": {
			schema: &Block{Attributes: map[string]*Attribute{
				"s": {Type: cty.String, Required: true},
			}},
			src:       ``,
			want:      cty.ObjectVal(map[string]cty.Value{"s": cty.NullVal(cty.String)}),
			wantDiags: []diag{{"Missing required argument", "1,1-1,1"}},
		},
		"wrong attribute type": {
			schema: &Block{Attributes: map[string]*Attribute{
				"n": {Type: cty.Number, Optional: true},
			}},
			src:       `n = "many"`,
			want:      cty.ObjectVal(map[string]cty.Value{"n": cty.UnknownVal(cty.Number)}),
			wantDiags: []diag{{"Incorrect attribute value type", "1,5-1,11"}},
		},
		"computed-only attributes decode as null": {
			schema: &Block{Attributes: map[string]*Attribute{
				"id":  {Type: cty.String, Computed: true},
				"obj": {Computed: true, NestedType: &Object{Nesting: NestingList, Attributes: leafAttrs}},
				"set": {Optional: true, Type: cty.String},
			}},
			src: `set = "x"`,
			want: cty.ObjectVal(map[string]cty.Value{
				"id":  cty.NullVal(cty.String),
				"obj": cty.NullVal(cty.List(leafType)),
				"set": cty.StringVal("x"),
			}),
		},
		"computed-only attributes cannot be set": {
			schema: &Block{Attributes: map[string]*Attribute{
				"id": {Type: cty.String, Computed: true},
			}},
			src:       `id = "x"`,
			want:      cty.ObjectVal(map[string]cty.Value{"id": cty.NullVal(cty.String)}),
			wantDiags: []diag{{"Unsupported argument", "1,1-1,3"}},
		},
		"unknown attribute": {
			schema:    &Block{},
			src:       `nope = 1`,
			want:      cty.EmptyObjectVal,
			wantDiags: []diag{{"Unsupported argument", "1,1-1,5"}},
		},
		"single block": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"b": {Nesting: NestingSingle, Block: leafBlock},
			}},
			src: `
b {
  name = "x"
}
`,
			want: cty.ObjectVal(map[string]cty.Value{"b": leafObj(cty.StringVal("x"), nullSize)}),
		},
		"absent single block is null": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"b": {Nesting: NestingSingle, Block: leafBlock},
			}},
			src:  ``,
			want: cty.ObjectVal(map[string]cty.Value{"b": cty.NullVal(leafType)}),
		},
		"required single block": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"b": {Nesting: NestingSingle, Block: leafBlock, MinItems: 1, MaxItems: 1},
			}},
			src:       ``,
			want:      cty.ObjectVal(map[string]cty.Value{"b": cty.NullVal(leafType)}),
			wantDiags: []diag{{"Missing b block", "1,1-1,1"}},
		},
		"two single blocks": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"b": {Nesting: NestingSingle, Block: leafBlock},
			}},
			// hcldec keeps the first block.
			src:       "b {}\nb {}\n",
			want:      cty.ObjectVal(map[string]cty.Value{"b": leafObj(nullName, nullSize)}),
			wantDiags: []diag{{"Duplicate b block", "2,1-2,2"}},
		},
		"group block": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"g": {Nesting: NestingGroup, Block: leafBlock},
			}},
			src:  "g {\n  size = 2\n}\n",
			want: cty.ObjectVal(map[string]cty.Value{"g": leafObj(nullName, cty.NumberIntVal(2))}),
		},
		"absent group block is an empty object": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"g": {Nesting: NestingGroup, Block: Block{
					Attributes: map[string]*Attribute{"name": {Type: cty.String, Optional: true}},
					BlockTypes: map[string]*NestedBlock{"l": {Nesting: NestingList, Block: leafBlock}},
				}},
			}},
			src: ``,
			want: cty.ObjectVal(map[string]cty.Value{"g": cty.ObjectVal(map[string]cty.Value{
				"name": nullName,
				"l":    cty.ListValEmpty(leafType),
			})}),
		},
		"list blocks": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"l": {Nesting: NestingList, Block: leafBlock},
			}},
			src: `
l {
  name = "a"
}
l {
  size = 1
}
`,
			want: cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{
				leafObj(cty.StringVal("a"), nullSize),
				leafObj(nullName, cty.NumberIntVal(1)),
			})}),
		},
		"absent list blocks": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"l": {Nesting: NestingList, Block: leafBlock},
			}},
			src:  ``,
			want: cty.ObjectVal(map[string]cty.Value{"l": cty.ListValEmpty(leafType)}),
		},
		"list blocks below min items": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"l": {Nesting: NestingList, Block: leafBlock, MinItems: 2},
			}},
			src:       "l {}\n",
			want:      cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{leafObj(nullName, nullSize)})}),
			wantDiags: []diag{{"Insufficient l blocks", "1,1-1,1"}},
		},
		"list blocks above max items": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"l": {Nesting: NestingList, Block: leafBlock, MaxItems: 1},
			}},
			src: "l {}\nl {}\n",
			want: cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{
				leafObj(nullName, nullSize), leafObj(nullName, nullSize),
			})}),
			wantDiags: []diag{{"Too many l blocks", "2,3-2,3"}},
		},
		"list blocks with dynamic types are a tuple": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"l": {Nesting: NestingList, Block: dynBlock},
			}},
			src: `
l {
  value = "a"
}
l {
  value = 1
}
`,
			want: cty.ObjectVal(map[string]cty.Value{"l": cty.TupleVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"value": cty.StringVal("a")}),
				cty.ObjectVal(map[string]cty.Value{"value": cty.NumberIntVal(1)}),
			})}),
		},
		"absent dynamic list blocks": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"l": {Nesting: NestingList, Block: dynBlock},
			}},
			src:  ``,
			want: cty.ObjectVal(map[string]cty.Value{"l": cty.EmptyTupleVal}),
		},
		"set blocks": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"s": {Nesting: NestingSet, Block: leafBlock},
			}},
			src: `
s {
  name = "a"
}
s {
  name = "a"
}
s {
  name = "b"
}
`,
			want: cty.ObjectVal(map[string]cty.Value{"s": cty.SetVal([]cty.Value{
				leafObj(cty.StringVal("a"), nullSize),
				leafObj(cty.StringVal("b"), nullSize),
			})}),
		},
		"absent set blocks": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"s": {Nesting: NestingSet, Block: leafBlock},
			}},
			src:  ``,
			want: cty.ObjectVal(map[string]cty.Value{"s": cty.SetValEmpty(leafType)}),
		},
		"map blocks": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"m": {Nesting: NestingMap, Block: leafBlock},
			}},
			src: `
m "a" {
  name = "x"
}
m "b" {
  size = 2
}
`,
			want: cty.ObjectVal(map[string]cty.Value{"m": cty.MapVal(map[string]cty.Value{
				"a": leafObj(cty.StringVal("x"), nullSize),
				"b": leafObj(nullName, cty.NumberIntVal(2)),
			})}),
		},
		"map block without a label": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"m": {Nesting: NestingMap, Block: leafBlock},
			}},
			src:       "m {}\n",
			want:      cty.ObjectVal(map[string]cty.Value{"m": cty.MapValEmpty(leafType)}),
			wantDiags: []diag{{"Missing key for m", "1,3-1,4"}},
		},
		"map blocks with dynamic types are an object": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"m": {Nesting: NestingMap, Block: dynBlock},
			}},
			src: `
m "a" {
  value = "x"
}
m "b" {
  value = [1]
}
`,
			want: cty.ObjectVal(map[string]cty.Value{"m": cty.ObjectVal(map[string]cty.Value{
				"a": cty.ObjectVal(map[string]cty.Value{"value": cty.StringVal("x")}),
				"b": cty.ObjectVal(map[string]cty.Value{"value": cty.TupleVal([]cty.Value{cty.NumberIntVal(1)})}),
			})}),
		},
		"absent dynamic map blocks": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"m": {Nesting: NestingMap, Block: dynBlock},
			}},
			src:  ``,
			want: cty.ObjectVal(map[string]cty.Value{"m": cty.EmptyObjectVal}),
		},
		"nested attributes of every mode": {
			schema: &Block{Attributes: map[string]*Attribute{
				"single": {Optional: true, NestedType: &Object{Nesting: NestingSingle, Attributes: leafAttrs}},
				"list":   {Optional: true, NestedType: &Object{Nesting: NestingList, Attributes: leafAttrs}},
				"set":    {Optional: true, NestedType: &Object{Nesting: NestingSet, Attributes: leafAttrs}},
				"map":    {Optional: true, NestedType: &Object{Nesting: NestingMap, Attributes: leafAttrs}},
			}},
			src: `
single = { name = "s" }
list   = [{ name = "l", size = 1 }, { name = "m" }]
set    = [{ name = "x" }]
map    = { k = { name = "v", size = "3" } }
`,
			want: cty.ObjectVal(map[string]cty.Value{
				"single": nestedObj(cty.StringVal("s"), nullSize),
				"list": cty.ListVal([]cty.Value{
					nestedObj(cty.StringVal("l"), cty.NumberIntVal(1)),
					nestedObj(cty.StringVal("m"), nullSize),
				}),
				"set": cty.SetVal([]cty.Value{nestedObj(cty.StringVal("x"), nullSize)}),
				"map": cty.MapVal(map[string]cty.Value{"k": nestedObj(cty.StringVal("v"), cty.NumberIntVal(3))}),
			}),
		},
		"absent nested attributes are null": {
			schema: &Block{Attributes: map[string]*Attribute{
				"single": {Optional: true, NestedType: &Object{Nesting: NestingSingle, Attributes: leafAttrs}},
				"list":   {Optional: true, NestedType: &Object{Nesting: NestingList, Attributes: leafAttrs}},
			}},
			src: ``,
			want: cty.ObjectVal(map[string]cty.Value{
				"single": cty.NullVal(leafType),
				"list":   cty.NullVal(cty.List(leafType)),
			}),
		},
		"nested attribute missing a required attribute": {
			schema: &Block{Attributes: map[string]*Attribute{
				"single": {Optional: true, NestedType: &Object{Nesting: NestingSingle, Attributes: leafAttrs}},
			}},
			src:       `single = { size = 1 }`,
			want:      cty.ObjectVal(map[string]cty.Value{"single": cty.UnknownVal(leafType)}),
			wantDiags: []diag{{"Incorrect attribute value type", "1,10-1,22"}},
		},
		"nested attribute with an unknown attribute": {
			// Object conversion drops attributes the target type lacks, so
			// this is not reported here.
			schema: &Block{Attributes: map[string]*Attribute{
				"single": {Optional: true, NestedType: &Object{Nesting: NestingSingle, Attributes: leafAttrs}},
			}},
			src:  `single = { name = "a", nope = 1 }`,
			want: cty.ObjectVal(map[string]cty.Value{"single": nestedObj(cty.StringVal("a"), nullSize)}),
		},
		"nested attributes inside nested attributes": {
			schema: &Block{Attributes: map[string]*Attribute{
				"outer": {Optional: true, NestedType: &Object{Nesting: NestingList, Attributes: map[string]*Attribute{
					"id":    {Type: cty.String, Optional: true},
					"inner": {Optional: true, NestedType: &Object{Nesting: NestingSingle, Attributes: leafAttrs}},
				}}},
			}},
			src: `outer = [{ id = "a" }, { inner = { name = "n" } }]`,
			want: cty.ObjectVal(map[string]cty.Value{"outer": cty.ListVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("a"), "inner": cty.NullVal(leafType)}),
				cty.ObjectVal(map[string]cty.Value{"id": nullName, "inner": nestedObj(cty.StringVal("n"), nullSize)}),
			})}),
		},
		"blocks inside blocks": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"outer": {Nesting: NestingList, Block: Block{
					Attributes: map[string]*Attribute{"id": {Type: cty.String, Computed: true}},
					BlockTypes: map[string]*NestedBlock{"inner": {Nesting: NestingSet, Block: leafBlock}},
				}},
			}},
			src: `
outer {
  inner {
    name = "a"
  }
}
outer {}
`,
			want: cty.ObjectVal(map[string]cty.Value{"outer": cty.ListVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{
					"id":    nullName,
					"inner": cty.SetVal([]cty.Value{leafObj(cty.StringVal("a"), nullSize)}),
				}),
				cty.ObjectVal(map[string]cty.Value{
					"id":    nullName,
					"inner": cty.SetValEmpty(leafType),
				}),
			})}),
		},
		"json": {
			schema: &Block{
				Attributes: map[string]*Attribute{
					"s":      {Type: cty.String, Optional: true},
					"single": {Optional: true, NestedType: &Object{Nesting: NestingSingle, Attributes: leafAttrs}},
				},
				BlockTypes: map[string]*NestedBlock{
					"l": {Nesting: NestingList, Block: leafBlock},
					"m": {Nesting: NestingMap, Block: leafBlock},
				},
			},
			json: true,
			src: `{
  "s": "x",
  "single": {"name": "n"},
  "l": [{"name": "a"}, {"size": 2}],
  "m": {"k": {"name": "v"}}
}`,
			want: cty.ObjectVal(map[string]cty.Value{
				"s":      cty.StringVal("x"),
				"single": nestedObj(cty.StringVal("n"), nullSize),
				"l": cty.ListVal([]cty.Value{
					leafObj(cty.StringVal("a"), nullSize),
					leafObj(nullName, cty.NumberIntVal(2)),
				}),
				"m": cty.MapVal(map[string]cty.Value{"k": leafObj(cty.StringVal("v"), nullSize)}),
			}),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, diags := decode(t, tc.schema, tc.src, tc.json)
			if diff := cmp.Diff(tc.wantDiags, summarizeDiags(diags)); diff != "" {
				t.Errorf("wrong diagnostics (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
				t.Errorf("wrong value (-want +got)\n%s", diff)
			}
			// Successfully decoded values conform to the implied type.
			if !diags.HasErrors() {
				if errs := got.Type().TestConformance(tc.schema.ImpliedType()); len(errs) > 0 {
					t.Errorf("value does not conform to the implied type: %v", errs)
				}
			}
		})
	}
}

func TestBlockDecoderSpec_impliedTypeMatchesSpec(t *testing.T) {
	t.Parallel()
	// hcldec's own idea of the spec's type must agree with ImpliedType,
	// except that nested attribute objects are decoded with optional
	// attributes.
	schema := &Block{
		Attributes: map[string]*Attribute{
			"s":  {Type: cty.String, Optional: true},
			"id": {Type: cty.String, Computed: true},
		},
		BlockTypes: map[string]*NestedBlock{
			"single": {Nesting: NestingSingle, Block: leafBlock},
			"group":  {Nesting: NestingGroup, Block: leafBlock},
			"list":   {Nesting: NestingList, Block: leafBlock},
			"set":    {Nesting: NestingSet, Block: leafBlock},
			"map":    {Nesting: NestingMap, Block: leafBlock},
			"dlist":  {Nesting: NestingList, Block: dynBlock},
			"dmap":   {Nesting: NestingMap, Block: dynBlock},
		},
	}
	got := hcldec.ImpliedType(schema.DecoderSpec())
	if diff := cmp.Diff(schema.ImpliedType(), got, ctyOpts); diff != "" {
		t.Errorf("wrong spec type (-want +got)\n%s", diff)
	}
}
