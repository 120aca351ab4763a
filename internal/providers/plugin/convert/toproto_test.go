package convert

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin5"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin6"
)

// The schema conversions the other way, to the protocol's messages: the
// plugin client never sends a schema, so only the round-trip tests of
// Block5 and Block6 need them.

func typeToProto(name string, ty cty.Type) ([]byte, error) {
	if ty == cty.NilType {
		return nil, nil
	}
	raw, err := ctyjson.MarshalType(ty)
	if err != nil {
		return nil, fmt.Errorf("attribute %q: %w", name, err)
	}
	return raw, nil
}

func blockNestingToProto(m configschema.NestingMode) (tfplugin6.Schema_NestedBlock_NestingMode, error) {
	switch m {
	case configschema.NestingSingle:
		return tfplugin6.Schema_NestedBlock_SINGLE, nil
	case configschema.NestingGroup:
		return tfplugin6.Schema_NestedBlock_GROUP, nil
	case configschema.NestingList:
		return tfplugin6.Schema_NestedBlock_LIST, nil
	case configschema.NestingSet:
		return tfplugin6.Schema_NestedBlock_SET, nil
	case configschema.NestingMap:
		return tfplugin6.Schema_NestedBlock_MAP, nil
	default:
		return tfplugin6.Schema_NestedBlock_INVALID, fmt.Errorf("invalid nesting mode %s", m)
	}
}

// BlockToProto5 converts a block schema to protocol 5. Protocol 5 has no
// nested attributes, so a schema with any is an error.
func BlockToProto5(b *configschema.Block) (*tfplugin5.Schema_Block, error) {
	out := &tfplugin5.Schema_Block{}
	if b == nil {
		return out, nil
	}
	out.Description = b.Description
	out.Deprecated = b.Deprecated
	for _, name := range sortedKeys(b.Attributes) {
		a := b.Attributes[name]
		if a.NestedType != nil {
			return nil, fmt.Errorf("attribute %q: nested attributes need protocol version 6", name)
		}
		raw, err := typeToProto(name, a.Type)
		if err != nil {
			return nil, err
		}
		out.Attributes = append(out.Attributes, &tfplugin5.Schema_Attribute{
			Name: name, Type: raw, Description: a.Description,
			Required: a.Required, Optional: a.Optional, Computed: a.Computed,
			Sensitive: a.Sensitive, Deprecated: a.Deprecated, WriteOnly: a.WriteOnly,
		})
	}
	for _, name := range sortedKeys(b.BlockTypes) {
		nb := b.BlockTypes[name]
		inner, err := BlockToProto5(&nb.Block)
		if err != nil {
			return nil, fmt.Errorf("block %q: %w", name, err)
		}
		mode, err := blockNestingToProto(nb.Nesting)
		if err != nil {
			return nil, fmt.Errorf("block %q: %w", name, err)
		}
		out.BlockTypes = append(out.BlockTypes, &tfplugin5.Schema_NestedBlock{
			TypeName: name, Block: inner, Nesting: tfplugin5.Schema_NestedBlock_NestingMode(mode),
			MinItems: int64(nb.MinItems), MaxItems: int64(nb.MaxItems),
		})
	}
	return out, nil
}

// BlockToProto6 converts a block schema to protocol 6.
func BlockToProto6(b *configschema.Block) (*tfplugin6.Schema_Block, error) {
	out := &tfplugin6.Schema_Block{}
	if b == nil {
		return out, nil
	}
	out.Description = b.Description
	out.Deprecated = b.Deprecated
	attrs, err := attributesToProto6(b.Attributes)
	if err != nil {
		return nil, err
	}
	out.Attributes = attrs
	for _, name := range sortedKeys(b.BlockTypes) {
		nb := b.BlockTypes[name]
		inner, err := BlockToProto6(&nb.Block)
		if err != nil {
			return nil, fmt.Errorf("block %q: %w", name, err)
		}
		mode, err := blockNestingToProto(nb.Nesting)
		if err != nil {
			return nil, fmt.Errorf("block %q: %w", name, err)
		}
		out.BlockTypes = append(out.BlockTypes, &tfplugin6.Schema_NestedBlock{
			TypeName: name, Block: inner, Nesting: mode,
			MinItems: int64(nb.MinItems), MaxItems: int64(nb.MaxItems),
		})
	}
	return out, nil
}

func attributesToProto6(attrs map[string]*configschema.Attribute) ([]*tfplugin6.Schema_Attribute, error) {
	var out []*tfplugin6.Schema_Attribute
	for _, name := range sortedKeys(attrs) {
		a := attrs[name]
		pa := &tfplugin6.Schema_Attribute{
			Name: name, Description: a.Description,
			Required: a.Required, Optional: a.Optional, Computed: a.Computed,
			Sensitive: a.Sensitive, Deprecated: a.Deprecated, WriteOnly: a.WriteOnly,
		}
		if a.NestedType != nil {
			nested, err := attributesToProto6(a.NestedType.Attributes)
			if err != nil {
				return nil, fmt.Errorf("attribute %q: %w", name, err)
			}
			obj := &tfplugin6.Schema_Object{Attributes: nested}
			switch a.NestedType.Nesting {
			case configschema.NestingSingle:
				obj.Nesting = tfplugin6.Schema_Object_SINGLE
			case configschema.NestingList:
				obj.Nesting = tfplugin6.Schema_Object_LIST
			case configschema.NestingSet:
				obj.Nesting = tfplugin6.Schema_Object_SET
			case configschema.NestingMap:
				obj.Nesting = tfplugin6.Schema_Object_MAP
			default:
				return nil, fmt.Errorf("attribute %q: invalid nesting mode %s for a nested attribute", name, a.NestedType.Nesting)
			}
			pa.NestedType = obj
		} else {
			raw, err := typeToProto(name, a.Type)
			if err != nil {
				return nil, err
			}
			pa.Type = raw
		}
		out = append(out, pa)
	}
	return out, nil
}
