package objchange

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang/marks"
)

// AssertObjectCompatible checks that actual is compatible with planned:
// every known value in planned must be identical in actual, recursively
// through nested attribute values, collections and nested blocks, while an
// unknown value in planned may become any value (including null) whose type
// conforms to the unknown value's type; an unknown of type
// cty.DynamicPseudoType accepts anything. Refinements on planned unknown
// values (such as "not null") are honoured.
//
// It is used both to check the final planned state against the initial
// planned state (actual may then still contain unknowns where planned did)
// and to check the new state returned by ApplyResourceChange against the
// final planned state. Marks on the inputs are ignored. Each error message
// starts with the path of the offending value as rendered by FormatPath, for
// example `.output: was cty.StringVal("a"), but now cty.StringVal("b")`, and
// each error is a cty.PathError. Values of sensitive attributes are not
// rendered.
func AssertObjectCompatible(schema *configschema.Block, planned, actual cty.Value) []error {
	if schema == nil {
		schema = &configschema.Block{}
	}
	return compatObject(schema.Attributes, schema.BlockTypes, unmarked(planned), unmarked(actual), nil)
}

// presence describes whether a value is present for block-level messages.
func presence(v cty.Value) string {
	switch {
	case !v.IsKnown():
		return "unknown"
	case v.IsNull():
		return "absent"
	default:
		return "present"
	}
}

// compatObject checks one object of a block (attrs and blocks).
func compatObject(attrs map[string]*configschema.Attribute, blocks map[string]*configschema.NestedBlock, planned, actual cty.Value, path cty.Path) []error {
	if !planned.IsKnown() {
		return compatUnknown(planned, actual, path, containsSensitive(attrs, blocks))
	}
	if planned.IsNull() || !actual.IsKnown() || actual.IsNull() {
		if presence(planned) != presence(actual) {
			return []error{newError(path, "was %s, but now %s", presence(planned), presence(actual))}
		}
		return nil
	}
	if !schemaConforms(actual.Type(), attrs, blocks) {
		if errs := conformanceErrors(path, actual.Type(), objectType(attrs, blocks), "new value"); len(errs) > 0 {
			return errs
		}
	}
	if !planned.Type().IsObjectType() {
		return nil
	}
	var errs []error
	for _, name := range sortedKeys(attrs) {
		attr := attrs[name]
		if !planned.Type().HasAttribute(name) {
			continue
		}
		errs = append(errs, compatValue(planned.GetAttr(name), actual.GetAttr(name), attrPath(path, name), attr.Sensitive || (attr.NestedType != nil && containsSensitive(attr.NestedType.Attributes, nil)))...)
	}
	for _, name := range sortedKeys(blocks) {
		nb := blocks[name]
		if !planned.Type().HasAttribute(name) {
			continue
		}
		errs = append(errs, compatBlock(nb, planned.GetAttr(name), actual.GetAttr(name), attrPath(path, name))...)
	}
	return errs
}

func compatBlock(nb *configschema.NestedBlock, planned, actual cty.Value, path cty.Path) []error {
	elem := func(p, a cty.Value, path cty.Path) []error {
		return compatObject(nb.Attributes, nb.BlockTypes, p, a, path)
	}
	if nb.Nesting == configschema.NestingSingle || nb.Nesting == configschema.NestingGroup {
		if planned.IsKnown() && presence(planned) != presence(actual) {
			return []error{newError(path, "block was %s, but now %s", presence(planned), presence(actual))}
		}
		return elem(planned, actual, path)
	}

	sens := containsSensitive(nb.Attributes, nb.BlockTypes)
	switch {
	case !planned.IsKnown():
		return compatUnknown(planned, actual, path, sens)
	case planned.IsNull() || !actual.IsKnown() || actual.IsNull():
		if presence(planned) != presence(actual) {
			return []error{newError(path, "block collection was %s, but now %s", presence(planned), presence(actual))}
		}
		return nil
	case !sameCollectionKind(planned.Type(), actual.Type()):
		return []error{newError(path, "new value of type %s does not conform to the schema", actual.Type().FriendlyName())}
	}

	pkeys, pvals := elements(planned)
	akeys, avals := elements(actual)
	switch nb.Nesting {
	case configschema.NestingList:
		if len(pvals) != len(avals) {
			return []error{newError(path, "block count changed from %d to %d", len(pvals), len(avals))}
		}
		var errs []error
		for i := range pvals {
			errs = append(errs, elem(pvals[i], avals[i], indexPath(path, pkeys[i]))...)
		}
		return errs

	case configschema.NestingMap:
		var errs []error
		for i, k := range pkeys {
			a := elementByKey(actual, k)
			if a == cty.NilVal {
				errs = append(errs, newError(indexPath(path, k), "block was present, but now absent"))
				continue
			}
			errs = append(errs, elem(pvals[i], a, indexPath(path, k))...)
		}
		for _, k := range akeys {
			if elementByKey(planned, k) == cty.NilVal {
				errs = append(errs, newError(indexPath(path, k), "block was absent, but now present"))
			}
		}
		return errs

	case configschema.NestingSet:
		return compatSet(planned, pvals, avals, path, sens, func(p, a cty.Value) bool {
			return len(elem(p, a, nil)) == 0
		})

	default:
		return nil
	}
}

// compatUnknown checks actual against an unknown planned value: its type
// must conform to the planned type and it must satisfy any refinements.
func compatUnknown(planned, actual cty.Value, path cty.Path, sens bool) []error {
	pty := planned.Type()
	if pty == cty.DynamicPseudoType {
		return nil
	}
	aty := actual.Type()
	if aty == cty.DynamicPseudoType && (!actual.IsKnown() || actual.IsNull()) {
		return nil
	}
	if !TypeConforms(aty, pty) {
		return []error{newError(path, "was %s, but now %s", renderValue(planned, sens), renderValue(actual, sens))}
	}
	if actual.IsKnown() && !marks.KnownEqual(planned, actual) {
		if eq := planned.Equals(actual); eq.IsKnown() && eq.False() {
			return []error{newError(path, "was %s, but now %s", renderValue(planned, sens), renderValue(actual, sens))}
		}
	}
	return nil
}

// compatValue checks an attribute value (of any type, including nested
// attribute objects) structurally.
func compatValue(planned, actual cty.Value, path cty.Path, sens bool) []error {
	if !planned.IsKnown() {
		return compatUnknown(planned, actual, path, sens)
	}
	if marks.KnownEqual(planned, actual) || planned.IsWhollyKnown() && planned.RawEquals(actual) {
		return nil
	}
	wasNow := func() []error {
		return []error{newError(path, "was %s, but now %s", renderNullable(planned, sens), renderNullable(actual, sens))}
	}
	if planned.IsNull() || !actual.IsKnown() || actual.IsNull() {
		if planned.IsNull() && actual.IsKnown() && actual.IsNull() {
			return nil
		}
		return wasNow()
	}
	pty, aty := planned.Type(), actual.Type()
	switch {
	case pty.IsObjectType():
		if !aty.IsObjectType() || len(pty.AttributeTypes()) != len(aty.AttributeTypes()) {
			return wasNow()
		}
		for name := range pty.AttributeTypes() {
			if !aty.HasAttribute(name) {
				return wasNow()
			}
		}
		var errs []error
		for _, name := range sortedKeys(pty.AttributeTypes()) {
			errs = append(errs, compatValue(planned.GetAttr(name), actual.GetAttr(name), attrPath(path, name), sens)...)
		}
		return errs

	case pty.IsListType() || pty.IsTupleType():
		if pty.IsListType() != aty.IsListType() || pty.IsTupleType() != aty.IsTupleType() || planned.LengthInt() != actual.LengthInt() {
			return wasNow()
		}
		keys, pvals := elements(planned)
		_, avals := elements(actual)
		var errs []error
		for i := range pvals {
			errs = append(errs, compatValue(pvals[i], avals[i], indexPath(path, keys[i]), sens)...)
		}
		return errs

	case pty.IsMapType():
		if !aty.IsMapType() || planned.LengthInt() != actual.LengthInt() {
			return wasNow()
		}
		keys, pvals := elements(planned)
		for _, k := range keys {
			if elementByKey(actual, k) == cty.NilVal {
				return wasNow()
			}
		}
		var errs []error
		for i, k := range keys {
			errs = append(errs, compatValue(pvals[i], elementByKey(actual, k), indexPath(path, k), sens)...)
		}
		return errs

	case pty.IsSetType():
		if !aty.IsSetType() {
			return wasNow()
		}
		_, pvals := elements(planned)
		_, avals := elements(actual)
		return compatSet(planned, pvals, avals, path, sens, func(p, a cty.Value) bool {
			return len(compatValue(p, a, nil, sens)) == 0
		})

	default:
		return wasNow()
	}
}

// compatSet checks the elements of a known, non-null planned set against
// those of a known, non-null actual set. Set elements cannot be correlated by
// key, so each planned element must be compatible with some actual element and
// each actual element with some planned element. Unknown planned elements may
// coalesce once known, so actual may have fewer elements than planned, but
// never more.
func compatSet(planned cty.Value, pvals, avals []cty.Value, path cty.Path, sens bool, ok func(p, a cty.Value) bool) []error {
	var errs []error
	pairs := make([][]bool, len(pvals))
	for i, p := range pvals {
		pairs[i] = make([]bool, len(avals))
		for j, a := range avals {
			pairs[i][j] = ok(p, a)
		}
	}
	for i, p := range pvals {
		found := false
		for j := range avals {
			found = found || pairs[i][j]
		}
		if !found {
			errs = append(errs, newError(path, "planned set element %s does not correlate with any element in actual", renderValue(p, sens)))
		}
	}
	for j, a := range avals {
		found := false
		for i := range pvals {
			found = found || pairs[i][j]
		}
		if !found {
			errs = append(errs, newError(path, "new set element %s does not correlate with any element in plan", renderValue(a, sens)))
		}
	}
	if len(errs) == 0 && (len(avals) > len(pvals) || (planned.IsWhollyKnown() && len(avals) != len(pvals))) {
		errs = append(errs, newError(path, "set length changed from %d to %d", len(pvals), len(avals)))
	}
	return errs
}
