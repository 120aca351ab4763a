package plans

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/addrs"
)

func TestStateChecksRoundTrip(t *testing.T) {
	mod := addrs.ModuleInstance{{Name: "m", Key: addrs.IntKey(1)}}
	results := []*CheckResult{
		{Kind: CheckKindResource, Module: mod.Module(), Resource: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "a"}, Status: CheckFail,
			Instances: []*CheckInstanceResult{
				{Module: mod, Key: addrs.IntKey(0), Status: CheckPass},
				{Module: mod, Key: addrs.IntKey(2), Status: CheckFail, Problems: []string{"not a"}},
			}},
		{Kind: CheckKindOutput, Module: mod.Module(), Name: "o", Status: CheckPass, Instances: []*CheckInstanceResult{{Module: mod, Status: CheckPass}}},
		{Kind: CheckKindVariable, Name: "x", Status: CheckPass, Instances: []*CheckInstanceResult{{Status: CheckPass}}},
		{Kind: CheckKindCheck, Name: "c", Status: CheckUnknown, Instances: []*CheckInstanceResult{{Status: CheckUnknown}}},
	}
	raw, err := EncodeStateChecks(results)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeStateChecks(raw)
	if err != nil {
		t.Fatal(err)
	}
	byAddr := func(rs []*CheckResult) map[string]*CheckResult {
		m := map[string]*CheckResult{}
		for _, r := range rs {
			m[r.ConfigAddr()] = r
		}
		return m
	}
	if diff := cmp.Diff(byAddr(results), byAddr(got)); diff != "" {
		t.Errorf("round trip (-want +got)\n%s\n%s", diff, raw)
	}
	if _, err := DecodeStateChecks([]byte(`[{"object_kind":"resource","config_addr":"nope[","objects":[]}]`)); err == nil {
		t.Error("an invalid address decoded without error")
	}
}
