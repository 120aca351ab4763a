package views

import (
	"encoding/json"

	"github.com/hashicorp/hcl/v2"
)

// Validate is the view of `strata validate`: the diagnostics and the
// verdict, as text (ValidateHuman) or as Terraform's `validate -json`
// document (ValidateJSON).
type Validate interface {
	// Results reports the diagnostics of the whole validation, with the
	// sources of files for snippets.
	Results(diags hcl.Diagnostics, files map[string]*hcl.File)
}

// NewValidate returns the JSON view when json is set, else the human one.
func NewValidate(json bool, v *View) Validate {
	if json {
		return &ValidateJSON{View: v}
	}
	return &ValidateHuman{View: v}
}

// ValidateHuman prints the diagnostics and, without errors, "Success!".
type ValidateHuman struct{ *View }

var _ Validate = (*ValidateHuman)(nil)

// Results implements Validate.
func (h *ValidateHuman) Results(diags hcl.Diagnostics, files map[string]*hcl.File) {
	h.SetFiles(files)
	h.Diagnostics(diags)
	if diags.HasErrors() {
		return
	}
	// Terraform wraps the sentence with warnings at 78 columns counting
	// its colour codes: the line breaks differ with and without colour.
	switch {
	case len(diags) == 0:
		h.Output("[green][bold]Success![reset] The configuration is valid.\n")
	case h.NoColor:
		h.Output("Success! The configuration is valid, but there were some validation warnings\nas shown above.\n")
	default:
		h.Output("[green][bold]Success![reset] The configuration is valid, but there were some\nvalidation warnings as shown above.\n")
	}
	// Then a blank line, as Terraform's.
	h.Output("\n")
}

// ValidateJSON prints Terraform's `validate -json` document.
type ValidateJSON struct{ *View }

var _ Validate = (*ValidateJSON)(nil)

// Results implements Validate.
func (j *ValidateJSON) Results(diags hcl.Diagnostics, files map[string]*hcl.File) {
	out := struct {
		FormatVersion string           `json:"format_version"`
		Valid         bool             `json:"valid"`
		ErrorCount    int              `json:"error_count"`
		WarningCount  int              `json:"warning_count"`
		Diagnostics   []JSONDiagnostic `json:"diagnostics"`
	}{FormatVersion: "1.0", Valid: !diags.HasErrors(), Diagnostics: []JSONDiagnostic{}}
	for _, dg := range diags {
		if dg.Severity == hcl.DiagWarning {
			out.WarningCount++
		} else {
			out.ErrorCount++
		}
		out.Diagnostics = append(out.Diagnostics, NewJSONDiagnostic(dg, files))
	}
	enc := json.NewEncoder(j.Stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(out)
}
