package render

import (
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/plans"
)

// Output is one root module output change.
type Output struct {
	Name          string
	Action        plans.Action
	Before, After cty.Value
	Sensitive     bool
}

// OutputChange renders one line (possibly continued over several lines for
// collections) of the "Changes to Outputs:" section, such as
// `  + o = "x"`, without a trailing newline and without aligning the name
// with other outputs (OutputChanges does that). It returns "" when nothing
// visible changes (a no-op, or a sensitive value planned to stay the same).
func OutputChange(name string, action plans.Action, before, after cty.Value, sensitive bool) string {
	return outputLine(Output{Name: name, Action: action, Before: before, After: after, Sensitive: sensitive}, 0)
}

// OutputChanges renders the body of the "Changes to Outputs:" section:
// outputs sorted by name, names aligned to the longest of all the outputs
// given (no-op ones included), no-op outputs left out, one newline-ended
// entry per output.
func OutputChanges(outs []Output) string {
	sorted := append([]Output(nil), outs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	width := 0
	for _, o := range sorted {
		width = max(width, len(attrName(o.Name)))
	}
	var b strings.Builder
	for _, o := range sorted {
		if l := outputLine(o, width); l != "" {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

func outputLine(o Output, width int) string {
	if o.Action == plans.NoOp {
		return ""
	}
	n := outputDiff(o)
	if n.action() == plans.NoOp {
		return ""
	}
	return sym(n.action(), opts{}) + pad(attrName(o.Name), width) + " = " + n.render(0, opts{})
}

// outputDiff compares an output's values with JSON semantics, as
// Terraform does for outputs.
func outputDiff(o Output) node {
	side := func(v cty.Value) (*jval, bool) {
		if v == cty.NilVal || isNull(v) {
			return nil, false
		}
		j := fromCty(v)
		if o.Sensitive {
			j.sensitive = true
		}
		return j, true
	}
	b, bp := side(o.Before)
	a, ap := side(o.After)
	if o.Action == plans.Create {
		b, bp = nil, false
	}
	if o.Action == plans.Delete {
		a, ap = nil, false
	}
	return diffJSON(b, a, bp, ap)
}

// StateOutput renders one output the way `show` lists outputs after the
// resources, e.g. `o = "x"`, without a trailing newline.
func StateOutput(name string, v cty.Value, sensitive bool) string {
	if sensitive {
		v = v.Mark(sensitiveMark)
	}
	d := &differ{}
	ty := cty.DynamicPseudoType
	if u, _ := v.UnmarkDeep(); u.IsWhollyKnown() {
		ty = u.Type()
	}
	n := d.typed(v, v, ty, false, nil)
	return attrName(name) + " = " + n.render(0, opts{hideSymbols: true, showUnchanged: true})
}
