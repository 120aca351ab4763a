package views

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

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
}
