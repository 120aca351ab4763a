package views

// ForceUnlock is the view of `strata force-unlock`.
type ForceUnlock interface {
	Diagnosticser
	// Confirm asks whether to remove the lock.
	Confirm()
	// Cancelled reports an answer other than "yes".
	Cancelled()
	// Unlocked reports the lock removed.
	Unlocked()
}

// NewForceUnlock returns force-unlock's view, which has only a human
// form.
func NewForceUnlock(v *View) ForceUnlock { return &ForceUnlockHuman{View: v} }

// ForceUnlockHuman is force-unlock's text output, as Terraform's.
type ForceUnlockHuman struct{ *View }

var _ ForceUnlock = (*ForceUnlockHuman)(nil)

// Confirm implements ForceUnlock.
func (h *ForceUnlockHuman) Confirm() {
	h.Prompt("Do you really want to force-unlock?", "strata will remove the lock on the remote state.\n"+
		"This will allow local strata commands to modify this state, even though it\n"+
		"may still be in use. Only 'yes' will be accepted to confirm.")
}

// Cancelled implements ForceUnlock.
func (h *ForceUnlockHuman) Cancelled() { h.Output("force-unlock cancelled.\n") }

// Unlocked implements ForceUnlock.
func (h *ForceUnlockHuman) Unlocked() {
	h.Output("[reset][bold][green]strata state has been successfully unlocked![reset][green]\n\n" +
		"The state has been unlocked, and strata commands should now be able to\n" +
		"obtain a new lock on the remote state.[reset]\n")
}
