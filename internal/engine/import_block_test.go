package engine

import (
	"context"
	"reflect"
	"strings"
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

func TestImportBlockForEach(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    map[string]string // imported address -> ID
		wantErr string
	}{
		{
			name: "map",
			src: `
import {
  for_each = { x = "id-x", y = "id-y" }
  to       = terraform_data.a[each.key]
  id       = each.value
}
resource "terraform_data" "a" {
  for_each = toset(["x", "y"])
}`,
			want: map[string]string{`terraform_data.a["x"]`: "id-x", `terraform_data.a["y"]`: "id-y"},
		},
		{
			name: "numbers index count",
			src: `
variable "ids" { default = { "i-0" = 0, "i-1" = 1 } }
import {
  for_each = var.ids
  to       = terraform_data.a[each.value]
  id       = each.key
}
resource "terraform_data" "a" {
  count = 2
}`,
			want: map[string]string{"terraform_data.a[0]": "i-0", "terraform_data.a[1]": "i-1"},
		},
		{
			name: "target outside the expansion",
			src: `
import {
  for_each = { x = "id-x", z = "id-z" }
  to       = terraform_data.a[each.key]
  id       = each.value
}
resource "terraform_data" "a" {
  for_each = { x = 1 }
}`,
			wantErr: `The configuration for the given import terraform_data.a["z"] does not exist.`,
		},
		{
			name: "into module instances",
			src: `
import {
  for_each = { x = "id-x", y = "id-y" }
  to       = module.m[each.key].terraform_data.r
  id       = each.value
}
import {
  to = module.one.terraform_data.r
  id = "id-one"
}
module "m" {
  source   = "./mod"
  for_each = toset(["x", "y"])
}
module "one" {
  source = "./mod"
}`,
			want: map[string]string{`module.m["x"].terraform_data.r`: "id-x", `module.m["y"].terraform_data.r`: "id-y", "module.one.terraform_data.r": "id-one"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfigInline(t, map[string]string{"main.tf": tc.src, "mod/main.tf": `resource "terraform_data" "r" {}`})
			plan, diags := builtinEngine(cfg).Plan(context.Background(), nil, PlanOpts{})
			if tc.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("diagnostics = %v, want %q", diags, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got := map[string]string{}
			for _, c := range plan.Changes.Resources {
				if c.Importing != nil {
					got[c.Addr.String()] = c.Importing.ID
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("imports = %v, want %v", got, tc.want)
			}
		})
	}
}
