package engine

import (
	"context"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
)

// TestImportBlockWaitsForID checks that an import block's ID expression is
// evaluated only after what it refers to: here a slow data source.
func TestImportBlockWaitsForID(t *testing.T) {
	schema := testSchema()
	schema.DataSources = map[string]providers.Schema{
		"test_src": {Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
			"id": {Type: cty.String, Computed: true},
		}}},
	}
	p := &providertest.Provider{Schema: schema}
	p.ReadDataSourceFn = func(req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
		time.Sleep(50 * time.Millisecond)
		return providers.ReadDataSourceResponse{State: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("remote-1")})}
	}
	var imported string
	p.ImportResourceStateFn = func(req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
		imported = req.ID
		return providers.ImportResourceStateResponse{ImportedResources: []providers.ImportedResource{{
			TypeName: req.TypeName,
			State: cty.ObjectVal(map[string]cty.Value{
				"id": cty.StringVal(req.ID), "name": cty.StringVal("a"), "size": cty.NumberIntVal(1), "color": cty.NullVal(cty.String),
			}),
		}}}
	}
	p.ReadResourceFn = func(req providers.ReadResourceRequest) providers.ReadResourceResponse {
		return providers.ReadResourceResponse{NewState: req.PriorState}
	}
	e := testEngine(t, p, `
data "test_src" "s" {}
import {
  to = test_thing.a
  id = data.test_src.s.id
}
resource "test_thing" "a" {
  name = "a"
}`)
	plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if imported != "remote-1" {
		t.Fatalf("imported ID %q, want remote-1", imported)
	}
	c := plan.Changes.Resource(mustInstance(t, "test_thing.a"))
	if c == nil || c.Importing == nil || c.Action != plans.NoOp {
		t.Fatalf("want a no-op import of test_thing.a, got %+v", c)
	}
}
