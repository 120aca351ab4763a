package engine

import (
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// consoleType marks the result of the console's type() function, which
// the console prints as a type expression rather than as a string.
type consoleType struct{}

// ConsoleTypeString returns the type expression a console value stands for
// when it is the result of type(), as terraform console prints it.
func ConsoleTypeString(v cty.Value) (string, bool) {
	if !v.HasMark(consoleType{}) {
		return "", false
	}
	u, _ := v.Unmark()
	return u.AsString(), true
}

// typeFunction is terraform console's type(): the type of its argument.
var typeFunction = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name: "value", Type: cty.DynamicPseudoType,
		AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true,
	}},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(typeString(args[0].Type(), 0)).Mark(consoleType{}), nil
	},
})

// typeString writes a type as a type constraint, structural types one
// member per line as terraform console does.
func typeString(ty cty.Type, indent int) string {
	pad := strings.Repeat("    ", indent+1)
	end := strings.Repeat("    ", indent)
	switch {
	case ty == cty.DynamicPseudoType:
		return "dynamic"
	case ty.IsPrimitiveType():
		return ty.FriendlyNameForConstraint()
	case ty.IsListType(), ty.IsSetType(), ty.IsMapType():
		kind := "map"
		switch {
		case ty.IsListType():
			kind = "list"
		case ty.IsSetType():
			kind = "set"
		}
		et := ty.ElementType()
		if et.IsObjectType() || et.IsTupleType() {
			// A structural element goes on its own lines.
			return kind + "(\n" + pad + typeString(et, indent+1) + ",\n" + end + ")"
		}
		return kind + "(" + typeString(et, indent) + ")"
	case ty.IsTupleType():
		var b strings.Builder
		b.WriteString("tuple([\n")
		for _, et := range ty.TupleElementTypes() {
			b.WriteString(pad + typeString(et, indent+1) + ",\n")
		}
		return b.String() + end + "])"
	case ty.IsObjectType():
		atys := ty.AttributeTypes()
		names := make([]string, 0, len(atys))
		for n := range atys {
			names = append(names, n)
		}
		sort.Strings(names)
		var b strings.Builder
		b.WriteString("object({\n")
		for _, n := range names {
			b.WriteString(pad + n + ": " + typeString(atys[n], indent+1) + ",\n")
		}
		return b.String() + end + "})"
	}
	return ty.FriendlyName()
}
