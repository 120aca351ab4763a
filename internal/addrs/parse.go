package addrs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// ParseAbsResourceInstanceStr parses an address such as
// `module.a["x"].terraform_data.b[0]` or `data.terraform_remote_state.s`.
// A missing key yields NoKey.
func ParseAbsResourceInstanceStr(s string) (AbsResourceInstance, hcl.Diagnostics) {
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return AbsResourceInstance{}, diags
	}
	return ParseAbsResourceInstance(trav)
}

// ParseAbsResourceStr parses a resource address with no instance key.
func ParseAbsResourceStr(s string) (AbsResource, hcl.Diagnostics) {
	inst, diags := ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		return AbsResource{}, diags
	}
	if inst.Resource.Key != NoKey {
		return AbsResource{}, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid resource address",
			Detail:   fmt.Sprintf("%q is a resource instance address; a resource address has no index.", s),
		}}
	}
	return inst.ContainingResource(), nil
}

// ParseAbsResourceInstance parses a traversal into a resource instance
// address. Its errors are worded as Terraform's.
func ParseAbsResourceInstance(trav hcl.Traversal) (AbsResourceInstance, hcl.Diagnostics) {
	var ret AbsResourceInstance
	// invalidFrom is the error about the address from its step'th step
	// on, as Terraform words and places it.
	invalidFrom := func(step int, detail string) hcl.Diagnostics {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid address",
			Detail:   detail,
			Subject:  hcl.RangeBetween(trav[step].SourceRange(), trav[len(trav)-1].SourceRange()).Ptr(),
		}}
	}
	invalid := func(detail string) hcl.Diagnostics { return invalidFrom(0, detail) }
	// Each name with the key that follows it, if any, and the step of
	// the traversal where it starts.
	names := make([]string, 0, len(trav))
	keys := make([]InstanceKey, 0, len(trav))
	starts := make([]int, 0, len(trav))
	for i, step := range trav {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			names, keys, starts = append(names, s.Name), append(keys, NoKey), append(starts, i)
		case hcl.TraverseAttr:
			names, keys, starts = append(names, s.Name), append(keys, NoKey), append(starts, i)
		case hcl.TraverseIndex:
			if len(keys) == 0 || keys[len(keys)-1] != NoKey {
				if inModulePrefix(names) {
					return ret, invalidOperator(step, DetailModuleKeySteps)
				}
				return ret, invalidFrom(i, "Unexpected extra operators after address.")
			}
			k, err := keyFromValue(s.Key)
			if err != nil {
				return ret, invalidFrom(i, "Invalid resource instance key: "+err.Error()+".")
			}
			keys[len(keys)-1] = k
		default:
			return ret, invalidFrom(i, "Unexpected extra operators after address.")
		}
	}
	for len(names) > 0 && names[0] == "module" {
		if keys[0] != NoKey {
			return ret, invalidOperator(trav[starts[0]+1], `Prefix "module." must be followed by a module name.`)
		}
		if len(names) < 2 {
			return ret, invalidOperator(trav[starts[0]], `Prefix "module." must be followed by a module name.`)
		}
		ret.Module = append(ret.Module, ModuleInstanceStep{Name: names[1], Key: keys[1]})
		names, keys, starts = names[2:], keys[2:], starts[2:]
	}
	if len(names) == 0 {
		return ret, invalid("A resource instance address is required here. The module path must be followed by a resource instance specification.")
	}
	mode := ManagedResourceMode
	switch {
	case names[0] == "resource" && keys[0] == NoKey && len(names) > 1:
		// The prefix that lets a resource type be a reserved word.
		names, keys, starts = names[1:], keys[1:], starts[1:]
	case ReservedTypeName(names[0]):
		return ret, invalidFrom(starts[0], fmt.Sprintf("The keyword %q is reserved and cannot be used to target a resource address. If you are targeting a resource type that uses a reserved keyword, please prefix your address with \"resource.\".", names[0]))
	case names[0] == "data" || names[0] == "ephemeral":
		mode = DataResourceMode
		if names[0] == "ephemeral" {
			mode = EphemeralResourceMode
		}
		if keys[0] != NoKey {
			detail := "A data source name is required."
			if mode == EphemeralResourceMode {
				detail = "An ephemeral resource type name is required."
			}
			d := invalid(detail)
			d[0].Subject = trav[starts[0]+1].SourceRange().Ptr()
			return ret, d
		}
		names, keys, starts = names[1:], keys[1:], starts[1:]
	}
	switch {
	case len(names) >= 2 && keys[0] != NoKey:
		d := invalid("A resource name is required.")
		d[0].Subject = trav[starts[0]+1].SourceRange().Ptr()
		return ret, d
	case len(names) < 2 || keys[0] != NoKey:
		return ret, invalid("Resource specification must include a resource type and name.")
	case len(names) > 2 && keys[1] == NoKey:
		return ret, invalidFrom(starts[2], DetailExtraSteps)
	case len(names) > 2:
		return ret, invalidFrom(starts[2], DetailExtraOperators)
	}
	ret.Resource = ResourceInstance{
		Resource: Resource{Mode: mode, Type: names[0], Name: names[1]},
		Key:      keys[1],
	}
	return ret, nil
}

// inModulePrefix reports whether the last of names is the name of a
// module call: names start with "module", name pairs up to it.
func inModulePrefix(names []string) bool {
	i := 0
	for i+1 < len(names) && names[i] == "module" {
		i += 2
	}
	return len(names)-1 < i && len(names) >= 2
}

// invalidOperator is Terraform's error about a step of an address's
// module path.
func invalidOperator(step hcl.Traverser, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid address operator",
		Detail:   detail,
		Subject:  step.SourceRange().Ptr(),
	}}
}

func keyFromValue(v cty.Value) (InstanceKey, error) {
	if v.IsNull() || !v.IsKnown() {
		return NoKey, fmt.Errorf("an instance key must be a known number or string")
	}
	switch v.Type() {
	case cty.String:
		return StringKey(v.AsString()), nil
	case cty.Number:
		bf := v.AsBigFloat()
		i, acc := bf.Int64()
		if acc != 0 || !bf.IsInt() {
			return NoKey, fmt.Errorf("value must be a whole number, between -9223372036854775808 and 9223372036854775807")
		}
		return IntKey(int(i)), nil
	default:
		return NoKey, fmt.Errorf("an instance key must be a number or a string")
	}
}

// ParseInstanceKeyValue converts a state file's index_key (a number or
// string, or null) into an InstanceKey.
func ParseInstanceKeyValue(v cty.Value) (InstanceKey, error) {
	if v.IsNull() {
		return NoKey, nil
	}
	return keyFromValue(v)
}

// Details of the parser's errors about steps after a complete module
// call or resource: a removed block, which takes neither keys nor more
// steps, reports them otherwise.
const (
	DetailModuleKeySteps = "Module address prefix must be followed by dot and then a name."
	DetailExtraSteps     = "Resource instance key must be given in square brackets."
	DetailExtraOperators = "Unexpected extra operators after address."
)

// ReservedTypeName reports whether an address cannot start with name as
// a resource type, as in Terraform, unless prefixed with "resource.".
func ReservedTypeName(name string) bool {
	switch name {
	case "count", "each", "local", "path", "self", "terraform", "var":
		return true
	}
	return false
}
