package views

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
)

// UIHook reports refresh and apply progress as lines like
// "terraform_data.a: Creating..." and "Creation complete after 0s [id=...]",
// with Terraform's colour codes: each line ends with its reset, before the
// newline.
type UIHook struct {
	hooks.Nil
	View *View
}

var _ hooks.Hook = (*UIHook)(nil)

// PreRefresh implements hooks.Hook.
func (h *UIHook) PreRefresh(addr addrs.AbsResourceInstance, deposed, id string) {
	h.View.OutputLine(fmt.Sprintf("[reset][bold]%s: Refreshing state...%s[reset]", label(addr, deposed), idSuffix(id)))
}

// applyingVerbs and appliedVerbs word the lines before and after an
// operation, built once rather than for each line.
var (
	applyingVerbs = map[plans.Action]string{plans.Create: "Creating...", plans.Update: "Modifying...", plans.Delete: "Destroying...", plans.Read: "Reading..."}
	appliedVerbs  = map[plans.Action]string{plans.Create: "Creation complete", plans.Update: "Modifications complete", plans.Delete: "Destruction complete", plans.Read: "Read complete"}
)

// PreApply implements hooks.Hook.
func (h *UIHook) PreApply(addr addrs.AbsResourceInstance, deposed string, action plans.Action, id string) {
	verb := applyingVerbs[action]
	suffix := ""
	if action != plans.Create {
		suffix = idSuffix(id)
	}
	// Terraform resets twice here, and once after the other lines.
	h.View.OutputLine(fmt.Sprintf("[reset][bold]%s: %s%s[reset][reset]", label(addr, deposed), verb, suffix))
}

// PostApply implements hooks.Hook.
func (h *UIHook) PostApply(addr addrs.AbsResourceInstance, _ string, action plans.Action, id string, elapsed time.Duration, err error) {
	if err != nil {
		return // the error itself is reported as a diagnostic
	}
	verb := appliedVerbs[action]
	suffix := ""
	if action != plans.Delete {
		suffix = idSuffix(id)
	}
	// Terraform names a deposed object when it starts on it, and only the
	// instance when it is done.
	h.View.OutputLine(fmt.Sprintf("[reset][bold]%s: %s after %s%s[reset]", addr, verb, formatElapsed(elapsed), suffix))
}

// Stopping implements hooks.Hook.
func (h *UIHook) Stopping() {
	h.View.Output("[reset][bold][yellow]Stopping operation...[reset]\n")
}

func idSuffix(id string) string {
	if id == "" {
		return ""
	}
	return fmt.Sprintf(" [id=%s]", id)
}

// formatElapsed renders a duration as Terraform does: 0s, 12s, 1m5s.
func formatElapsed(d time.Duration) string {
	s := int(d.Seconds())
	if s < 60 {
		return fmt.Sprintf("%ds", s)
	}
	return fmt.Sprintf("%dm%ds", s/60, s%60)
}

// label names the object an operation is on, as Terraform does:
// "ADDR" or "ADDR (deposed object KEY)".
func label(addr addrs.AbsResourceInstance, deposed string) string {
	if deposed == "" {
		return addr.String()
	}
	return addr.String() + " (deposed object " + deposed + ")"
}

// PlanImport implements hooks.Hook.
func (h *UIHook) PlanImport(addr addrs.AbsResourceInstance, id string) {
	h.View.Outputf("[reset][bold]%s: Preparing import...%s[reset]\n", addr, idSuffix(id))
}

// PlanImportIdentity implements hooks.IdentityImportHook.
func (h *UIHook) PlanImportIdentity(addr addrs.AbsResourceInstance, identity string) {
	h.View.Outputf("[reset][bold]%s: Preparing import... [identity=%s][reset]\n", addr, identity)
}

// PreImport implements hooks.Hook.
func (h *UIHook) PreImport(addr addrs.AbsResourceInstance, id string) {
	h.View.Outputf("[reset][bold]%s: Importing...%s[reset]\n", addr, idSuffix(id))
}

// PostImport implements hooks.Hook.
func (h *UIHook) PostImport(addr addrs.AbsResourceInstance, id string) {
	h.View.Outputf("[reset][bold]%s: Import complete%s[reset]\n", addr, idSuffix(id))
}

// PreProvision implements hooks.Hook.
func (h *UIHook) PreProvision(addr addrs.AbsResourceInstance, typeName string) {
	h.View.Outputf("[reset][bold]%s: Provisioning with '%s'...[reset]\n", addr, typeName)
}

// ProvisionOutput implements hooks.Hook: each non-blank line, without
// trailing spaces, after "ADDR (TYPE): "; a message with none, such as a
// blank line a command prints, is an empty line, as in Terraform.
func (h *UIHook) ProvisionOutput(addr addrs.AbsResourceInstance, typeName, msg string) {
	prefix := h.View.Colorize(fmt.Sprintf("[reset][bold]%s (%s):[reset] ", addr, typeName))
	lines := provisionLines(msg)
	if len(lines) == 0 {
		h.View.Raw("\n")
	}
	for _, line := range lines {
		// The command's own output is not markup.
		h.View.Raw(prefix + line + "\n")
	}
}

// provisionLines splits a provisioner's output into lines as Terraform
// shows them: trailing spaces and carriage returns removed, blank lines
// left out.
func provisionLines(msg string) []string {
	var out []string
	for _, line := range strings.Split(msg, "\n") {
		if line = strings.TrimRightFunc(line, unicode.IsSpace); line != "" {
			out = append(out, line)
		}
	}
	return out
}
