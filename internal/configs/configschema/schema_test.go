package configschema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

var ctyOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) }),
	cmp.Comparer(func(a, b cty.Value) bool {
		if a == cty.NilVal || b == cty.NilVal {
			return a == cty.NilVal && b == cty.NilVal
		}
		return a.RawEquals(b)
	}),
}

// Schema fragments shared by the tests.
var (
	// leafBlock is a block of two simple optional attributes.
	leafBlock = Block{Attributes: map[string]*Attribute{
		"name": {Type: cty.String, Optional: true},
		"size": {Type: cty.Number, Optional: true},
	}}
	leafType = cty.Object(map[string]cty.Type{"name": cty.String, "size": cty.Number})

	// dynBlock has an attribute of any type.
	dynBlock = Block{Attributes: map[string]*Attribute{
		"value": {Type: cty.DynamicPseudoType, Optional: true},
	}}
	dynType = cty.Object(map[string]cty.Type{"value": cty.DynamicPseudoType})

	leafAttrs = map[string]*Attribute{
		"name": {Type: cty.String, Required: true},
		"size": {Type: cty.Number, Optional: true},
	}
)

func TestNestingModeString(t *testing.T) {
	t.Parallel()
	tests := map[NestingMode]string{
		nestingInvalid:  "invalid",
		NestingSingle:   "single",
		NestingGroup:    "group",
		NestingList:     "list",
		NestingSet:      "set",
		NestingMap:      "map",
		NestingMode(99): "invalid",
	}
	for mode, want := range tests {
		if got := mode.String(); got != want {
			t.Errorf("NestingMode(%d).String() = %q; want %q", int(mode), got, want)
		}
	}
}

func TestBlockImpliedType(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		schema *Block
		want   cty.Type
	}{
		"nil": {
			schema: nil,
			want:   cty.EmptyObject,
		},
		"empty": {
			schema: &Block{},
			want:   cty.EmptyObject,
		},
		"attributes": {
			schema: &Block{Attributes: map[string]*Attribute{
				"s":        {Type: cty.String, Required: true},
				"n":        {Type: cty.Number, Optional: true},
				"b":        {Type: cty.Bool, Computed: true},
				"l":        {Type: cty.List(cty.String), Optional: true, Computed: true},
				"any":      {Type: cty.DynamicPseudoType, Optional: true},
				"secret":   {Type: cty.String, Optional: true, Sensitive: true},
				"password": {Type: cty.String, Optional: true, WriteOnly: true},
			}},
			want: cty.Object(map[string]cty.Type{
				"s": cty.String, "n": cty.Number, "b": cty.Bool, "l": cty.List(cty.String),
				"any": cty.DynamicPseudoType, "secret": cty.String, "password": cty.String,
			}),
		},
		"nested blocks of every mode": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"single": {Nesting: NestingSingle, Block: leafBlock},
				"group":  {Nesting: NestingGroup, Block: leafBlock},
				"list":   {Nesting: NestingList, Block: leafBlock},
				"set":    {Nesting: NestingSet, Block: leafBlock},
				"map":    {Nesting: NestingMap, Block: leafBlock},
			}},
			want: cty.Object(map[string]cty.Type{
				"single": leafType,
				"group":  leafType,
				"list":   cty.List(leafType),
				"set":    cty.Set(leafType),
				"map":    cty.Map(leafType),
			}),
		},
		"nested blocks with dynamic types": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"single": {Nesting: NestingSingle, Block: dynBlock},
				"group":  {Nesting: NestingGroup, Block: dynBlock},
				"list":   {Nesting: NestingList, Block: dynBlock},
				"set":    {Nesting: NestingSet, Block: dynBlock},
				"map":    {Nesting: NestingMap, Block: dynBlock},
			}},
			want: cty.Object(map[string]cty.Type{
				"single": dynType,
				"group":  dynType,
				"list":   cty.DynamicPseudoType,
				"set":    cty.Set(dynType),
				"map":    cty.DynamicPseudoType,
			}),
		},
		"deeply nested blocks": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"outer": {Nesting: NestingList, Block: Block{
					Attributes: map[string]*Attribute{"id": {Type: cty.String, Computed: true}},
					BlockTypes: map[string]*NestedBlock{
						"inner": {Nesting: NestingSet, Block: leafBlock},
					},
				}},
			}},
			want: cty.Object(map[string]cty.Type{
				"outer": cty.List(cty.Object(map[string]cty.Type{
					"id":    cty.String,
					"inner": cty.Set(leafType),
				})),
			}),
		},
		"a dynamic list deep inside makes the outer list a tuple": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"outer": {Nesting: NestingList, Block: Block{BlockTypes: map[string]*NestedBlock{
					"inner": {Nesting: NestingList, Block: dynBlock},
				}}},
			}},
			want: cty.Object(map[string]cty.Type{"outer": cty.DynamicPseudoType}),
		},
		"nested attributes of every mode": {
			schema: &Block{Attributes: map[string]*Attribute{
				"single": {NestedType: &Object{Nesting: NestingSingle, Attributes: leafAttrs}, Optional: true},
				"list":   {NestedType: &Object{Nesting: NestingList, Attributes: leafAttrs}, Optional: true},
				"set":    {NestedType: &Object{Nesting: NestingSet, Attributes: leafAttrs}, Optional: true},
				"map":    {NestedType: &Object{Nesting: NestingMap, Attributes: leafAttrs}, Optional: true},
			}},
			want: cty.Object(map[string]cty.Type{
				"single": leafType,
				"list":   cty.List(leafType),
				"set":    cty.Set(leafType),
				"map":    cty.Map(leafType),
			}),
		},
		"nested attributes inside nested attributes": {
			schema: &Block{Attributes: map[string]*Attribute{
				"outer": {Optional: true, NestedType: &Object{Nesting: NestingList, Attributes: map[string]*Attribute{
					"inner": {Optional: true, NestedType: &Object{Nesting: NestingMap, Attributes: leafAttrs}},
				}}},
			}},
			want: cty.Object(map[string]cty.Type{
				"outer": cty.List(cty.Object(map[string]cty.Type{"inner": cty.Map(leafType)})),
			}),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, tc.schema.ImpliedType(), ctyOpts); diff != "" {
				t.Errorf("wrong type (-want +got)\n%s", diff)
			}
		})
	}
}

func TestBlockEmptyValue(t *testing.T) {
	t.Parallel()
	leafNull := cty.NullVal(leafType)
	tests := map[string]struct {
		schema *Block
		want   cty.Value
	}{
		"empty": {
			schema: &Block{},
			want:   cty.EmptyObjectVal,
		},
		"attributes are null": {
			schema: &Block{Attributes: map[string]*Attribute{
				"s":      {Type: cty.String, Required: true},
				"l":      {Type: cty.List(cty.Number), Optional: true},
				"any":    {Type: cty.DynamicPseudoType, Computed: true},
				"nested": {NestedType: &Object{Nesting: NestingList, Attributes: leafAttrs}, Optional: true},
			}},
			want: cty.ObjectVal(map[string]cty.Value{
				"s":      cty.NullVal(cty.String),
				"l":      cty.NullVal(cty.List(cty.Number)),
				"any":    cty.NullVal(cty.DynamicPseudoType),
				"nested": cty.NullVal(cty.List(leafType)),
			}),
		},
		"nested blocks of every mode": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"single": {Nesting: NestingSingle, Block: leafBlock},
				"group":  {Nesting: NestingGroup, Block: leafBlock},
				"list":   {Nesting: NestingList, Block: leafBlock},
				"set":    {Nesting: NestingSet, Block: leafBlock},
				"map":    {Nesting: NestingMap, Block: leafBlock},
			}},
			want: cty.ObjectVal(map[string]cty.Value{
				"single": leafNull,
				"group": cty.ObjectVal(map[string]cty.Value{
					"name": cty.NullVal(cty.String),
					"size": cty.NullVal(cty.Number),
				}),
				"list": cty.ListValEmpty(leafType),
				"set":  cty.SetValEmpty(leafType),
				"map":  cty.MapValEmpty(leafType),
			}),
		},
		"nested blocks with dynamic types": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"single": {Nesting: NestingSingle, Block: dynBlock},
				"group":  {Nesting: NestingGroup, Block: dynBlock},
				"list":   {Nesting: NestingList, Block: dynBlock},
				"set":    {Nesting: NestingSet, Block: dynBlock},
				"map":    {Nesting: NestingMap, Block: dynBlock},
			}},
			want: cty.ObjectVal(map[string]cty.Value{
				"single": cty.NullVal(dynType),
				"group":  cty.ObjectVal(map[string]cty.Value{"value": cty.NullVal(cty.DynamicPseudoType)}),
				"list":   cty.EmptyTupleVal,
				"set":    cty.SetValEmpty(dynType),
				"map":    cty.EmptyObjectVal,
			}),
		},
		"group inside group": {
			schema: &Block{BlockTypes: map[string]*NestedBlock{
				"outer": {Nesting: NestingGroup, Block: Block{BlockTypes: map[string]*NestedBlock{
					"inner": {Nesting: NestingGroup, Block: leafBlock},
					"items": {Nesting: NestingList, Block: leafBlock},
				}}},
			}},
			want: cty.ObjectVal(map[string]cty.Value{
				"outer": cty.ObjectVal(map[string]cty.Value{
					"inner": cty.ObjectVal(map[string]cty.Value{
						"name": cty.NullVal(cty.String),
						"size": cty.NullVal(cty.Number),
					}),
					"items": cty.ListValEmpty(leafType),
				}),
			}),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := tc.schema.EmptyValue()
			if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
				t.Errorf("wrong value (-want +got)\n%s", diff)
			}
			// The empty value always conforms to the implied type.
			if errs := got.Type().TestConformance(tc.schema.ImpliedType()); len(errs) > 0 {
				t.Errorf("empty value does not conform to the implied type: %v", errs)
			}
		})
	}
}

func TestBlockAttributeByPath(t *testing.T) {
	t.Parallel()
	schema := &Block{
		Attributes: map[string]*Attribute{
			"id":   {Type: cty.String, Computed: true},
			"tags": {Type: cty.Map(cty.String), Optional: true},
			"disks": {Optional: true, NestedType: &Object{Nesting: NestingList, Attributes: map[string]*Attribute{
				"size": {Type: cty.Number, Required: true},
				"opts": {Optional: true, NestedType: &Object{Nesting: NestingSingle, Attributes: map[string]*Attribute{
					"fast": {Type: cty.Bool, Optional: true},
				}}},
			}}},
		},
		BlockTypes: map[string]*NestedBlock{
			"network": {Nesting: NestingList, Block: Block{
				Attributes: map[string]*Attribute{"cidr": {Type: cty.String, Required: true}},
				BlockTypes: map[string]*NestedBlock{
					"rule": {Nesting: NestingMap, Block: Block{Attributes: map[string]*Attribute{
						"port": {Type: cty.Number, Optional: true},
					}}},
				},
			}},
			"settings": {Nesting: NestingSingle, Block: Block{Attributes: map[string]*Attribute{
				"mode": {Type: cty.String, Optional: true},
			}}},
		},
	}
	attr := func(path ...string) *Attribute {
		// Follows names through the schema by hand, as the expected result.
		var attrs = schema.Attributes
		blocks := schema.BlockTypes
		for i, name := range path {
			if a, ok := attrs[name]; ok {
				if i == len(path)-1 {
					return a
				}
				attrs, blocks = a.NestedType.Attributes, nil
				continue
			}
			attrs, blocks = blocks[name].Attributes, blocks[name].BlockTypes
		}
		panic("bad test path")
	}
	tests := map[string]struct {
		path cty.Path
		want *Attribute
	}{
		"top-level attribute": {
			path: cty.GetAttrPath("id"),
			want: attr("id"),
		},
		"map attribute": {
			path: cty.GetAttrPath("tags"),
			want: attr("tags"),
		},
		"inside a map attribute": {
			path: cty.GetAttrPath("tags").IndexString("k"),
			want: nil,
		},
		"nested attribute itself": {
			path: cty.GetAttrPath("disks"),
			want: attr("disks"),
		},
		"inside a nested attribute": {
			path: cty.GetAttrPath("disks").IndexInt(0).GetAttr("size"),
			want: attr("disks", "size"),
		},
		"nested attribute without the index": {
			path: cty.GetAttrPath("disks").GetAttr("size"),
			want: attr("disks", "size"),
		},
		"two levels of nested attributes": {
			path: cty.GetAttrPath("disks").IndexInt(1).GetAttr("opts").GetAttr("fast"),
			want: attr("disks", "opts", "fast"),
		},
		"past a nested attribute's element": {
			path: cty.GetAttrPath("disks").IndexInt(0),
			want: nil,
		},
		"inside a block": {
			path: cty.GetAttrPath("network").IndexInt(0).GetAttr("cidr"),
			want: attr("network", "cidr"),
		},
		"inside a single block": {
			path: cty.GetAttrPath("settings").GetAttr("mode"),
			want: attr("settings", "mode"),
		},
		"inside a map block inside a list block": {
			path: cty.GetAttrPath("network").IndexInt(0).GetAttr("rule").IndexString("ssh").GetAttr("port"),
			want: attr("network", "rule", "port"),
		},
		"a block is not an attribute": {
			path: cty.GetAttrPath("network"),
			want: nil,
		},
		"a nested block inside a nested attribute": {
			path: cty.GetAttrPath("disks").GetAttr("network"),
			want: nil,
		},
		"past a primitive attribute": {
			path: cty.GetAttrPath("id").GetAttr("x"),
			want: nil,
		},
		"unknown attribute": {
			path: cty.GetAttrPath("nope"),
			want: nil,
		},
		"unknown attribute in a block": {
			path: cty.GetAttrPath("network").IndexInt(0).GetAttr("nope"),
			want: nil,
		},
		"empty path": {
			path: cty.Path{},
			want: nil,
		},
		"index only": {
			path: cty.IndexIntPath(0),
			want: nil,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := schema.AttributeByPath(tc.path); got != tc.want {
				t.Errorf("wrong attribute\ngot:  %#v\nwant: %#v", got, tc.want)
			}
		})
	}
}

func TestInvalidNestingModePanics(t *testing.T) {
	t.Parallel()
	tests := map[string]func(){
		"NestedBlock.ImpliedType": func() {
			(&NestedBlock{Nesting: nestingInvalid}).ImpliedType()
		},
		"NestedBlock.EmptyValue": func() {
			(&NestedBlock{Nesting: nestingInvalid}).EmptyValue()
		},
		"Object.ImpliedType": func() {
			(&Object{Nesting: nestingInvalid}).ImpliedType()
		},
		"Block.DecoderSpec": func() {
			(&Block{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingMode(42)}}}).DecoderSpec()
		},
	}
	for name, f := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			defer func() {
				if recover() == nil {
					t.Error("no panic for an invalid nesting mode")
				}
			}()
			f()
		})
	}
}

func TestBlockBodySchema(t *testing.T) {
	b := &Block{
		Attributes: map[string]*Attribute{
			"zeta":  {Type: cty.String, Optional: true},
			"alpha": {Type: cty.String, Required: true},
		},
		BlockTypes: map[string]*NestedBlock{
			"tags":    {Nesting: NestingMap},
			"ingress": {Nesting: NestingList},
		},
	}
	got := b.BodySchema()
	want := &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "alpha"}, {Name: "zeta"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "ingress"},
			{Type: "tags", LabelNames: []string{"key"}},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("BodySchema (-want +got):\n%s", diff)
	}
}
