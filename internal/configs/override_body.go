package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// mergedBody is a block body an override file's block merges into, with
// Terraform's rules: the override's arguments replace the base's of the
// same name; nested blocks of a type the override has replace all of the
// base's blocks of that type; with mergeLifecycle (resources), lifecycle
// blocks merge argument by argument instead.
type mergedBody struct {
	base, override hcl.Body
	mergeLifecycle bool
}

var _ hcl.Body = (*mergedBody)(nil)

// optional returns schema with no attribute required: a required argument
// may be in either body.
func optional(schema *hcl.BodySchema) *hcl.BodySchema {
	out := &hcl.BodySchema{Blocks: schema.Blocks}
	for _, a := range schema.Attributes {
		a.Required = false
		out.Attributes = append(out.Attributes, a)
	}
	return out
}

// Content decodes both bodies and merges them.
func (b *mergedBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	base, diags := b.base.Content(optional(schema))
	over, odiags := b.override.Content(optional(schema))
	diags = append(diags, odiags...)
	c := b.merge(base, over)
	return c, append(diags, b.missingRequired(schema, c)...)
}

// PartialContent decodes both bodies, merges what schema names, and
// returns the rest of both as a merged body.
func (b *mergedBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	base, baseRest, diags := b.base.PartialContent(optional(schema))
	over, overRest, odiags := b.override.PartialContent(optional(schema))
	diags = append(diags, odiags...)
	c := b.merge(base, over)
	return c, &mergedBody{base: baseRest, override: overRest, mergeLifecycle: b.mergeLifecycle}, append(diags, b.missingRequired(schema, c)...)
}

// JustAttributes returns the base's attributes with the override's in
// their place.
func (b *mergedBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	attrs, diags := b.base.JustAttributes()
	over, odiags := b.override.JustAttributes()
	diags = append(diags, odiags...)
	out := hcl.Attributes{}
	for name, a := range attrs {
		out[name] = a
	}
	for name, a := range over {
		out[name] = a
	}
	return out, diags
}

// MissingItemRange is the base block's.
func (b *mergedBody) MissingItemRange() hcl.Range { return b.base.MissingItemRange() }

func (b *mergedBody) merge(base, over *hcl.BodyContent) *hcl.BodyContent {
	c := &hcl.BodyContent{Attributes: hcl.Attributes{}, MissingItemRange: base.MissingItemRange}
	for name, a := range base.Attributes {
		c.Attributes[name] = a
	}
	for name, a := range over.Attributes {
		c.Attributes[name] = a
	}
	replaced := map[string]bool{}
	for _, blk := range over.Blocks {
		replaced[blk.Type] = true
	}
	for _, blk := range base.Blocks {
		if !replaced[blk.Type] || (b.mergeLifecycle && blk.Type == "lifecycle") {
			c.Blocks = append(c.Blocks, blk)
		}
	}
	for _, blk := range over.Blocks {
		if b.mergeLifecycle && blk.Type == "lifecycle" {
			if i := indexOfBlock(c.Blocks, "lifecycle"); i >= 0 {
				merged := *c.Blocks[i]
				merged.Body = &mergedBody{base: c.Blocks[i].Body, override: blk.Body}
				c.Blocks[i] = &merged
				continue
			}
		}
		c.Blocks = append(c.Blocks, blk)
	}
	return c
}

func indexOfBlock(blocks hcl.Blocks, typ string) int {
	for i, b := range blocks {
		if b.Type == typ {
			return i
		}
	}
	return -1
}

// missingRequired reports the required arguments neither body sets.
func (b *mergedBody) missingRequired(schema *hcl.BodySchema, c *hcl.BodyContent) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, a := range schema.Attributes {
		if _, ok := c.Attributes[a.Name]; a.Required && !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   fmt.Sprintf("The argument %q is required, but no definition was found.", a.Name),
				Subject:  b.base.MissingItemRange().Ptr(),
			})
		}
	}
	return diags
}
