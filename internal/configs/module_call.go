package configs

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
)

// ModuleCall is a `module` block: a call of a child module.
type ModuleCall struct {
	Name string
	// Source is the source address as written, e.g. "./network" or
	// "git::file:///srv/modules.git//vpc?ref=v1".
	Source      string
	SourceRange hcl.Range
	Version     string
	// VersionRange is the version argument's expression, where problems
	// with the constraint are reported.
	VersionRange hcl.Range

	// Inputs holds the arguments that set the child's input variables.
	Inputs hcl.Attributes

	// sourceExpr and versionExpr are source and version arguments that
	// refer to variables or locals, evaluated once the module is loaded
	// (OpenTofu's early evaluation); nil when they are literal.
	sourceExpr, versionExpr *hcl.Attribute

	Count   hcl.Expression
	ForEach hcl.Expression
	// Enabled is OpenTofu's lifecycle { enabled = ... }: one instance,
	// without a key, or none; nil when absent.
	Enabled   hcl.Expression
	DependsOn []hcl.Traversal
	// Providers maps provider configurations of the child (InChild) to the
	// caller's configurations passed to them (InParent).
	Providers []PassedProvider

	DeclRange hcl.Range
	// MissingItemRange is where a missing argument is reported: the
	// opening brace of the block's body, as in Terraform.
	MissingItemRange hcl.Range
}

// PassedProvider is one `providers = { CHILD = PARENT }` entry.
type PassedProvider struct {
	InChild  ProviderRef
	InParent ProviderRef
}

// IsLocalSource reports whether the source is a path relative to the
// calling module (./x or ../x), loaded directly from disk.
func (c *ModuleCall) IsLocalSource() bool {
	return IsLocalModuleSource(c.Source)
}

// NormalizeModuleSource returns a module source in the form init records
// it in the module manifest (see addrs.ParseModuleSource), so that
// "hashicorp/consul/aws" matches "registry.terraform.io/hashicorp/consul/aws"
// and "/srv/mod" matches "file:///srv/mod". A source that does not parse
// is returned as it is.
func NormalizeModuleSource(src string) string {
	s, err := addrs.ParseModuleSource(src)
	if err != nil {
		return src
	}
	return s.String()
}

// IsLocalModuleSource reports whether a module source address is a path
// relative to the calling module.
func IsLocalModuleSource(src string) bool {
	return strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../")
}

var moduleCallSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "source", Required: true}, {Name: "version"},
		{Name: "count"}, {Name: "for_each"}, {Name: "depends_on"}, {Name: "providers"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "lifecycle"}, {Type: "locals"}, {Type: "provider", LabelNames: []string{"type"}}},
}

func decodeModuleCall(block *hcl.Block) (*ModuleCall, hcl.Diagnostics) {
	mc := &ModuleCall{Name: block.Labels[0], DeclRange: block.DefRange, MissingItemRange: block.Body.MissingItemRange()}
	if r := &mc.MissingItemRange; r.End == r.Start {
		// One character wide (the brace), as Terraform reports it.
		r.End.Byte++
		r.End.Column++
	}
	diags := checkName(mc.Name, "module instance", block.LabelRanges[0]) // Terraform's wording
	content, remain, cdiags := block.Body.PartialContent(moduleCallSchema)
	diags = append(diags, cdiags...)
	if attr, ok := content.Attributes["source"]; ok {
		mc.SourceRange = attr.Expr.Range()
		v, vdiags := attr.Expr.Value(nil)
		switch {
		case vdiags.HasErrors() && len(attr.Expr.Variables()) > 0:
			// OpenTofu's early evaluation: variables and locals known
			// before anything is planned. See Module.evalStaticCalls.
			mc.sourceExpr = attr
		case vdiags.HasErrors():
			// hcl names what is not allowed (function calls) and
			// points at it, as Terraform's message does.
			summary, subject := "Variables not allowed", attr.Expr.Range().Ptr()
			if d := vdiags[0]; d.Subject != nil {
				summary, subject = d.Summary, d.Subject
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  summary,
				Detail:   "The module source must be a literal string: it is needed to install the module, before any expression can be evaluated.",
				Subject:  subject,
			})
		default:
			diags = append(diags, mc.setSource(attr, v)...)
		}
	}
	if attr, ok := content.Attributes["version"]; ok {
		mc.VersionRange = attr.Expr.Range()
		v, vdiags := attr.Expr.Value(nil)
		if vdiags.HasErrors() && len(attr.Expr.Variables()) > 0 {
			mc.versionExpr = attr // early evaluation, as for source
		} else {
			diags = append(diags, mc.setVersion(attr, v, vdiags.HasErrors())...)
		}
	}
	if attr, ok := content.Attributes["count"]; ok {
		mc.Count = attr.Expr
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		mc.ForEach = attr.Expr
		if mc.Count != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid combination of "count" and "for_each"`,
				Detail:   `The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of module instances to create.`,
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, ddiags := decodeDependsOn(attr)
		diags = append(diags, ddiags...)
		mc.DependsOn = deps
	}
	if attr, ok := content.Attributes["providers"]; ok {
		passed, pdiags := decodePassedProviders(attr)
		diags = append(diags, pdiags...)
		mc.Providers = passed
	}
	for _, b := range content.Blocks {
		if b.Type == "lifecycle" && !isEmptyBody(b.Body) {
			// OpenTofu 1.11's lifecycle block of module calls, which
			// Terraform reserves: only enabled. An empty one is still
			// refused as Terraform refuses it.
			lc, ldiags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "enabled"}}})
			diags = append(diags, ldiags...)
			if attr, ok := lc.Attributes["enabled"]; ok {
				mc.Enabled = attr.Expr
				diags = append(diags, checkEnabledCombination(mc.Count, mc.ForEach, attr, "module instances")...)
			}
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Reserved block type name in module block",
			Detail:   fmt.Sprintf("The block type name %q is reserved for use by strata in a future version.", b.Type),
			Subject:  b.TypeRange.Ptr(),
		})
	}
	attrs, adiags := remain.JustAttributes()
	if body, ok := block.Body.(*hclsyntax.Body); ok {
		// JustAttributes names the body's first block even when the schema
		// above took it (a reserved block, already reported), so blocks are
		// reported here instead, with Terraform's wording.
		kept := adiags[:0]
		for _, d := range adiags {
			if !strings.HasPrefix(d.Summary, "Unexpected ") || !strings.HasSuffix(d.Summary, " block") {
				kept = append(kept, d)
			}
		}
		adiags = kept
		for _, b := range body.Blocks {
			if !reservedInModuleCall(b.Type) {
				adiags = append(adiags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Unsupported block type",
					Detail:   fmt.Sprintf("Blocks of type %q are not expected here.", b.Type),
					Subject:  b.TypeRange.Ptr(),
				})
			}
		}
	}
	diags = append(diags, adiags...)
	mc.Inputs = attrs
	return mc, diags
}

func reservedInModuleCall(blockType string) bool {
	for _, b := range moduleCallSchema.Blocks {
		if b.Type == blockType {
			return true
		}
	}
	return false
}

func decodePassedProviders(attr *hcl.Attribute) ([]PassedProvider, hcl.Diagnostics) {
	pairs, diags := hcl.ExprMap(attr.Expr)
	if diags.HasErrors() {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid providers argument",
			Detail:   "The providers argument must be a map from provider configurations in the child module to provider configurations in this module, such as { aws = aws.west }.",
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	var ret []PassedProvider
	for _, kv := range pairs {
		child, cdiags := decodeProviderRef(kv.Key)
		parent, pdiags := decodeProviderRef(kv.Value)
		diags = append(diags, cdiags...)
		diags = append(diags, pdiags...)
		if child != nil && parent != nil {
			ret = append(ret, PassedProvider{InChild: *child, InParent: *parent})
		}
	}
	return ret, diags
}

// PassedFor returns the caller's provider configuration passed for the
// child's configuration ref, if the call passes one.
func (c *ModuleCall) PassedFor(ref ProviderRef) (ProviderRef, bool) {
	for _, p := range c.Providers {
		if p.InChild.Name == ref.Name && p.InChild.Alias == ref.Alias {
			return p.InParent, true
		}
	}
	return ProviderRef{}, false
}

// isEmptyBody reports whether a block's body has no arguments or blocks.
func isEmptyBody(body hcl.Body) bool {
	if sb, ok := body.(*hclsyntax.Body); ok {
		return len(sb.Attributes) == 0 && len(sb.Blocks) == 0
	}
	attrs, diags := body.JustAttributes()
	return len(attrs) == 0 && !diags.HasErrors()
}

// setSource checks and sets the module source from its value.
func (mc *ModuleCall) setSource(attr *hcl.Attribute, v cty.Value) hcl.Diagnostics {
	switch {
	case !v.IsKnown() || v.Type() != cty.String || v.IsNull() || v.AsString() == "":
		return hcl.Diagnostics{invalidAttr(attr, "Invalid module source address", "The module source must be a non-empty string, such as \"./modules/network\".")}
	case v.AsString() == "." || v.AsString() == "..":
		// Terraform reads these as remote addresses it cannot install.
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid module source address",
			Detail:   fmt.Sprintf("strata failed to determine your intended installation method for remote module package %q.\n\nIf you intended this as a path relative to the current module, use \"./%s\" instead. The \"./\" prefix indicates that the address is a relative filesystem path.", v.AsString(), v.AsString()),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	mc.Source = v.AsString()
	return nil
}

// setVersion checks and sets the module version constraint from its value.
func (mc *ModuleCall) setVersion(attr *hcl.Attribute, v cty.Value, failed bool) hcl.Diagnostics {
	if failed || !v.IsKnown() || v.Type() != cty.String || v.IsNull() {
		return hcl.Diagnostics{invalidAttr(attr, "Invalid version constraint", "The module version must be a literal string.")}
	}
	mc.Version = v.AsString()
	return nil
}
