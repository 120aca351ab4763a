package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// Value renders a value the way the "Outputs:" section after apply and
// the output command print it: strings quoted, numbers exact, collections
// spread over lines indented by two spaces per level (indent is the
// indentation of the line the value starts on), typed collections wrapped
// as tolist(...), toset(...) and tomap(...), multi-line strings as heredocs
// (<<EOT at the top level, <<-EOT when indented), sensitive values as
// (sensitive value), ephemeral ones as (ephemeral value) and unknown ones
// as (known after apply).
func Value(v cty.Value, indent int) string {
	if v == cty.NilVal {
		return "null"
	}
	if !v.IsKnown() {
		return "(known after apply)"
	}
	if v.HasMark(ephemeralMark) {
		// Only the console meets them: nothing stored can be ephemeral.
		return "(ephemeral value)"
	}
	if v.HasMark(sensitiveMark) {
		return "(sensitive value)"
	}
	v, _ = v.Unmark()
	ty := v.Type()
	if v.IsNull() {
		return nullValue(ty)
	}
	switch {
	case ty == cty.String:
		if s, ok := heredocValue(v.AsString(), indent); ok {
			return s
		}
		return esc(strconv.Quote(v.AsString()))
	case ty == cty.Number:
		// As Terraform: infinities (which only the console can see, as
		// 1/0) print as +Inf and -Inf.
		return v.AsBigFloat().Text('f', -1)
	case ty == cty.Bool:
		return strconv.FormatBool(v.True())
	case ty.IsObjectType():
		return mappingValue(v, indent)
	case ty.IsTupleType():
		return sequenceValue(v, indent)
	case ty.IsListType():
		return "tolist(" + sequenceValue(v, indent) + ")"
	case ty.IsSetType():
		return "toset(" + sequenceValue(v, indent) + ")"
	case ty.IsMapType():
		return "tomap(" + mappingValue(v, indent) + ")"
	}
	return v.GoString()
}

func nullValue(ty cty.Type) string {
	switch {
	case ty == cty.DynamicPseudoType:
		return "null"
	case ty == cty.String:
		return "tostring(null)"
	case ty == cty.Number:
		return "tonumber(null)"
	case ty == cty.Bool:
		return "tobool(null)"
	case ty.IsListType():
		return fmt.Sprintf("tolist(null) /* of %s */", ty.ElementType().FriendlyName())
	case ty.IsSetType():
		return fmt.Sprintf("toset(null) /* of %s */", ty.ElementType().FriendlyName())
	case ty.IsMapType():
		return fmt.Sprintf("tomap(null) /* of %s */", ty.ElementType().FriendlyName())
	}
	return fmt.Sprintf("null /* %s */", ty.FriendlyName())
}

// heredocValue renders a string with newlines as a heredoc whose
// delimiter does not clash with any of its lines.
func heredocValue(s string, indent int) (string, bool) {
	lines := strings.Split(s, "\n")
	if len(lines) < 2 {
		return "", false
	}
	op := "<<"
	if indent > 0 {
		op = "<<-"
	}
	delim := "EOT"
	for clash := true; clash; {
		clash = false
		for _, l := range lines {
			if strings.TrimSpace(l) == delim {
				delim += "_"
				clash = true
				break
			}
		}
	}
	pfx := strings.Repeat(" ", indent)
	var b strings.Builder
	b.WriteString(op + delim)
	for _, l := range lines {
		b.WriteString("\n" + pfx + esc(l))
	}
	b.WriteString("\n" + pfx + delim)
	return b.String(), true
}

func mappingValue(v cty.Value, indent int) string {
	var b strings.Builder
	b.WriteString("{")
	pfx := strings.Repeat(" ", indent+2)
	n := 0
	for it := v.ElementIterator(); it.Next(); n++ {
		k, e := it.Element()
		b.WriteString("\n" + pfx + Value(k, indent+2) + " = " + Value(e, indent+2))
	}
	if n > 0 {
		b.WriteString("\n" + strings.Repeat(" ", indent))
	}
	b.WriteString("}")
	return b.String()
}

func sequenceValue(v cty.Value, indent int) string {
	var b strings.Builder
	b.WriteString("[")
	pfx := strings.Repeat(" ", indent+2)
	n := 0
	for it := v.ElementIterator(); it.Next(); n++ {
		_, e := it.Element()
		b.WriteString("\n" + pfx + Value(e, indent+2) + ",")
	}
	if n > 0 {
		b.WriteString("\n" + strings.Repeat(" ", indent))
	}
	b.WriteString("]")
	return b.String()
}
