package configs

import (
	"fmt"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"sort"

	"github.com/hashicorp/hcl/v2"
)

// Provisioner is a `provisioner` block in a resource or removed block, of
// one of the types strata runs: local-exec, remote-exec and file.
type Provisioner struct {
	Type string
	// Config is the body without the meta-arguments when and on_failure,
	// to be decoded with the provisioner type's schema.
	Config    hcl.Body
	When      ProvisionerWhen
	OnFailure ProvisionerOnFailure
	// Connection is the body of the connection configuration the
	// provisioner uses: the arguments of its own connection block over
	// those of its resource's (or removed block's), argument by argument,
	// as Terraform merges them. It is nil when neither has one.
	Connection hcl.Body

	// connection is the provisioner's own connection block.
	connection *hcl.Block

	DeclRange hcl.Range
	TypeRange hcl.Range
}

// ProvisionerWhen says when a provisioner runs: after its object is
// created, or before it is destroyed.
type ProvisionerWhen int

const (
	// ProvisionerWhenCreate runs a provisioner right after its object is
	// created (also as a replacement), never on update.
	ProvisionerWhenCreate ProvisionerWhen = iota
	// ProvisionerWhenDestroy runs a provisioner right before its object
	// is destroyed.
	ProvisionerWhenDestroy
)

// String returns the keyword for w: create or destroy.
func (w ProvisionerWhen) String() string {
	switch w {
	case ProvisionerWhenCreate:
		return "create"
	case ProvisionerWhenDestroy:
		return "destroy"
	default:
		panic(fmt.Sprintf("invalid ProvisionerWhen %d", int(w)))
	}
}

// ProvisionerOnFailure says what a provisioner's failure does.
type ProvisionerOnFailure int

const (
	// ProvisionerOnFailureFail makes a failure an error of the apply; a
	// failed creation-time provisioner leaves its object tainted.
	ProvisionerOnFailureFail ProvisionerOnFailure = iota
	// ProvisionerOnFailureContinue ignores failures.
	ProvisionerOnFailureContinue
)

// String returns the keyword for f: fail or continue.
func (f ProvisionerOnFailure) String() string {
	switch f {
	case ProvisionerOnFailureFail:
		return "fail"
	case ProvisionerOnFailureContinue:
		return "continue"
	default:
		panic(fmt.Sprintf("invalid ProvisionerOnFailure %d", int(f)))
	}
}

var provisionerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "when"}, {Name: "on_failure"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "_"}, // escapes arguments named like meta-arguments
		{Type: "connection"},
		{Type: "lifecycle"}, // reserved for future use
	},
}

// removedProvisionerTypes are the types Terraform 0.15 removed; Terraform
// says so when a configuration still uses one.
var removedProvisionerTypes = map[string]bool{"chef": true, "habitat": true, "puppet": true, "salt-masterless": true}

// decodeProvisioner decodes a provisioner block. It returns nil for a type
// Terraform removed. Types other than strata's own (local-exec,
// remote-exec, file) are plugins, looked for when the engine needs them.
func decodeProvisioner(block *hcl.Block) (*Provisioner, hcl.Diagnostics) {
	p := &Provisioner{
		Type:      block.Labels[0],
		DeclRange: block.DefRange,
		TypeRange: block.LabelRanges[0],
	}
	switch {
	case removedProvisionerTypes[p.Type]:
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("The %q provisioner has been removed", p.Type),
			Detail:   fmt.Sprintf("The %q provisioner was removed from Terraform in version 0.15 and is not supported by strata. Run the configuration tool from a local-exec provisioner instead, or outside strata.", p.Type),
			Subject:  p.TypeRange.Ptr(),
		}}
	}
	content, config, diags := block.Body.PartialContent(provisionerSchema)
	p.Config = config
	if attr, ok := content.Attributes["when"]; ok {
		kw, kdiags := quotedKeyword(attr.Expr)
		diags = append(diags, kdiags...)
		switch kw {
		case "create":
			p.When = ProvisionerWhenCreate
		case "destroy":
			p.When = ProvisionerWhenDestroy
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid "when" keyword`,
				Detail:   `The "when" argument requires one of the following keywords: create or destroy.`,
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["on_failure"]; ok {
		kw, kdiags := quotedKeyword(attr.Expr)
		diags = append(diags, kdiags...)
		switch kw {
		case "fail":
			p.OnFailure = ProvisionerOnFailureFail
		case "continue":
			p.OnFailure = ProvisionerOnFailureContinue
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  `Invalid "on_failure" keyword`,
				Detail:   `The "on_failure" argument requires one of the following keywords: continue or fail.`,
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	var escape *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "_":
			if escape != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate escaping block",
					Detail:   fmt.Sprintf(`A provisioner block can have only one "_" block, which holds arguments named like meta-arguments. The first one is at %s.`, escape.DefRange),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			escape = b
			p.Config = hcl.MergeBodies([]hcl.Body{p.Config, b.Body})
		case "connection":
			if p.connection != nil {
				diags = append(diags, duplicateConnection(b, "provisioner", p.connection))
				continue
			}
			p.connection = b
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reserved block type name in provisioner block",
				Detail:   fmt.Sprintf("The block type name %q is reserved for use by strata in a future version.", b.Type),
				Subject:  b.TypeRange.Ptr(),
			})
		}
	}
	if p.When == ProvisionerWhenDestroy {
		diags = append(diags, destroyProvisionerRefs(p.Config)...)
		if p.connection != nil {
			diags = append(diags, destroyProvisionerRefs(p.connection.Body)...)
		}
	}
	return p, diags
}

// duplicateConnection is the error for a second connection block in a
// resource, removed or provisioner block (what).
func duplicateConnection(b *hcl.Block, what string, first *hcl.Block) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Duplicate connection block",
		Detail:   fmt.Sprintf("This %s already has a connection block at %s.", what, first.DefRange),
		Subject:  b.DefRange.Ptr(),
	}
}

// connectProvisioners sets the Connection of each of provs from its own
// connection block and conn, the block of their resource or removed
// block (nil when there is none). When one of provs runs at destroy
// time, it reports the references of conn such a provisioner may not
// make.
func connectProvisioners(provs []*Provisioner, conn *hcl.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	checked := false
	for _, p := range provs {
		switch {
		case conn == nil && p.connection == nil:
		case conn == nil:
			p.Connection = p.connection.Body
		case p.connection == nil:
			p.Connection = conn.Body
		default:
			p.Connection = &mergedBody{base: conn.Body, override: p.connection.Body}
		}
		if conn != nil && p.When == ProvisionerWhenDestroy && !checked {
			checked = true
			diags = append(diags, destroyProvisionerRefs(conn.Body)...)
		}
	}
	return diags
}

// destroyProvisionerRefs reports references a destroy-time provisioner
// may not make: it runs when the rest of the configuration may be gone,
// so it sees only its own object (self), count.index, each.key, path and
// terraform.
func destroyProvisionerRefs(body hcl.Body) hcl.Diagnostics {
	var diags hcl.Diagnostics
	attrs, _ := body.JustAttributes()
	sorted := make([]*hcl.Attribute, 0, len(attrs))
	for _, attr := range attrs {
		sorted = append(sorted, attr)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Range.Start.Byte < sorted[j].Range.Start.Byte })
	for _, attr := range sorted {
		for _, trav := range attr.Expr.Variables() {
			if allowedInDestroyProvisioner(trav) {
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid reference from destroy provisioner",
				Detail: "Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\n" +
					"References to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.",
				Subject: attr.Expr.Range().Ptr(),
			})
		}
	}
	return diags
}

func allowedInDestroyProvisioner(trav hcl.Traversal) bool {
	attrNamed := func(want string) bool {
		if len(trav) != 2 {
			return false
		}
		step, ok := trav[1].(hcl.TraverseAttr)
		return ok && step.Name == want
	}
	switch trav.RootName() {
	case "self", "path", "terraform":
		return true
	case "count":
		return attrNamed("index")
	case "each":
		return attrNamed("key")
	}
	return false
}

// quotedKeyword returns the keyword expr is, accepting it in quotes as
// Terraform does, with its deprecation warning.
func quotedKeyword(expr hcl.Expression) (string, hcl.Diagnostics) {
	if kw := hcl.ExprAsKeyword(expr); kw != "" {
		return kw, nil
	}
	tmpl, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok || len(tmpl.Parts) != 1 {
		return "", nil
	}
	lit, ok := tmpl.Parts[0].(*hclsyntax.LiteralValueExpr)
	if !ok || lit.Val.Type() != cty.String || lit.Val.IsNull() {
		return "", nil
	}
	return lit.Val.AsString(), hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "Quoted keywords are deprecated",
		Detail:   "In this context, keywords are expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but quoted keywords are now deprecated and will be removed in a future version of strata. Remove the quotes surrounding this keyword to silence this warning.",
		Subject:  expr.Range().Ptr(),
	}}
}
