package objchange

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
)

func TestAssertObjectCompatible(t *testing.T) {
	attrSchema := func(ty cty.Type) *configschema.Block {
		return &configschema.Block{Attributes: map[string]*configschema.Attribute{
			"a": {Type: ty, Optional: true, Computed: true},
		}}
	}
	a := func(v cty.Value) cty.Value { return cty.ObjectVal(map[string]cty.Value{"a": v}) }
	tupleBlocks := &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{
		"blk": {Nesting: configschema.NestingList, Block: configschema.Block{
			Attributes: map[string]*configschema.Attribute{
				"v": {Type: cty.DynamicPseudoType, Optional: true, Computed: true},
			},
		}},
	}}
	dynObj := func(v cty.Value) cty.Value { return cty.ObjectVal(map[string]cty.Value{"v": v}) }

	tests := map[string]struct {
		schema          *configschema.Block
		planned, actual cty.Value
		want            []string
	}{
		// Primitive attributes.
		"identical": {
			schema:  primitiveSchema,
			planned: prim(str("r"), str("o"), str("c"), str("oc")),
			actual:  prim(str("r"), str("o"), str("c"), str("oc")),
		},
		"unknowns resolved": {
			schema:  primitiveSchema,
			planned: prim(str("r"), nullStr, unkStr, unkStr),
			actual:  prim(str("r"), nullStr, str("c"), str("oc")),
		},
		"unknown may become null": {
			schema:  primitiveSchema,
			planned: prim(str("r"), nullStr, unkStr, unkStr),
			actual:  prim(str("r"), nullStr, nullStr, nullStr),
		},
		"unknown may stay unknown (final plan)": {
			schema:  primitiveSchema,
			planned: prim(str("r"), nullStr, unkStr, unkStr),
			actual:  prim(str("r"), nullStr, unkStr, str("oc")),
		},
		"known value changed": {
			schema:  primitiveSchema,
			planned: prim(str("r"), str("a"), unkStr, unkStr),
			actual:  prim(str("r"), str("b"), str("c"), str("oc")),
			want:    []string{`.opt: was cty.StringVal("a"), but now cty.StringVal("b")`},
		},
		"known value became unknown": {
			schema:  primitiveSchema,
			planned: prim(str("r"), nullStr, str("c"), unkStr),
			actual:  prim(str("r"), nullStr, unkStr, unkStr),
			want:    []string{`.comp: was cty.StringVal("c"), but now cty.UnknownVal(cty.String)`},
		},
		"null became value": {
			schema:  primitiveSchema,
			planned: prim(str("r"), nullStr, nullStr, nullStr),
			actual:  prim(str("r"), nullStr, str("c"), nullStr),
			want:    []string{`.comp: was null, but now cty.StringVal("c")`},
		},
		"value became null": {
			schema:  primitiveSchema,
			planned: prim(str("r"), nullStr, str("c"), nullStr),
			actual:  prim(str("r"), nullStr, nullStr, nullStr),
			want:    []string{`.comp: was cty.StringVal("c"), but now null`},
		},
		"refined not-null unknown became null": {
			schema:  primitiveSchema,
			planned: prim(str("r"), nullStr, unkStr.RefineNotNull(), unkStr),
			actual:  prim(str("r"), nullStr, nullStr, str("oc")),
			want:    []string{`.comp: was cty.UnknownVal(cty.String).RefineNotNull(), but now cty.NullVal(cty.String)`},
		},
		"refined prefix unknown": {
			schema:  primitiveSchema,
			planned: prim(str("r"), nullStr, unkStr.Refine().StringPrefixFull("arn:").NewValue(), unkStr.Refine().StringPrefixFull("x").NewValue()),
			actual:  prim(str("r"), nullStr, str("arn:aws"), str("y")),
			want:    []string{`.oc: was cty.UnknownVal(cty.String).Refine().StringPrefixFull("x").NewValue(), but now cty.StringVal("y")`},
		},
		"several changes reported in order": {
			schema:  primitiveSchema,
			planned: prim(str("r"), str("o"), str("c"), str("oc")),
			actual:  prim(str("R"), str("O"), str("c"), str("OC")),
			want: []string{
				`.oc: was cty.StringVal("oc"), but now cty.StringVal("OC")`,
				`.opt: was cty.StringVal("o"), but now cty.StringVal("O")`,
				`.req: was cty.StringVal("r"), but now cty.StringVal("R")`,
			},
		},
		"sensitive attribute values are not rendered": {
			schema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"password": {Type: cty.String, Computed: true, Sensitive: true},
			}},
			planned: cty.ObjectVal(map[string]cty.Value{"password": str("a")}),
			actual:  cty.ObjectVal(map[string]cty.Value{"password": str("b")}),
			want:    []string{`.password: was (sensitive value), but now (sensitive value)`},
		},
		"marked values are compared unmarked": {
			schema:  primitiveSchema,
			planned: prim(str("r").Mark("sensitive"), nullStr, unkStr, unkStr),
			actual:  prim(str("r"), nullStr, str("c"), str("oc")),
		},
		"root null stays null (delete)": {
			schema:  primitiveSchema,
			planned: cty.NullVal(primitiveSchema.ImpliedType()),
			actual:  cty.NullVal(primitiveSchema.ImpliedType()),
		},
		"root null became present": {
			schema:  primitiveSchema,
			planned: cty.NullVal(primitiveSchema.ImpliedType()),
			actual:  prim(str("r"), nullStr, str("c"), str("oc")),
			want:    []string{`was absent, but now present`},
		},
		"root of the wrong type": {
			schema:  primitiveSchema,
			planned: prim(str("r"), nullStr, unkStr, unkStr),
			actual:  cty.ObjectVal(map[string]cty.Value{"req": str("r")}),
			want: []string{
				`new value does not conform to the schema: missing required attribute "comp"`,
				`new value does not conform to the schema: missing required attribute "oc"`,
				`new value does not conform to the schema: missing required attribute "opt"`,
			},
		},

		// Dynamically-typed attributes (terraform_data).
		"terraform_data: dynamic unknown accepts any type": {
			schema:  terraformDataSchema,
			planned: tfData(unkStr, num(1), cty.DynamicVal),
			actual:  tfData(str("id"), num(1), cty.ListVal([]cty.Value{str("x")})),
		},
		"terraform_data: output changed": {
			schema:  terraformDataSchema,
			planned: tfData(unkStr, str("a"), str("a")),
			actual:  tfData(str("id"), str("a"), str("b")),
			want:    []string{`.output: was cty.StringVal("a"), but now cty.StringVal("b")`},
		},
		"terraform_data: output changed type": {
			schema:  terraformDataSchema,
			planned: tfData(unkStr, str("1"), str("1")),
			actual:  tfData(str("id"), str("1"), num(1)),
			want:    []string{`.output: was cty.StringVal("1"), but now cty.NumberIntVal(1)`},
		},
		"typed unknown resolved to the wrong type": {
			schema:  terraformDataSchema,
			planned: tfData(unkStr, nullDyn, nullDyn),
			actual:  tfData(num(1), nullDyn, nullDyn),
			want:    []string{`.id: new value does not conform to the schema: string required, but received number`},
		},

		// Collections and structural types in attributes.
		"list element changed": {
			schema:  attrSchema(cty.List(cty.String)),
			planned: a(cty.ListVal([]cty.Value{str("x"), str("y")})),
			actual:  a(cty.ListVal([]cty.Value{str("x"), str("z")})),
			want:    []string{`.a[1]: was cty.StringVal("y"), but now cty.StringVal("z")`},
		},
		"list unknown element resolved": {
			schema:  attrSchema(cty.List(cty.String)),
			planned: a(cty.ListVal([]cty.Value{str("x"), unkStr})),
			actual:  a(cty.ListVal([]cty.Value{str("x"), str("z")})),
		},
		"list length changed": {
			schema:  attrSchema(cty.List(cty.String)),
			planned: a(cty.ListVal([]cty.Value{str("x"), unkStr})),
			actual:  a(cty.ListVal([]cty.Value{str("x")})),
			want:    []string{`.a: was cty.ListVal([]cty.Value{cty.StringVal("x"), cty.UnknownVal(cty.String)}), but now cty.ListVal([]cty.Value{cty.StringVal("x")})`},
		},
		"unknown list resolved": {
			schema:  attrSchema(cty.List(cty.String)),
			planned: a(cty.UnknownVal(cty.List(cty.String))),
			actual:  a(cty.ListVal([]cty.Value{str("x")})),
		},
		"map value changed": {
			schema:  attrSchema(cty.Map(cty.String)),
			planned: a(cty.MapVal(map[string]cty.Value{"k": str("v"), "u": unkStr})),
			actual:  a(cty.MapVal(map[string]cty.Value{"k": str("w"), "u": str("x")})),
			want:    []string{`.a["k"]: was cty.StringVal("v"), but now cty.StringVal("w")`},
		},
		"map keys changed": {
			schema:  attrSchema(cty.Map(cty.String)),
			planned: a(cty.MapVal(map[string]cty.Value{"k": unkStr})),
			actual:  a(cty.MapVal(map[string]cty.Value{"j": str("v")})),
			want:    []string{`.a: was cty.MapVal(map[string]cty.Value{"k":cty.UnknownVal(cty.String)}), but now cty.MapVal(map[string]cty.Value{"j":cty.StringVal("v")})`},
		},
		"object attribute changed": {
			schema:  attrSchema(cty.Object(map[string]cty.Type{"x": cty.String, "y": cty.Number})),
			planned: a(cty.ObjectVal(map[string]cty.Value{"x": str("a"), "y": unkNum})),
			actual:  a(cty.ObjectVal(map[string]cty.Value{"x": str("b"), "y": num(1)})),
			want:    []string{`.a.x: was cty.StringVal("a"), but now cty.StringVal("b")`},
		},
		"set of primitives reordered": {
			schema:  attrSchema(cty.Set(cty.String)),
			planned: a(cty.SetVal([]cty.Value{str("a"), str("b")})),
			actual:  a(cty.SetVal([]cty.Value{str("b"), str("a")})),
		},
		"set of primitives changed": {
			schema:  attrSchema(cty.Set(cty.String)),
			planned: a(cty.SetVal([]cty.Value{str("a"), str("b")})),
			actual:  a(cty.SetVal([]cty.Value{str("a"), str("c")})),
			want: []string{
				`.a: new set element cty.StringVal("c") does not correlate with any element in plan`,
				`.a: planned set element cty.StringVal("b") does not correlate with any element in actual`,
			},
		},
		"set unknown element resolved": {
			schema:  attrSchema(cty.Set(cty.String)),
			planned: a(cty.SetVal([]cty.Value{str("a"), unkStr})),
			actual:  a(cty.SetVal([]cty.Value{str("a"), str("b")})),
		},
		"set unknown elements coalesced": {
			schema:  attrSchema(cty.Set(cty.String)),
			planned: a(cty.SetVal([]cty.Value{unkStr, unkStr})),
			actual:  a(cty.SetVal([]cty.Value{str("same")})),
		},
		"set grew beyond plan": {
			schema:  attrSchema(cty.Set(cty.String)),
			planned: a(cty.SetVal([]cty.Value{str("a"), unkStr})),
			actual:  a(cty.SetVal([]cty.Value{str("a"), str("b"), str("c")})),
			want:    []string{`.a: set length changed from 2 to 3`},
		},

		// Nested attribute objects.
		"nested attribute single: inner attribute changed": {
			schema:  nestedAttrSchema(configschema.NestingSingle, true, false),
			planned: obj(inner(str("a"), unkStr, num(1))),
			actual:  obj(inner(str("a"), str("id"), num(2))),
			want:    []string{`.obj.size: was cty.NumberIntVal(1), but now cty.NumberIntVal(2)`},
		},
		"nested attribute list: unknowns resolved": {
			schema:  nestedAttrSchema(configschema.NestingList, true, false),
			planned: obj(cty.ListVal([]cty.Value{inner(str("a"), unkStr, unkNum)})),
			actual:  obj(cty.ListVal([]cty.Value{inner(str("a"), str("id"), num(1))})),
		},
		"nested attribute map: element changed": {
			schema:  nestedAttrSchema(configschema.NestingMap, true, false),
			planned: obj(cty.MapVal(map[string]cty.Value{"k": inner(str("a"), str("id"), unkNum)})),
			actual:  obj(cty.MapVal(map[string]cty.Value{"k": inner(str("a"), str("other"), num(1))})),
			want:    []string{`.obj["k"].id: was cty.StringVal("id"), but now cty.StringVal("other")`},
		},
		"nested attribute set: computed values resolved": {
			schema: nestedAttrSchema(configschema.NestingSet, true, false),
			planned: obj(cty.SetVal([]cty.Value{
				inner(str("a"), unkStr, unkNum),
				inner(str("b"), unkStr, num(2)),
			})),
			actual: obj(cty.SetVal([]cty.Value{
				inner(str("a"), str("id-a"), num(1)),
				inner(str("b"), str("id-b"), num(2)),
			})),
		},
		"nested attribute set: element lost": {
			schema: nestedAttrSchema(configschema.NestingSet, true, false),
			planned: obj(cty.SetVal([]cty.Value{
				inner(str("a"), unkStr, unkNum),
				inner(str("b"), unkStr, num(2)),
			})),
			actual: obj(cty.SetVal([]cty.Value{
				inner(str("a"), str("id-a"), num(1)),
			})),
			want: []string{`.obj: planned set element cty.ObjectVal(map[string]cty.Value{"id":cty.UnknownVal(cty.String), "name":cty.StringVal("b"), "size":cty.NumberIntVal(2)}) does not correlate with any element in actual`},
		},

		// Nested blocks.
		"single block: absent became present": {
			schema:  blockSchema(configschema.NestingSingle),
			planned: blk(nullInner),
			actual:  blk(inner(str("a"), str("id"), num(1))),
			want:    []string{`.blk: block was absent, but now present`},
		},
		"single block: present became absent": {
			schema:  blockSchema(configschema.NestingSingle),
			planned: blk(inner(str("a"), unkStr, num(1))),
			actual:  blk(nullInner),
			want:    []string{`.blk: block was present, but now absent`},
		},
		"single block: unknown block resolved": {
			schema:  blockSchema(configschema.NestingSingle),
			planned: blk(cty.UnknownVal(innerType)),
			actual:  blk(inner(str("a"), str("id"), num(1))),
		},
		"group block: attribute changed": {
			schema:  blockSchema(configschema.NestingGroup),
			planned: blk(inner(str("a"), unkStr, num(1))),
			actual:  blk(inner(str("b"), str("id"), num(1))),
			want:    []string{`.blk.name: was cty.StringVal("a"), but now cty.StringVal("b")`},
		},
		"list blocks: count changed": {
			schema:  blockSchema(configschema.NestingList),
			planned: blk(cty.ListVal([]cty.Value{inner(str("a"), unkStr, unkNum)})),
			actual:  blk(cty.ListValEmpty(innerType)),
			want:    []string{`.blk: block count changed from 1 to 0`},
		},
		"list blocks: element attribute changed": {
			schema: blockSchema(configschema.NestingList),
			planned: blk(cty.ListVal([]cty.Value{
				inner(str("a"), unkStr, unkNum),
				inner(str("b"), str("id-b"), unkNum),
			})),
			actual: blk(cty.ListVal([]cty.Value{
				inner(str("a"), str("id-a"), num(1)),
				inner(str("b"), str("changed"), num(2)),
			})),
			want: []string{`.blk[1].id: was cty.StringVal("id-b"), but now cty.StringVal("changed")`},
		},
		"list blocks: unknown collection accepts any count": {
			schema:  blockSchema(configschema.NestingList),
			planned: blk(cty.UnknownVal(cty.List(innerType))),
			actual:  blk(cty.ListVal([]cty.Value{inner(str("a"), str("id"), num(1)), inner(str("b"), str("id"), num(1))})),
		},
		"list blocks: known collection became unknown": {
			schema:  blockSchema(configschema.NestingList),
			planned: blk(cty.ListVal([]cty.Value{inner(str("a"), unkStr, unkNum)})),
			actual:  blk(cty.UnknownVal(cty.List(innerType))),
			want:    []string{`.blk: block collection was present, but now unknown`},
		},
		"tuple blocks: dynamic attribute changed": {
			schema:  tupleBlocks,
			planned: blk(cty.TupleVal([]cty.Value{dynObj(str("a")), dynObj(cty.DynamicVal)})),
			actual:  blk(cty.TupleVal([]cty.Value{dynObj(num(1)), dynObj(cty.True)})),
			want:    []string{`.blk[0].v: was cty.StringVal("a"), but now cty.NumberIntVal(1)`},
		},
		"map blocks: keys changed": {
			schema: blockSchema(configschema.NestingMap),
			planned: blk(cty.MapVal(map[string]cty.Value{
				"a": inner(str("a"), unkStr, unkNum),
				"b": inner(str("b"), unkStr, unkNum),
			})),
			actual: blk(cty.MapVal(map[string]cty.Value{
				"a": inner(str("a"), str("id"), num(1)),
				"c": inner(str("b"), str("id"), num(1)),
			})),
			want: []string{
				`.blk["b"]: block was present, but now absent`,
				`.blk["c"]: block was absent, but now present`,
			},
		},
		"map blocks: element attribute changed": {
			schema:  blockSchema(configschema.NestingMap),
			planned: blk(cty.MapVal(map[string]cty.Value{"a": inner(str("a"), unkStr, num(1))})),
			actual:  blk(cty.MapVal(map[string]cty.Value{"a": inner(str("a"), str("id"), num(5))})),
			want:    []string{`.blk["a"].size: was cty.NumberIntVal(1), but now cty.NumberIntVal(5)`},
		},
		"set blocks: computed values resolved": {
			schema: blockSchema(configschema.NestingSet),
			planned: blk(cty.SetVal([]cty.Value{
				inner(str("a"), unkStr, unkNum),
				inner(str("b"), str("id-b"), num(2)),
			})),
			actual: blk(cty.SetVal([]cty.Value{
				inner(str("b"), str("id-b"), num(2)),
				inner(str("a"), str("id-a"), num(1)),
			})),
		},
		"set blocks: element changed": {
			schema:  blockSchema(configschema.NestingSet),
			planned: blk(cty.SetVal([]cty.Value{inner(str("b"), str("id-b"), num(2))})),
			actual:  blk(cty.SetVal([]cty.Value{inner(str("b"), str("id-b"), num(3))})),
			want: []string{
				`.blk: new set element cty.ObjectVal(map[string]cty.Value{"id":cty.StringVal("id-b"), "name":cty.StringVal("b"), "size":cty.NumberIntVal(3)}) does not correlate with any element in plan`,
				`.blk: planned set element cty.ObjectVal(map[string]cty.Value{"id":cty.StringVal("id-b"), "name":cty.StringVal("b"), "size":cty.NumberIntVal(2)}) does not correlate with any element in actual`,
			},
		},
		"set blocks: extra element": {
			schema:  blockSchema(configschema.NestingSet),
			planned: blk(cty.SetVal([]cty.Value{inner(str("a"), unkStr, unkNum)})),
			actual:  blk(cty.SetVal([]cty.Value{inner(str("a"), str("1"), num(1)), inner(str("a"), str("2"), num(2))})),
			want:    []string{`.blk: set length changed from 1 to 2`},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			errs := AssertObjectCompatible(tc.schema, tc.planned, tc.actual)
			checkErrors(t, errs, tc.want)
		})
	}
}
