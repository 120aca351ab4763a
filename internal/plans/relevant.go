package plans

import "github.com/zclconf/go-cty/cty"

// RelevantAttr is a resource attribute that contributes to a plan's
// changes: the configuration of a changing resource instance or output
// refers to it, directly or through local values, variables, module
// outputs and other resources' arguments. Terraform lists them as the
// plan document's relevant_attributes, and shows only the changes made
// outside it that touch one of them ("which may have affected this
// plan").
type RelevantAttr struct {
	// Resource is the address of the resource or resource instance as the
	// reference names it: `aws_instance.a`, `aws_instance.a[0]` or
	// `module.m.aws_instance.a["k"]`. A drifted instance matches only the
	// attributes whose Resource equals its own address.
	Resource string
	// Attr is the path within the object; empty for the whole object.
	Attr cty.Path
}
