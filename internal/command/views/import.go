package views

import (
	"fmt"
	"strings"

	"github.com/strata-dev/strata/internal/addrs"
)

// Import is the view of `strata import`: the progress of the import (the
// engine's import hook) and its conclusion.
type Import interface {
	Diagnosticser
	// PreImport reports the provider asked to import id.
	PreImport(addr addrs.AbsResourceInstance, id string)
	// PostImport reports the objects the provider prepared.
	PostImport(addr addrs.AbsResourceInstance, typeNames []string)
	// Imported closes a successful import.
	Imported()
	// TargetNotConfigured reports that addr has no resource block in the
	// configuration, and shows one to write.
	TargetNotConfigured(addr addrs.AbsResourceInstance)
}

// NewImport returns import's view, which has only a human form.
func NewImport(v *View) Import { return &ImportHuman{View: v} }

// ImportHuman is import's text output, as Terraform's.
type ImportHuman struct{ *View }

var _ Import = (*ImportHuman)(nil)

// PreImport implements Import.
func (h *ImportHuman) PreImport(addr addrs.AbsResourceInstance, id string) {
	// As Terraform's, the import lines add no reset of their own.
	h.OutputNoReset(fmt.Sprintf("[reset][bold]%s: Importing from ID %q...[reset]\n", addr, id))
}

// PostImport implements Import.
func (h *ImportHuman) PostImport(addr addrs.AbsResourceInstance, typeNames []string) {
	var b strings.Builder
	fmt.Fprintf(&b, "[reset][bold][green]%s: Import prepared![reset]\n", addr)
	for _, n := range typeNames {
		fmt.Fprintf(&b, "[reset][green]  Prepared %s for import[reset]\n", n)
	}
	h.OutputNoReset(b.String())
}

// Imported implements Import.
func (h *ImportHuman) Imported() {
	h.Output("[reset][green]\nImport successful!\n\nThe resources that were imported are shown above. These resources are now in\nyour strata state and will henceforth be managed by strata.\n")
	h.Raw("\n")
}

// TargetNotConfigured implements Import: as Terraform, a message of the
// older UI layer, not a diagnostic.
func (h *ImportHuman) TargetNotConfigured(addr addrs.AbsResourceInstance) {
	module := "the root module"
	if !addr.Module.IsRoot() {
		module = addr.Module.Module().String()
	}
	h.LegacyError(fmt.Sprintf("[reset][bold][red]Error:[reset][bold] %s[reset]\n\n"+
		"Before importing this resource, please create its configuration in %s. For example:\n\n"+
		"resource %q %q {\n  # (resource arguments)\n}\n", ImportTargetNotConfigured(addr), module, addr.Resource.Resource.Type, addr.Resource.Resource.Name))
}

// ImportTargetNotConfigured is the message saying that addr has no
// resource block in the configuration.
func ImportTargetNotConfigured(addr addrs.AbsResourceInstance) string {
	return fmt.Sprintf("resource address %q does not exist in the configuration.", addr.String())
}
