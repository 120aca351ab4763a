package views

import (
	"fmt"
	"strings"
)

// StateReplaceProvider is the view of `strata state replace-provider`.
type StateReplaceProvider interface {
	Diagnosticser
	// NoMatches reports no resource using the provider to replace.
	NoMatches()
	// Planned lists the change about to be made to the resources.
	Planned(from, to string, resources []string)
	// Confirm asks for approval.
	Confirm()
	// Cancelled reports an answer other than "yes".
	Cancelled()
	// Replaced reports the state written.
	Replaced(n int)
}

// NewStateReplaceProvider returns replace-provider's view, which has only
// a human form.
func NewStateReplaceProvider(v *View) StateReplaceProvider {
	return &StateReplaceProviderHuman{View: v}
}

// StateReplaceProviderHuman is replace-provider's text, as Terraform's.
type StateReplaceProviderHuman struct{ *View }

var _ StateReplaceProvider = (*StateReplaceProviderHuman)(nil)

// NoMatches implements StateReplaceProvider.
func (h *StateReplaceProviderHuman) NoMatches() { h.Output("No matching resources found.\n") }

// Planned implements StateReplaceProvider.
func (h *StateReplaceProviderHuman) Planned(from, to string, resources []string) {
	var b strings.Builder
	fmt.Fprintf(&b, "strata will perform the following actions:\n\n")
	fmt.Fprintf(&b, "  [yellow]~[reset] Updating provider:\n")
	fmt.Fprintf(&b, "    [red]-[reset] %s\n", from)
	fmt.Fprintf(&b, "    [green]+[reset] %s\n\n", to)
	fmt.Fprintf(&b, "[bold]Changing[reset] %d resources:\n\n", len(resources))
	for _, r := range resources {
		fmt.Fprintf(&b, "  %s\n", r)
	}
	h.Output(b.String())
}

// Confirm implements StateReplaceProvider.
func (h *StateReplaceProviderHuman) Confirm() {
	h.PromptPlain("Do you want to make these changes?", "Only 'yes' will be accepted to continue.")
}

// Cancelled implements StateReplaceProvider.
func (h *StateReplaceProviderHuman) Cancelled() { h.Output("Cancelled replacing providers.\n") }

// Replaced implements StateReplaceProvider.
func (h *StateReplaceProviderHuman) Replaced(n int) {
	h.Outputf("\nSuccessfully replaced provider for %d resources.\n", n)
}
