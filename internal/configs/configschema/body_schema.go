package configschema

import (
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// BodySchema returns the HCL body schema of b: every attribute and nested
// block type by name, in name order, with none required. It is for finding
// an argument's or a nested block's expressions in a body that has already
// been validated against b, not for validating it.
func (b *Block) BodySchema() *hcl.BodySchema {
	s := &hcl.BodySchema{}
	for _, name := range sortedNames(b.Attributes) {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: name})
	}
	for _, name := range sortedNames(b.BlockTypes) {
		bs := hcl.BlockHeaderSchema{Type: name}
		if b.BlockTypes[name].Nesting == NestingMap {
			bs.LabelNames = []string{"key"}
		}
		s.Blocks = append(s.Blocks, bs)
	}
	return s
}

func sortedNames[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
