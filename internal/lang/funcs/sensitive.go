package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// sensitivityParam is the single parameter of the mark-handling functions:
// they must see every kind of value, marks included.
var sensitivityParam = []function.Parameter{
	{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowNull:        true,
		AllowMarked:      true,
		AllowDynamicType: true,
	},
}

// SensitiveFunc returns its argument marked as sensitive.
var SensitiveFunc = function.New(&function.Spec{
	Description: "Treats the given value as sensitive, hiding it in output.",
	Params:      sensitivityParam,
	Type: func(args []cty.Value) (cty.Type, error) {
		return args[0].Type(), nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return args[0].Mark(SensitiveMark), nil
	},
})

// NonsensitiveFunc removes the sensitive mark from the top level of its
// argument, keeping any other marks. Values that aren't sensitive are
// returned unchanged.
var NonsensitiveFunc = function.New(&function.Spec{
	Description: "Removes the sensitive marking from the given value, allowing it to be shown in output.",
	Params:      sensitivityParam,
	Type: func(args []cty.Value) (cty.Type, error) {
		return args[0].Type(), nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		v, marks := args[0].Unmark()
		delete(marks, SensitiveMark)
		return v.WithMarks(marks), nil
	},
})

// IsSensitiveFunc reports whether its argument is marked sensitive at the
// top level. The result is unknown for an unknown value that isn't itself
// marked, since it might later turn out to be sensitive.
var IsSensitiveFunc = function.New(&function.Spec{
	Description: "Returns true if the given value is marked as sensitive.",
	Params:      sensitivityParam,
	Type:        function.StaticReturnType(cty.Bool),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		switch v := args[0]; {
		case v.HasMark(SensitiveMark):
			return cty.True, nil
		case !v.IsKnown():
			return cty.UnknownVal(cty.Bool), nil
		default:
			return cty.False, nil
		}
	},
})

// EphemeralAsNullFunc returns its argument with every value marked
// ephemeral, at any depth, replaced by an unmarked null of the same type.
var EphemeralAsNullFunc = function.New(&function.Spec{
	Description: "Takes a value of any type and returns a similar value of the same type with any ephemeral values replaced with non-ephemeral null values and all non-ephemeral values preserved.",
	Params:      sensitivityParam,
	Type: func(args []cty.Value) (cty.Type, error) {
		return args[0].Type(), nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return ephemeralAsNull(args[0]), nil
	},
})

func ephemeralAsNull(v cty.Value) cty.Value {
	raw, marks := v.Unmark()
	if _, ok := marks[EphemeralMark]; ok {
		// As in Terraform, the null carries no marks: not even the
		// sensitivity of the value it replaces.
		return cty.NullVal(raw.Type())
	}
	if !raw.IsKnown() || raw.IsNull() || !raw.ContainsMarked() {
		return v
	}

	ty := raw.Type()
	switch {
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		elems := make([]cty.Value, 0, raw.LengthInt())
		for it := raw.ElementIterator(); it.Next(); {
			_, e := it.Element()
			elems = append(elems, ephemeralAsNull(e))
		}
		var ret cty.Value
		switch {
		case len(elems) == 0:
			ret = raw
		case ty.IsListType():
			ret = cty.ListVal(elems)
		case ty.IsSetType():
			ret = cty.SetVal(elems)
		default:
			ret = cty.TupleVal(elems)
		}
		return ret.WithMarks(marks)
	case ty.IsMapType(), ty.IsObjectType():
		attrs := make(map[string]cty.Value, raw.LengthInt())
		for it := raw.ElementIterator(); it.Next(); {
			k, e := it.Element()
			attrs[k.AsString()] = ephemeralAsNull(e)
		}
		var ret cty.Value
		switch {
		case len(attrs) == 0:
			ret = raw
		case ty.IsMapType():
			ret = cty.MapVal(attrs)
		default:
			ret = cty.ObjectVal(attrs)
		}
		return ret.WithMarks(marks)
	default:
		return v
	}
}
