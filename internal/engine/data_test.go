package engine

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
)

func TestDataSources(t *testing.T) {
	schema := testSchema()
	schema.DataSources = map[string]providers.Schema{
		"test_lookup": {Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
			"key":    {Type: cty.String, Required: true},
			"result": {Type: cty.String, Computed: true},
		}}},
	}
	p := &providertest.Provider{Schema: schema}
	p.ReadDataSourceFn = func(req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
		v := req.Config.AsValueMap()
		v["result"] = cty.StringVal("looked-up-" + v["key"].AsString())
		return providers.ReadDataSourceResponse{State: cty.ObjectVal(v)}
	}
	e := testEngine(t, p, `
data "test_lookup" "known" {
  key = "a"
}
resource "test_thing" "a" {
  name = data.test_lookup.known.result
}
data "test_lookup" "later" {
  key = test_thing.a.id
}
output "known" {
  value = data.test_lookup.known.result
}
output "later" {
  value = data.test_lookup.later.result
}`)
	plan, state := planApply(t, e, nil, PlanOpts{})
	if got := actions(plan)["data.test_lookup.later"]; got != plans.Read {
		t.Fatalf("a data source with unknown config should be read during apply, got %s", got)
	}
	if _, ok := actions(plan)["data.test_lookup.known"]; ok {
		t.Fatal("a data source with known config is read during plan, not planned")
	}
	if got := state.Outputs["known"].Value.AsString(); got != "looked-up-a" {
		t.Fatalf("known = %q", got)
	}
	if got := state.Outputs["later"].Value.AsString(); !strings.HasPrefix(got, "looked-up-") {
		t.Fatalf("later = %q", got)
	}
	if objectAttr(t, state, "test_thing.a", "name") != `"looked-up-a"` {
		t.Fatal("resource did not get the data source's value")
	}
}
