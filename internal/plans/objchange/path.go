package objchange

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang/marks"
)

// FormatPath renders a cty.Path as `.attr[0]["key"]` for messages.
//
// Attribute steps render as `.name`, string index steps as `["key"]` and
// number index steps as `[0]`. Index steps whose key is unknown render as
// `[?]`, and any other key (such as the element value used to address a set
// element) renders as `[...]`. The empty path renders as the empty string.
func FormatPath(path cty.Path) string {
	var b strings.Builder
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteByte('.')
			b.WriteString(s.Name)
		case cty.IndexStep:
			b.WriteString(formatIndexKey(s.Key))
		default:
			b.WriteString("[...]")
		}
	}
	return b.String()
}

func formatIndexKey(key cty.Value) string {
	key, _ = key.UnmarkDeep()
	switch {
	case !key.IsKnown():
		return "[?]"
	case key.IsNull():
		return "[...]"
	case key.Type() == cty.String:
		return fmt.Sprintf("[%q]", key.AsString())
	case key.Type() == cty.Number:
		return "[" + key.AsBigFloat().Text('f', -1) + "]"
	case key.Type() == cty.Bool:
		if key.True() {
			return "[true]"
		}
		return "[false]"
	default:
		return "[...]"
	}
}

// newError builds an error for the value at path. The message is prefixed by
// the rendered path (when non-empty) and the result is a cty.PathError so
// that callers can recover the path itself.
func newError(path cty.Path, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if p := FormatPath(path); p != "" {
		msg = p + ": " + msg
	}
	return path.NewError(plainError(msg))
}

type plainError string

func (e plainError) Error() string { return string(e) }

// renderValue renders a value for an error message, using cty's Go-syntax
// rendering (for example cty.StringVal("a") or cty.UnknownVal(cty.String)),
// which is unambiguous about types, nulls and unknowns. Values of sensitive
// attributes are never rendered.
func renderValue(v cty.Value, sensitive bool) string {
	if sensitive {
		return "(sensitive value)"
	}
	v, _ = v.UnmarkDeep()
	return fmt.Sprintf("%#v", v)
}

// renderNullable is renderValue, but "null" for a known null value, as
// Terraform words a value that became null or stopped being null ("was
// null, but now cty.StringVal(...)").
func renderNullable(v cty.Value, sensitive bool) string {
	if !sensitive && v.IsKnown() && v.IsNull() {
		return "null"
	}
	return renderValue(v, sensitive)
}

// appendPath returns a copy of path extended by step, so that paths stored in
// errors never share a backing array with paths still being extended.
func appendPath(path cty.Path, step cty.PathStep) cty.Path {
	ret := make(cty.Path, len(path), len(path)+1)
	copy(ret, path)
	return append(ret, step)
}

func attrPath(path cty.Path, name string) cty.Path {
	return appendPath(path, cty.GetAttrStep{Name: name})
}

func indexPath(path cty.Path, key cty.Value) cty.Path {
	return appendPath(path, cty.IndexStep{Key: key})
}

// isPresent reports whether v is a known, non-null value.
func isPresent(v cty.Value) bool {
	return v != cty.NilVal && v.IsKnown() && !v.IsNull()
}

// elements returns the elements of a known, non-null collection or
// structural value (list, set, tuple, map or object) as keys and values in
// cty's iteration order, and nothing for any other value.
func elements(v cty.Value) (keys, vals []cty.Value) {
	if !isPresent(v) || !v.CanIterateElements() {
		return nil, nil
	}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		keys = append(keys, k)
		vals = append(vals, e)
	}
	return keys, vals
}

// elementByKey returns the element of a known, non-null list, tuple, map or
// object value at key, or cty.NilVal if there is none.
func elementByKey(v cty.Value, key cty.Value) cty.Value {
	if !isPresent(v) {
		return cty.NilVal
	}
	ty := v.Type()
	if key == cty.NilVal || !key.IsKnown() || key.IsNull() {
		return cty.NilVal
	}
	switch {
	case (ty.IsObjectType() || ty.IsMapType()) && key.Type() != cty.String,
		(ty.IsListType() || ty.IsTupleType()) && key.Type() != cty.Number:
		return cty.NilVal
	case ty.IsObjectType():
		name := key.AsString()
		if !ty.HasAttribute(name) {
			return cty.NilVal
		}
		return v.GetAttr(name)
	case ty.IsMapType():
		if !v.HasIndex(key).True() {
			return cty.NilVal
		}
		return v.Index(key)
	case ty.IsListType(), ty.IsTupleType():
		i, acc := key.AsBigFloat().Int64()
		if acc != big.Exact || i < 0 || i >= int64(v.LengthInt()) {
			return cty.NilVal
		}
		return v.Index(key)
	default:
		return cty.NilVal
	}
}

// maxMatching finds a maximum bipartite matching between n left items and m
// right items, where ok reports whether left item i may be paired with right
// item j. It returns, for each left item, the index of its right item or -1.
// Left items are considered in order and each tries right items in order, so
// the result is deterministic.
func maxMatching(n, m int, ok func(i, j int) bool) []int {
	adj := make([][]bool, n)
	for i := range adj {
		adj[i] = make([]bool, m)
		for j := 0; j < m; j++ {
			adj[i][j] = ok(i, j)
		}
	}
	leftOf := make([]int, m)
	for j := range leftOf {
		leftOf[j] = -1
	}
	var try func(i int, seen []bool) bool
	try = func(i int, seen []bool) bool {
		for j := 0; j < m; j++ {
			if !adj[i][j] || seen[j] {
				continue
			}
			seen[j] = true
			if leftOf[j] < 0 || try(leftOf[j], seen) {
				leftOf[j] = i
				return true
			}
		}
		return false
	}
	for i := 0; i < n; i++ {
		try(i, make([]bool, m))
	}
	ret := make([]int, n)
	for i := range ret {
		ret[i] = -1
	}
	for j, i := range leftOf {
		if i >= 0 {
			ret[i] = j
		}
	}
	return ret
}

// unmarked returns v without any marks, treating cty.NilVal as null.
func unmarked(v cty.Value) cty.Value {
	if v == cty.NilVal {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	return marks.UnmarkDeep(v)
}

// sequenceLike reports whether ty is a list or tuple type, and mappingLike
// whether it is a map or object type: nested blocks whose contents have
// dynamic types use tuples and objects in place of lists and maps.
func sequenceLike(ty cty.Type) bool { return ty.IsListType() || ty.IsTupleType() }
func mappingLike(ty cty.Type) bool  { return ty.IsMapType() || ty.IsObjectType() }

// sameCollectionKind reports whether a and b are the same kind of
// collection, counting lists and tuples as one kind and maps and objects as
// another.
func sameCollectionKind(a, b cty.Type) bool {
	switch {
	case sequenceLike(a):
		return sequenceLike(b)
	case mappingLike(a):
		return mappingLike(b)
	case a.IsSetType():
		return b.IsSetType()
	default:
		return false
	}
}

// containsSensitive reports whether any attribute of the object described
// by attrs and blocks, at any depth, is sensitive.
func containsSensitive(attrs map[string]*configschema.Attribute, blocks map[string]*configschema.NestedBlock) bool {
	for _, a := range attrs {
		if a.Sensitive || (a.NestedType != nil && containsSensitive(a.NestedType.Attributes, nil)) {
			return true
		}
	}
	for _, nb := range blocks {
		if containsSensitive(nb.Attributes, nb.BlockTypes) {
			return true
		}
	}
	return false
}

// schemaConforms reports that a value of type got conforms to
// objectType(attrs, blocks), without building that type: for every
// object a provider returns. false means only that conformanceErrors must
// be asked.
func schemaConforms(got cty.Type, attrs map[string]*configschema.Attribute, blocks map[string]*configschema.NestedBlock) bool {
	if !got.IsObjectType() {
		return false
	}
	gattrs := got.AttributeTypes()
	if len(gattrs) != len(attrs)+len(blocks) {
		return false
	}
	for name, a := range attrs {
		if gty, ok := gattrs[name]; !ok || !TypeConforms(gty, a.ImpliedType()) {
			return false
		}
	}
	for name, nb := range blocks {
		if gty, ok := gattrs[name]; !ok || !TypeConforms(gty, nb.ImpliedType()) {
			return false
		}
	}
	return true
}

// objectType returns the object type implied by attrs and blocks.
func objectType(attrs map[string]*configschema.Attribute, blocks map[string]*configschema.NestedBlock) cty.Type {
	b := configschema.Block{Attributes: attrs, BlockTypes: blocks}
	return b.ImpliedType()
}

// conformanceErrors returns one error per reason why a value of type got
// at path cannot stand in for a value of type want, each message starting
// with what (such as "planned value"), or nil if it can.
func conformanceErrors(path cty.Path, got, want cty.Type, what string) []error {
	if TypeConforms(got, want) {
		// TestConformance allocates even when it finds nothing.
		return nil
	}
	var errs []error
	for _, err := range got.TestConformance(want) {
		errPath := path
		if pe, ok := err.(cty.PathError); ok {
			for _, step := range pe.Path {
				errPath = appendPath(errPath, step)
			}
		}
		errs = append(errs, newError(errPath, "%s does not conform to the schema: %s", what, err.Error()))
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errs
}

// sortedKeys returns the keys of m in lexical order, so that errors are
// reported in a stable order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TypeConforms reports whether got.TestConformance(want) finds nothing,
// without allocating: TestConformance builds a path as it goes, and the
// engine asks it of every value a provider returns.
func TypeConforms(got, want cty.Type) bool {
	if want.Equals(cty.DynamicPseudoType) || got.Equals(want) {
		return true
	}
	switch {
	case got.IsObjectType() && want.IsObjectType():
		gattrs, wattrs := got.AttributeTypes(), want.AttributeTypes()
		if len(gattrs) != len(wattrs) {
			return false
		}
		for name, wty := range wattrs {
			gty, ok := gattrs[name]
			if !ok || !TypeConforms(gty, wty) {
				return false
			}
		}
		return true
	case got.IsTupleType() && want.IsTupleType():
		gelems, welems := got.TupleElementTypes(), want.TupleElementTypes()
		if len(gelems) != len(welems) {
			return false
		}
		for i := range welems {
			if !TypeConforms(gelems[i], welems[i]) {
				return false
			}
		}
		return true
	case got.IsListType() && want.IsListType(), got.IsMapType() && want.IsMapType(), got.IsSetType() && want.IsSetType():
		return TypeConforms(got.ElementType(), want.ElementType())
	}
	return false
}
