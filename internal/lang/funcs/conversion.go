package funcs

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// MakeToFunc returns a type conversion function (tostring, tonumber,
// tobool, tolist, toset, tomap) that converts its argument to wantTy. A
// wantTy containing cty.DynamicPseudoType (e.g. cty.List(cty.DynamicPseudoType))
// takes its element type from the argument. Null converts to a null of the
// target type, and marks are preserved.
func MakeToFunc(wantTy cty.Type) function.Function {
	return function.New(&function.Spec{
		Description: fmt.Sprintf("Converts the given value to %s.", wantTy.FriendlyNameForConstraint()),
		Params: []function.Parameter{
			{
				Name:             "v",
				Type:             cty.DynamicPseudoType,
				AllowNull:        true,
				AllowUnknown:     true,
				AllowDynamicType: true,
				AllowMarked:      true,
			},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			arg := args[0]
			gotTy := arg.Type()
			if gotTy.Equals(wantTy) {
				return wantTy, nil
			}
			if convert.GetConversionUnsafe(gotTy, wantTy) == nil {
				return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to %s", gotTy.FriendlyNameForConstraint(), wantTy.FriendlyNameForConstraint())
			}
			if !wantTy.HasDynamicTypes() {
				return wantTy, nil
			}
			// The precise result type (e.g. the element type of a list)
			// depends on the value being converted.
			ret, err := convert.Convert(arg, wantTy)
			if err != nil {
				return cty.NilType, conversionError(arg, wantTy, err)
			}
			return ret.Type(), nil
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			ret, err := convert.Convert(args[0], retType)
			if err != nil {
				return cty.NilVal, conversionError(args[0], wantTy, err)
			}
			return ret, nil
		},
	})
}

// conversionError explains a failed value conversion, with special
// wording for the common string-to-primitive cases.
func conversionError(val cty.Value, wantTy cty.Type, err error) error {
	raw, marks := val.Unmark()
	if _, sensitive := marks[SensitiveMark]; sensitive {
		return function.NewArgErrorf(0, "cannot convert this sensitive %s to %s", raw.Type().FriendlyName(), wantTy.FriendlyNameForConstraint())
	}
	if raw.Type() == cty.String && raw.IsKnown() && !raw.IsNull() {
		switch wantTy {
		case cty.Number:
			return function.NewArgErrorf(0, "cannot convert %q to number; given string must be a decimal representation of a number", raw.AsString())
		case cty.Bool:
			return function.NewArgErrorf(0, "cannot convert %q to bool; only the strings \"true\" or \"false\" are allowed", raw.AsString())
		}
	}
	return function.NewArgErrorf(0, "cannot convert %s to %s: %s", raw.Type().FriendlyName(), wantTy.FriendlyNameForConstraint(), err)
}
