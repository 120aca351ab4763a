package watch

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/runrecord"
	"github.com/strata-dev/strata/internal/states"
)

// ResourceDrift is an instance whose remote object changed outside
// strata, as its last refresh found it.
type ResourceDrift struct {
	Address string `json:"address"`
	// Action is "update" (attributes changed) or "delete" (the object is
	// gone).
	Action     string                 `json:"action"`
	Attributes []runrecord.AttrChange `json:"attributes"`
}

// ResourceChange is a change the plan proposes to an instance.
type ResourceChange struct {
	Address    string                 `json:"address"`
	Action     string                 `json:"action"`
	Attributes []runrecord.AttrChange `json:"attributes"`
}

// Failure is an instance whose refresh or apply failed, and the
// quarantine it earned.
type Failure struct {
	Address  string  `json:"address"`
	Error    string  `json:"error"`
	Failures int     `json:"failures"`
	Backoff  float64 `json:"backoff_seconds"`
}

// summarise lists a plan's drift and proposed changes, attribute by
// attribute, sensitive values hidden as in the run record.
func summarise(p *plans.Plan) ([]ResourceDrift, []ResourceChange) {
	secrets := runrecord.Secrets{}
	for _, c := range p.DriftedResources {
		secrets.Add(c.Before)
		secrets.Add(c.After)
	}
	for _, c := range changes(p) {
		secrets.Add(c.Before)
		secrets.Add(c.After)
	}
	drift := []ResourceDrift{}
	for _, c := range p.DriftedResources {
		if c.Addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		d := ResourceDrift{Address: instanceKey(c.Addr, c.DeposedKey), Action: actionName(c.Action), Attributes: runrecord.Diff(c.Before, c.After, nil, secrets)}
		if c.Action == plans.Delete {
			d.Attributes = []runrecord.AttrChange{}
		}
		if d.Attributes == nil {
			continue
		}
		drift = append(drift, d)
	}
	out := []ResourceChange{}
	for _, c := range changes(p) {
		action := actionName(c.Action)
		switch {
		case c.Action != plans.NoOp:
		case c.Importing != nil:
			action = "import"
		case c.PrevRunAddr != nil:
			action = "move"
		}
		out = append(out, ResourceChange{Address: instanceKey(c.Addr, c.DeposedKey), Action: action, Attributes: nonNil(runrecord.Diff(c.Before, c.After, nil, secrets))})
	}
	// Output values are changes too: converging records them.
	for _, o := range p.Changes.Outputs {
		if o.Action == plans.NoOp {
			continue
		}
		rc := ResourceChange{Address: "output." + o.Name, Action: actionName(o.Action), Attributes: []runrecord.AttrChange{}}
		if !o.Sensitive {
			rc.Attributes = nonNil(runrecord.Diff(cty.ObjectVal(map[string]cty.Value{"value": o.Before}), cty.ObjectVal(map[string]cty.Value{"value": o.After}), nil, secrets))
		}
		out = append(out, rc)
	}
	sort.Slice(drift, func(i, j int) bool { return drift[i].Address < drift[j].Address })
	sort.Slice(out, func(i, j int) bool { return out[i].Address < out[j].Address })
	return drift, out
}

func nonNil(cs []runrecord.AttrChange) []runrecord.AttrChange {
	if cs == nil {
		return []runrecord.AttrChange{}
	}
	return cs
}

// changes are the plan's changes to managed instances that do something:
// an action, or a move or import recorded without one.
func changes(p *plans.Plan) []*plans.ResourceInstanceChange {
	var out []*plans.ResourceInstanceChange
	if p == nil || p.Changes == nil {
		return nil
	}
	for _, c := range p.Changes.Resources {
		if c.Addr.Resource.Resource.Mode != addrs.ManagedResourceMode || c.Action == plans.Read {
			continue
		}
		if c.Action == plans.NoOp && c.PrevRunAddr == nil && c.Importing == nil {
			continue
		}
		out = append(out, c)
	}
	return out
}

// destroys reports whether an action destroys an object.
func destroys(a plans.Action) bool {
	switch a {
	case plans.Delete, plans.DeleteThenCreate, plans.CreateThenDelete:
		return true
	}
	return false
}

func instanceKey(addr addrs.AbsResourceInstance, deposed string) string {
	if deposed != "" {
		return addr.String() + " (deposed " + deposed + ")"
	}
	return addr.String()
}

func actionName(a plans.Action) string {
	switch a {
	case plans.NoOp:
		return "no-op"
	case plans.Create:
		return "create"
	case plans.Read:
		return "read"
	case plans.Update:
		return "update"
	case plans.DeleteThenCreate, plans.CreateThenDelete:
		return "replace"
	case plans.Delete:
		return "delete"
	case plans.Forget:
		return "forget"
	}
	return "unknown"
}

// managedInstances maps the state's managed instances to their types.
func managedInstances(s *states.State) map[string]string {
	out := map[string]string{}
	if s == nil {
		return out
	}
	for _, addr := range s.AllInstances() {
		if addr.Resource.Resource.Mode == addrs.ManagedResourceMode {
			out[addr.String()] = addr.Resource.Resource.Type
		}
	}
	return out
}

// instanceProviders maps the state's managed instances to their
// provider's address.
func instanceProviders(s *states.State) map[string]string {
	out := map[string]string{}
	if s == nil {
		return out
	}
	for _, r := range s.SortedResources() {
		if r.Addr.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		for _, k := range r.SortedKeys() {
			out[r.Addr.Instance(k).String()] = r.InstanceProvider(k).Provider.String()
		}
	}
	return out
}

// diagObjects maps the instances error diagnostics name to their first
// error.
func diagObjects(diags hcl.Diagnostics) map[string]string {
	out := map[string]string{}
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		o, ok := d.Extra.(interface{ DiagnosticObject() string })
		if !ok || o.DiagnosticObject() == "" {
			continue
		}
		if _, seen := out[o.DiagnosticObject()]; !seen {
			out[o.DiagnosticObject()] = diagMessage(d)
		}
	}
	return out
}

func diagMessage(d *hcl.Diagnostic) string {
	if d.Detail == "" {
		return d.Summary
	}
	return d.Summary + ": " + d.Detail
}

// DiagMessage is a diagnostic in an event.
type DiagMessage struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail,omitempty"`
}

func diagMessages(diags hcl.Diagnostics) []DiagMessage {
	var out []DiagMessage
	for _, d := range diags {
		sev := "warning"
		if d.Severity == hcl.DiagError {
			sev = "error"
		}
		out = append(out, DiagMessage{Severity: sev, Summary: d.Summary, Detail: d.Detail})
	}
	return out
}

// targetingWarning is the engine's warning about -exclude, which the watch
// uses on purpose for quarantined instances.
const targetingWarning = "Resource targeting is in effect"

func dropTargetingWarnings(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning && d.Summary == targetingWarning {
			continue
		}
		out = append(out, d)
	}
	return out
}

// instanceTarget is an -exclude for one instance; ok is false when addr
// does not parse.
func instanceTarget(addr string) (addrs.Target, bool) {
	a, diags := addrs.ParseAbsResourceInstanceStr(addr)
	if diags.HasErrors() {
		return addrs.Target{}, false
	}
	return addrs.Target{Resource: a.ContainingResource(), Key: a.Resource.Key, Instance: true}, true
}

// instanceChanges counts the changes to resource instances, leaving out
// output values, for -max-changes.
func instanceChanges(cs []ResourceChange) int {
	n := 0
	for _, c := range cs {
		if !strings.HasPrefix(c.Address, "output.") {
			n++
		}
	}
	return n
}
