package configschema

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

func TestStaticValidateTraversal(t *testing.T) {
	b := &Block{
		Attributes: map[string]*Attribute{
			"name": {Type: cty.String, Optional: true},
			"tags": {Type: cty.Map(cty.String), Optional: true},
			"any":  {Type: cty.DynamicPseudoType, Optional: true},
			"nested": {NestedType: &Object{Nesting: NestingSingle, Attributes: map[string]*Attribute{
				"inner": {Type: cty.String, Optional: true},
			}}},
		},
		BlockTypes: map[string]*NestedBlock{
			"single": {Nesting: NestingSingle, Block: Block{Attributes: map[string]*Attribute{"x": {Type: cty.String, Optional: true}}}},
			"list":   {Nesting: NestingList, Block: Block{Attributes: map[string]*Attribute{"y": {Type: cty.String, Optional: true}}}},
			"set":    {Nesting: NestingSet, Block: Block{Attributes: map[string]*Attribute{"z": {Type: cty.String, Optional: true}}}},
		},
	}
	tests := map[string]struct {
		expr    string
		summary string // "" when valid
		detail  string
	}{
		"attribute":               {expr: "name"},
		"map key":                 {expr: `tags["k"]`},
		"map key as attribute":    {expr: "tags.k"},
		"anything in dynamic":     {expr: "any.a[0].b"},
		"nested attribute":        {expr: "nested.inner"},
		"single block attribute":  {expr: "single.x"},
		"list block element":      {expr: "list[0].y"},
		"whole list block":        {expr: "list"},
		"unknown name":            {expr: "nmae", summary: "Unsupported attribute", detail: `This object has no argument, nested block, or exported attribute named "nmae". Did you mean "name"?`},
		"unknown name, far":       {expr: "zzzzzz", summary: "Unsupported attribute", detail: `This object has no argument, nested block, or exported attribute named "zzzzzz".`},
		"attribute of a string":   {expr: "name.x", summary: "Unsupported attribute"},
		"unknown in single block": {expr: "single.q", summary: "Unsupported attribute"},
		"unknown nested attr":     {expr: "nested.q", summary: "Unsupported attribute"},
		"list block unindexed":    {expr: "list.y", summary: "Invalid operation"},
		"set block indexed":       {expr: "set[0]", summary: "Invalid operation"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			trav, diags := hclsyntax.ParseTraversalAbs([]byte(tc.expr), "t.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			got := b.StaticValidateTraversal(trav)
			if tc.summary == "" {
				if got.HasErrors() {
					t.Errorf("unexpected errors: %s", got)
				}
				return
			}
			if len(got) != 1 || got[0].Summary != tc.summary || (tc.detail != "" && got[0].Detail != tc.detail) {
				t.Errorf("got %v, want %q %q", got, tc.summary, tc.detail)
			}
		})
	}
}
