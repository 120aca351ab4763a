package configs

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
)

// Resource is a resource or data block.
type Resource struct {
	Mode addrs.ResourceMode
	Type string
	Name string

	// Config is the body without meta-arguments, to be decoded with the
	// resource type's schema.
	Config hcl.Body

	Count   hcl.Expression
	ForEach hcl.Expression
	// Enabled is OpenTofu's lifecycle { enabled = ... }: one instance,
	// without a key, or none; nil when absent.
	Enabled   hcl.Expression
	DependsOn []hcl.Traversal
	// ProviderRef is the `provider` meta-argument, or nil for the implied
	// provider configuration.
	ProviderRef *ProviderRef

	Managed *ManagedLifecycle
	// Preconditions and Postconditions are an ephemeral resource's
	// lifecycle conditions (a managed resource's are in Managed).
	Preconditions  []*CheckRule
	Postconditions []*CheckRule
	// Check is the name of the check block a data block is nested in, or
	// "": such a data source is read on every plan and apply, and its
	// errors are warnings.
	Check string
	// Generated is set for a resource an import block targets that has no
	// configuration yet: plan -generate-config-out writes its block from
	// the imported object, and Config is that block's body once written.
	Generated bool

	DeclRange hcl.Range
	TypeRange hcl.Range
}

// ManagedLifecycle holds a managed resource's lifecycle settings.
type ManagedLifecycle struct {
	CreateBeforeDestroy bool
	PreventDestroy      bool
	IgnoreChanges       []hcl.Traversal
	IgnoreAllChanges    bool
	ReplaceTriggeredBy  []hcl.Expression
	// ReplaceOnProviderChange (strata's own; Terraform rejects it) plans
	// the replacement of the resource's objects when their provider
	// configuration changed in any non-sensitive argument since they were
	// applied.
	ReplaceOnProviderChange bool
	Preconditions           []*CheckRule
	Postconditions          []*CheckRule
	// Provisioners are the resource's local-exec provisioner blocks, in
	// configuration order.
	Provisioners []*Provisioner
}

// ProviderRef refers to a provider configuration by local name and alias.
type ProviderRef struct {
	Name      string
	Alias     string
	NameRange hcl.Range
	// KeyExpr selects one instance of a configuration that uses for_each
	// (OpenTofu): the expression in NAME.ALIAS[KEY], evaluated for each
	// instance of the resource or module. nil when there is none.
	KeyExpr hcl.Expression
}

// String returns NAME or NAME.ALIAS.
func (r ProviderRef) String() string {
	if r.Alias != "" {
		return r.Name + "." + r.Alias
	}
	return r.Name
}

// Addr returns the resource's address within its module.
func (r *Resource) Addr() addrs.Resource {
	return addrs.Resource{Mode: r.Mode, Type: r.Type, Name: r.Name}
}

// ProviderLocalName returns the local name of the provider the resource
// uses: from the provider meta-argument, or implied by its type.
func (r *Resource) ProviderLocalName() string {
	if r.ProviderRef != nil {
		return r.ProviderRef.Name
	}
	return r.Addr().ImpliedProvider()
}

var resourceSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "count"}, {Name: "for_each"}, {Name: "provider"}, {Name: "depends_on"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"}, {Type: "connection"}, {Type: "provisioner", LabelNames: []string{"type"}},
		{Type: "locals"}, // reserved for future use
	},
}

// withoutMeta returns the body of a resource block without its
// meta-arguments: remain, what PartialContent with resourceSchema left,
// or the block's own body when it has none of them. The two then behave
// alike (remain only hides names the body does not use), and the block's
// body is already in memory: remain is a copy of it with two maps, about
// 450 bytes a resource, 45 MB live for 100,000 resources.
func withoutMeta(body, remain hcl.Body) hcl.Body {
	b, ok := body.(*hclsyntax.Body)
	if !ok {
		return remain
	}
	for _, a := range resourceSchema.Attributes {
		if _, used := b.Attributes[a.Name]; used {
			return remain
		}
	}
	for _, blk := range b.Blocks {
		for _, bs := range resourceSchema.Blocks {
			if blk.Type == bs.Type {
				return remain
			}
		}
	}
	return body
}

// metaFree returns the body of a resource block when it is a native
// syntax body that uses none of the names of resourceSchema, as an
// argument or as a block type: PartialContent with resourceSchema then
// finds no content and reports nothing (it only reports a name of the
// schema used as the wrong kind), and what remains is the body itself.
func metaFree(body hcl.Body) (*hclsyntax.Body, bool) {
	b, ok := body.(*hclsyntax.Body)
	if !ok {
		return nil, false
	}
	for _, a := range resourceSchema.Attributes {
		if _, used := b.Attributes[a.Name]; used {
			return nil, false
		}
	}
	for _, bs := range resourceSchema.Blocks {
		if _, used := b.Attributes[bs.Type]; used {
			return nil, false
		}
	}
	for _, blk := range b.Blocks {
		for _, a := range resourceSchema.Attributes {
			if blk.Type == a.Name {
				return nil, false
			}
		}
		for _, bs := range resourceSchema.Blocks {
			if blk.Type == bs.Type {
				return nil, false
			}
		}
	}
	return b, true
}

var lifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "create_before_destroy"}, {Name: "prevent_destroy"},
		{Name: "ignore_changes"}, {Name: "replace_triggered_by"},
		{Name: "enabled"}, {Name: "replace_on_provider_change"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}, {Type: "postcondition"}},
}

func decodeResource(block *hcl.Block, mode addrs.ResourceMode) (*Resource, hcl.Diagnostics) {
	r := &Resource{
		Mode: mode, Type: block.Labels[0], Name: block.Labels[1],
		DeclRange: block.DefRange, TypeRange: block.LabelRanges[0],
	}
	// Terraform's summaries: "Invalid resource type name", "Invalid data
	// source name" (the type of a data block), "Invalid ephemeral resource
	// type"; "Invalid resource name", "Invalid data resource name" and so
	// on for the name.
	typeWhat, nameWhat, blockWhat := "resource type name", "resource name", "resource"
	switch mode {
	case addrs.DataResourceMode:
		typeWhat, nameWhat, blockWhat = "data source name", "data resource name", "data"
	case addrs.EphemeralResourceMode:
		typeWhat, nameWhat, blockWhat = "ephemeral resource type", "ephemeral resource name", "ephemeral"
	}
	diags := checkLabel(r.Type, typeWhat, block.LabelRanges[0])
	diags = append(diags, checkLabel(r.Name, nameWhat, block.LabelRanges[1])...)
	content := &hcl.BodyContent{}
	if b, ok := metaFree(block.Body); ok {
		// Nothing for PartialContent to find, nor to complain of: its
		// copy of the body and maps (a sixth of the bytes a large
		// configuration's loading allocates) would only be dropped.
		r.Config = b
	} else {
		var remain hcl.Body
		var cdiags hcl.Diagnostics
		content, remain, cdiags = block.Body.PartialContent(resourceSchema)
		diags = append(diags, cdiags...)
		r.Config = withoutMeta(block.Body, remain)
	}
	if attr, ok := content.Attributes["count"]; ok {
		r.Count = attr.Expr
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		r.ForEach = attr.Expr
		if r.Count != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid combination of "count" and "for_each"`,
				Detail:   `The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.`,
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["provider"]; ok {
		ref, pdiags := decodeProviderRef(attr.Expr)
		diags = append(diags, pdiags...)
		r.ProviderRef = ref
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		deps, ddiags := decodeDependsOn(attr)
		diags = append(diags, ddiags...)
		r.DependsOn = deps
	}
	if mode == addrs.ManagedResourceMode {
		r.Managed = &ManagedLifecycle{}
	}
	var lifecycleRange *hcl.Range
	var connection *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			if lifecycleRange != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate lifecycle block",
					Detail:   fmt.Sprintf("This resource already has a lifecycle block at %s.", lifecycleRange),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			lifecycleRange = b.DefRange.Ptr()
			diags = append(diags, r.decodeLifecycle(b)...)
		case "connection", "provisioner":
			if r.Managed == nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Unsupported block type",
					Detail:   fmt.Sprintf("Blocks of type %q are not expected here.", b.Type),
					Subject:  b.TypeRange.Ptr(),
				})
				continue
			}
			if b.Type == "connection" {
				if connection != nil {
					diags = append(diags, duplicateConnection(b, "resource", connection))
					continue
				}
				connection = b
				continue
			}
			p, pdiags := decodeProvisioner(b)
			diags = append(diags, pdiags...)
			if p != nil {
				r.Managed.Provisioners = append(r.Managed.Provisioners, p)
			}
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reserved block type name in " + blockWhat + " block",
				Detail:   fmt.Sprintf("The block type name %q is reserved for use by strata in a future version.", b.Type),
				Subject:  b.TypeRange.Ptr(),
			})
		}
	}
	if r.Managed != nil {
		diags = append(diags, connectProvisioners(r.Managed.Provisioners, connection)...)
	}
	return r, diags
}

func (r *Resource) decodeLifecycle(block *hcl.Block) hcl.Diagnostics {
	content, diags := block.Body.Content(lifecycleSchema)
	if attr, ok := content.Attributes["enabled"]; ok {
		r.Enabled = attr.Expr
		what := "resources"
		switch r.Mode {
		case addrs.DataResourceMode:
			what = "data sources"
		case addrs.EphemeralResourceMode:
			what = "ephemeral resources"
		}
		diags = append(diags, checkEnabledCombination(r.Count, r.ForEach, attr, what)...)
	}
	if r.Managed == nil {
		// Data and ephemeral resources accept only conditions.
		what := "data resource"
		detail := func(name string) string {
			return fmt.Sprintf("The lifecycle argument %q cannot be used in a data resource block.", name)
		}
		if r.Mode == addrs.EphemeralResourceMode {
			what = "ephemeral resource"
			detail = func(name string) string {
				return fmt.Sprintf(`The lifecycle argument %q is defined only for managed resources ("resource" blocks), and is not valid for ephemeral resources.`, name)
			}
		}
		for _, name := range []string{"create_before_destroy", "prevent_destroy", "ignore_changes", "replace_triggered_by", "replace_on_provider_change"} {
			if attr, ok := content.Attributes[name]; ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Invalid %s lifecycle argument", what),
					Detail:   detail(name),
					Subject:  attr.NameRange.Ptr(),
				})
			}
		}
		pre, post, cdiags := decodeConditionBlocks(content.Blocks)
		r.Preconditions = append(r.Preconditions, pre...)
		r.Postconditions = append(r.Postconditions, post...)
		return append(diags, cdiags...)
	}
	lc := r.Managed
	if attr, ok := content.Attributes["create_before_destroy"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &lc.CreateBeforeDestroy)...)
	}
	if attr, ok := content.Attributes["prevent_destroy"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &lc.PreventDestroy)...)
	}
	if attr, ok := content.Attributes["replace_on_provider_change"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &lc.ReplaceOnProviderChange)...)
	}
	if attr, ok := content.Attributes["ignore_changes"]; ok {
		if kw := hcl.ExprAsKeyword(attr.Expr); kw == "all" {
			lc.IgnoreAllChanges = true
		} else {
			exprs, ediags := hcl.ExprList(attr.Expr)
			diags = append(diags, ediags...)
			for _, e := range exprs {
				if v, vdiags := e.Value(nil); !vdiags.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() && v.AsString() == "*" {
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Invalid ignore_changes wildcard",
						Detail:   `The ["*"] form of ignore_changes wildcard is was deprecated and is now invalid. Use "ignore_changes = all" to ignore changes to all attributes.`,
						Subject:  attr.Expr.Range().Ptr(),
					})
					continue
				}
				trav, tdiags := relTraversalForExpr(e)
				diags = append(diags, tdiags...)
				if !tdiags.HasErrors() {
					lc.IgnoreChanges = append(lc.IgnoreChanges, trav)
				}
			}
		}
	}
	if attr, ok := content.Attributes["replace_triggered_by"]; ok {
		exprs, ediags := hcl.ExprList(attr.Expr)
		diags = append(diags, ediags...)
		diags = append(diags, checkReplaceTriggeredBy(exprs)...)
		lc.ReplaceTriggeredBy = exprs
	}
	pre, post, cdiags := decodeConditionBlocks(content.Blocks)
	lc.Preconditions = append(lc.Preconditions, pre...)
	lc.Postconditions = append(lc.Postconditions, post...)
	return append(diags, cdiags...)
}

// decodeConditionBlocks decodes a lifecycle block's precondition and
// postcondition blocks.
func decodeConditionBlocks(blocks hcl.Blocks) (pre, post []*CheckRule, diags hcl.Diagnostics) {
	for _, b := range blocks {
		rule, rdiags := decodeCheckRule(b)
		diags = append(diags, rdiags...)
		if rule == nil {
			continue
		}
		diags = append(diags, checkRuleRefers(rule, b.Type)...)
		if b.Type == "precondition" {
			pre = append(pre, rule)
		} else {
			post = append(post, rule)
		}
	}
	return pre, post, diags
}

func decodeProviderRef(expr hcl.Expression) (*ProviderRef, hcl.Diagnostics) {
	// NAME.ALIAS[KEY], OpenTofu's reference to one instance of a
	// configuration with for_each. In JSON the reference is a string,
	// parsed here as native syntax to find the key expression.
	if hcljson.IsJSONExpression(expr) {
		if v, d := expr.Value(nil); !d.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() && strings.Contains(v.AsString(), "[") {
			rng := expr.Range()
			start := rng.Start
			start.Column++ // after the opening quote
			start.Byte++
			if native, d := hclsyntax.ParseExpression([]byte(v.AsString()), rng.Filename, start); !d.HasErrors() {
				expr = native
			}
		}
	}
	var keyExpr hcl.Expression
	if ix, ok := expr.(*hclsyntax.IndexExpr); ok {
		keyExpr, expr = ix.Key, ix.Collection
	}
	trav, diags := absTraversalForExpr(expr)
	invalid := hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid provider reference",
		Detail:   "A provider reference must be a provider local name, optionally followed by a dot and an alias name: NAME or NAME.ALIAS.",
		Subject:  expr.Range().Ptr(),
	}}
	if diags.HasErrors() {
		return nil, invalid
	}
	if n := len(trav); (n == 2 || n == 3) && keyExpr == nil {
		// A literal key: NAME.ALIAS["KEY"] parses as one traversal.
		if step, ok := trav[n-1].(hcl.TraverseIndex); ok {
			keyExpr = hcl.StaticExpr(step.Key, step.SrcRange)
			trav = trav[:n-1]
		}
	}
	if len(trav) > 2 {
		return nil, invalid
	}
	warnings := diags
	ref := &ProviderRef{Name: trav.RootName(), NameRange: trav.SourceRange(), KeyExpr: keyExpr}
	if ndiags := checkProviderLocalName(ref.Name, trav.SourceRange()); ndiags.HasErrors() {
		return nil, ndiags
	}
	if len(trav) == 2 {
		step, ok := trav[1].(hcl.TraverseAttr)
		if !ok {
			return nil, invalid
		}
		ref.Alias = step.Name
	}
	if keyExpr != nil && ref.Alias == "" {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider reference",
			Detail:   "An instance key can be given only after an alias, as in NAME.ALIAS[KEY], to select an instance of a provider configuration that uses for_each.",
			Subject:  keyExpr.Range().Ptr(),
		}}
	}
	return ref, warnings
}

// noProviderKey refuses an instance key in a provider reference where
// only a whole configuration can be named (what says where).
func noProviderKey(ref *ProviderRef, what string) *hcl.Diagnostic {
	if ref == nil || ref.KeyExpr == nil {
		return nil
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid provider reference",
		Detail:   what + " names a provider configuration, not one of its instances: remove the instance key.",
		Subject:  ref.KeyExpr.Range().Ptr(),
	}
}

// checkEnabledCombination refuses OpenTofu's lifecycle enabled together
// with count or for_each, as OpenTofu does.
func checkEnabledCombination(count, forEach hcl.Expression, enabled *hcl.Attribute, what string) hcl.Diagnostics {
	if count == nil && forEach == nil {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  `Invalid combination of "count", "enabled", and "for_each"`,
		Detail:   fmt.Sprintf(`The "count", "enabled", and "for_each" meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of %s to be created.`, what),
		Subject:  enabled.NameRange.Ptr(),
	}}
}
