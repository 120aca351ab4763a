package configschema

import (
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// DecoderSpec returns the hcldec specification that decodes a configuration
// body into a value of b.ImpliedType(). Computed-only attributes are not
// settable in configuration and decode as null.
func (b *Block) DecoderSpec() hcldec.Spec {
	ret := hcldec.ObjectSpec{}
	if b == nil {
		return ret
	}
	for name, a := range b.Attributes {
		ret[name] = a.decoderSpec(name)
	}
	for name, nb := range b.BlockTypes {
		ret[name] = nb.decoderSpec(name)
	}
	return ret
}

func (a *Attribute) decoderSpec(name string) hcldec.Spec {
	if a.Computed && !a.Optional && !a.Required {
		// Not settable: always null in configuration.
		return &hcldec.LiteralSpec{Value: cty.NullVal(a.ImpliedType())}
	}
	return &hcldec.AttrSpec{Name: name, Type: a.configType(), Required: a.Required}
}

// configType is the type an attribute accepts in configuration: nested
// attribute objects accept their attributes as optional object attributes so
// that unset ones become null.
func (a *Attribute) configType() cty.Type {
	if a.NestedType == nil {
		return a.Type
	}
	o := a.NestedType
	atys := make(map[string]cty.Type, len(o.Attributes))
	var optional []string
	for name, na := range o.Attributes {
		atys[name] = na.configType()
		if !na.Required {
			optional = append(optional, name)
		}
	}
	ety := cty.ObjectWithOptionalAttrs(atys, optional)
	return nestType(o.Nesting, ety)
}

func (nb *NestedBlock) decoderSpec(name string) hcldec.Spec {
	inner := nb.Block.DecoderSpec()
	switch nb.Nesting {
	case NestingSingle:
		return &hcldec.BlockSpec{TypeName: name, Nested: inner, Required: nb.MinItems == 1}
	case NestingGroup:
		return &hcldec.DefaultSpec{
			Primary: &hcldec.BlockSpec{TypeName: name, Nested: inner},
			Default: &hcldec.LiteralSpec{Value: nb.Block.EmptyValue()},
		}
	case NestingList:
		if nb.Block.ImpliedType().HasDynamicTypes() {
			return &hcldec.BlockTupleSpec{TypeName: name, Nested: inner, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
		}
		return &hcldec.BlockListSpec{TypeName: name, Nested: inner, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
	case NestingSet:
		return &hcldec.BlockSetSpec{TypeName: name, Nested: inner, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
	case NestingMap:
		if nb.Block.ImpliedType().HasDynamicTypes() {
			return &hcldec.BlockObjectSpec{TypeName: name, Nested: inner, LabelNames: []string{"key"}}
		}
		return &hcldec.BlockMapSpec{TypeName: name, Nested: inner, LabelNames: []string{"key"}}
	default:
		panic("configschema: invalid nesting mode " + nb.Nesting.String())
	}
}

// EmptyValue returns the value a block decodes to when its body is empty:
// null attributes, empty collections for list, set and map nested blocks,
// null for single nested blocks.
func (b *Block) EmptyValue() cty.Value {
	vals := make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		vals[name] = cty.NullVal(a.ImpliedType())
	}
	for name, nb := range b.BlockTypes {
		vals[name] = nb.EmptyValue()
	}
	return cty.ObjectVal(vals)
}

// EmptyValue returns the value of a nested block type with no blocks.
func (nb *NestedBlock) EmptyValue() cty.Value {
	ty := nb.ImpliedType()
	switch nb.Nesting {
	case NestingSingle:
		return cty.NullVal(ty)
	case NestingGroup:
		return nb.Block.EmptyValue()
	case NestingList:
		if ty == cty.DynamicPseudoType {
			return cty.EmptyTupleVal
		}
		return cty.ListValEmpty(ty.ElementType())
	case NestingSet:
		return cty.SetValEmpty(ty.ElementType())
	case NestingMap:
		if ty == cty.DynamicPseudoType {
			return cty.EmptyObjectVal
		}
		return cty.MapValEmpty(ty.ElementType())
	default:
		panic("configschema: invalid nesting mode " + nb.Nesting.String())
	}
}
