package funcs

import (
	"errors"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// LengthFunc returns the number of elements in a collection or structural
// value, or the number of characters (grapheme clusters) in a string.
var LengthFunc = function.New(&function.Spec{
	Description: "Determines the length of a given list, map, or string.",
	Params: []function.Parameter{
		{
			Name:             "value",
			Type:             cty.DynamicPseudoType,
			AllowDynamicType: true,
			AllowUnknown:     true,
			AllowMarked:      true,
		},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty == cty.String, ty == cty.DynamicPseudoType,
			ty.IsCollectionType(), ty.IsTupleType(), ty.IsObjectType():
			return cty.Number, nil
		default:
			return cty.Number, errors.New("argument must be a string, a collection type, or a structural type")
		}
	},
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull().NumberRangeLowerBound(cty.Zero, true)
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		val, marks := args[0].Unmark()
		ty := val.Type()
		switch {
		case ty == cty.DynamicPseudoType:
			return cty.UnknownVal(cty.Number).WithMarks(marks), nil
		case ty.IsTupleType():
			// A tuple's length is part of its type.
			return cty.NumberIntVal(int64(len(ty.TupleElementTypes()))).WithMarks(marks), nil
		case ty.IsObjectType():
			return cty.NumberIntVal(int64(len(ty.AttributeTypes()))).WithMarks(marks), nil
		case ty == cty.String:
			ret, err := stdlib.Strlen(val)
			return ret.WithMarks(marks), err
		case ty.IsListType(), ty.IsSetType(), ty.IsMapType():
			return val.Length().WithMarks(marks), nil
		default:
			return cty.UnknownVal(cty.Number), errors.New("argument must be a string, a collection type, or a structural type")
		}
	},
})

// CoalesceFunc returns the first argument that is neither null nor an
// empty string.
var CoalesceFunc = function.New(&function.Spec{
	Description: "Returns the first of the given arguments that isn't null or an empty string.",
	Params:      []function.Parameter{},
	VarParam: &function.Parameter{
		Name:             "vals",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		types := make([]cty.Type, len(args))
		for i, val := range args {
			types[i] = val.Type()
		}
		retType, _ := convert.UnifyUnsafe(types)
		if retType == cty.NilType {
			return cty.NilType, errors.New("all arguments must have the same type")
		}
		return retType, nil
	},
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		for _, arg := range args {
			if !arg.IsKnown() {
				return cty.UnknownVal(retType), nil
			}
			if arg.IsNull() {
				continue
			}
			val, err := convert.Convert(arg, retType)
			if err != nil {
				return cty.UnknownVal(retType), err
			}
			if retType == cty.String {
				raw, _ := val.Unmark()
				if !raw.IsKnown() {
					return cty.UnknownVal(retType), nil
				}
				if raw.AsString() == "" {
					continue
				}
			}
			return val, nil
		}
		return cty.NilVal, errors.New("no non-null, non-empty-string arguments")
	},
})

// IndexFunc returns the index of the first element of a list or tuple that
// equals the given value.
var IndexFunc = function.New(&function.Spec{
	Description: "Finds the element index for a given value in a list.",
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type: function.StaticReturnType(cty.Number),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		list, value := args[0], args[1]
		if !(list.Type().IsListType() || list.Type().IsTupleType()) {
			return cty.NilVal, errors.New("argument must be a list or tuple")
		}
		if !list.IsKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		if list.LengthInt() == 0 {
			return cty.NilVal, errors.New("cannot search an empty list")
		}
		for it := list.ElementIterator(); it.Next(); {
			i, v := it.Element()
			eq, err := stdlib.Equal(v, value)
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return i, nil
			}
		}
		return cty.NilVal, errors.New("item not found")
	},
})

// LookupFunc returns the element with the given key from a map or object,
// or the optional default value when there is no such element.
var LookupFunc = function.New(&function.Spec{
	Description: "Retrieves the value of a single element from a map, given its key. If the given key does not exist, the given default value is returned instead.",
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true},
		{Name: "key", Type: cty.String, AllowMarked: true},
	},
	VarParam: &function.Parameter{
		Name:             "default",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
		AllowMarked:      true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) < 2 || len(args) > 3 {
			return cty.NilType, fmt.Errorf("lookup() takes two or three arguments, got %d", len(args))
		}
		ty := args[0].Type()
		switch {
		case ty.IsObjectType():
			if !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			keyVal, _ := args[1].Unmark()
			key := keyVal.AsString()
			if ty.HasAttribute(key) {
				return ty.AttributeType(key), nil
			}
			if len(args) == 3 {
				// The default is what we'll return.
				return args[2].Type(), nil
			}
			return cty.DynamicPseudoType, function.NewArgErrorf(0, "the given object has no attribute %q", key)
		case ty.IsMapType():
			if len(args) == 3 {
				if _, err := convert.Convert(args[2], ty.ElementType()); err != nil {
					return cty.NilType, function.NewArgErrorf(2, "the default value must have the same type as the map elements")
				}
			}
			return ty.ElementType(), nil
		case ty == cty.DynamicPseudoType:
			return cty.DynamicPseudoType, nil
		default:
			return cty.NilType, function.NewArgErrorf(0, "lookup() requires a map as the first argument")
		}
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		var defaultVal cty.Value
		hasDefault := len(args) == 3
		if hasDefault {
			defaultVal = args[2]
		}

		mapVal, mapMarks := args[0].Unmark()
		keyVal, keyMarks := args[1].Unmark()
		if !mapVal.IsKnown() || !keyVal.IsKnown() {
			return cty.UnknownVal(retType).WithMarks(mapMarks, keyMarks), nil
		}
		key := keyVal.AsString()

		ty := mapVal.Type()
		if ty.IsObjectType() {
			if ty.HasAttribute(key) {
				return mapVal.GetAttr(key).WithMarks(mapMarks, keyMarks), nil
			}
		} else if mapVal.HasIndex(keyVal).True() {
			ret := mapVal.Index(keyVal)
			if retType != cty.DynamicPseudoType {
				var err error
				ret, err = convert.Convert(ret, retType)
				if err != nil {
					return cty.NilVal, err
				}
			}
			return ret.WithMarks(mapMarks, keyMarks), nil
		}

		if hasDefault {
			ret, err := convert.Convert(defaultVal, retType)
			if err != nil {
				return cty.NilVal, err
			}
			return ret.WithMarks(mapMarks, keyMarks), nil
		}
		return cty.UnknownVal(cty.DynamicPseudoType), fmt.Errorf("lookup failed to find key %q", key)
	},
})

// MatchkeysFunc constructs a new list from the elements of values whose
// corresponding element in keys appears in searchset.
var MatchkeysFunc = function.New(&function.Spec{
	Description: "Constructs a new list by taking a subset of elements from one list whose indexes match the corresponding indexes of values in another list.",
	Params: []function.Parameter{
		{Name: "values", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "keys", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "searchset", Type: cty.List(cty.DynamicPseudoType)},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if _, err := matchkeysKeyType(args); err != nil {
			return cty.NilType, err
		}
		return args[0].Type(), nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		elemTy := retType.ElementType()
		values, keys, searchset := args[0], args[1], args[2]
		if !values.IsWhollyKnown() || !keys.IsWhollyKnown() || !searchset.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		if values.LengthInt() != keys.LengthInt() {
			return cty.UnknownVal(retType), errors.New("length of keys and values should be equal")
		}

		// Compare keys and search values as the same type, so that e.g.
		// 1 and "1" match.
		keyTy, _ := matchkeysKeyType(args)
		keys, err := convert.Convert(keys, cty.List(keyTy))
		if err != nil {
			return cty.UnknownVal(retType), function.NewArgError(1, err)
		}
		searchset, err = convert.Convert(searchset, cty.List(keyTy))
		if err != nil {
			return cty.UnknownVal(retType), function.NewArgError(2, err)
		}
		wanted := searchset.AsValueSlice()

		valueSlice := values.AsValueSlice()
		var matched []cty.Value
		for i, key := range keys.AsValueSlice() {
			for _, w := range wanted {
				if key.RawEquals(w) {
					matched = append(matched, valueSlice[i])
					break
				}
			}
		}
		if len(matched) == 0 {
			return cty.ListValEmpty(elemTy), nil
		}
		return cty.ListVal(matched), nil
	},
})

// matchkeysKeyType finds the common element type of matchkeys' keys and
// searchset arguments.
func matchkeysKeyType(args []cty.Value) (cty.Type, error) {
	ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type().ElementType(), args[2].Type().ElementType()})
	if ty == cty.NilType {
		return cty.NilType, errors.New("keys and searchset must be of the same type")
	}
	return ty, nil
}

// OneFunc returns the single element of a collection with zero or one
// elements, or null if it has none.
var OneFunc = function.New(&function.Spec{
	Description: "Returns either the first element of a one-element list, or `null` if given a zero-element list.",
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty.IsListType(), ty.IsSetType():
			return ty.ElementType(), nil
		case ty.IsTupleType() && len(ty.TupleElementTypes()) == 0:
			return cty.DynamicPseudoType, nil
		case ty.IsTupleType() && len(ty.TupleElementTypes()) == 1:
			return ty.TupleElementTypes()[0], nil
		}
		return cty.NilType, errOneElements
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		coll := args[0]
		n := coll.Length()
		if !n.IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		switch coll.LengthInt() {
		case 0:
			return cty.NullVal(retType), nil
		case 1:
			it := coll.ElementIterator()
			it.Next()
			_, elem := it.Element()
			return elem, nil
		default:
			return cty.NilVal, errOneElements
		}
	},
})

var errOneElements = function.NewArgErrorf(0, "must be a list, set, or tuple value with either zero or one elements")

// AllTrueFunc returns true if all elements of the given list are true, or
// if the list is empty.
var AllTrueFunc = function.New(&function.Spec{
	Description: "Returns `true` if all elements in a given collection are `true` or `\"true\"`. It also returns `true` if the collection is empty.",
	Params: []function.Parameter{
		{Name: "list", Type: cty.List(cty.Bool)},
	},
	Type: function.StaticReturnType(cty.Bool),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		result := cty.True
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			if !v.IsKnown() {
				return cty.UnknownVal(cty.Bool), nil
			}
			if v.IsNull() {
				return cty.False, nil
			}
			result = result.And(v)
			if result.False() {
				return cty.False, nil
			}
		}
		return result, nil
	},
})

// AnyTrueFunc returns true if any element of the given list is true.
var AnyTrueFunc = function.New(&function.Spec{
	Description: "Returns `true` if any of the elements in a given collection are `true` or `\"true\"`. It also returns `false` if the collection is empty.",
	Params: []function.Parameter{
		{Name: "list", Type: cty.List(cty.Bool)},
	},
	Type: function.StaticReturnType(cty.Bool),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		result := cty.False
		var hasUnknown bool
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			if !v.IsKnown() {
				hasUnknown = true
				continue
			}
			if v.IsNull() {
				continue
			}
			result = result.Or(v)
			if result.True() {
				return cty.True, nil
			}
		}
		if hasUnknown {
			return cty.UnknownVal(cty.Bool), nil
		}
		return result, nil
	},
})

// TransposeFunc swaps the keys and values of a map of lists of strings.
var TransposeFunc = function.New(&function.Spec{
	Description: "Takes a map of lists of strings and swaps the keys and values to produce a new map of lists of strings.",
	Params: []function.Parameter{
		{Name: "values", Type: cty.Map(cty.List(cty.String))},
	},
	Type: function.StaticReturnType(cty.Map(cty.List(cty.String))),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		in := args[0]
		if !in.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}

		// Map iteration is in key order, so each output list comes out
		// sorted by the input keys it was gathered from.
		swapped := make(map[string][]cty.Value)
		for it := in.ElementIterator(); it.Next(); {
			key, list := it.Element()
			if list.IsNull() {
				return cty.UnknownVal(retType), errors.New("input must not contain null list")
			}
			for _, elem := range list.AsValueSlice() {
				if elem.IsNull() {
					return cty.UnknownVal(retType), errors.New("input list must not contain null string")
				}
				s := elem.AsString()
				swapped[s] = append(swapped[s], key)
			}
		}
		if len(swapped) == 0 {
			return cty.MapValEmpty(cty.List(cty.String)), nil
		}
		out := make(map[string]cty.Value, len(swapped))
		for k, keys := range swapped {
			out[k] = cty.ListVal(keys)
		}
		return cty.MapVal(out), nil
	},
})

// ContainsFunc is go-cty's contains with the value parameter not nullable,
// as in the go-cty version Terraform 1.11 uses: contains(list, null) is an
// error there, not an unknown result.
var ContainsFunc = withParams(stdlib.ContainsFunc, func(params []function.Parameter, _ *function.Parameter) {
	params[1].AllowNull = false
})

// withParams returns f with its parameters adjusted by edit. The result
// type and implementation are f's.
func withParams(f function.Function, edit func(params []function.Parameter, varParam *function.Parameter)) function.Function {
	params := f.Params()
	var varParam *function.Parameter
	if vp := f.VarParam(); vp != nil {
		varParam = vp
	}
	edit(params, varParam)
	return function.New(&function.Spec{
		Description: f.Description(),
		Params:      params,
		VarParam:    varParam,
		Type: func(args []cty.Value) (cty.Type, error) {
			return f.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			return f.Call(args)
		},
	})
}
