package views

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// JSONUIVersion is the version of Terraform's machine-readable UI format
// that JSON implements.
const JSONUIVersion = "1.2"

// JSON writes Terraform's machine-readable UI stream (-json): one JSON
// object per line with @level, @message, @module, @timestamp and type.
type JSON struct {
	mu    sync.Mutex
	w     io.Writer
	files map[string]*hcl.File
	now   func() time.Time
}

// NewJSON returns a JSON stream writer. files provides source snippets
// for diagnostics.
func NewJSON(w io.Writer, files map[string]*hcl.File) *JSON {
	return &JSON{w: w, files: files, now: time.Now}
}

// SetFiles replaces the sources used for diagnostic snippets.
func (j *JSON) SetFiles(files map[string]*hcl.File) {
	j.mu.Lock()
	j.files = files
	j.mu.Unlock()
}

// emit writes one message. fields are added at the top level.
func (j *JSON) emit(level, message, typ string, fields map[string]any) {
	j.emitAt(level, message, typ, fields, "2006-01-02T15:04:05.000000Z07:00")
}

// emitAt is emit with the timestamp in another layout.
func (j *JSON) emitAt(level, message, typ string, fields map[string]any, layout string) {
	m := map[string]any{
		"@level":     level,
		"@message":   message,
		"@module":    "terraform.ui",
		"@timestamp": j.now().UTC().Format(layout),
		"type":       typ,
	}
	for k, v := range fields {
		m[k] = v
	}
	line, err := json.Marshal(m)
	if err != nil {
		line, _ = json.Marshal(map[string]any{"@level": "error", "@message": "cannot encode message: " + err.Error(), "type": "log"})
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.w.Write(append(line, '\n'))
}

// Version writes the stream's first message.
func (j *JSON) Version(terraformVersion, strataVersion string) {
	j.emit("info", "strata "+strataVersion, "version", map[string]any{
		"terraform": terraformVersion, "strata": strataVersion, "ui": JSONUIVersion,
	})
}

// Log writes a free-form message.
func (j *JSON) Log(message string) {
	j.emit("info", message, "log", nil)
}

// Diagnostics writes one diagnostic message each.
func (j *JSON) Diagnostics(diags hcl.Diagnostics) {
	j.diagnostics(diags, nil)
}

// diagnostics writes diagnostics with extra top-level fields.
func (j *JSON) diagnostics(diags hcl.Diagnostics, fields map[string]any) {
	j.mu.Lock()
	files := j.files
	j.mu.Unlock()
	for _, d := range diags {
		level, prefix := "error", "Error: "
		if d.Severity == hcl.DiagWarning {
			level, prefix = "warn", "Warning: "
		}
		f := map[string]any{"diagnostic": NewJSONDiagnostic(d, files)}
		for k, v := range fields {
			f[k] = v
		}
		j.emit(level, prefix+d.Summary, "diagnostic", f)
	}
}

// jsonResource describes a resource instance address as the UI stream does.
func jsonResource(addr addrs.AbsResourceInstance) map[string]any {
	r := addr.Resource.Resource
	var key any
	switch k := addr.Resource.Key.(type) {
	case addrs.IntKey:
		key = int(k)
	case addrs.StringKey:
		key = string(k)
	}
	return map[string]any{
		"addr": addr.String(), "module": addr.Module.String(), "resource": addr.Resource.String(),
		"implied_provider": r.ImpliedProvider(), "resource_type": r.Type, "resource_name": r.Name, "resource_key": key,
	}
}

// jsonAction names an action as planned_change and hook messages do.
func jsonAction(a plans.Action) string {
	switch a {
	case plans.Create:
		return "create"
	case plans.Read:
		return "read"
	case plans.Update:
		return "update"
	case plans.Delete:
		return "delete"
	case plans.DeleteThenCreate, plans.CreateThenDelete:
		return "replace"
	case plans.Forget:
		return "remove"
	}
	return "noop"
}

var jsonReasons = map[plans.ActionReason]string{
	plans.ReasonReplaceBecauseCannotUpdate:    "cannot_update",
	plans.ReasonReplaceBecauseTainted:         "tainted",
	plans.ReasonReplaceByRequest:              "requested",
	plans.ReasonReplaceByTriggers:             "replace_triggered_by",
	plans.ReasonDeleteBecauseNoResourceConfig: "delete_because_no_resource_config",
	plans.ReasonDeleteBecauseWrongRepetition:  "delete_because_wrong_repetition",
	plans.ReasonDeleteBecauseCountIndex:       "delete_because_count_index",
	plans.ReasonDeleteBecauseEachKey:          "delete_because_each_key",
	plans.ReasonDeleteBecauseNoModule:         "delete_because_no_module",
	plans.ReasonDeleteBecauseNoMoveTarget:     "delete_because_no_move_target",
	plans.ReasonDeleteBecauseEnabledFalse:     "delete_because_enabled_false",
	plans.ReasonReadBecauseConfigUnknown:      "read_because_config_unknown",
	plans.ReasonReadBecauseDependencyPending:  "read_because_dependency_pending",
	plans.ReasonReadBecauseCheckNested:        "read_because_check_nested",
}

var jsonVerbs = map[string]string{
	"create": "Plan to create", "read": "Plan to read", "update": "Plan to update",
	"delete": "Plan to delete", "replace": "Plan to replace", "move": "Plan to move", "remove": "Plan to remove", "import": "Plan to import",
}

// Plan writes a resource_drift message per change found outside strata,
// a planned_change message per change, the change summary and the output
// changes. As in Terraform, the stream reports all drift, relevant to the
// plan or not, in normal and refresh-only plans; destroy plans report
// none.
func (j *JSON) Plan(p *plans.Plan) {
	if p.Mode != plans.DestroyMode {
		for _, c := range p.DriftedResources {
			if c.Action == plans.NoOp && p.Mode != plans.RefreshOnlyMode {
				continue // a move only: planned_change reports it
			}
			action := jsonAction(c.Action)
			if c.Action == plans.NoOp && c.PrevRunAddr != nil {
				action = "move" // an object only moved, as Terraform says
			}
			change := map[string]any{"resource": jsonResource(c.Addr), "action": action}
			if c.PrevRunAddr != nil {
				change["previous_resource"] = jsonResource(*c.PrevRunAddr)
			}
			j.emit("info", fmt.Sprintf("%s: Drift detected (%s)", c.Addr, action), "resource_drift",
				map[string]any{"change": change})
		}
	}
	j.PlannedChanges(p, true)
	add, change, destroy := p.Changes.Counts()
	j.ChangeSummary("plan", p.Changes.Imports(), add, change, destroy)
	outputs := map[string]any{}
	for _, o := range p.Changes.Outputs {
		outputs[o.Name] = map[string]any{"sensitive": o.Sensitive, "action": jsonAction(o.Action)}
	}
	if len(outputs) > 0 {
		j.emit("info", fmt.Sprintf("Outputs: %d", len(outputs)), "outputs", map[string]any{"outputs": outputs})
	}
}

// PlannedChanges writes a planned_change message per resource instance
// change of p: moves and imports that change nothing included (action
// "move" or "import") when withNoOps, plain no-ops left out. The apply of
// a saved plan announces only the changes, as Terraform's does.
func (j *JSON) PlannedChanges(p *plans.Plan, withNoOps bool) {
	for _, c := range p.Changes.Resources {
		if c.Action == plans.NoOp && (!withNoOps || (c.PrevRunAddr == nil && c.Importing == nil)) {
			continue
		}
		action := jsonAction(c.Action)
		switch {
		case c.Action != plans.NoOp:
		case c.Importing != nil:
			action = "import"
		default:
			action = "move"
		}
		change := map[string]any{"resource": jsonResource(c.Addr), "action": action}
		if c.PrevRunAddr != nil {
			change["previous_resource"] = jsonResource(*c.PrevRunAddr)
		}
		if c.Importing != nil {
			importing := map[string]any{}
			if c.Importing.ID != "" {
				importing["id"] = c.Importing.ID
			}
			change["importing"] = importing
		}
		if r, ok := jsonReasons[c.Reason]; ok {
			change["reason"] = r
		}
		msg := c.Addr.String() + ": " + jsonVerbs[action]
		if c.DeposedKey != "" {
			change["deposed_key"] = c.DeposedKey
			msg = fmt.Sprintf("%s (deposed object %s): %s", c.Addr, c.DeposedKey, jsonVerbs[action])
		}
		j.emit("info", msg, "planned_change", map[string]any{"change": change})
	}
}

// ChangeSummary writes the change_summary message of a plan, apply or
// destroy; imported counts the imports, which the message names only
// when there are some, as Terraform's does.
func (j *JSON) ChangeSummary(operation string, imported, add, change, destroy int) {
	var msg string
	switch {
	case operation == "plan" && imported > 0:
		msg = fmt.Sprintf("Plan: %d to import, %d to add, %d to change, %d to destroy.", imported, add, change, destroy)
	case operation == "plan":
		msg = fmt.Sprintf("Plan: %d to add, %d to change, %d to destroy.", add, change, destroy)
	case operation == "destroy":
		msg = fmt.Sprintf("Destroy complete! Resources: %d destroyed.", destroy)
	case imported > 0:
		msg = fmt.Sprintf("Apply complete! Resources: %d imported, %d added, %d changed, %d destroyed.", imported, add, change, destroy)
	default:
		msg = fmt.Sprintf("Apply complete! Resources: %d added, %d changed, %d destroyed.", add, change, destroy)
	}
	j.emit("info", msg, "change_summary", map[string]any{"changes": map[string]any{
		"add": add, "change": change, "import": imported, "remove": destroy, "operation": operation,
	}})
}

// Outputs writes the outputs message after apply, with values (sensitive
// ones included, as Terraform's stream does, flagged sensitive).
func (j *JSON) Outputs(outputs map[string]*states.OutputValue) {
	out := map[string]any{}
	for name, o := range outputs {
		v, _ := o.Value.UnmarkDeep()
		entry := map[string]any{"sensitive": o.Sensitive}
		if ty, err := ctyjson.MarshalType(v.Type()); err == nil {
			entry["type"] = json.RawMessage(ty)
		}
		if !o.Sensitive {
			if val, err := ctyjson.Marshal(v, v.Type()); err == nil {
				entry["value"] = json.RawMessage(val)
			}
		}
		out[name] = entry
	}
	j.emit("info", fmt.Sprintf("Outputs: %d", len(out)), "outputs", map[string]any{"outputs": out})
}
