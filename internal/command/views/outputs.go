package views

import (
	"sort"
	"strings"

	"github.com/strata-dev/strata/internal/command/views/render"
	"github.com/strata-dev/strata/internal/states"
)

// Outputs renders root output values after apply: "Outputs:" and one
// `name = value` per output, sensitive ones as <sensitive>.
func (v *View) Outputs(outputs map[string]*states.OutputValue) {
	if len(outputs) == 0 {
		return
	}
	v.Output("[reset][bold][green]\nOutputs:\n\n")
	v.Raw(FormatOutputs(outputs))
}

// FormatOutputs renders outputs as `name = value` lines, sorted by name.
func FormatOutputs(outputs map[string]*states.OutputValue) string {
	names := make([]string, 0, len(outputs))
	for name := range outputs {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		o := outputs[name]
		b.WriteString(name)
		b.WriteString(" = ")
		if o.Sensitive {
			b.WriteString("<sensitive>")
		} else {
			b.WriteString(render.Value(o.Value, 0))
		}
		b.WriteString("\n")
	}
	return b.String()
}
