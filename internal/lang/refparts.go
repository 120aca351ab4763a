package lang

import (
	"encoding/json"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// ReferenceParts splits a reference as Terraform's plan JSON names it:
// the subject, the traversal after it, and the object containing the
// subject when there is one. A resource reference with a key has the
// instance as its subject and the resource as its container. A module
// call reference has the call instance (module.m["k"]) or one of its
// outputs (module.m["k"].out, module.m.out) as its subject, contained in
// the call instance, or for a call instance in the call itself.
func ReferenceParts(ref *Reference) (subject string, remaining hcl.Traversal, container string) {
	subject, remaining = ref.Subject.String(), ref.Remaining
	switch ref.Subject.(type) {
	case ResourceRef:
		if key, ok := LeadingInstanceKey(remaining); ok {
			container = subject
			subject += "[" + IndexKeyString(key) + "]"
			remaining = remaining[1:]
		}
	case ModuleCallRef:
		if key, ok := LeadingInstanceKey(remaining); ok {
			container = subject
			subject += "[" + IndexKeyString(key) + "]"
			remaining = remaining[1:]
		}
		if len(remaining) > 0 {
			if attr, ok := remaining[0].(hcl.TraverseAttr); ok {
				container = subject
				subject += "." + attr.Name
				remaining = remaining[1:]
			}
		}
	}
	return subject, remaining, container
}

// LeadingInstanceKey returns the instance key a traversal starts with: a
// known, non-null string or number index.
func LeadingInstanceKey(t hcl.Traversal) (cty.Value, bool) {
	if len(t) == 0 {
		return cty.NilVal, false
	}
	idx, ok := t[0].(hcl.TraverseIndex)
	if !ok || idx.Key.IsNull() || !idx.Key.IsKnown() || (idx.Key.Type() != cty.String && idx.Key.Type() != cty.Number) {
		return cty.NilVal, false
	}
	return idx.Key, true
}

// RelativeTraversalString renders the steps of a relative traversal as
// an address writes them: `.name`, `[0]`, `["key"]`.
func RelativeTraversalString(t hcl.Traversal) string {
	var s string
	for _, step := range t {
		switch st := step.(type) {
		case hcl.TraverseAttr:
			s += "." + st.Name
		case hcl.TraverseIndex:
			s += "[" + IndexKeyString(st.Key) + "]"
		}
	}
	return s
}

// IndexKeyString is an index key as an address writes it; "..." for a
// key that is unknown, null or neither a string nor a number.
func IndexKeyString(k cty.Value) string {
	if k.IsNull() || !k.IsKnown() {
		return "..."
	}
	switch k.Type() {
	case cty.String:
		b, _ := json.Marshal(k.AsString())
		return string(b)
	case cty.Number:
		return k.AsBigFloat().Text('g', 10)
	}
	return "..."
}
