package lang

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
)

// flatSchema has attributes alone, of the kinds a resource schema has: the
// schemas PrepareBlock evaluates without the decoder.
var flatSchema = &configschema.Block{
	Attributes: map[string]*configschema.Attribute{
		"name":  {Type: cty.String, Required: true},
		"size":  {Type: cty.Number, Optional: true},
		"tags":  {Type: cty.Map(cty.String), Optional: true},
		"input": {Type: cty.DynamicPseudoType, Optional: true},
		"id":    {Type: cty.String, Computed: true},
		"nested": {NestedType: &configschema.Object{
			Nesting: configschema.NestingSingle,
			Attributes: map[string]*configschema.Attribute{
				"a": {Type: cty.String, Optional: true},
				"b": {Type: cty.Number, Required: true},
			},
		}, Optional: true},
	},
}

// TestEvalPreparedBlock checks that a prepared block evaluates to what
// EvalBlock gives, with the same diagnostics, each time it is evaluated,
// and whether it took the fast path.
func TestEvalPreparedBlock(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		schema *configschema.Block
		src    string
		json   bool
		key    *InstanceKeyData
		flat   bool // evaluated without the decoder
	}{
		"required only":          {schema: flatSchema, src: `name = "a"`, flat: true},
		"every attribute":        {schema: flatSchema, src: "name = var.name\nsize = var.numstr\ntags = var.tags\ninput = var.obj\nnested = { b = 1 }", flat: true},
		"references and keys":    {schema: flatSchema, src: `name = "${terraform_data.single.output}-${count.index}"`, key: &InstanceKeyData{CountIndex: cty.NumberIntVal(2)}, flat: true},
		"unknown and sensitive":  {schema: flatSchema, src: "name = var.unknown\ntags = { a = var.secret }", flat: true},
		"conversion error":       {schema: flatSchema, src: "name = var.name\nsize = var.word", flat: true},
		"undeclared reference":   {schema: flatSchema, src: `name = var.nope`, flat: true},
		"invalid attribute":      {schema: flatSchema, src: `name = terraform_data.single.nope`, flat: true},
		"missing required":       {schema: flatSchema, src: `size = 1`},
		"unsupported argument":   {schema: flatSchema, src: "name = \"a\"\nnope = 1"},
		"computed set":           {schema: flatSchema, src: "name = \"a\"\nid = \"x\""},
		"unexpected block":       {schema: flatSchema, src: "name = \"a\"\nblk {}\n"},
		"nested attribute error": {schema: flatSchema, src: "name = \"a\"\nnested = { a = \"x\" }", flat: true},
		"schema with blocks":     {schema: testSchema, src: "name = var.name\nsetting {\n  name = \"a\"\n}\n"},
		"dynamic block":          {schema: testSchema, src: "dynamic \"zone\" {\n  for_each = var.zones\n  content {\n    name = zone.value\n  }\n}\n"},
		"json body":              {schema: flatSchema, src: `{"name": "${var.name}"}`, json: true},
		"function call":          {schema: flatSchema, src: `name = upper(var.word)`, flat: true},
		"unknown function":       {schema: flatSchema, src: `name = nope(var.word)`, flat: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			parse := parseBody
			if tc.json {
				parse = parseJSONBody
			}
			body := parse(t, tc.src)
			scope := &Scope{Data: newFakeData()}
			if tc.key != nil {
				scope = scope.WithKey(*tc.key)
			}
			want, wantDiags := scope.EvalBlock(body, tc.schema)
			p := PrepareBlock(body, tc.schema, tc.schema.DecoderSpec())
			if got := p.flat; got != tc.flat {
				t.Errorf("prepared without the decoder: %t, want %t", got, tc.flat)
			}
			for i := 0; i < 2; i++ {
				got, diags := scope.EvalPreparedBlock(p)
				if diff := cmp.Diff(summarizeDiags(wantDiags), summarizeDiags(diags)); diff != "" {
					t.Errorf("evaluation %d: wrong diagnostics (-want +got)\n%s", i, diff)
				}
				if diff := cmp.Diff(want, got, ctyOpts); diff != "" {
					t.Errorf("evaluation %d: wrong result (-want +got)\n%s", i, diff)
				}
			}
		})
	}
}
