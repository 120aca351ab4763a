package plans

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestPlanApplyable follows Terraform's rule: a plan with errors never; a
// normal or destroy plan when it has changes; a refresh-only plan when the
// refresh changed the state (drift, or outputs with new known values).
func TestPlanApplyable(t *testing.T) {
	unknownOut := &OutputChange{Name: "o", Action: Create, After: cty.UnknownVal(cty.String)}
	knownOut := &OutputChange{Name: "o", Action: Update, Before: cty.StringVal("a"), After: cty.StringVal("b")}
	drift := []*ResourceInstanceChange{{Action: Update}}
	tests := map[string]struct {
		plan Plan
		want bool
	}{
		"normal, no changes":           {Plan{Mode: NormalMode, Changes: &Changes{}}, false},
		"normal, unknown output":       {Plan{Mode: NormalMode, Changes: &Changes{Outputs: []*OutputChange{unknownOut}}}, true},
		"errored":                      {Plan{Mode: NormalMode, Errored: true, Changes: &Changes{Outputs: []*OutputChange{knownOut}}}, false},
		"refresh-only, unknown output": {Plan{Mode: RefreshOnlyMode, Changes: &Changes{Outputs: []*OutputChange{unknownOut}}}, false},
		"refresh-only, known output":   {Plan{Mode: RefreshOnlyMode, Changes: &Changes{Outputs: []*OutputChange{knownOut}}}, true},
		"refresh-only, drift":          {Plan{Mode: RefreshOnlyMode, Changes: &Changes{}, DriftedResources: drift}, true},
		"refresh-only, nothing":        {Plan{Mode: RefreshOnlyMode, Changes: &Changes{}}, false},
		// A move shows as drift, but leaves nothing to apply.
		"refresh-only, a move only":     {Plan{Mode: RefreshOnlyMode, Changes: &Changes{}, DriftedResources: []*ResourceInstanceChange{{Action: NoOp}}}, false},
		"destroy, nothing to destroy":   {Plan{Mode: DestroyMode, Changes: &Changes{}}, false},
		"destroy, an object to destroy": {Plan{Mode: DestroyMode, Changes: &Changes{Resources: []*ResourceInstanceChange{{Action: Delete}}}}, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := tc.plan.Applyable(); got != tc.want {
				t.Errorf("Applyable() = %v, want %v", got, tc.want)
			}
			if tc.plan.Mode == RefreshOnlyMode && len(tc.plan.Changes.Outputs) == 0 {
				if got := tc.plan.HasChanges(); got != tc.want {
					t.Errorf("HasChanges() = %v, want %v", got, tc.want)
				}
			}
		})
	}
}
