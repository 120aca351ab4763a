package convert

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin5"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin6"
)

var ctyCmp = cmp.Options{
	cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) }),
	cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
}

// blocksOnly has every nesting mode of nested blocks and every attribute
// flag, which both protocol versions can carry.
func blocksOnly() *configschema.Block {
	inner := configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"k": {Type: cty.String, Required: true},
			"v": {Type: cty.Map(cty.Number), Optional: true, Description: "values"},
		},
		BlockTypes: map[string]*configschema.NestedBlock{},
	}
	return &configschema.Block{
		Description: "a resource",
		Deprecated:  true,
		Attributes: map[string]*configschema.Attribute{
			"id":      {Type: cty.String, Computed: true},
			"name":    {Type: cty.String, Required: true, Description: "the name"},
			"size":    {Type: cty.Number, Optional: true, Computed: true},
			"secret":  {Type: cty.String, Optional: true, Sensitive: true},
			"old":     {Type: cty.Bool, Optional: true, Deprecated: true},
			"pw":      {Type: cty.String, Optional: true, WriteOnly: true},
			"dyn":     {Type: cty.DynamicPseudoType, Optional: true},
			"objects": {Type: cty.List(cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Set(cty.Bool)})), Optional: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"single": {Nesting: configschema.NestingSingle, Block: inner},
			"group":  {Nesting: configschema.NestingGroup, Block: inner},
			"list":   {Nesting: configschema.NestingList, Block: inner, MinItems: 1, MaxItems: 3},
			"set":    {Nesting: configschema.NestingSet, Block: inner, MaxItems: 2},
			"map":    {Nesting: configschema.NestingMap, Block: inner},
			"deep": {Nesting: configschema.NestingList, Block: configschema.Block{
				Attributes: map[string]*configschema.Attribute{},
				BlockTypes: map[string]*configschema.NestedBlock{"leaf": {Nesting: configschema.NestingSet, Block: inner}},
			}},
		},
	}
}

// withNestedAttributes adds protocol 6 nested attributes of every mode.
func withNestedAttributes() *configschema.Block {
	b := blocksOnly()
	obj := func(mode configschema.NestingMode) *configschema.Object {
		return &configschema.Object{Nesting: mode, Attributes: map[string]*configschema.Attribute{
			"port":  {Type: cty.Number, Required: true},
			"proto": {Type: cty.String, Optional: true, Computed: true},
			"token": {Type: cty.String, Optional: true, Sensitive: true, WriteOnly: true},
		}}
	}
	b.Attributes["n_single"] = &configschema.Attribute{NestedType: obj(configschema.NestingSingle), Optional: true}
	b.Attributes["n_list"] = &configschema.Attribute{NestedType: obj(configschema.NestingList), Optional: true, Deprecated: true}
	b.Attributes["n_set"] = &configschema.Attribute{NestedType: obj(configschema.NestingSet), Computed: true}
	b.Attributes["n_map"] = &configschema.Attribute{NestedType: obj(configschema.NestingMap), Required: true, Sensitive: true}
	b.Attributes["n_deep"] = &configschema.Attribute{Optional: true, NestedType: &configschema.Object{
		Nesting: configschema.NestingList,
		Attributes: map[string]*configschema.Attribute{
			"inner": {NestedType: obj(configschema.NestingMap), Optional: true},
		},
	}}
	return b
}

func TestBlockRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		block *configschema.Block
		v5    bool // protocol 5 can carry it
	}{
		{"empty", &configschema.Block{Attributes: map[string]*configschema.Attribute{}, BlockTypes: map[string]*configschema.NestedBlock{}}, true},
		{"blocks of every nesting mode", blocksOnly(), true},
		{"nested attributes", withNestedAttributes(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/v6", func(t *testing.T) {
			pb, err := BlockToProto6(tt.block)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Block6(pb)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.block, got, ctyCmp); diff != "" {
				t.Errorf("round trip changed the schema (-want +got):\n%s", diff)
			}
			if !got.ImpliedType().Equals(tt.block.ImpliedType()) {
				t.Errorf("implied type %#v, want %#v", got.ImpliedType(), tt.block.ImpliedType())
			}
		})
		t.Run(tt.name+"/v5", func(t *testing.T) {
			pb, err := BlockToProto5(tt.block)
			if !tt.v5 {
				if err == nil || !strings.Contains(err.Error(), "protocol version 6") {
					t.Fatalf("got error %v, want one saying nested attributes need protocol 6", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := Block5(pb)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.block, got, ctyCmp); diff != "" {
				t.Errorf("round trip changed the schema (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBlockFromProto(t *testing.T) {
	str := []byte(`"string"`)
	tests := []struct {
		name    string
		in      *tfplugin6.Schema_Block
		want    *configschema.Block
		wantErr string
	}{
		{
			name: "nil block is empty",
			in:   nil,
			want: &configschema.Block{Attributes: map[string]*configschema.Attribute{}, BlockTypes: map[string]*configschema.NestedBlock{}},
		},
		{
			name: "attribute flags",
			in: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{
				{Name: "a", Type: []byte(`["list","number"]`), Optional: true, Computed: true, Sensitive: true, Deprecated: true, Description: "d"},
				{Name: "w", Type: str, Required: true, WriteOnly: true},
			}},
			want: &configschema.Block{
				Attributes: map[string]*configschema.Attribute{
					"a": {Type: cty.List(cty.Number), Optional: true, Computed: true, Sensitive: true, Deprecated: true, Description: "d"},
					"w": {Type: cty.String, Required: true, WriteOnly: true},
				},
				BlockTypes: map[string]*configschema.NestedBlock{},
			},
		},
		{
			name: "group block with bounds",
			in: &tfplugin6.Schema_Block{BlockTypes: []*tfplugin6.Schema_NestedBlock{
				{TypeName: "g", Nesting: tfplugin6.Schema_NestedBlock_GROUP, MinItems: 1, MaxItems: 1},
			}},
			want: &configschema.Block{
				Attributes: map[string]*configschema.Attribute{},
				BlockTypes: map[string]*configschema.NestedBlock{"g": {
					Nesting: configschema.NestingGroup, MinItems: 1, MaxItems: 1,
					Block: configschema.Block{Attributes: map[string]*configschema.Attribute{}, BlockTypes: map[string]*configschema.NestedBlock{}},
				}},
			},
		},
		{
			name:    "invalid type JSON",
			in:      &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{{Name: "a", Type: []byte(`"strin`)}}},
			wantErr: `attribute "a" has an invalid type`,
		},
		{
			name:    "no type at all",
			in:      &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{{Name: "a", Optional: true}}},
			wantErr: `attribute "a" has no type`,
		},
		{
			name: "type and nested type",
			in: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{{
				Name: "a", Type: str, NestedType: &tfplugin6.Schema_Object{Nesting: tfplugin6.Schema_Object_SINGLE},
			}}},
			wantErr: "both a type and a nested type",
		},
		{
			name: "invalid nested attribute nesting",
			in: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{{
				Name: "a", NestedType: &tfplugin6.Schema_Object{},
			}}},
			wantErr: "invalid nesting mode",
		},
		{
			name:    "invalid block nesting",
			in:      &tfplugin6.Schema_Block{BlockTypes: []*tfplugin6.Schema_NestedBlock{{TypeName: "b"}}},
			wantErr: `block "b": invalid nesting mode 0`,
		},
		{
			name: "error deep inside names the path",
			in: &tfplugin6.Schema_Block{BlockTypes: []*tfplugin6.Schema_NestedBlock{{
				TypeName: "outer", Nesting: tfplugin6.Schema_NestedBlock_LIST,
				Block: &tfplugin6.Schema_Block{Attributes: []*tfplugin6.Schema_Attribute{{Name: "x", Type: []byte(`42`)}}},
			}}},
			wantErr: `block "outer": attribute "x" has an invalid type`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Block6(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, ctyCmp); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestProviderSchemaVersion(t *testing.T) {
	s5, err := ProviderSchema5(&tfplugin5.Schema{Version: 3, Block: &tfplugin5.Schema_Block{
		Attributes: []*tfplugin5.Schema_Attribute{{Name: "id", Type: []byte(`"string"`), Computed: true}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if s5.Version != 3 || s5.Block.Attributes["id"] == nil {
		t.Errorf("v5 schema = %+v", s5)
	}
	s6, err := ProviderSchema6(nil)
	if err != nil {
		t.Fatal(err)
	}
	if s6.Version != 0 || s6.Block == nil || !s6.Block.ImpliedType().Equals(cty.EmptyObject) {
		t.Errorf("nil v6 schema = %+v, want an empty block", s6)
	}
}
