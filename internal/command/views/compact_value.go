package views

import (
	"fmt"
	"strconv"

	"github.com/zclconf/go-cty/cty"
)

// CompactValue is a known, non-null value as Terraform's messages about
// values show it: a string quoted, a number or bool as written, and a
// collection or structure by its type and size ("tuple with 1 element",
// "object with 1 attribute \"a\""). It is "" for values of other types.
func CompactValue(v cty.Value) string {
	ty := v.Type()
	switch {
	case ty == cty.String:
		return strconv.Quote(v.AsString())
	case ty == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case ty == cty.Bool:
		return strconv.FormatBool(v.True())
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType(), ty.IsMapType():
		switch n := v.LengthInt(); n {
		case 0:
			return "empty " + ty.FriendlyName()
		case 1:
			return ty.FriendlyName() + " with 1 element"
		default:
			return fmt.Sprintf("%s with %d elements", ty.FriendlyName(), n)
		}
	case ty.IsObjectType():
		attrs := ty.AttributeTypes()
		switch len(attrs) {
		case 0:
			return "object with no attributes"
		case 1:
			for name := range attrs {
				return fmt.Sprintf("object with 1 attribute %q", name)
			}
		}
		return fmt.Sprintf("object with %d attributes", len(attrs))
	}
	return ""
}
