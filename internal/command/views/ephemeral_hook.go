package views

import (
	"fmt"
	"time"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/hooks"
)

var (
	_ hooks.EphemeralHook = (*UIHook)(nil)
	_ hooks.EphemeralHook = (*JSONHook)(nil)
)

// ephemeralVerbs are the words Terraform prints before and after each
// ephemeral resource operation, and the noun of its error message.
var ephemeralVerbs = map[hooks.EphemeralAction][3]string{
	hooks.EphemeralOpen:  {"Opening...", "Opening complete", "Opening"},
	hooks.EphemeralRenew: {"Renewing...", "Renewal complete", "Renewal"},
	hooks.EphemeralClose: {"Closing...", "Closing complete", "Closing"},
}

// PreEphemeralOp implements hooks.EphemeralHook.
func (h *UIHook) PreEphemeralOp(addr addrs.AbsResourceInstance, action hooks.EphemeralAction) {
	if action == hooks.EphemeralDefer {
		h.View.Outputf("[reset][bold]%s: Configuration unknown, deferring...[reset]\n", addr)
		return
	}
	h.View.Outputf("[reset][bold]%s: %s[reset]\n", addr, ephemeralVerbs[action][0])
}

// PostEphemeralOp implements hooks.EphemeralHook. A failure is reported
// by its diagnostic only.
func (h *UIHook) PostEphemeralOp(addr addrs.AbsResourceInstance, action hooks.EphemeralAction, elapsed time.Duration, err error) {
	if err != nil {
		return
	}
	h.View.Outputf("[reset][bold]%s: %s after %s[reset]\n", addr, ephemeralVerbs[action][1], formatElapsed(elapsed))
}

// PreEphemeralOp implements hooks.EphemeralHook: an ephemeral_op_start
// message. Terraform's stream has none for a deferred instance.
func (h *JSONHook) PreEphemeralOp(addr addrs.AbsResourceInstance, action hooks.EphemeralAction) {
	if action == hooks.EphemeralDefer {
		return
	}
	h.JSON.emit("info", fmt.Sprintf("%s: %s", addr, ephemeralVerbs[action][0]), "ephemeral_op_start",
		hookFields(addr, "", map[string]any{"action": string(action)}))
}

// PostEphemeralOp implements hooks.EphemeralHook: ephemeral_op_complete
// or ephemeral_op_errored.
func (h *JSONHook) PostEphemeralOp(addr addrs.AbsResourceInstance, action hooks.EphemeralAction, elapsed time.Duration, err error) {
	extra := map[string]any{"action": string(action), "elapsed_seconds": int(elapsed.Seconds())}
	if err != nil {
		h.JSON.emit("info", fmt.Sprintf("%s: %s errored after %s", addr, ephemeralVerbs[action][2], formatElapsed(elapsed)), "ephemeral_op_errored", hookFields(addr, "", extra))
		return
	}
	h.JSON.emit("info", fmt.Sprintf("%s: %s after %s", addr, ephemeralVerbs[action][1], formatElapsed(elapsed)), "ephemeral_op_complete", hookFields(addr, "", extra))
}
