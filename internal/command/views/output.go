package views

import (
	"encoding/json"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/command/views/render"
	"github.com/strata-dev/strata/internal/states"
)

// Output is the view of `strata output`: every root output, or one, as
// text (OutputHuman), as JSON (OutputJSON, -json) or as a bare string
// (OutputRaw, -raw).
type Output interface {
	Diagnosticser
	// All shows every output; a state without outputs is a warning,
	// except for -json, which prints {}. It returns false when it
	// reported an error.
	All(outputs map[string]*states.OutputValue) bool
	// One shows the output name; it reports an error, and returns false,
	// for a value the format cannot show.
	One(name string, o *states.OutputValue) bool
}

// NewOutput returns the view for -json, -raw or neither.
func NewOutput(json, raw bool, v *View) Output {
	switch {
	case json:
		return &OutputJSON{View: v}
	case raw:
		return &OutputRaw{View: v}
	}
	return &OutputHuman{View: v}
}

// OutputHuman renders values as `name = value` lines, as Terraform does.
type OutputHuman struct{ *View }

var _ Output = (*OutputHuman)(nil)

// All implements Output.
func (h *OutputHuman) All(outputs map[string]*states.OutputValue) bool {
	if len(outputs) == 0 {
		h.Diagnostics(NoOutputsWarning())
		return true
	}
	h.Raw(FormatOutputs(outputs))
	return true
}

// One implements Output.
func (h *OutputHuman) One(_ string, o *states.OutputValue) bool {
	h.Raw(render.Value(o.Value, 0) + "\n")
	return true
}

// OutputJSON renders values as JSON: for all outputs, an object of
// sensitive, type and value by name.
type OutputJSON struct{ *View }

var _ Output = (*OutputJSON)(nil)

// All implements Output.
func (j *OutputJSON) All(outputs map[string]*states.OutputValue) bool {
	out := map[string]any{}
	for name, o := range outputs {
		val, _ := ctyjson.Marshal(o.Value, o.Value.Type())
		ty, _ := ctyjson.MarshalType(o.Value.Type())
		out[name] = struct {
			Sensitive bool            `json:"sensitive"`
			Type      json.RawMessage `json:"type"`
			Value     json.RawMessage `json:"value"`
		}{o.Sensitive, ty, val}
	}
	data, _ := json.MarshalIndent(out, "", "  ")
	j.Raw(string(data) + "\n")
	return true
}

// One implements Output.
func (j *OutputJSON) One(_ string, o *states.OutputValue) bool {
	data, _ := ctyjson.Marshal(o.Value, o.Value.Type())
	j.Raw(string(data) + "\n")
	return true
}

// OutputRaw prints one string, number or bool as it is, without a
// newline (-raw).
type OutputRaw struct{ *View }

var _ Output = (*OutputRaw)(nil)

// All implements Output: -raw needs a name.
func (r *OutputRaw) All(map[string]*states.OutputValue) bool {
	r.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Output name required", Detail: "You must give the name of a single output value when using the -raw option."}})
	return false
}

// One implements Output.
func (r *OutputRaw) One(name string, o *states.OutputValue) bool {
	val := o.Value
	if val.IsNull() {
		r.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unsupported value for raw output",
			Detail: fmt.Sprintf("The -raw option only supports strings, numbers, and boolean values, but output value %q is null.\n\nUse the -json option for machine-readable representations of output values that have complex types.", name)}})
		return false
	}
	str, ok := rawString(val)
	if !ok {
		r.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unsupported value for raw output",
			Detail: fmt.Sprintf("The -raw option only supports strings, numbers, and boolean values, but output value %q is %s.\n\nUse the -json option for machine-readable representations of output values that have complex types.", name, val.Type().FriendlyName())}})
		return false
	}
	r.Raw(str)
	return true
}

// rawString is a primitive value as -raw prints it.
func rawString(v cty.Value) (string, bool) {
	switch v.Type() {
	case cty.String:
		return v.AsString(), true
	case cty.Number:
		return v.AsBigFloat().Text('f', -1), true
	case cty.Bool:
		if v.True() {
			return "true", true
		}
		return "false", true
	}
	return "", false
}

// NoOutputsWarning is Terraform's warning for a state without outputs.
func NoOutputsWarning() hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "No outputs found",
		Detail: "The state file either has no outputs defined, or all the defined outputs are empty. Please define an output in your configuration with the `output` keyword and run `strata refresh` for it to become available. If you are using interpolation, please verify the interpolated value is not empty. You can use the `strata console` command to assist."}}
}
