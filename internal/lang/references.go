package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
)

// Referenceable is something an expression can refer to: one of
// InputVariable, LocalValue, ResourceRef, CountAttr, EachAttr, PathAttr,
// TerraformAttr, ModuleCallRef or SelfRef.
type Referenceable interface {
	referenceable()
	String() string
}

// InputVariable is `var.NAME`.
type InputVariable struct{ Name string }

// LocalValue is `local.NAME`.
type LocalValue struct{ Name string }

// ResourceRef is a reference to a resource (`TYPE.NAME`, `data.TYPE.NAME`,
// or `resource.TYPE.NAME`, the form that cannot clash with other names).
type ResourceRef struct {
	Resource addrs.Resource
	// Prefixed is set when the reference was written resource.TYPE.NAME.
	Prefixed bool
}

// CountAttr is `count.NAME` (only `index` is valid).
type CountAttr struct{ Name string }

// EachAttr is `each.key` or `each.value`.
type EachAttr struct{ Name string }

// PathAttr is `path.module`, `path.root` or `path.cwd`.
type PathAttr struct{ Name string }

// TerraformAttr is `terraform.workspace`.
type TerraformAttr struct{ Name string }

// ModuleCallRef is `module.NAME`.
type ModuleCallRef struct{ Name string }

// SelfRef is `self`, valid only in provisioner and postcondition blocks.
type SelfRef struct{}

func (InputVariable) referenceable() {}
func (LocalValue) referenceable()    {}
func (ResourceRef) referenceable()   {}
func (CountAttr) referenceable()     {}
func (EachAttr) referenceable()      {}
func (PathAttr) referenceable()      {}
func (TerraformAttr) referenceable() {}
func (ModuleCallRef) referenceable() {}
func (SelfRef) referenceable()       {}

func (r InputVariable) String() string { return "var." + r.Name }
func (r LocalValue) String() string    { return "local." + r.Name }
func (r ResourceRef) String() string   { return r.Resource.String() }
func (r CountAttr) String() string     { return "count." + r.Name }
func (r EachAttr) String() string      { return "each." + r.Name }
func (r PathAttr) String() string      { return "path." + r.Name }
func (r TerraformAttr) String() string { return "terraform." + r.Name }
func (r ModuleCallRef) String() string { return "module." + r.Name }
func (SelfRef) String() string         { return "self" }

// Reference is one reference found in an expression.
type Reference struct {
	Subject     Referenceable
	SourceRange hcl.Range
	// Remaining is the rest of the traversal after the subject.
	Remaining hcl.Traversal
}

// ReferencesInExpr returns the references an expression makes.
func ReferencesInExpr(expr hcl.Expression) ([]*Reference, hcl.Diagnostics) {
	if expr == nil {
		return nil, nil
	}
	return References(expr.Variables())
}

// References parses traversals into references.
func References(travs []hcl.Traversal) ([]*Reference, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	refs := make([]*Reference, 0, len(travs))
	for _, t := range travs {
		ref, rdiags := ParseRef(t)
		diags = append(diags, rdiags...)
		if ref != nil {
			refs = append(refs, ref)
		}
	}
	return refs, diags
}

// ParseRef parses one traversal into a reference.
func ParseRef(trav hcl.Traversal) (*Reference, hcl.Diagnostics) {
	root := trav.RootName()
	rootRange := trav[0].SourceRange()
	attrStep := func(kind string) (string, hcl.Range, hcl.Traversal, hcl.Diagnostics) {
		if len(trav) < 2 {
			return "", rootRange, nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid reference",
				Detail:   fmt.Sprintf("The %q object cannot be accessed directly. Instead, access one of its attributes.", kind),
				Subject:  &rootRange,
			}}
		}
		step, ok := trav[1].(hcl.TraverseAttr)
		if !ok {
			return "", rootRange, nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid reference",
				Detail:   fmt.Sprintf("The %q object does not support this operation.", kind),
				Subject:  trav[1].SourceRange().Ptr(),
			}}
		}
		return step.Name, hcl.RangeBetween(rootRange, step.SrcRange), trav[2:], nil
	}
	ref := &Reference{}
	var diags hcl.Diagnostics
	var name string
	switch root {
	case "var":
		name, ref.SourceRange, ref.Remaining, diags = attrStep("var")
		ref.Subject = InputVariable{Name: name}
	case "local":
		name, ref.SourceRange, ref.Remaining, diags = attrStep("local")
		ref.Subject = LocalValue{Name: name}
	case "count":
		name, ref.SourceRange, ref.Remaining, diags = attrStep("count")
		ref.Subject = CountAttr{Name: name}
	case "each":
		name, ref.SourceRange, ref.Remaining, diags = attrStep("each")
		ref.Subject = EachAttr{Name: name}
	case "path":
		name, ref.SourceRange, ref.Remaining, diags = attrStep("path")
		ref.Subject = PathAttr{Name: name}
	case "terraform":
		name, ref.SourceRange, ref.Remaining, diags = attrStep("terraform")
		ref.Subject = TerraformAttr{Name: name}
	case "module":
		name, ref.SourceRange, ref.Remaining, diags = attrStep("module")
		ref.Subject = ModuleCallRef{Name: name}
	case "self":
		ref.Subject, ref.SourceRange, ref.Remaining = SelfRef{}, rootRange, trav[1:]
	case "data", "resource", "ephemeral":
		mode := addrs.DataResourceMode
		switch root {
		case "resource":
			mode = addrs.ManagedResourceMode
		case "ephemeral":
			mode = addrs.EphemeralResourceMode
		}
		if len(trav) < 3 {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid reference",
				Detail:   fmt.Sprintf(`The %q object must be followed by two attribute names: the resource type and the resource name.`, root),
				Subject:  trav.SourceRange().Ptr(),
			}}
		}
		typ, ok1 := trav[1].(hcl.TraverseAttr)
		nm, ok2 := trav[2].(hcl.TraverseAttr)
		if !ok1 || !ok2 {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError, Summary: "Invalid reference",
				Detail:  fmt.Sprintf("A resource reference has the form %s.TYPE.NAME.", root),
				Subject: trav.SourceRange().Ptr(),
			}}
		}
		ref.Subject = ResourceRef{Resource: addrs.Resource{Mode: mode, Type: typ.Name, Name: nm.Name}, Prefixed: root == "resource"}
		ref.SourceRange, ref.Remaining = hcl.RangeBetween(rootRange, nm.SrcRange), trav[3:]
	default:
		if len(trav) < 2 {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid reference",
				Detail:   "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
				Subject:  &rootRange,
			}}
		}
		nm, ok := trav[1].(hcl.TraverseAttr)
		if !ok {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError, Summary: "Invalid reference",
				Detail:  "A resource reference has the form TYPE.NAME.",
				Subject: trav.SourceRange().Ptr(),
			}}
		}
		ref.Subject = ResourceRef{Resource: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: root, Name: nm.Name}}
		ref.SourceRange, ref.Remaining = hcl.RangeBetween(rootRange, nm.SrcRange), trav[2:]
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return ref, diags
}
