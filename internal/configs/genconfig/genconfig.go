// Package genconfig writes HCL configuration for objects that have none:
// the resource blocks `plan -generate-config-out` writes for objects that
// import blocks adopt, from the imported object and its type's schema.
package genconfig

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang/marks"
)

// File returns the content of a generated configuration file: a header,
// then each resource block (in the order given) after a comment naming the
// ID it was imported from.
func File(blocks, ids []string) []byte {
	var b strings.Builder
	b.WriteString("# __generated__ by strata\n# Please review these resources and move them into your main configuration files.\n")
	for i, block := range blocks {
		b.WriteString("\n# __generated__ by strata")
		if ids[i] != "" {
			// An import by identity has no ID to name, as in Terraform.
			fmt.Fprintf(&b, " from %q", ids[i])
		}
		fmt.Fprintf(&b, "\n%s\n", block)
	}
	return []byte(b.String())
}

// Resource returns a resource block for addr, from an imported object:
// every argument the configuration may set (required and optional
// attributes, and nested blocks) with the object's value, null when it
// has none. Computed-only and write-only attributes are left out, and a
// sensitive value is written as null with a comment, never in clear.
// The block has no trailing newline, as plan documents record it.
//
// provider, when not empty, is written first as the provider argument
// (NAME or NAME.ALIAS), as for an import block's provider.
func Resource(addr addrs.Resource, provider string, schema *configschema.Block, v cty.Value) string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource %q %q {\n", addr.Type, addr.Name)
	if provider != "" {
		fmt.Fprintf(&b, "  provider = %s\n", provider)
	}
	writeBody(&b, schema, v, 1)
	b.WriteString("}\n")
	return strings.TrimSuffix(string(hclwrite.Format([]byte(b.String()))), "\n")
}

func writeBody(b *strings.Builder, schema *configschema.Block, v cty.Value, depth int) {
	indent := strings.Repeat("  ", depth)
	for _, name := range sortedKeys(schema.Attributes) {
		a := schema.Attributes[name]
		if (a.Computed && !a.Optional && !a.Required) || a.WriteOnly {
			continue
		}
		av := attr(v, name)
		switch {
		case a.Sensitive || marks.Contains(av):
			fmt.Fprintf(b, "%s%s = null # sensitive\n", indent, name)
		case av.IsNull() && a.Computed:
			// Optional and computed with nothing set: the provider decides.
			continue
		default:
			fmt.Fprintf(b, "%s%s = %s\n", indent, name, valueString(av))
		}
	}
	for _, name := range sortedKeys(schema.BlockTypes) {
		nb := schema.BlockTypes[name]
		bv := attr(v, name)
		if bv.IsNull() || !bv.IsKnown() {
			continue
		}
		switch nb.Nesting {
		case configschema.NestingSingle, configschema.NestingGroup:
			writeBlock(b, name, "", &nb.Block, bv, depth)
		case configschema.NestingList, configschema.NestingSet:
			for it := bv.ElementIterator(); it.Next(); {
				_, ev := it.Element()
				writeBlock(b, name, "", &nb.Block, ev, depth)
			}
		case configschema.NestingMap:
			for it := bv.ElementIterator(); it.Next(); {
				k, ev := it.Element()
				writeBlock(b, name, k.AsString(), &nb.Block, ev, depth)
			}
		}
	}
}

func writeBlock(b *strings.Builder, name, label string, schema *configschema.Block, v cty.Value, depth int) {
	indent := strings.Repeat("  ", depth)
	if label != "" {
		fmt.Fprintf(b, "%s%s %q {\n", indent, name, label)
	} else {
		fmt.Fprintf(b, "%s%s {\n", indent, name)
	}
	writeBody(b, schema, v, depth+1)
	fmt.Fprintf(b, "%s}\n", indent)
}

// attr returns the attribute name of an object value, or null.
func attr(v cty.Value, name string) cty.Value {
	if v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() || !v.Type().HasAttribute(name) {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	return v.GetAttr(name)
}

// valueString writes a value as an HCL expression.
func valueString(v cty.Value) string {
	if v.IsNull() {
		return "null"
	}
	v, _ = v.UnmarkDeep()
	if !v.IsWhollyKnown() {
		return "null"
	}
	return string(hclwrite.TokensForValue(v).Bytes())
}

func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
