package configschema

import (
	"fmt"
	"sort"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// StaticValidateTraversal checks that a relative traversal, such as an
// ignore_changes element, can name something in an object of this block:
// its first step an attribute or nested block type, the rest valid for
// that attribute's type or that block's nesting. Errors are Terraform's.
func (b *Block) StaticValidateTraversal(trav hcl.Traversal) hcl.Diagnostics {
	if len(trav) == 0 {
		return nil
	}
	var name string
	switch step := trav[0].(type) {
	case hcl.TraverseAttr:
		name = step.Name
	case hcl.TraverseRoot:
		name = step.Name
	case hcl.TraverseIndex:
		if step.Key.Type() != cty.String || !step.Key.IsKnown() || step.Key.IsNull() {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Attribute name required",
				Detail:   "The first step of this path must be the name of an argument, nested block or exported attribute.",
				Subject:  step.SrcRange.Ptr(),
			}}
		}
		name = step.Key.AsString()
	default:
		return nil
	}
	rng := trav[0].SourceRange()
	if a, ok := b.Attributes[name]; ok {
		if len(trav) == 1 {
			return nil
		}
		// The rest applies to a value of the attribute's type; HCL says
		// what it cannot traverse.
		_, diags := trav[1:].TraverseRel(cty.UnknownVal(a.ImpliedType()))
		return diags
	}
	if nb, ok := b.BlockTypes[name]; ok {
		rest := trav[1:]
		switch nb.Nesting {
		case NestingSingle, NestingGroup:
			return nb.Block.StaticValidateTraversal(rest)
		case NestingList, NestingMap, NestingSet:
			if len(rest) == 0 {
				return nil
			}
			_, ok := rest[0].(hcl.TraverseIndex)
			if !ok || nb.Nesting == NestingSet {
				what := map[NestingMode]string{NestingList: "list", NestingMap: "map", NestingSet: "set"}[nb.Nesting]
				detail := fmt.Sprintf("Block type %q is represented by a %s of objects, so it must be indexed using a square bracket sequence.", name, what)
				if nb.Nesting == NestingSet {
					detail = fmt.Sprintf("Block type %q is represented by a set of objects, and set elements do not have addressable keys. To find elements matching specific criteria, use a \"for\" expression with an \"if\" clause.", name)
				}
				r := rest[0].SourceRange()
				return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid operation", Detail: detail, Subject: &r}}
			}
			return nb.Block.StaticValidateTraversal(rest[1:])
		}
		return nil
	}
	suggestion := ""
	if s := nameSuggestion(name, b.names()); s != "" {
		suggestion = fmt.Sprintf(" Did you mean %q?", s)
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Unsupported attribute",
		Detail:   fmt.Sprintf("This object has no argument, nested block, or exported attribute named %q.%s", name, suggestion),
		Subject:  &rng,
	}}
}

// names lists the block's attribute and nested block type names, sorted.
func (b *Block) names() []string {
	out := make([]string, 0, len(b.Attributes)+len(b.BlockTypes))
	for n := range b.Attributes {
		out = append(out, n)
	}
	for n := range b.BlockTypes {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// nameSuggestion returns the name closest to given, if one is close
// enough to be a likely typo.
func nameSuggestion(given string, names []string) string {
	for _, n := range names {
		if levenshtein.Distance(given, n, nil) < 3 {
			return n
		}
	}
	return ""
}
