package views

// ProvidersLock is the view of `strata providers lock`: progress lines
// (as init's) and the conclusion.
type ProvidersLock interface {
	Diagnosticser
	// Log prints one progress line (providercache's Log).
	Log(human, plain string)
	// Unchanged reports a lock file that needed no change.
	Unchanged()
	// Updated reports a lock file written anew.
	Updated()
}

// NewProvidersLock returns providers lock's view, which has only a human
// form.
func NewProvidersLock(v *View) ProvidersLock { return &ProvidersLockHuman{View: v} }

// ProvidersLockHuman is providers lock's text output, as Terraform's.
type ProvidersLockHuman struct{ *View }

var _ ProvidersLock = (*ProvidersLockHuman)(nil)

// Log implements ProvidersLock.
// The lines carry their own resets, and none after them, as Terraform's.
func (h *ProvidersLockHuman) Log(human, _ string) { h.OutputNoReset(human) }

// Unchanged implements ProvidersLock.
func (h *ProvidersLockHuman) Unchanged() {
	// Terraform's colours: its message ends in two resets, then the line.
	h.OutputLine("\n[bold][green]Success![reset] [bold]strata has validated the lock file and found no need for changes.[reset][reset]")
}

// Updated implements ProvidersLock.
func (h *ProvidersLockHuman) Updated() {
	h.OutputLine("\n[bold][green]Success![reset] [bold]strata has updated the lock file.[reset][reset]")
	h.OutputNoReset("\nReview the changes in .terraform.lock.hcl and then commit to your\n" +
		"version control system to retain the new checksums.\n\n")
}
