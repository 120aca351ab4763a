package objchange

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
)

func tfData(id, input, output cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id":               id,
		"input":            input,
		"output":           output,
		"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
	})
}

var nullDyn = cty.NullVal(cty.DynamicPseudoType)

func TestAssertPlanValid(t *testing.T) {
	listBlocks := blockSchema(configschema.NestingList)
	tests := map[string]struct {
		schema                 *configschema.Block
		prior, config, planned cty.Value
		want                   []string
	}{
		// Primitive attributes.
		"create: config preserved and computed unknown": {
			schema:  primitiveSchema,
			prior:   cty.NullVal(primitiveSchema.ImpliedType()),
			config:  prim(str("r"), str("o"), nullStr, nullStr),
			planned: prim(str("r"), str("o"), unkStr, unkStr),
		},
		"create: computed attributes given known values": {
			schema:  primitiveSchema,
			prior:   cty.NullVal(primitiveSchema.ImpliedType()),
			config:  prim(str("r"), nullStr, nullStr, nullStr),
			planned: prim(str("r"), nullStr, str("c"), str("oc")),
		},
		"update: computed attributes changed freely": {
			schema:  primitiveSchema,
			prior:   prim(str("r"), nullStr, str("c0"), str("oc0")),
			config:  prim(str("r"), nullStr, nullStr, nullStr),
			planned: prim(str("r"), nullStr, unkStr, str("oc1")),
		},
		"optional attribute changed by provider": {
			schema:  primitiveSchema,
			prior:   cty.NullVal(primitiveSchema.ImpliedType()),
			config:  prim(str("r"), str("a"), nullStr, nullStr),
			planned: prim(str("r"), str("b"), unkStr, unkStr),
			want:    []string{`.opt: planned value cty.StringVal("b") does not match config value cty.StringVal("a")`},
		},
		"optional attribute changed with prior": {
			schema:  primitiveSchema,
			prior:   prim(str("r"), str("p"), str("c"), str("oc")),
			config:  prim(str("r"), str("a"), nullStr, nullStr),
			planned: prim(str("r"), str("b"), str("c"), str("oc")),
			want:    []string{`.opt: planned value cty.StringVal("b") does not match config value cty.StringVal("a") nor prior value cty.StringVal("p")`},
		},
		"prior value kept for normalization": {
			schema:  primitiveSchema,
			prior:   prim(str("R"), str("P"), str("c"), str("oc")),
			config:  prim(str("r"), str("p"), nullStr, str("oc-new")),
			planned: prim(str("R"), str("P"), str("c"), str("oc")),
		},
		"non-computed attribute set when null in config": {
			schema:  primitiveSchema,
			prior:   cty.NullVal(primitiveSchema.ImpliedType()),
			config:  prim(str("r"), nullStr, nullStr, nullStr),
			planned: prim(str("r"), str("x"), unkStr, unkStr),
			want:    []string{`.opt: planned value cty.StringVal("x") for a non-computed attribute`},
		},
		"non-computed attribute unknown when null in config": {
			schema:  primitiveSchema,
			prior:   prim(str("r"), str("old"), str("c"), str("oc")),
			config:  prim(str("r"), nullStr, nullStr, nullStr),
			planned: prim(str("r"), unkStr, str("c"), str("oc")),
			want:    []string{`.opt: planned value cty.UnknownVal(cty.String) for a non-computed attribute`},
		},
		"optional+computed set in config but planned unknown": {
			schema:  primitiveSchema,
			prior:   cty.NullVal(primitiveSchema.ImpliedType()),
			config:  prim(str("r"), nullStr, nullStr, str("a")),
			planned: prim(str("r"), nullStr, unkStr, unkStr),
			want:    []string{`.oc: planned value cty.UnknownVal(cty.String) does not match config value cty.StringVal("a")`},
		},
		"required attribute planned unknown": {
			schema:  primitiveSchema,
			prior:   cty.NullVal(primitiveSchema.ImpliedType()),
			config:  prim(str("r"), nullStr, nullStr, nullStr),
			planned: prim(unkStr, nullStr, unkStr, unkStr),
			want:    []string{`.req: planned value cty.UnknownVal(cty.String) does not match config value cty.StringVal("r")`},
		},
		"unknown config may be planned unknown": {
			schema:  primitiveSchema,
			prior:   cty.NullVal(primitiveSchema.ImpliedType()),
			config:  prim(unkStr, unkStr, nullStr, unkStr),
			planned: prim(unkStr, unkStr, unkStr, unkStr),
		},
		"unknown config may be planned known": {
			schema:  primitiveSchema,
			prior:   cty.NullVal(primitiveSchema.ImpliedType()),
			config:  prim(unkStr, unkStr, nullStr, unkStr),
			planned: prim(str("r"), nullStr, unkStr, str("x")),
		},
		"several problems are all reported": {
			schema:  primitiveSchema,
			prior:   cty.NullVal(primitiveSchema.ImpliedType()),
			config:  prim(str("r"), nullStr, nullStr, str("a")),
			planned: prim(str("R"), str("o"), unkStr, str("b")),
			want: []string{
				`.oc: planned value cty.StringVal("b") does not match config value cty.StringVal("a")`,
				`.opt: planned value cty.StringVal("o") for a non-computed attribute`,
				`.req: planned value cty.StringVal("R") does not match config value cty.StringVal("r")`,
			},
		},
		"partially unknown list: known parts preserved": {
			schema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"l": {Type: cty.List(cty.String), Optional: true},
			}},
			prior:   cty.NullVal(cty.Object(map[string]cty.Type{"l": cty.List(cty.String)})),
			config:  cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{str("a"), unkStr})}),
			planned: cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{str("a"), unkStr})}),
		},
		"partially unknown list: known part changed": {
			schema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"l": {Type: cty.List(cty.String), Optional: true},
			}},
			prior:   cty.NullVal(cty.Object(map[string]cty.Type{"l": cty.List(cty.String)})),
			config:  cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{str("a"), unkStr})}),
			planned: cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{str("c"), unkStr})}),
			want:    []string{`.l: planned value cty.ListVal([]cty.Value{cty.StringVal("c"), cty.UnknownVal(cty.String)}) does not match config value cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)})`},
		},
		"set of primitives reordered is identical": {
			schema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"s": {Type: cty.Set(cty.String), Required: true},
			}},
			prior:   cty.NullVal(cty.Object(map[string]cty.Type{"s": cty.Set(cty.String)})),
			config:  cty.ObjectVal(map[string]cty.Value{"s": cty.SetVal([]cty.Value{str("a"), str("b")})}),
			planned: cty.ObjectVal(map[string]cty.Value{"s": cty.SetVal([]cty.Value{str("b"), str("a")})}),
		},
		"set of primitives changed": {
			schema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"s": {Type: cty.Set(cty.String), Required: true},
			}},
			prior:   cty.NullVal(cty.Object(map[string]cty.Type{"s": cty.Set(cty.String)})),
			config:  cty.ObjectVal(map[string]cty.Value{"s": cty.SetVal([]cty.Value{str("a")})}),
			planned: cty.ObjectVal(map[string]cty.Value{"s": cty.SetVal([]cty.Value{str("a"), str("b")})}),
			want:    []string{`.s: planned value cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}) does not match config value cty.SetVal([]cty.Value{cty.StringVal("a")})`},
		},
		"sensitive attribute values are not rendered": {
			schema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"password": {Type: cty.String, Optional: true, Sensitive: true},
			}},
			prior:   cty.ObjectVal(map[string]cty.Value{"password": str("old")}),
			config:  cty.ObjectVal(map[string]cty.Value{"password": str("new")}),
			planned: cty.ObjectVal(map[string]cty.Value{"password": str("other")}),
			want:    []string{`.password: planned value (sensitive value) does not match config value (sensitive value) nor prior value (sensitive value)`},
		},
		"write-only attribute may be planned null": {
			schema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"secret": {Type: cty.String, Optional: true, WriteOnly: true},
			}},
			prior:   cty.NullVal(cty.Object(map[string]cty.Type{"secret": cty.String})),
			config:  cty.ObjectVal(map[string]cty.Value{"secret": str("s")}),
			planned: cty.ObjectVal(map[string]cty.Value{"secret": nullStr}),
		},
		"marked inputs are accepted": {
			schema:  primitiveSchema,
			prior:   cty.NullVal(primitiveSchema.ImpliedType()),
			config:  prim(str("r").Mark("sensitive"), nullStr, nullStr, nullStr),
			planned: prim(str("r"), nullStr, unkStr, unkStr),
		},

		// Dynamically-typed attributes (terraform_data).
		"terraform_data: input preserved, output computed": {
			schema:  terraformDataSchema,
			prior:   cty.NullVal(terraformDataSchema.ImpliedType()),
			config:  tfData(nullStr, str("a"), nullDyn),
			planned: tfData(unkStr, str("a"), str("a")),
		},
		"terraform_data: output unknown of dynamic type": {
			schema:  terraformDataSchema,
			prior:   cty.NullVal(terraformDataSchema.ImpliedType()),
			config:  tfData(nullStr, cty.DynamicVal, nullDyn),
			planned: tfData(unkStr, cty.DynamicVal, cty.DynamicVal),
		},
		"terraform_data: input changed": {
			schema:  terraformDataSchema,
			prior:   cty.NullVal(terraformDataSchema.ImpliedType()),
			config:  tfData(nullStr, str("a"), nullDyn),
			planned: tfData(unkStr, str("b"), unkStr),
			want:    []string{`.input: planned value cty.StringVal("b") does not match config value cty.StringVal("a")`},
		},
		"terraform_data: input changed type": {
			schema:  terraformDataSchema,
			prior:   tfData(str("id"), num(1), num(1)),
			config:  tfData(nullStr, str("1"), nullDyn),
			planned: tfData(str("id"), num(2), num(2)),
			want:    []string{`.input: planned value cty.NumberIntVal(2) does not match config value cty.StringVal("1") nor prior value cty.NumberIntVal(1)`},
		},

		// Root object.
		"planned null for present config": {
			schema:  primitiveSchema,
			prior:   cty.NullVal(primitiveSchema.ImpliedType()),
			config:  prim(str("r"), nullStr, nullStr, nullStr),
			planned: cty.NullVal(primitiveSchema.ImpliedType()),
			want:    []string{`planned for absence but config wants existence`},
		},
		"planned wholly unknown": {
			schema:  primitiveSchema,
			prior:   cty.NullVal(primitiveSchema.ImpliedType()),
			config:  prim(str("r"), nullStr, nullStr, nullStr),
			planned: cty.UnknownVal(primitiveSchema.ImpliedType()),
			want:    []string{`planned object must not be wholly unknown when config is known; set individual attributes to unknown instead`},
		},
		"computed attribute planned with the wrong type": {
			schema:  primitiveSchema,
			prior:   cty.NullVal(primitiveSchema.ImpliedType()),
			config:  prim(str("r"), nullStr, nullStr, nullStr),
			planned: cty.ObjectVal(map[string]cty.Value{"req": str("r"), "opt": nullStr, "comp": num(1), "oc": unkStr}),
			want:    []string{`.comp: planned value does not conform to the schema: string required, but received number`},
		},
		"planned value of the wrong type": {
			schema:  primitiveSchema,
			prior:   cty.NullVal(primitiveSchema.ImpliedType()),
			config:  prim(str("r"), nullStr, nullStr, nullStr),
			planned: cty.ObjectVal(map[string]cty.Value{"req": str("r")}),
			want: []string{
				`planned value does not conform to the schema: missing required attribute "comp"`,
				`planned value does not conform to the schema: missing required attribute "oc"`,
				`planned value does not conform to the schema: missing required attribute "opt"`,
			},
		},

		// Nested blocks.
		"single block: valid": {
			schema:  blockSchema(configschema.NestingSingle),
			prior:   blk(inner(str("a"), str("id0"), num(1))),
			config:  blk(inner(str("b"), nullStr, nullNum)),
			planned: blk(inner(str("b"), unkStr, num(1))),
		},
		"single block: planned absent": {
			schema:  blockSchema(configschema.NestingSingle),
			prior:   cty.NullVal(blockSchema(configschema.NestingSingle).ImpliedType()),
			config:  blk(inner(str("b"), nullStr, nullNum)),
			planned: blk(nullInner),
			want:    []string{`.blk: planned for absence but config wants existence`},
		},
		"single block: planned present": {
			schema:  blockSchema(configschema.NestingSingle),
			prior:   cty.NullVal(blockSchema(configschema.NestingSingle).ImpliedType()),
			config:  blk(nullInner),
			planned: blk(inner(str("b"), unkStr, unkNum)),
			want:    []string{`.blk: planned for existence but config wants absence`},
		},
		"single block: planned wholly unknown": {
			schema:  blockSchema(configschema.NestingSingle),
			prior:   cty.NullVal(blockSchema(configschema.NestingSingle).ImpliedType()),
			config:  blk(inner(str("b"), nullStr, nullNum)),
			planned: blk(cty.UnknownVal(innerType)),
			want:    []string{`.blk: planned object must not be wholly unknown when config is known; set individual attributes to unknown instead`},
		},
		"group block: attribute changed": {
			schema:  blockSchema(configschema.NestingGroup),
			prior:   cty.NullVal(blockSchema(configschema.NestingGroup).ImpliedType()),
			config:  blk(inner(str("a"), nullStr, nullNum)),
			planned: blk(inner(str("b"), unkStr, unkNum)),
			want:    []string{`.blk.name: planned value cty.StringVal("b") does not match config value cty.StringVal("a")`},
		},
		"list blocks: valid with prior correlated by index": {
			schema: listBlocks,
			prior:  blk(cty.ListVal([]cty.Value{inner(str("A"), str("id0"), num(1))})),
			config: blk(cty.ListVal([]cty.Value{
				inner(str("a"), nullStr, nullNum),
				inner(str("b"), nullStr, nullNum),
			})),
			planned: blk(cty.ListVal([]cty.Value{
				inner(str("A"), str("id0"), num(1)),
				inner(str("b"), unkStr, unkNum),
			})),
		},
		"list blocks: count changed": {
			schema:  listBlocks,
			prior:   cty.NullVal(listBlocks.ImpliedType()),
			config:  blk(cty.ListVal([]cty.Value{inner(str("a"), nullStr, nullNum)})),
			planned: blk(cty.ListVal([]cty.Value{inner(str("a"), unkStr, unkNum), inner(str("x"), unkStr, unkNum)})),
			want:    []string{`.blk: block count in plan (2) disagrees with count in config (1)`},
		},
		"list blocks: attribute in element changed": {
			schema:  listBlocks,
			prior:   cty.NullVal(listBlocks.ImpliedType()),
			config:  blk(cty.ListVal([]cty.Value{inner(str("a"), nullStr, nullNum), inner(str("b"), nullStr, num(2))})),
			planned: blk(cty.ListVal([]cty.Value{inner(str("a"), unkStr, unkNum), inner(str("b"), unkStr, num(3))})),
			want:    []string{`.blk[1].size: planned value cty.NumberIntVal(3) does not match config value cty.NumberIntVal(2)`},
		},
		"list blocks: unknown config collection accepts anything": {
			schema:  listBlocks,
			prior:   cty.NullVal(listBlocks.ImpliedType()),
			config:  blk(cty.UnknownVal(cty.List(innerType))),
			planned: blk(cty.ListVal([]cty.Value{inner(str("a"), unkStr, unkNum)})),
		},
		"list blocks: planned collection unknown": {
			schema:  listBlocks,
			prior:   cty.NullVal(listBlocks.ImpliedType()),
			config:  blk(cty.ListVal([]cty.Value{inner(str("a"), nullStr, nullNum)})),
			planned: blk(cty.UnknownVal(cty.List(innerType))),
			want:    []string{`.blk: planned collection must not be wholly unknown when config is known`},
		},
		"map blocks: keys changed": {
			schema: blockSchema(configschema.NestingMap),
			prior:  cty.NullVal(blockSchema(configschema.NestingMap).ImpliedType()),
			config: blk(cty.MapVal(map[string]cty.Value{
				"a": inner(str("a"), nullStr, nullNum),
				"b": inner(str("b"), nullStr, nullNum),
			})),
			planned: blk(cty.MapVal(map[string]cty.Value{
				"a": inner(str("a"), unkStr, unkNum),
				"c": inner(str("b"), unkStr, unkNum),
			})),
			want: []string{
				`.blk["b"]: planned for absence but config wants existence`,
				`.blk["c"]: planned for existence but config wants absence`,
			},
		},
		"map blocks: element attribute changed": {
			schema:  blockSchema(configschema.NestingMap),
			prior:   blk(cty.MapVal(map[string]cty.Value{"a": inner(str("p"), str("id"), num(1))})),
			config:  blk(cty.MapVal(map[string]cty.Value{"a": inner(str("a"), nullStr, nullNum)})),
			planned: blk(cty.MapVal(map[string]cty.Value{"a": inner(str("x"), str("id"), num(1))})),
			want:    []string{`.blk["a"].name: planned value cty.StringVal("x") does not match config value cty.StringVal("a") nor prior value cty.StringVal("p")`},
		},
		"set blocks: valid with computed values": {
			schema: blockSchema(configschema.NestingSet),
			prior:  blk(cty.SetVal([]cty.Value{inner(str("a"), str("id-a"), num(1))})),
			config: blk(cty.SetVal([]cty.Value{
				inner(str("a"), nullStr, nullNum),
				inner(str("b"), nullStr, num(7)),
			})),
			planned: blk(cty.SetVal([]cty.Value{
				inner(str("a"), str("id-a"), num(1)),
				inner(str("b"), unkStr, num(7)),
			})),
		},
		"set blocks: count changed": {
			schema:  blockSchema(configschema.NestingSet),
			prior:   cty.NullVal(blockSchema(configschema.NestingSet).ImpliedType()),
			config:  blk(cty.SetVal([]cty.Value{inner(str("a"), nullStr, nullNum)})),
			planned: blk(cty.SetValEmpty(innerType)),
			want:    []string{`.blk: block count in plan (0) disagrees with count in config (1)`},
		},
		"set blocks: element does not correspond": {
			schema:  blockSchema(configschema.NestingSet),
			prior:   cty.NullVal(blockSchema(configschema.NestingSet).ImpliedType()),
			config:  blk(cty.SetVal([]cty.Value{inner(str("a"), nullStr, nullNum)})),
			planned: blk(cty.SetVal([]cty.Value{inner(str("z"), unkStr, unkNum)})),
			want:    []string{`.blk: no planned set element corresponds to config element cty.ObjectVal(map[string]cty.Value{"id":cty.NullVal(cty.String), "name":cty.StringVal("a"), "size":cty.NullVal(cty.Number)})`},
		},
		"set blocks: normalized to prior element": {
			schema:  blockSchema(configschema.NestingSet),
			prior:   blk(cty.SetVal([]cty.Value{inner(str("A"), str("id"), num(1))})),
			config:  blk(cty.SetVal([]cty.Value{inner(str("a"), nullStr, nullNum)})),
			planned: blk(cty.SetVal([]cty.Value{inner(str("A"), str("id"), num(1))})),
		},
		"list blocks with dynamic attributes (tuple)": {
			schema: &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{
				"blk": {Nesting: configschema.NestingList, Block: configschema.Block{
					Attributes: map[string]*configschema.Attribute{
						"v": {Type: cty.DynamicPseudoType, Optional: true},
					},
				}},
			}},
			prior:   cty.NullVal(cty.Object(map[string]cty.Type{"blk": cty.DynamicPseudoType})),
			config:  blk(cty.TupleVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"v": str("a")})})),
			planned: blk(cty.TupleVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"v": num(1)})})),
			want:    []string{`.blk[0].v: planned value cty.NumberIntVal(1) does not match config value cty.StringVal("a")`},
		},
		"list blocks with dynamic attributes planned as wrong type": {
			schema: &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{
				"blk": {Nesting: configschema.NestingList, Block: configschema.Block{
					Attributes: map[string]*configschema.Attribute{
						"v": {Type: cty.DynamicPseudoType, Optional: true},
					},
				}},
			}},
			prior:   cty.NullVal(cty.Object(map[string]cty.Type{"blk": cty.DynamicPseudoType})),
			config:  blk(cty.TupleVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"v": str("a")})})),
			planned: blk(str("oops")),
			want:    []string{`.blk: planned value of type string does not conform to the schema`},
		},

		// Nested attribute objects.
		"nested attribute single: valid": {
			schema:  nestedAttrSchema(configschema.NestingSingle, true, false),
			prior:   cty.NullVal(nestedAttrSchema(configschema.NestingSingle, true, false).ImpliedType()),
			config:  obj(inner(str("a"), nullStr, nullNum)),
			planned: obj(inner(str("a"), unkStr, num(3))),
		},
		"nested attribute single: inner attribute changed": {
			schema:  nestedAttrSchema(configschema.NestingSingle, true, false),
			prior:   cty.NullVal(nestedAttrSchema(configschema.NestingSingle, true, false).ImpliedType()),
			config:  obj(inner(str("a"), nullStr, nullNum)),
			planned: obj(inner(str("b"), unkStr, num(3))),
			want:    []string{`.obj.name: planned value cty.StringVal("b") does not match config value cty.StringVal("a")`},
		},
		"nested attribute single: planned absent": {
			schema:  nestedAttrSchema(configschema.NestingSingle, true, false),
			prior:   cty.NullVal(nestedAttrSchema(configschema.NestingSingle, true, false).ImpliedType()),
			config:  obj(inner(str("a"), nullStr, nullNum)),
			planned: obj(nullInner),
			want:    []string{`.obj: planned for absence but config wants existence`},
		},
		"nested attribute non-computed set when null in config": {
			schema:  nestedAttrSchema(configschema.NestingSingle, true, false),
			prior:   cty.NullVal(nestedAttrSchema(configschema.NestingSingle, true, false).ImpliedType()),
			config:  obj(nullInner),
			planned: obj(inner(str("a"), unkStr, unkNum)),
			want:    []string{`.obj: planned value cty.ObjectVal(map[string]cty.Value{"id":cty.UnknownVal(cty.String), "name":cty.StringVal("a"), "size":cty.UnknownVal(cty.Number)}) for a non-computed attribute`},
		},
		"nested attribute optional+computed null in config may be anything": {
			schema:  nestedAttrSchema(configschema.NestingList, true, true),
			prior:   cty.NullVal(nestedAttrSchema(configschema.NestingList, true, true).ImpliedType()),
			config:  obj(cty.NullVal(cty.List(innerType))),
			planned: obj(cty.ListVal([]cty.Value{inner(str("x"), str("y"), num(1))})),
		},
		"nested attribute list: count changed": {
			schema: nestedAttrSchema(configschema.NestingList, true, false),
			prior:  cty.NullVal(nestedAttrSchema(configschema.NestingList, true, false).ImpliedType()),
			config: obj(cty.ListVal([]cty.Value{
				inner(str("a"), nullStr, nullNum),
				inner(str("b"), nullStr, nullNum),
			})),
			planned: obj(cty.ListVal([]cty.Value{inner(str("a"), unkStr, unkNum)})),
			want:    []string{`.obj: element count in plan (1) disagrees with count in config (2)`},
		},
		"nested attribute list: inner attribute changed": {
			schema:  nestedAttrSchema(configschema.NestingList, true, false),
			prior:   cty.NullVal(nestedAttrSchema(configschema.NestingList, true, false).ImpliedType()),
			config:  obj(cty.ListVal([]cty.Value{inner(str("a"), nullStr, num(1))})),
			planned: obj(cty.ListVal([]cty.Value{inner(str("a"), unkStr, num(2))})),
			want:    []string{`.obj[0].size: planned value cty.NumberIntVal(2) does not match config value cty.NumberIntVal(1)`},
		},
		"nested attribute map: key added": {
			schema:  nestedAttrSchema(configschema.NestingMap, true, false),
			prior:   cty.NullVal(nestedAttrSchema(configschema.NestingMap, true, false).ImpliedType()),
			config:  obj(cty.MapVal(map[string]cty.Value{"a": inner(str("a"), nullStr, nullNum)})),
			planned: obj(cty.MapVal(map[string]cty.Value{"a": inner(str("a"), unkStr, unkNum), "b": inner(str("b"), unkStr, unkNum)})),
			want:    []string{`.obj["b"]: planned for existence but config wants absence`},
		},
		"nested attribute set: valid": {
			schema:  nestedAttrSchema(configschema.NestingSet, true, false),
			prior:   cty.NullVal(nestedAttrSchema(configschema.NestingSet, true, false).ImpliedType()),
			config:  obj(cty.SetVal([]cty.Value{inner(str("a"), nullStr, nullNum), inner(str("b"), nullStr, nullNum)})),
			planned: obj(cty.SetVal([]cty.Value{inner(str("b"), str("id-b"), num(1)), inner(str("a"), unkStr, unkNum)})),
		},
		"nested attribute set: element count changed": {
			schema:  nestedAttrSchema(configschema.NestingSet, true, false),
			prior:   cty.NullVal(nestedAttrSchema(configschema.NestingSet, true, false).ImpliedType()),
			config:  obj(cty.SetVal([]cty.Value{inner(str("a"), nullStr, nullNum)})),
			planned: obj(cty.SetVal([]cty.Value{inner(str("a"), unkStr, unkNum), inner(str("b"), unkStr, unkNum)})),
			want:    []string{`.obj: element count in plan (2) disagrees with count in config (1)`},
		},
		"nested attribute sensitive set element not rendered": {
			schema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"obj": {
					NestedType: &configschema.Object{Nesting: configschema.NestingSet, Attributes: map[string]*configschema.Attribute{
						"name": {Type: cty.String, Required: true, Sensitive: true},
					}},
					Optional: true,
				},
			}},
			prior:   cty.NullVal(cty.Object(map[string]cty.Type{"obj": cty.Set(cty.Object(map[string]cty.Type{"name": cty.String}))})),
			config:  obj(cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"name": str("a")})})),
			planned: obj(cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"name": str("b")})})),
			want:    []string{`.obj: no planned set element corresponds to config element (sensitive value)`},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			errs := AssertPlanValid(tc.schema, tc.prior, tc.config, tc.planned)
			checkErrors(t, errs, tc.want)
		})
	}
}
