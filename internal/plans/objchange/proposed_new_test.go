package objchange

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
)

// terraformDataSchema mirrors the builtin terraform_data resource type.
var terraformDataSchema = &configschema.Block{
	Attributes: map[string]*configschema.Attribute{
		"id":               {Type: cty.String, Computed: true},
		"input":            {Type: cty.DynamicPseudoType, Optional: true},
		"output":           {Type: cty.DynamicPseudoType, Computed: true},
		"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
	},
}

// primitiveSchema has one attribute of each kind.
var primitiveSchema = &configschema.Block{
	Attributes: map[string]*configschema.Attribute{
		"req":  {Type: cty.String, Required: true},
		"opt":  {Type: cty.String, Optional: true},
		"comp": {Type: cty.String, Computed: true},
		"oc":   {Type: cty.String, Optional: true, Computed: true},
	},
}

func prim(req, opt, comp, oc cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"req": req, "opt": opt, "comp": comp, "oc": oc})
}

// innerBlock is the content of the nested blocks used below: a
// configurable name, a computed id and an optional+computed size.
var innerBlock = configschema.Block{
	Attributes: map[string]*configschema.Attribute{
		"name": {Type: cty.String, Required: true},
		"id":   {Type: cty.String, Computed: true},
		"size": {Type: cty.Number, Optional: true, Computed: true},
	},
}

var innerAttrs = innerBlock.Attributes

func blockSchema(nesting configschema.NestingMode) *configschema.Block {
	return &configschema.Block{
		BlockTypes: map[string]*configschema.NestedBlock{
			"blk": {Nesting: nesting, Block: innerBlock},
		},
	}
}

func nestedAttrSchema(nesting configschema.NestingMode, optional, computed bool) *configschema.Block {
	return &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"obj": {
				NestedType: &configschema.Object{Nesting: nesting, Attributes: innerAttrs},
				Optional:   optional,
				Required:   !optional && !computed,
				Computed:   computed,
			},
		},
	}
}

var innerType = innerBlock.ImpliedType()

func inner(name, id, size cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"name": name, "id": id, "size": size})
}

func blk(v cty.Value) cty.Value { return cty.ObjectVal(map[string]cty.Value{"blk": v}) }
func obj(v cty.Value) cty.Value { return cty.ObjectVal(map[string]cty.Value{"obj": v}) }

var (
	nullStr   = cty.NullVal(cty.String)
	nullNum   = cty.NullVal(cty.Number)
	unkStr    = cty.UnknownVal(cty.String)
	unkNum    = cty.UnknownVal(cty.Number)
	nullInner = cty.NullVal(innerType)
)

func str(s string) cty.Value { return cty.StringVal(s) }
func num(n int64) cty.Value  { return cty.NumberIntVal(n) }

func TestProposedNew(t *testing.T) {
	tests := map[string]struct {
		schema        *configschema.Block
		prior, config cty.Value
		want          cty.Value
	}{
		// Primitive attributes.
		"create: computed attributes null in config stay null": {
			schema: primitiveSchema,
			prior:  cty.NullVal(primitiveSchema.ImpliedType()),
			config: prim(str("r"), str("o"), nullStr, nullStr),
			want:   prim(str("r"), str("o"), nullStr, nullStr),
		},
		"create: untyped null prior": {
			schema: primitiveSchema,
			prior:  cty.NullVal(cty.DynamicPseudoType),
			config: prim(str("r"), nullStr, nullStr, str("set")),
			want:   prim(str("r"), nullStr, nullStr, str("set")),
		},
		"create: cty.NilVal prior": {
			schema: primitiveSchema,
			prior:  cty.NilVal,
			config: prim(str("r"), nullStr, nullStr, nullStr),
			want:   prim(str("r"), nullStr, nullStr, nullStr),
		},
		"unknown prior: computed attributes null in config become unknown": {
			schema: primitiveSchema,
			prior:  cty.UnknownVal(primitiveSchema.ImpliedType()),
			config: prim(str("r"), str("o"), nullStr, nullStr),
			want:   prim(str("r"), str("o"), unkStr, unkStr),
		},
		"untyped unknown prior: computed attributes null in config become unknown": {
			schema: primitiveSchema,
			prior:  cty.DynamicVal,
			config: prim(str("r"), nullStr, nullStr, str("set")),
			want:   prim(str("r"), nullStr, unkStr, str("set")),
		},
		"update: computed attributes keep prior values": {
			schema: primitiveSchema,
			prior:  prim(str("r0"), str("o0"), str("c0"), str("oc0")),
			config: prim(str("r1"), str("o1"), nullStr, nullStr),
			want:   prim(str("r1"), str("o1"), str("c0"), str("oc0")),
		},
		"update: optional+computed set in config wins over prior": {
			schema: primitiveSchema,
			prior:  prim(str("r"), nullStr, str("c0"), str("oc0")),
			config: prim(str("r"), nullStr, nullStr, str("oc1")),
			want:   prim(str("r"), nullStr, str("c0"), str("oc1")),
		},
		"update: optional removed from config becomes null": {
			schema: primitiveSchema,
			prior:  prim(str("r"), str("o0"), str("c0"), str("oc0")),
			config: prim(str("r"), nullStr, nullStr, nullStr),
			want:   prim(str("r"), nullStr, str("c0"), str("oc0")),
		},
		"update: computed null in prior stays null": {
			schema: primitiveSchema,
			prior:  prim(str("r"), nullStr, nullStr, nullStr),
			config: prim(str("r"), nullStr, nullStr, nullStr),
			want:   prim(str("r"), nullStr, nullStr, nullStr),
		},
		"unknown config attributes propagate": {
			schema: primitiveSchema,
			prior:  prim(str("r"), str("o"), str("c0"), str("oc0")),
			config: prim(unkStr, unkStr, nullStr, unkStr),
			want:   prim(unkStr, unkStr, str("c0"), unkStr),
		},
		"wholly unknown config is returned as is": {
			schema: primitiveSchema,
			prior:  prim(str("r"), str("o"), str("c0"), str("oc0")),
			config: cty.UnknownVal(primitiveSchema.ImpliedType()),
			want:   cty.UnknownVal(primitiveSchema.ImpliedType()),
		},
		"null config is returned as is": {
			schema: primitiveSchema,
			prior:  prim(str("r"), str("o"), str("c0"), str("oc0")),
			config: cty.NullVal(primitiveSchema.ImpliedType()),
			want:   cty.NullVal(primitiveSchema.ImpliedType()),
		},
		"set and list of primitives are taken from config": {
			schema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"tags": {Type: cty.Set(cty.String), Optional: true},
				"seq":  {Type: cty.List(cty.String), Optional: true, Computed: true},
			}},
			prior: cty.ObjectVal(map[string]cty.Value{
				"tags": cty.SetVal([]cty.Value{str("a"), str("b")}),
				"seq":  cty.ListVal([]cty.Value{str("x")}),
			}),
			config: cty.ObjectVal(map[string]cty.Value{
				"tags": cty.SetVal([]cty.Value{str("b"), str("c")}),
				"seq":  cty.NullVal(cty.List(cty.String)),
			}),
			want: cty.ObjectVal(map[string]cty.Value{
				"tags": cty.SetVal([]cty.Value{str("b"), str("c")}),
				"seq":  cty.ListVal([]cty.Value{str("x")}),
			}),
		},

		// Dynamically-typed attributes (terraform_data).
		"terraform_data create": {
			schema: terraformDataSchema,
			prior:  cty.NullVal(terraformDataSchema.ImpliedType()),
			config: cty.ObjectVal(map[string]cty.Value{
				"id":               nullStr,
				"input":            str("a"),
				"output":           cty.NullVal(cty.DynamicPseudoType),
				"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
			}),
			want: cty.ObjectVal(map[string]cty.Value{
				"id":               nullStr,
				"input":            str("a"),
				"output":           cty.NullVal(cty.DynamicPseudoType),
				"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
			}),
		},
		"terraform_data update keeps prior output of another type": {
			schema: terraformDataSchema,
			prior: cty.ObjectVal(map[string]cty.Value{
				"id":               str("abc"),
				"input":            num(1),
				"output":           num(1),
				"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
			}),
			config: cty.ObjectVal(map[string]cty.Value{
				"id":               nullStr,
				"input":            cty.ListVal([]cty.Value{str("b")}),
				"output":           cty.NullVal(cty.DynamicPseudoType),
				"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
			}),
			want: cty.ObjectVal(map[string]cty.Value{
				"id":               str("abc"),
				"input":            cty.ListVal([]cty.Value{str("b")}),
				"output":           num(1),
				"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
			}),
		},
		"terraform_data unknown input": {
			schema: terraformDataSchema,
			prior:  cty.NullVal(terraformDataSchema.ImpliedType()),
			config: cty.ObjectVal(map[string]cty.Value{
				"id":               nullStr,
				"input":            cty.DynamicVal,
				"output":           cty.NullVal(cty.DynamicPseudoType),
				"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
			}),
			want: cty.ObjectVal(map[string]cty.Value{
				"id":               nullStr,
				"input":            cty.DynamicVal,
				"output":           cty.NullVal(cty.DynamicPseudoType),
				"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
			}),
		},

		// Nested blocks.
		"single block: computed attributes from prior": {
			schema: blockSchema(configschema.NestingSingle),
			prior:  blk(inner(str("a"), str("id0"), num(1))),
			config: blk(inner(str("b"), nullStr, nullNum)),
			want:   blk(inner(str("b"), str("id0"), num(1))),
		},
		"single block: newly added block keeps null computed attributes": {
			schema: blockSchema(configschema.NestingSingle),
			prior:  blk(nullInner),
			config: blk(inner(str("b"), nullStr, num(5))),
			want:   blk(inner(str("b"), nullStr, num(5))),
		},
		"single block: removed from config": {
			schema: blockSchema(configschema.NestingSingle),
			prior:  blk(inner(str("a"), str("id0"), num(1))),
			config: blk(nullInner),
			want:   blk(nullInner),
		},
		"single block: unknown in config": {
			schema: blockSchema(configschema.NestingSingle),
			prior:  blk(inner(str("a"), str("id0"), num(1))),
			config: blk(cty.UnknownVal(innerType)),
			want:   blk(cty.UnknownVal(innerType)),
		},
		"group block: computed attributes from prior": {
			schema: blockSchema(configschema.NestingGroup),
			prior:  blk(inner(str("a"), str("id0"), num(1))),
			config: blk(inner(nullStr, nullStr, nullNum)),
			want:   blk(inner(nullStr, str("id0"), num(1))),
		},
		"list blocks: correlated by index": {
			schema: blockSchema(configschema.NestingList),
			prior: blk(cty.ListVal([]cty.Value{
				inner(str("a"), str("id0"), num(1)),
			})),
			config: blk(cty.ListVal([]cty.Value{
				inner(str("x"), nullStr, nullNum),
				inner(str("y"), nullStr, num(2)),
			})),
			want: blk(cty.ListVal([]cty.Value{
				inner(str("x"), str("id0"), num(1)),
				inner(str("y"), nullStr, num(2)),
			})),
		},
		"list blocks: fewer than prior": {
			schema: blockSchema(configschema.NestingList),
			prior: blk(cty.ListVal([]cty.Value{
				inner(str("a"), str("id0"), num(1)),
				inner(str("b"), str("id1"), num(2)),
			})),
			config: blk(cty.ListVal([]cty.Value{
				inner(str("b"), nullStr, nullNum),
			})),
			want: blk(cty.ListVal([]cty.Value{
				inner(str("b"), str("id0"), num(1)),
			})),
		},
		"list blocks: empty": {
			schema: blockSchema(configschema.NestingList),
			prior:  blk(cty.ListVal([]cty.Value{inner(str("a"), str("id0"), num(1))})),
			config: blk(cty.ListValEmpty(innerType)),
			want:   blk(cty.ListValEmpty(innerType)),
		},
		"list blocks: unknown collection": {
			schema: blockSchema(configschema.NestingList),
			prior:  blk(cty.ListVal([]cty.Value{inner(str("a"), str("id0"), num(1))})),
			config: blk(cty.UnknownVal(cty.List(innerType))),
			want:   blk(cty.UnknownVal(cty.List(innerType))),
		},
		"list blocks with dynamic attributes are tuples": {
			schema: &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{
				"blk": {Nesting: configschema.NestingList, Block: configschema.Block{
					Attributes: map[string]*configschema.Attribute{
						"v":   {Type: cty.DynamicPseudoType, Optional: true},
						"out": {Type: cty.DynamicPseudoType, Computed: true},
					},
				}},
			}},
			prior: blk(cty.TupleVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"v": str("a"), "out": num(1)}),
			})),
			config: blk(cty.TupleVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"v": str("b"), "out": cty.NullVal(cty.DynamicPseudoType)}),
				cty.ObjectVal(map[string]cty.Value{"v": cty.True, "out": cty.NullVal(cty.DynamicPseudoType)}),
			})),
			want: blk(cty.TupleVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"v": str("b"), "out": num(1)}),
				cty.ObjectVal(map[string]cty.Value{"v": cty.True, "out": cty.NullVal(cty.DynamicPseudoType)}),
			})),
		},
		"map blocks: correlated by key": {
			schema: blockSchema(configschema.NestingMap),
			prior: blk(cty.MapVal(map[string]cty.Value{
				"a": inner(str("a"), str("id0"), num(1)),
				"b": inner(str("b"), str("id1"), num(2)),
			})),
			config: blk(cty.MapVal(map[string]cty.Value{
				"b": inner(str("b2"), nullStr, nullNum),
				"c": inner(str("c"), nullStr, nullNum),
			})),
			want: blk(cty.MapVal(map[string]cty.Value{
				"b": inner(str("b2"), str("id1"), num(2)),
				"c": inner(str("c"), nullStr, nullNum),
			})),
		},
		"map blocks with dynamic attributes are objects": {
			schema: &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{
				"blk": {Nesting: configschema.NestingMap, Block: configschema.Block{
					Attributes: map[string]*configschema.Attribute{
						"v":   {Type: cty.DynamicPseudoType, Optional: true},
						"out": {Type: cty.DynamicPseudoType, Computed: true},
					},
				}},
			}},
			prior: blk(cty.ObjectVal(map[string]cty.Value{
				"k": cty.ObjectVal(map[string]cty.Value{"v": str("a"), "out": str("prior")}),
			})),
			config: blk(cty.ObjectVal(map[string]cty.Value{
				"k": cty.ObjectVal(map[string]cty.Value{"v": num(2), "out": cty.NullVal(cty.DynamicPseudoType)}),
				"l": cty.ObjectVal(map[string]cty.Value{"v": num(3), "out": cty.NullVal(cty.DynamicPseudoType)}),
			})),
			want: blk(cty.ObjectVal(map[string]cty.Value{
				"k": cty.ObjectVal(map[string]cty.Value{"v": num(2), "out": str("prior")}),
				"l": cty.ObjectVal(map[string]cty.Value{"v": num(3), "out": cty.NullVal(cty.DynamicPseudoType)}),
			})),
		},
		"set blocks: correlated by non-computed attributes": {
			schema: blockSchema(configschema.NestingSet),
			prior: blk(cty.SetVal([]cty.Value{
				inner(str("a"), str("id-a"), num(1)),
				inner(str("b"), str("id-b"), num(2)),
			})),
			config: blk(cty.SetVal([]cty.Value{
				inner(str("b"), nullStr, nullNum),
				inner(str("c"), nullStr, nullNum),
			})),
			want: blk(cty.SetVal([]cty.Value{
				inner(str("b"), str("id-b"), num(2)),
				inner(str("c"), nullStr, nullNum),
			})),
		},
		"set blocks: optional+computed set in config must match prior": {
			schema: blockSchema(configschema.NestingSet),
			prior: blk(cty.SetVal([]cty.Value{
				inner(str("a"), str("id-a"), num(1)),
			})),
			config: blk(cty.SetVal([]cty.Value{
				inner(str("a"), nullStr, num(2)),
			})),
			want: blk(cty.SetVal([]cty.Value{
				inner(str("a"), nullStr, num(2)),
			})),
		},
		"set blocks: exact matches are preferred so elements stay distinct": {
			schema: blockSchema(configschema.NestingSet),
			prior: blk(cty.SetVal([]cty.Value{
				inner(str("a"), str("id-1"), num(1)),
			})),
			config: blk(cty.SetVal([]cty.Value{
				inner(str("a"), nullStr, nullNum),
				inner(str("a"), nullStr, num(1)),
			})),
			want: blk(cty.SetVal([]cty.Value{
				inner(str("a"), nullStr, nullNum),
				inner(str("a"), str("id-1"), num(1)),
			})),
		},
		"set blocks: element with unknown attribute is treated as new": {
			schema: blockSchema(configschema.NestingSet),
			prior: blk(cty.SetVal([]cty.Value{
				inner(str("a"), str("id-a"), num(1)),
			})),
			config: blk(cty.SetVal([]cty.Value{
				inner(unkStr, nullStr, nullNum),
			})),
			want: blk(cty.SetVal([]cty.Value{
				inner(unkStr, nullStr, nullNum),
			})),
		},
		"set blocks: no prior": {
			schema: blockSchema(configschema.NestingSet),
			prior:  cty.NullVal(blockSchema(configschema.NestingSet).ImpliedType()),
			config: blk(cty.SetVal([]cty.Value{
				inner(str("a"), nullStr, num(3)),
			})),
			want: blk(cty.SetVal([]cty.Value{
				inner(str("a"), nullStr, num(3)),
			})),
		},
		"set blocks: unknown prior set gives unknown computed attributes": {
			schema: blockSchema(configschema.NestingSet),
			prior:  blk(cty.UnknownVal(cty.Set(innerType))),
			config: blk(cty.SetVal([]cty.Value{
				inner(str("a"), nullStr, nullNum),
				inner(str("b"), nullStr, num(2)),
			})),
			want: blk(cty.SetVal([]cty.Value{
				inner(str("a"), unkStr, unkNum),
				inner(str("b"), unkStr, num(2)),
			})),
		},
		"set blocks: unknown prior set, elements stay distinct": {
			// Both elements become {a, unknown, unknown}; cty never merges
			// set elements that contain unknowns, so the set keeps both.
			schema: blockSchema(configschema.NestingSet),
			prior:  blk(cty.UnknownVal(cty.Set(innerType))),
			config: blk(cty.SetVal([]cty.Value{
				inner(str("a"), nullStr, nullNum),
				inner(str("a"), nullStr, unkNum),
			})),
			want: blk(cty.SetVal([]cty.Value{
				inner(str("a"), unkStr, unkNum),
				inner(str("a"), unkStr, unkNum),
			})),
		},
		"unknown prior object: nested blocks of every mode get unknown computed attributes": {
			schema: &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{
				"single": {Nesting: configschema.NestingSingle, Block: innerBlock},
				"list":   {Nesting: configschema.NestingList, Block: innerBlock},
				"set":    {Nesting: configschema.NestingSet, Block: innerBlock},
				"map":    {Nesting: configschema.NestingMap, Block: innerBlock},
			}},
			prior: cty.UnknownVal(cty.Object(map[string]cty.Type{
				"single": innerType,
				"list":   cty.List(innerType),
				"set":    cty.Set(innerType),
				"map":    cty.Map(innerType),
			})),
			config: cty.ObjectVal(map[string]cty.Value{
				"single": inner(str("a"), nullStr, nullNum),
				"list":   cty.ListVal([]cty.Value{inner(str("b"), nullStr, num(2))}),
				"set":    cty.SetVal([]cty.Value{inner(str("c"), nullStr, nullNum)}),
				"map":    cty.MapVal(map[string]cty.Value{"k": inner(str("d"), nullStr, nullNum)}),
			}),
			want: cty.ObjectVal(map[string]cty.Value{
				"single": inner(str("a"), unkStr, unkNum),
				"list":   cty.ListVal([]cty.Value{inner(str("b"), unkStr, num(2))}),
				"set":    cty.SetVal([]cty.Value{inner(str("c"), unkStr, unkNum)}),
				"map":    cty.MapVal(map[string]cty.Value{"k": inner(str("d"), unkStr, unkNum)}),
			}),
		},
		"deeply nested blocks": {
			schema: &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{
				"outer": {Nesting: configschema.NestingList, Block: configschema.Block{
					Attributes: map[string]*configschema.Attribute{
						"id": {Type: cty.String, Computed: true},
					},
					BlockTypes: map[string]*configschema.NestedBlock{
						"blk": {Nesting: configschema.NestingSet, Block: innerBlock},
					},
				}},
			}},
			prior: cty.ObjectVal(map[string]cty.Value{"outer": cty.ListVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{
					"id":  str("outer-id"),
					"blk": cty.SetVal([]cty.Value{inner(str("a"), str("id-a"), num(1))}),
				}),
			})}),
			config: cty.ObjectVal(map[string]cty.Value{"outer": cty.ListVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{
					"id":  nullStr,
					"blk": cty.SetVal([]cty.Value{inner(str("a"), nullStr, nullNum)}),
				}),
			})}),
			want: cty.ObjectVal(map[string]cty.Value{"outer": cty.ListVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{
					"id":  str("outer-id"),
					"blk": cty.SetVal([]cty.Value{inner(str("a"), str("id-a"), num(1))}),
				}),
			})}),
		},

		// Nested attribute objects.
		"nested attribute single: computed inner attributes from prior": {
			schema: nestedAttrSchema(configschema.NestingSingle, true, false),
			prior:  obj(inner(str("a"), str("id0"), num(1))),
			config: obj(inner(str("b"), nullStr, nullNum)),
			want:   obj(inner(str("b"), str("id0"), num(1))),
		},
		"nested attribute single: create": {
			schema: nestedAttrSchema(configschema.NestingSingle, true, false),
			prior:  cty.NullVal(nestedAttrSchema(configschema.NestingSingle, true, false).ImpliedType()),
			config: obj(inner(str("b"), nullStr, nullNum)),
			want:   obj(inner(str("b"), nullStr, nullNum)),
		},
		"nested attribute list: unknown prior gives unknown computed attributes": {
			schema: nestedAttrSchema(configschema.NestingList, true, false),
			prior:  cty.UnknownVal(nestedAttrSchema(configschema.NestingList, true, false).ImpliedType()),
			config: obj(cty.ListVal([]cty.Value{inner(str("a"), nullStr, num(1))})),
			want:   obj(cty.ListVal([]cty.Value{inner(str("a"), unkStr, num(1))})),
		},
		"nested attribute set: unknown prior gives unknown computed attributes": {
			schema: nestedAttrSchema(configschema.NestingSet, true, false),
			prior:  obj(cty.UnknownVal(cty.Set(innerType))),
			config: obj(cty.SetVal([]cty.Value{inner(str("a"), nullStr, nullNum)})),
			want:   obj(cty.SetVal([]cty.Value{inner(str("a"), unkStr, unkNum)})),
		},
		"nested attribute map: unknown prior gives unknown computed attributes": {
			schema: nestedAttrSchema(configschema.NestingMap, true, false),
			prior:  obj(cty.UnknownVal(cty.Map(innerType))),
			config: obj(cty.MapVal(map[string]cty.Value{"k": inner(str("a"), nullStr, nullNum)})),
			want:   obj(cty.MapVal(map[string]cty.Value{"k": inner(str("a"), unkStr, unkNum)})),
		},
		"nested attribute computed-only with unknown prior becomes unknown": {
			schema: nestedAttrSchema(configschema.NestingList, false, true),
			prior:  cty.UnknownVal(nestedAttrSchema(configschema.NestingList, false, true).ImpliedType()),
			config: obj(cty.NullVal(cty.List(innerType))),
			want:   obj(cty.UnknownVal(cty.List(innerType))),
		},
		"nested attribute group": {
			schema: nestedAttrSchema(configschema.NestingGroup, true, false),
			prior:  obj(inner(str("a"), str("id0"), num(1))),
			config: obj(inner(str("a"), nullStr, num(4))),
			want:   obj(inner(str("a"), str("id0"), num(4))),
		},
		"nested attribute optional+computed null in config keeps computed-only prior": {
			schema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"obj": {
					NestedType: &configschema.Object{Nesting: configschema.NestingSingle, Attributes: map[string]*configschema.Attribute{
						"name": {Type: cty.String, Optional: true, Computed: true},
						"id":   {Type: cty.String, Computed: true},
					}},
					Optional: true, Computed: true,
				},
			}},
			prior: obj(cty.ObjectVal(map[string]cty.Value{"name": str("chosen"), "id": str("id0")})),
			config: obj(cty.NullVal(cty.Object(map[string]cty.Type{
				"name": cty.String, "id": cty.String,
			}))),
			want: obj(cty.ObjectVal(map[string]cty.Value{"name": str("chosen"), "id": str("id0")})),
		},
		"nested attribute optional+computed removed from config becomes null": {
			schema: nestedAttrSchema(configschema.NestingSingle, true, true),
			prior:  obj(inner(str("from-config"), str("id0"), num(1))),
			config: obj(nullInner),
			want:   obj(nullInner),
		},
		"nested attribute computed-only on create stays null": {
			schema: nestedAttrSchema(configschema.NestingList, false, true),
			prior:  cty.NullVal(nestedAttrSchema(configschema.NestingList, false, true).ImpliedType()),
			config: obj(cty.NullVal(cty.List(innerType))),
			want:   obj(cty.NullVal(cty.List(innerType))),
		},
		"nested attribute computed-only on update": {
			schema: nestedAttrSchema(configschema.NestingList, false, true),
			prior:  obj(cty.ListVal([]cty.Value{inner(str("a"), str("id0"), num(1))})),
			config: obj(cty.NullVal(cty.List(innerType))),
			want:   obj(cty.ListVal([]cty.Value{inner(str("a"), str("id0"), num(1))})),
		},
		"nested attribute list: correlated by index": {
			schema: nestedAttrSchema(configschema.NestingList, true, false),
			prior:  obj(cty.ListVal([]cty.Value{inner(str("a"), str("id0"), num(1))})),
			config: obj(cty.ListVal([]cty.Value{
				inner(str("a"), nullStr, nullNum),
				inner(str("b"), nullStr, nullNum),
			})),
			want: obj(cty.ListVal([]cty.Value{
				inner(str("a"), str("id0"), num(1)),
				inner(str("b"), nullStr, nullNum),
			})),
		},
		"nested attribute list: unknown element": {
			schema: nestedAttrSchema(configschema.NestingList, true, false),
			prior:  obj(cty.ListVal([]cty.Value{inner(str("a"), str("id0"), num(1))})),
			config: obj(cty.ListVal([]cty.Value{cty.UnknownVal(innerType)})),
			want:   obj(cty.ListVal([]cty.Value{cty.UnknownVal(innerType)})),
		},
		"nested attribute map: correlated by key": {
			schema: nestedAttrSchema(configschema.NestingMap, true, false),
			prior:  obj(cty.MapVal(map[string]cty.Value{"k": inner(str("a"), str("id0"), num(1))})),
			config: obj(cty.MapVal(map[string]cty.Value{
				"k": inner(str("a"), nullStr, nullNum),
				"n": inner(str("b"), nullStr, num(9)),
			})),
			want: obj(cty.MapVal(map[string]cty.Value{
				"k": inner(str("a"), str("id0"), num(1)),
				"n": inner(str("b"), nullStr, num(9)),
			})),
		},
		"nested attribute set: correlated by non-computed attributes": {
			schema: nestedAttrSchema(configschema.NestingSet, true, false),
			prior: obj(cty.SetVal([]cty.Value{
				inner(str("a"), str("id-a"), num(1)),
				inner(str("b"), str("id-b"), num(2)),
			})),
			config: obj(cty.SetVal([]cty.Value{
				inner(str("a"), nullStr, nullNum),
				inner(str("z"), nullStr, nullNum),
			})),
			want: obj(cty.SetVal([]cty.Value{
				inner(str("a"), str("id-a"), num(1)),
				inner(str("z"), nullStr, nullNum),
			})),
		},
		"nested attribute list with dynamic computed attribute is unified": {
			schema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"obj": {
					NestedType: &configschema.Object{Nesting: configschema.NestingList, Attributes: map[string]*configschema.Attribute{
						"name": {Type: cty.String, Required: true},
						"out":  {Type: cty.DynamicPseudoType, Computed: true},
					}},
					Optional: true,
				},
			}},
			prior: obj(cty.ListVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"name": str("a"), "out": str("x")}),
			})),
			config: obj(cty.ListVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"name": str("a"), "out": cty.NullVal(cty.DynamicPseudoType)}),
				cty.ObjectVal(map[string]cty.Value{"name": str("b"), "out": cty.NullVal(cty.DynamicPseudoType)}),
			})),
			want: obj(cty.ListVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"name": str("a"), "out": str("x")}),
				cty.ObjectVal(map[string]cty.Value{"name": str("b"), "out": nullStr}),
			})),
		},
		"nested set block containing nested attribute": {
			schema: &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{
				"blk": {Nesting: configschema.NestingSet, Block: configschema.Block{
					Attributes: map[string]*configschema.Attribute{
						"obj": {
							NestedType: &configschema.Object{Nesting: configschema.NestingSingle, Attributes: innerAttrs},
							Optional:   true,
						},
						"arn": {Type: cty.String, Computed: true},
					},
				}},
			}},
			prior: blk(cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
				"obj": inner(str("a"), str("id-a"), num(1)),
				"arn": str("arn-a"),
			})})),
			config: blk(cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
				"obj": inner(str("a"), nullStr, nullNum),
				"arn": nullStr,
			})})),
			want: blk(cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
				"obj": inner(str("a"), str("id-a"), num(1)),
				"arn": str("arn-a"),
			})})),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := ProposedNew(tc.schema, tc.prior, tc.config)
			checkValue(t, got, tc.want)

			// Without any prior object nothing is taken from prior and
			// computed attributes null in config stay null, so the proposed
			// new state is the config itself.
			checkValue(t, ProposedNew(tc.schema, cty.NilVal, tc.config), tc.config)
			checkValue(t, ProposedNew(tc.schema, cty.NullVal(tc.schema.ImpliedType()), tc.config), tc.config)

			// A provider that plans exactly the proposed new state always
			// produces a valid plan, and any value is compatible with itself.
			checkErrors(t, AssertPlanValid(tc.schema, tc.prior, tc.config, got), nil)
			checkErrors(t, AssertObjectCompatible(tc.schema, got, got), nil)
		})
	}
}

func TestProposedNewPreservesMarks(t *testing.T) {
	prior := prim(str("r"), nullStr, str("secret").Mark("sensitive"), nullStr)
	config := prim(str("r").Mark("m"), nullStr, nullStr, nullStr)
	got := ProposedNew(primitiveSchema, prior, config)
	want := prim(str("r").Mark("m"), nullStr, str("secret").Mark("sensitive"), nullStr)
	checkValue(t, got, want)
}

// TestMismatchedShapesDoNotPanic feeds values that do not line up with the
// schema or with each other (as after a schema change) through all three
// functions, for every nesting mode of blocks and nested attributes.
func TestMismatchedShapesDoNotPanic(t *testing.T) {
	var schemas []*configschema.Block
	for _, n := range []configschema.NestingMode{
		configschema.NestingSingle, configschema.NestingGroup, configschema.NestingList,
		configschema.NestingSet, configschema.NestingMap,
	} {
		schemas = append(schemas, blockSchema(n), nestedAttrSchema(n, true, false), nestedAttrSchema(n, true, true))
	}
	schemas = append(schemas, terraformDataSchema, primitiveSchema)

	elem := inner(str("a"), str("id"), num(1))
	contents := []cty.Value{
		elem,
		nullInner,
		cty.UnknownVal(innerType),
		inner(unkStr, nullStr, nullNum),
		cty.ListVal([]cty.Value{elem}),
		cty.ListValEmpty(innerType),
		cty.SetVal([]cty.Value{elem, inner(str("b"), unkStr, nullNum)}),
		cty.MapVal(map[string]cty.Value{"k": elem}),
		cty.ObjectVal(map[string]cty.Value{"k": elem}),
		cty.TupleVal([]cty.Value{elem, str("x")}),
		cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"name": str("a")})}),
		cty.UnknownVal(cty.List(innerType)),
		str("not an object"),
	}
	values := []cty.Value{
		cty.NilVal,
		cty.NullVal(cty.DynamicPseudoType),
		cty.DynamicVal,
		cty.EmptyObjectVal,
		tfData(str("id"), num(1), num(1)),
		prim(str("r"), nullStr, unkStr, str("oc")),
	}
	for _, c := range contents {
		values = append(values, blk(c), obj(c))
	}
	for si, schema := range schemas {
		for i, a := range values {
			for j, b := range values {
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("panic with schema %d and values %d and %d: %v", si, i, j, r)
						}
					}()
					ProposedNew(schema, a, b)
					if b != cty.NilVal {
						// Use every value as config against a few planned
						// values, and as planned against a few configs.
						for k := 0; k < len(values); k += 8 {
							AssertPlanValid(schema, a, values[k], b)
							AssertPlanValid(schema, a, b, values[k])
						}
					}
					AssertObjectCompatible(schema, a, b)
				}()
			}
		}
	}
}
