package convert

import (
	"fmt"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin5"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin6"
)

// protoAttribute is what the attribute messages of both protocol versions
// have in common.
type protoAttribute interface {
	GetName() string
	GetType() []byte
	GetDescription() string
	GetRequired() bool
	GetOptional() bool
	GetComputed() bool
	GetSensitive() bool
	GetDeprecated() bool
	GetWriteOnly() bool
}

// attributeFromProto converts the parts of an attribute both protocol
// versions share. The type is left as cty.NilType when the message has
// none (a v6 nested attribute).
func attributeFromProto(a protoAttribute) (*configschema.Attribute, error) {
	attr := &configschema.Attribute{
		Description: a.GetDescription(),
		Required:    a.GetRequired(),
		Optional:    a.GetOptional(),
		Computed:    a.GetComputed(),
		Sensitive:   a.GetSensitive(),
		Deprecated:  a.GetDeprecated(),
		WriteOnly:   a.GetWriteOnly(),
	}
	if raw := a.GetType(); len(raw) > 0 {
		ty, err := ctyjson.UnmarshalType(raw)
		if err != nil {
			return nil, fmt.Errorf("attribute %q has an invalid type %s: %w", a.GetName(), raw, err)
		}
		attr.Type = ty
	}
	return attr, nil
}

// sortedKeys returns a map's keys in order, so that the messages built from
// a schema are deterministic.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ProviderSchema5 converts a protocol 5 schema (with its version). A nil
// schema is an empty block.
func ProviderSchema5(s *tfplugin5.Schema) (providers.Schema, error) {
	b, err := Block5(s.GetBlock())
	return providers.Schema{Version: s.GetVersion(), Block: b}, err
}

// ProviderSchema6 converts a protocol 6 schema (with its version). A nil
// schema is an empty block.
func ProviderSchema6(s *tfplugin6.Schema) (providers.Schema, error) {
	b, err := Block6(s.GetBlock())
	return providers.Schema{Version: s.GetVersion(), Block: b}, err
}

// Block5 converts a protocol 5 block schema. A nil block is an empty one.
func Block5(b *tfplugin5.Schema_Block) (*configschema.Block, error) {
	block := &configschema.Block{
		Attributes:      map[string]*configschema.Attribute{},
		BlockTypes:      map[string]*configschema.NestedBlock{},
		Description:     b.GetDescription(),
		DescriptionKind: descriptionKind(b.GetDescriptionKind().String()),
		Deprecated:      b.GetDeprecated(),
	}
	for _, a := range b.GetAttributes() {
		attr, err := attributeFromProto(a)
		if err != nil {
			return nil, err
		}
		attr.DescriptionKind = descriptionKind(a.GetDescriptionKind().String())
		if attr.Type == cty.NilType {
			return nil, fmt.Errorf("attribute %q has no type", a.GetName())
		}
		block.Attributes[a.GetName()] = attr
	}
	for _, nb := range b.GetBlockTypes() {
		nested, err := Block5(nb.GetBlock())
		if err != nil {
			return nil, fmt.Errorf("block %q: %w", nb.GetTypeName(), err)
		}
		mode, err := blockNesting(int32(nb.GetNesting()))
		if err != nil {
			return nil, fmt.Errorf("block %q: %w", nb.GetTypeName(), err)
		}
		block.BlockTypes[nb.GetTypeName()] = &configschema.NestedBlock{
			Block: *nested, Nesting: mode,
			MinItems: int(nb.GetMinItems()), MaxItems: int(nb.GetMaxItems()),
		}
	}
	return block, nil
}

// Block6 converts a protocol 6 block schema, nested attributes included. A
// nil block is an empty one.
func Block6(b *tfplugin6.Schema_Block) (*configschema.Block, error) {
	block := &configschema.Block{
		Attributes:      map[string]*configschema.Attribute{},
		BlockTypes:      map[string]*configschema.NestedBlock{},
		Description:     b.GetDescription(),
		DescriptionKind: descriptionKind(b.GetDescriptionKind().String()),
		Deprecated:      b.GetDeprecated(),
	}
	for _, a := range b.GetAttributes() {
		attr, err := attribute6(a)
		if err != nil {
			return nil, err
		}
		block.Attributes[a.GetName()] = attr
	}
	for _, nb := range b.GetBlockTypes() {
		nested, err := Block6(nb.GetBlock())
		if err != nil {
			return nil, fmt.Errorf("block %q: %w", nb.GetTypeName(), err)
		}
		mode, err := blockNesting(int32(nb.GetNesting()))
		if err != nil {
			return nil, fmt.Errorf("block %q: %w", nb.GetTypeName(), err)
		}
		block.BlockTypes[nb.GetTypeName()] = &configschema.NestedBlock{
			Block: *nested, Nesting: mode,
			MinItems: int(nb.GetMinItems()), MaxItems: int(nb.GetMaxItems()),
		}
	}
	return block, nil
}

func attribute6(a *tfplugin6.Schema_Attribute) (*configschema.Attribute, error) {
	attr, err := attributeFromProto(a)
	if err != nil {
		return nil, err
	}
	attr.DescriptionKind = descriptionKind(a.GetDescriptionKind().String())
	if obj := a.GetNestedType(); obj != nil {
		if attr.Type != cty.NilType {
			return nil, fmt.Errorf("attribute %q has both a type and a nested type", a.GetName())
		}
		nested := &configschema.Object{Attributes: map[string]*configschema.Attribute{}}
		switch obj.GetNesting() {
		case tfplugin6.Schema_Object_SINGLE:
			nested.Nesting = configschema.NestingSingle
		case tfplugin6.Schema_Object_LIST:
			nested.Nesting = configschema.NestingList
		case tfplugin6.Schema_Object_SET:
			nested.Nesting = configschema.NestingSet
		case tfplugin6.Schema_Object_MAP:
			nested.Nesting = configschema.NestingMap
		default:
			return nil, fmt.Errorf("attribute %q has an invalid nesting mode %d", a.GetName(), obj.GetNesting())
		}
		for _, na := range obj.GetAttributes() {
			nattr, err := attribute6(na)
			if err != nil {
				return nil, fmt.Errorf("attribute %q: %w", a.GetName(), err)
			}
			nested.Attributes[na.GetName()] = nattr
		}
		attr.NestedType = nested
		return attr, nil
	}
	if attr.Type == cty.NilType {
		return nil, fmt.Errorf("attribute %q has no type", a.GetName())
	}
	return attr, nil
}

// blockNesting maps a NestedBlock nesting mode, whose numbers are the same
// in both protocol versions, to configschema's.
func blockNesting(n int32) (configschema.NestingMode, error) {
	switch tfplugin6.Schema_NestedBlock_NestingMode(n) {
	case tfplugin6.Schema_NestedBlock_SINGLE:
		return configschema.NestingSingle, nil
	case tfplugin6.Schema_NestedBlock_GROUP:
		return configschema.NestingGroup, nil
	case tfplugin6.Schema_NestedBlock_LIST:
		return configschema.NestingList, nil
	case tfplugin6.Schema_NestedBlock_SET:
		return configschema.NestingSet, nil
	case tfplugin6.Schema_NestedBlock_MAP:
		return configschema.NestingMap, nil
	default:
		return 0, fmt.Errorf("invalid nesting mode %d", n)
	}
}

// descriptionKind turns the protocol's StringKind name (PLAIN, MARKDOWN)
// into the schema's ("plain", "markdown"); plain is the empty default.
func descriptionKind(protoName string) string {
	if protoName == "MARKDOWN" {
		return "markdown"
	}
	return ""
}
