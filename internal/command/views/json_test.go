package views

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/plans"
)

func TestJSONPlanDrift(t *testing.T) {
	var buf bytes.Buffer
	j := NewJSON(&buf, nil)
	j.now = func() time.Time { return time.Unix(0, 0) }
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "a"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	p := &plans.Plan{
		Mode:    plans.RefreshOnlyMode,
		Changes: &plans.Changes{},
		DriftedResources: []*plans.ResourceInstanceChange{{
			Addr: addr, Action: plans.Update, Before: cty.EmptyObjectVal, After: cty.EmptyObjectVal,
		}},
	}
	j.Plan(p)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first["type"] != "resource_drift" || first["@message"] != "terraform_data.a: Drift detected (update)" {
		t.Fatalf("first message: %v", first)
	}
	if !strings.Contains(lines[1], `"type":"change_summary"`) {
		t.Fatalf("second message: %s", lines[1])
	}

	// The drift of a moved object names where it was, as Terraform's
	// message does (equivalence test moved_with_drift, with plan -json).
	buf.Reset()
	prev := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "old"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	p.DriftedResources[0].PrevRunAddr = &prev
	j.Plan(p)
	var drift struct {
		Change struct {
			Previous struct {
				Addr string `json:"addr"`
			} `json:"previous_resource"`
		} `json:"change"`
	}
	if err := json.Unmarshal([]byte(strings.Split(buf.String(), "\n")[0]), &drift); err != nil || drift.Change.Previous.Addr != "terraform_data.old" {
		t.Fatalf("drift of a moved object: %s (%v)", buf.String(), err)
	}
	// An object only moved is drift of action "move" in a refresh-only
	// plan (Terraform's equivalence test moved_with_refresh_only, with
	// plan -refresh-only -json).
	buf.Reset()
	p.DriftedResources[0].Action = plans.NoOp
	j.Plan(p)
	if first := strings.Split(buf.String(), "\n")[0]; !strings.Contains(first, `"@message":"terraform_data.a: Drift detected (move)"`) || !strings.Contains(first, `"action":"move"`) {
		t.Fatalf("drift of an object only moved: %s", first)
	}
}

// TestJSONPlannedChangesAndSummary: the planned_change messages of a
// plan and of the apply of a saved plan, and the change summaries, for
// moves and imports, as Terraform's stream has them: a plan announces a
// move or an import that changes nothing ("move", "import", with
// "importing"), the apply of the saved plan does not, and the summaries
// count the imports.
func TestJSONPlannedChangesAndSummary(t *testing.T) {
	inst := func(name string) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: name}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	}
	old := inst("old")
	p := &plans.Plan{Changes: &plans.Changes{Resources: []*plans.ResourceInstanceChange{
		{Addr: inst("moved"), PrevRunAddr: &old, Action: plans.NoOp},
		{Addr: inst("imported"), Importing: &plans.Importing{ID: "abc"}, Action: plans.NoOp},
		{Addr: inst("imported_updated"), Importing: &plans.Importing{ID: "def"}, Action: plans.Update},
		{Addr: inst("same"), Action: plans.NoOp},
	}}}
	messages := func(f func(j *JSON)) []string {
		var buf bytes.Buffer
		j := NewJSON(&buf, nil)
		j.now = func() time.Time { return time.Unix(0, 0) }
		f(j)
		var out []string
		for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatal(err)
			}
			s := m["@message"].(string)
			if c, ok := m["change"].(map[string]any); ok {
				s += fmt.Sprintf(" action=%v", c["action"])
				if im, ok := c["importing"]; ok {
					s += fmt.Sprintf(" importing=%v", im)
				}
			}
			if c, ok := m["changes"].(map[string]any); ok {
				s += fmt.Sprintf(" import=%v", c["import"])
			}
			out = append(out, s)
		}
		return out
	}
	tests := map[string]struct {
		f    func(j *JSON)
		want []string
	}{
		"plan": {func(j *JSON) { j.Plan(p) }, []string{
			"terraform_data.moved: Plan to move action=move",
			"terraform_data.imported: Plan to import action=import importing=map[id:abc]",
			"terraform_data.imported_updated: Plan to update action=update importing=map[id:def]",
			"Plan: 2 to import, 0 to add, 1 to change, 0 to destroy. import=2",
		}},
		"saved plan": {func(j *JSON) { j.PlannedChanges(p, false) }, []string{
			"terraform_data.imported_updated: Plan to update action=update importing=map[id:def]",
		}},
		"apply summary": {func(j *JSON) { j.ChangeSummary("apply", 2, 0, 1, 0) }, []string{
			"Apply complete! Resources: 2 imported, 0 added, 1 changed, 0 destroyed. import=2",
		}},
		"apply summary without imports": {func(j *JSON) { j.ChangeSummary("apply", 0, 1, 0, 0) }, []string{
			"Apply complete! Resources: 1 added, 0 changed, 0 destroyed. import=0",
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, messages(tc.f)); d != "" {
				t.Errorf("wrong messages (-want +got):\n%s", d)
			}
		})
	}
}
