// Package jsonplan renders states and saved plans as the JSON documents
// `terraform show -json` prints: the state document (format version 1.0)
// and the plan document (format version 1.2), so that tools built on
// github.com/hashicorp/terraform-json read strata's output unchanged.
//
// Values are written as plain JSON. Unknown values are left out (replaced
// by null inside sequences, where position matters) and described by a
// separate tree with true at every unknown path; sensitive values are
// written as they are and described by a tree with true at every
// sensitive path, as Terraform does.
package jsonplan

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang/marks"
)

// SchemaFunc returns the schema of a resource type, or nil when the
// provider or the type is unknown.
type SchemaFunc func(provider addrs.AbsProviderConfig, mode addrs.ResourceMode, typeName string) *configschema.Block

// nullJSON is the JSON null literal.
var nullJSON = json.RawMessage("null")

// marshalValue encodes a wholly known value as plain JSON, ignoring marks.
// A nil value (cty.NilVal) encodes as null.
func marshalValue(v cty.Value) (json.RawMessage, error) {
	if v == cty.NilVal {
		return nullJSON, nil
	}
	v, _ = v.UnmarkDeep()
	if v.IsNull() {
		return nullJSON, nil
	}
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return nil, err
	}
	return b, nil
}

// marshalKnownPart encodes the known part of v: unknown attributes and
// map elements are left out and unknown sequence elements become null. It
// returns nil when v itself is unknown.
func marshalKnownPart(v cty.Value) (json.RawMessage, error) {
	if v == cty.NilVal {
		return nullJSON, nil
	}
	v, _ = v.UnmarkDeep()
	known := omitUnknowns(v)
	if known == cty.NilVal {
		return nil, nil
	}
	return marshalValue(known)
}

// omitUnknowns returns v without its unknown parts, or cty.NilVal when v
// is itself unknown. Collections become tuples and objects, since their
// elements may now differ in type. v must be unmarked.
func omitUnknowns(v cty.Value) cty.Value {
	if v.IsNull() {
		return v
	}
	if !v.IsKnown() {
		return cty.NilVal
	}
	ty := v.Type()
	switch {
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		if v.LengthInt() == 0 {
			return cty.EmptyTupleVal
		}
		elems := make([]cty.Value, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			k := omitUnknowns(e)
			if k == cty.NilVal {
				// Position tells which element is which: keep a null.
				k = cty.NullVal(e.Type())
			}
			elems = append(elems, k)
		}
		return cty.TupleVal(elems)
	case ty.IsMapType() || ty.IsObjectType():
		attrs := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if known := omitUnknowns(e); known != cty.NilVal {
				attrs[k.AsString()] = known
			}
		}
		return cty.ObjectVal(attrs)
	}
	return v
}

// unknownTree describes where v is unknown: true for an unknown value,
// false for a known primitive or null, an array for a sequence and an
// object (without its false entries) for a map or object.
func unknownTree(v cty.Value) any {
	v, _ = v.UnmarkDeep()
	return unknownTreeOf(v)
}

func unknownTreeOf(v cty.Value) any {
	if !v.IsKnown() {
		return true
	}
	if v.IsNull() {
		return false
	}
	ty := v.Type()
	switch {
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		elems := make([]any, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			elems = append(elems, unknownTreeOf(e))
		}
		return elems
	case ty.IsMapType() || ty.IsObjectType():
		obj := map[string]any{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if t := unknownTreeOf(e); t != false {
				obj[k.AsString()] = t
			}
		}
		return obj
	}
	return false
}

// sensitiveTree describes where v is sensitive: true for a value with the
// sensitive mark, false for other primitives and nulls, an array for a
// sequence and an object (without its false entries) for a map or
// object. An unknown collection is an empty array or object.
func sensitiveTree(v cty.Value) any {
	if v == cty.NilVal {
		return false
	}
	if v.HasMark(marks.Sensitive) {
		return true
	}
	v, _ = v.Unmark()
	ty := v.Type()
	if v.IsNull() || ty.IsPrimitiveType() || ty == cty.DynamicPseudoType {
		return false
	}
	switch {
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		elems := []any{}
		if !v.IsKnown() {
			return elems
		}
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			elems = append(elems, sensitiveTree(e))
		}
		return elems
	case ty.IsMapType() || ty.IsObjectType():
		obj := map[string]any{}
		if !v.IsKnown() {
			return obj
		}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if t := sensitiveTree(e); t != false {
				obj[k.AsString()] = t
			}
		}
		return obj
	}
	return false
}

// markSchemaSensitive adds the sensitive mark to every attribute the
// schema declares sensitive, in nested blocks and nested attribute
// objects too.
func markSchemaSensitive(v cty.Value, schema *configschema.Block) cty.Value {
	if schema == nil {
		return v
	}
	unmarked, _ := v.UnmarkDeep()
	var paths []cty.Path
	schemaSensitivePaths(unmarked, schema.Attributes, schema.BlockTypes, nil, &paths)
	return marks.Apply(v, paths)
}

func schemaSensitivePaths(v cty.Value, attrs map[string]*configschema.Attribute, blocks map[string]*configschema.NestedBlock, path cty.Path, out *[]cty.Path) {
	if v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return
	}
	for name, a := range attrs {
		if !v.Type().HasAttribute(name) {
			continue
		}
		p := appendPath(path, cty.GetAttrStep{Name: name})
		if a.Sensitive {
			*out = append(*out, p)
			continue
		}
		if a.NestedType != nil {
			nestedSensitivePaths(v.GetAttr(name), a.NestedType.Nesting, p, func(ev cty.Value, ep cty.Path) {
				schemaSensitivePaths(ev, a.NestedType.Attributes, nil, ep, out)
			})
		}
	}
	for name, nb := range blocks {
		if !v.Type().HasAttribute(name) {
			continue
		}
		p := appendPath(path, cty.GetAttrStep{Name: name})
		nestedSensitivePaths(v.GetAttr(name), nb.Nesting, p, func(ev cty.Value, ep cty.Path) {
			schemaSensitivePaths(ev, nb.Attributes, nb.BlockTypes, ep, out)
		})
	}
}

// nestedSensitivePaths calls f for each object of a nested block or
// nested attribute value.
func nestedSensitivePaths(v cty.Value, nesting configschema.NestingMode, path cty.Path, f func(cty.Value, cty.Path)) {
	if v.IsNull() || !v.IsKnown() {
		return
	}
	switch nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		f(v, path)
	default:
		if !v.CanIterateElements() {
			return
		}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			f(e, appendPath(path, cty.IndexStep{Key: k}))
		}
	}
}

func appendPath(p cty.Path, step cty.PathStep) cty.Path {
	ret := make(cty.Path, len(p), len(p)+1)
	copy(ret, p)
	return append(ret, step)
}

// marshalPath encodes a path as Terraform does: attribute names as
// strings, index keys as their JSON values.
func marshalPath(p cty.Path) ([]json.RawMessage, error) {
	ret := make([]json.RawMessage, 0, len(p))
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b, _ := json.Marshal(s.Name)
			ret = append(ret, b)
		case cty.IndexStep:
			b, err := marshalValue(s.Key)
			if err != nil {
				return nil, err
			}
			ret = append(ret, b)
		default:
			return nil, fmt.Errorf("unsupported path step %T", step)
		}
	}
	return ret, nil
}

// instanceKeyJSON is the "index" of a resource instance: a number, a
// string, or nil for no key.
func instanceKeyJSON(k addrs.InstanceKey) any {
	switch k := k.(type) {
	case addrs.IntKey:
		return int(k)
	case addrs.StringKey:
		return string(k)
	}
	return nil
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
