package jsonprovider

import (
	"encoding/json"

	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/jsonfunction"
)

// FormatVersion is the document's format_version.
const FormatVersion = "1.0"

// Document is the whole output; ProviderSchemas is left out when there
// are no providers, as Terraform leaves it out.
type Document struct {
	FormatVersion   string               `json:"format_version"`
	ProviderSchemas map[string]*Provider `json:"provider_schemas,omitempty"`
}

// Provider is one provider's schemas.
type Provider struct {
	Provider                 *Schema                            `json:"provider,omitempty"`
	ResourceSchemas          map[string]*Schema                 `json:"resource_schemas,omitempty"`
	DataSourceSchemas        map[string]*Schema                 `json:"data_source_schemas,omitempty"`
	EphemeralResourceSchemas map[string]*Schema                 `json:"ephemeral_resource_schemas,omitempty"`
	Functions                map[string]*jsonfunction.Signature `json:"functions,omitempty"`
	// ResourceIdentitySchemas are the identity schemas (Terraform 1.12)
	// of the resource types that have one; left out when none has.
	ResourceIdentitySchemas map[string]*IdentitySchema `json:"resource_identity_schemas,omitempty"`
}

// IdentitySchema is a resource type's identity schema.
type IdentitySchema struct {
	Version    int64                         `json:"version"`
	Attributes map[string]*IdentityAttribute `json:"attributes,omitempty"`
}

// IdentityAttribute is one attribute of an identity schema.
type IdentityAttribute struct {
	IdentityType      json.RawMessage `json:"type,omitempty"`
	Description       string          `json:"description,omitempty"`
	RequiredForImport bool            `json:"required_for_import,omitempty"`
	OptionalForImport bool            `json:"optional_for_import,omitempty"`
}

// Schema is a versioned block schema.
type Schema struct {
	Version int64  `json:"version"`
	Block   *Block `json:"block,omitempty"`
}

// Block is a block's schema.
type Block struct {
	Attributes      map[string]*Attribute `json:"attributes,omitempty"`
	BlockTypes      map[string]*BlockType `json:"block_types,omitempty"`
	Description     string                `json:"description,omitempty"`
	DescriptionKind string                `json:"description_kind,omitempty"`
	Deprecated      bool                  `json:"deprecated,omitempty"`
}

// Attribute is an attribute's schema.
type Attribute struct {
	AttributeType       json.RawMessage `json:"type,omitempty"`
	AttributeNestedType *NestedType     `json:"nested_type,omitempty"`
	Description         string          `json:"description,omitempty"`
	DescriptionKind     string          `json:"description_kind,omitempty"`
	Deprecated          bool            `json:"deprecated,omitempty"`
	Required            bool            `json:"required,omitempty"`
	Optional            bool            `json:"optional,omitempty"`
	Computed            bool            `json:"computed,omitempty"`
	Sensitive           bool            `json:"sensitive,omitempty"`
	WriteOnly           bool            `json:"write_only,omitempty"`
}

// NestedType is the object type of a nested attribute.
type NestedType struct {
	Attributes  map[string]*Attribute `json:"attributes,omitempty"`
	NestingMode string                `json:"nesting_mode,omitempty"`
	MinItems    uint64                `json:"min_items,omitempty"`
	MaxItems    uint64                `json:"max_items,omitempty"`
}

// BlockType is a nested block type's schema.
type BlockType struct {
	NestingMode string `json:"nesting_mode,omitempty"`
	Block       *Block `json:"block,omitempty"`
	MinItems    uint64 `json:"min_items,omitempty"`
	MaxItems    uint64 `json:"max_items,omitempty"`
}

// Marshal renders the schemas of the given providers.
func Marshal(schemas map[addrs.Provider]providers.GetProviderSchemaResponse) ([]byte, error) {
	doc := Document{FormatVersion: FormatVersion}
	for p, resp := range schemas {
		if doc.ProviderSchemas == nil {
			doc.ProviderSchemas = map[string]*Provider{}
		}
		doc.ProviderSchemas[p.String()] = FromResponse(resp)
	}
	return json.Marshal(doc)
}

// FromResponse renders one provider's GetProviderSchema response.
func FromResponse(resp providers.GetProviderSchemaResponse) *Provider {
	out := &Provider{
		Provider:                 schema(resp.Provider),
		ResourceSchemas:          schemaMap(resp.ResourceTypes),
		DataSourceSchemas:        schemaMap(resp.DataSources),
		EphemeralResourceSchemas: schemaMap(resp.EphemeralResourceTypes),
	}
	for name, decl := range resp.Functions {
		if out.Functions == nil {
			out.Functions = map[string]*jsonfunction.Signature{}
		}
		out.Functions[name] = jsonfunction.FromProvider(decl)
	}
	for name, s := range resp.ResourceTypes {
		if s.Identity == nil {
			continue
		}
		if out.ResourceIdentitySchemas == nil {
			out.ResourceIdentitySchemas = map[string]*IdentitySchema{}
		}
		is := &IdentitySchema{Version: s.IdentityVersion}
		for an, a := range s.Identity.Attributes {
			if is.Attributes == nil {
				is.Attributes = map[string]*IdentityAttribute{}
			}
			ia := &IdentityAttribute{Description: a.Description, RequiredForImport: a.Required, OptionalForImport: a.Optional}
			if ty, err := ctyjson.MarshalType(a.Type); err == nil {
				ia.IdentityType = ty
			}
			is.Attributes[an] = ia
		}
		out.ResourceIdentitySchemas[name] = is
	}
	return out
}

func schemaMap(m map[string]providers.Schema) map[string]*Schema {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]*Schema, len(m))
	for name, s := range m {
		out[name] = schema(s)
	}
	return out
}

// schema renders a versioned schema. A nil block is left out, as
// Terraform leaves out the configuration block of its built-in provider;
// a plugin's empty configuration schema is an empty block, rendered as
// {"description_kind":"plain"}.
func schema(s providers.Schema) *Schema {
	out := &Schema{Version: s.Version}
	if s.Block != nil {
		out.Block = block(s.Block)
	}
	return out
}

func descriptionKind(k string) string {
	if k == "" {
		return "plain"
	}
	return k
}

func block(b *configschema.Block) *Block {
	out := &Block{Description: b.Description, DescriptionKind: descriptionKind(string(b.DescriptionKind)), Deprecated: b.Deprecated}
	for name, a := range b.Attributes {
		if out.Attributes == nil {
			out.Attributes = map[string]*Attribute{}
		}
		out.Attributes[name] = attribute(a)
	}
	for name, nb := range b.BlockTypes {
		if out.BlockTypes == nil {
			out.BlockTypes = map[string]*BlockType{}
		}
		out.BlockTypes[name] = &BlockType{
			NestingMode: nb.Nesting.String(),
			Block:       block(&nb.Block),
			MinItems:    uint64(nb.MinItems),
			MaxItems:    uint64(nb.MaxItems),
		}
	}
	return out
}

func attribute(a *configschema.Attribute) *Attribute {
	out := &Attribute{
		Description:     a.Description,
		DescriptionKind: descriptionKind(string(a.DescriptionKind)),
		Deprecated:      a.Deprecated,
		Required:        a.Required,
		Optional:        a.Optional,
		Computed:        a.Computed,
		Sensitive:       a.Sensitive,
		WriteOnly:       a.WriteOnly,
	}
	if a.NestedType != nil {
		nt := &NestedType{NestingMode: a.NestedType.Nesting.String()}
		for name, na := range a.NestedType.Attributes {
			if nt.Attributes == nil {
				nt.Attributes = map[string]*Attribute{}
			}
			nt.Attributes[name] = attribute(na)
		}
		out.AttributeNestedType = nt
	} else if ty, err := ctyjson.MarshalType(a.Type); err == nil {
		out.AttributeType = ty
	}
	return out
}
