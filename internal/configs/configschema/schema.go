package configschema

import (
	"github.com/zclconf/go-cty/cty"
)

// NestingMode says how many instances of a nested block or nested attribute
// object may appear and how they are collected into a value.
type NestingMode int

const (
	nestingInvalid NestingMode = iota
	// NestingSingle allows at most one instance; the value is an object or null.
	NestingSingle
	// NestingGroup is like NestingSingle but the value is never null: an
	// absent block produces an object of null (or empty) attributes.
	NestingGroup
	// NestingList collects instances into a list of objects.
	NestingList
	// NestingSet collects instances into a set of objects.
	NestingSet
	// NestingMap collects labelled instances into a map of objects.
	NestingMap
)

// String returns the protocol name of the nesting mode.
func (m NestingMode) String() string {
	switch m {
	case NestingSingle:
		return "single"
	case NestingGroup:
		return "group"
	case NestingList:
		return "list"
	case NestingSet:
		return "set"
	case NestingMap:
		return "map"
	default:
		return "invalid"
	}
}

// Block is the schema of a configuration block or of the object value it
// decodes to: its attributes and its nested block types.
type Block struct {
	Attributes map[string]*Attribute
	BlockTypes map[string]*NestedBlock

	Description string
	// DescriptionKind is "plain" (the default when empty) or "markdown".
	DescriptionKind string
	Deprecated      bool
}

// Attribute is the schema of one attribute. Exactly one of Type and
// NestedType is set.
type Attribute struct {
	// Type is the attribute's value type; cty.DynamicPseudoType accepts any.
	Type cty.Type
	// NestedType describes a structural attribute (protocol v6 nested_type).
	NestedType *Object

	Description string
	// DescriptionKind is "plain" (the default when empty) or "markdown".
	DescriptionKind string

	Required  bool
	Optional  bool
	Computed  bool
	Sensitive bool
	// WriteOnly attributes are sent to the provider but never stored.
	WriteOnly  bool
	Deprecated bool
}

// Object is the schema of the object(s) inside a nested attribute.
type Object struct {
	Attributes map[string]*Attribute
	Nesting    NestingMode
}

// NestedBlock is the schema of a nested block type.
type NestedBlock struct {
	Block
	Nesting NestingMode

	// MinItems and MaxItems bound the number of blocks for list and set
	// nesting; zero means unbounded.
	MinItems, MaxItems int
}

// ImpliedType returns the object type that values conforming to the block
// have.
func (b *Block) ImpliedType() cty.Type {
	if b == nil {
		return cty.EmptyObject
	}
	atys := make(map[string]cty.Type, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		atys[name] = a.ImpliedType()
	}
	for name, nb := range b.BlockTypes {
		atys[name] = nb.ImpliedType()
	}
	return cty.Object(atys)
}

// ImpliedType returns the type of the attribute's value.
func (a *Attribute) ImpliedType() cty.Type {
	if a.NestedType != nil {
		return a.NestedType.ImpliedType()
	}
	return a.Type
}

// ImpliedType returns the type of a nested attribute's value, taking the
// nesting mode into account.
func (o *Object) ImpliedType() cty.Type {
	atys := make(map[string]cty.Type, len(o.Attributes))
	for name, a := range o.Attributes {
		atys[name] = a.ImpliedType()
	}
	ety := cty.Object(atys)
	return nestType(o.Nesting, ety)
}

// ImpliedType returns the type of a nested block's value.
func (b *NestedBlock) ImpliedType() cty.Type {
	ety := b.Block.ImpliedType()
	if b.Nesting == NestingList && ety.HasDynamicTypes() {
		// A list of objects containing dynamic attributes must be a tuple,
		// because each element may have a different concrete type.
		return cty.DynamicPseudoType
	}
	if b.Nesting == NestingMap && ety.HasDynamicTypes() {
		return cty.DynamicPseudoType
	}
	return nestType(b.Nesting, ety)
}

func nestType(mode NestingMode, ety cty.Type) cty.Type {
	switch mode {
	case NestingSingle, NestingGroup:
		return ety
	case NestingList:
		return cty.List(ety)
	case NestingSet:
		return cty.Set(ety)
	case NestingMap:
		return cty.Map(ety)
	default:
		panic("configschema: invalid nesting mode " + mode.String())
	}
}

// AttributeByPath returns the attribute schema at the given path of
// attribute names, descending through nested blocks and nested attribute
// objects, or nil if there is none. Index steps are skipped.
func (b *Block) AttributeByPath(path cty.Path) *Attribute {
	var attrs map[string]*Attribute = b.Attributes
	blocks := b.BlockTypes
	for i, step := range path {
		gas, ok := step.(cty.GetAttrStep)
		if !ok {
			continue
		}
		if a, ok := attrs[gas.Name]; ok {
			if i == len(path)-1 || a.NestedType == nil {
				if i == len(path)-1 {
					return a
				}
				return nil
			}
			attrs, blocks = a.NestedType.Attributes, nil
			continue
		}
		if nb, ok := blocks[gas.Name]; ok {
			attrs, blocks = nb.Attributes, nb.BlockTypes
			continue
		}
		return nil
	}
	return nil
}
