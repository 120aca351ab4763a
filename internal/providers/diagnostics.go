package providers

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
)

// Severity is a diagnostic's severity.
type Severity int

const (
	// Error stops the operation.
	Error Severity = iota + 1
	// Warning is shown but does not stop the operation.
	Warning
)

// Diagnostic is a message from a provider. Attribute, when set, is the path
// within the request's object the message is about; the engine turns it into
// a configuration source range.
type Diagnostic struct {
	Severity  Severity
	Summary   string
	Detail    string
	Attribute cty.Path
	// Sourceless marks a diagnostic shown without a source location, as
	// Terraform shows the plain errors of its built-in data sources
	// (terraform_remote_state's backend refusing its configuration).
	Sourceless bool
}

// Diagnostics is a list of provider diagnostics.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (d Diagnostics) HasErrors() bool {
	for _, diag := range d {
		if diag.Severity == Error {
			return true
		}
	}
	return false
}

// Errorf appends an error diagnostic with the given summary and detail.
func (d Diagnostics) Errorf(summary, format string, args ...any) Diagnostics {
	return append(d, Diagnostic{Severity: Error, Summary: summary, Detail: fmt.Sprintf(format, args...)})
}

// ErrorDiag returns a single error diagnostic from a Go error.
func ErrorDiag(summary string, err error) Diagnostics {
	return Diagnostics{{Severity: Error, Summary: summary, Detail: err.Error()}}
}
