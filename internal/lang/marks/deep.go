package marks

import "github.com/zclconf/go-cty/cty"

// Any reports whether v or anything inside it carries a mark of any kind.
// Unlike cty's ContainsMarked and UnmarkDeep it allocates nothing for
// objects and primitives, the common case: most values in a large
// configuration or state carry no marks at all, and checking first keeps
// the per-instance cost of the deep cty walks off them.
func Any(v cty.Value) bool {
	if v.IsMarked() {
		return true
	}
	if !v.IsKnown() || v.IsNull() {
		return false
	}
	ty := v.Type()
	switch {
	case ty.IsPrimitiveType():
		return false
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if Any(v.GetAttr(name)) {
				return true
			}
		}
		return false
	case ty.IsListType(), ty.IsSetType(), ty.IsMapType(), ty.IsTupleType():
		if v.LengthInt() == 0 {
			return false
		}
		for it := v.ElementIterator(); it.Next(); {
			if _, e := it.Element(); Any(e) {
				return true
			}
		}
	}
	return false
}

// UnmarkDeep returns v without any marks, deep. v itself when it carries
// none.
func UnmarkDeep(v cty.Value) cty.Value {
	if !Any(v) {
		return v
	}
	v, _ = v.UnmarkDeep()
	return v
}

// KnownEqual reports whether a and b are of the same type, wholly known,
// without marks anywhere and equal: then both cty's Equals (True) and
// RawEquals (true) agree. false means only that the caller must ask cty.
// cty's Equals checks each nested value for marks with an allocating walk
// at every level; for the common case of equal, unmarked objects this
// answers without allocating.
func KnownEqual(a, b cty.Value) bool {
	if a.IsMarked() || b.IsMarked() || !a.IsKnown() || !b.IsKnown() {
		return false
	}
	ty := a.Type()
	if !ty.Equals(b.Type()) {
		return false
	}
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	switch {
	case ty == cty.String:
		return a.AsString() == b.AsString()
	case ty == cty.Bool:
		return a.True() == b.True()
	case ty == cty.Number:
		return a.AsBigFloat().Cmp(b.AsBigFloat()) == 0
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if !KnownEqual(a.GetAttr(name), b.GetAttr(name)) {
				return false
			}
		}
		return true
	case ty.IsListType(), ty.IsTupleType(), ty.IsMapType():
		if a.LengthInt() != b.LengthInt() {
			return false
		}
		for ia, ib := a.ElementIterator(), b.ElementIterator(); ia.Next() && ib.Next(); {
			ka, ea := ia.Element()
			kb, eb := ib.Element()
			if !KnownEqual(ka, kb) || !KnownEqual(ea, eb) {
				return false
			}
		}
		return true
	}
	return false
}
