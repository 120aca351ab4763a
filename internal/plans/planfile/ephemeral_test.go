package planfile

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestApplyTimeVariablesNotStored: the values of ephemeral variables set
// during plan are left out of the file; their names are kept.
func TestApplyTimeVariablesNotStored(t *testing.T) {
	p := testPlan()
	p.VariableValues["token"] = cty.StringVal("very-secret-token")
	p.ApplyTimeVariables = []string{"token"}
	data, err := Write(&Contents{Plan: p, Config: map[string][]byte{}, StrataVersion: "1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(data, "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got.Plan.VariableValues["token"]; ok {
		t.Error("the ephemeral variable has a value in the plan read back")
	}
	if len(got.Plan.ApplyTimeVariables) != 1 || got.Plan.ApplyTimeVariables[0] != "token" {
		t.Errorf("apply-time variables %v, want [token]", got.Plan.ApplyTimeVariables)
	}
	if _, ok := got.Plan.VariableValues["n"]; !ok {
		t.Error("other variables lost")
	}
}
