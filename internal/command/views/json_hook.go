package views

import (
	"fmt"
	"time"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
)

// JSONHook reports progress as refresh_start, refresh_complete,
// apply_start, apply_complete and apply_errored messages.
type JSONHook struct {
	hooks.Nil
	JSON *JSON
}

var _ hooks.Hook = (*JSONHook)(nil)

func hookFields(addr addrs.AbsResourceInstance, deposed string, extra map[string]any) map[string]any {
	h := map[string]any{"resource": jsonResource(addr)}
	if deposed != "" {
		h["deposed_key"] = deposed
	}
	for k, v := range extra {
		h[k] = v
	}
	return map[string]any{"hook": h}
}

func idFields(id string) map[string]any {
	if id == "" {
		return map[string]any{}
	}
	return map[string]any{"id_key": "id", "id_value": id}
}

// PreRefresh implements hooks.Hook.
func (h *JSONHook) PreRefresh(addr addrs.AbsResourceInstance, _, id string) {
	// As Terraform's, the message names no deposed object.
	h.JSON.emit("info", fmt.Sprintf("%s: Refreshing state...%s", addr, idSuffix(id)), "refresh_start", hookFields(addr, "", idFields(id)))
}

// PostRefresh implements hooks.Hook.
func (h *JSONHook) PostRefresh(addr addrs.AbsResourceInstance, _, id string) {
	h.JSON.emit("info", fmt.Sprintf("%s: Refresh complete%s", addr, idSuffix(id)), "refresh_complete", hookFields(addr, "", idFields(id)))
}

// PreApply implements hooks.Hook. As Terraform's stream, the apply
// messages of a deposed object name only its instance.
func (h *JSONHook) PreApply(addr addrs.AbsResourceInstance, _ string, action plans.Action, id string) {
	// As in Terraform's stream, a data source read is "Refreshing".
	verb := map[plans.Action]string{plans.Create: "Creating...", plans.Update: "Modifying...", plans.Delete: "Destroying...", plans.Read: "Refreshing..."}[action]
	extra := map[string]any{"action": jsonAction(action)}
	suffix := ""
	if action != plans.Create {
		suffix = idSuffix(id)
		for k, v := range idFields(id) {
			extra[k] = v
		}
	}
	h.JSON.emit("info", fmt.Sprintf("%s: %s%s", addr, verb, suffix), "apply_start", hookFields(addr, "", extra))
}

// PostApply implements hooks.Hook.
func (h *JSONHook) PostApply(addr addrs.AbsResourceInstance, _ string, action plans.Action, id string, elapsed time.Duration, err error) {
	extra := map[string]any{"action": jsonAction(action), "elapsed_seconds": int(elapsed.Seconds())}
	if err != nil {
		if action == plans.Read {
			return // Terraform reports a failed read by its diagnostic only
		}
		h.JSON.emit("error", fmt.Sprintf("%s: %s errored after %s", addr, applyNoun(action), formatElapsed(elapsed)), "apply_errored", hookFields(addr, "", extra))
		return
	}
	verb := map[plans.Action]string{plans.Create: "Creation complete", plans.Update: "Modifications complete", plans.Delete: "Destruction complete", plans.Read: "Refresh complete"}[action]
	suffix := ""
	if action != plans.Delete {
		suffix = idSuffix(id)
		for k, v := range idFields(id) {
			extra[k] = v
		}
	}
	h.JSON.emit("info", fmt.Sprintf("%s: %s after %s%s", addr, verb, formatElapsed(elapsed), suffix), "apply_complete", hookFields(addr, "", extra))
}

// Stopping implements hooks.Hook.
func (h *JSONHook) Stopping() {
	h.JSON.Log("Stopping operation...")
}

func applyNoun(a plans.Action) string {
	switch a {
	case plans.Create:
		return "Creation"
	case plans.Delete:
		return "Destruction"
	case plans.Read:
		return "Read"
	}
	return "Modifications"
}

// PreProvision implements hooks.Hook.
func (h *JSONHook) PreProvision(addr addrs.AbsResourceInstance, typeName string) {
	h.JSON.emit("info", fmt.Sprintf("%s: Provisioning with '%s'...", addr, typeName), "provision_start", hookFields(addr, "", map[string]any{"provisioner": typeName}))
}

// ProvisionOutput implements hooks.Hook: a provision_progress message for
// each non-blank line.
func (h *JSONHook) ProvisionOutput(addr addrs.AbsResourceInstance, typeName, msg string) {
	for _, line := range provisionLines(msg) {
		h.JSON.emit("info", fmt.Sprintf("%s: (%s): %s", addr, typeName, line), "provision_progress", hookFields(addr, "", map[string]any{"provisioner": typeName, "output": line}))
	}
}

// PostProvision implements hooks.Hook.
func (h *JSONHook) PostProvision(addr addrs.AbsResourceInstance, typeName string, err error) {
	typ, what := "provision_complete", "Provisioning complete"
	if err != nil {
		typ, what = "provision_errored", "Provisioning errored"
	}
	// Terraform reports errors at level info too; the diagnostic follows.
	h.JSON.emit("info", fmt.Sprintf("%s: (%s) %s", addr, typeName, what), typ, hookFields(addr, "", map[string]any{"provisioner": typeName}))
}
