package genconfig

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang/marks"
)

func TestResource(t *testing.T) {
	schema := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"id":       {Type: cty.String, Computed: true},
			"name":     {Type: cty.String, Required: true},
			"size":     {Type: cty.Number, Optional: true},
			"zone":     {Type: cty.String, Optional: true, Computed: true},
			"region":   {Type: cty.String, Optional: true, Computed: true},
			"tags":     {Type: cty.Map(cty.String), Optional: true},
			"password": {Type: cty.String, Optional: true, Sensitive: true},
			"token_wo": {Type: cty.String, Optional: true, WriteOnly: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"disk": {Nesting: configschema.NestingList, Block: configschema.Block{
				Attributes: map[string]*configschema.Attribute{"size": {Type: cty.Number, Required: true}},
			}},
			"network": {Nesting: configschema.NestingSingle, Block: configschema.Block{
				Attributes: map[string]*configschema.Attribute{"cidr": {Type: cty.String, Optional: true}},
			}},
		},
	}
	tests := map[string]struct {
		v    cty.Value
		want string
	}{
		"arguments with their values": {
			v: cty.ObjectVal(map[string]cty.Value{
				"id": cty.StringVal("i-1"), "name": cty.StringVal("web"), "size": cty.NumberIntVal(2),
				"zone": cty.StringVal("a"), "region": cty.NullVal(cty.String),
				"tags":     cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod")}),
				"password": cty.StringVal("secret"), "token_wo": cty.NullVal(cty.String),
				"disk":    cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(10)})}),
				"network": cty.ObjectVal(map[string]cty.Value{"cidr": cty.StringVal("10.0.0.0/16")}),
			}),
			want: `resource "thing" "a" {
  name     = "web"
  password = null # sensitive
  size     = 2
  tags = {
    env = "prod"
  }
  zone = "a"
  disk {
    size = 10
  }
  network {
    cidr = "10.0.0.0/16"
  }
}`,
		},
		"nulls are written, computed nulls and empty blocks are not": {
			v: cty.ObjectVal(map[string]cty.Value{
				"id": cty.StringVal("i-1"), "name": cty.StringVal("web"), "size": cty.NullVal(cty.Number),
				"zone": cty.NullVal(cty.String), "region": cty.NullVal(cty.String),
				"tags": cty.NullVal(cty.Map(cty.String)), "password": cty.NullVal(cty.String), "token_wo": cty.NullVal(cty.String),
				"disk":    cty.ListValEmpty(schema.BlockTypes["disk"].ImpliedType()),
				"network": cty.NullVal(schema.BlockTypes["network"].ImpliedType()),
			}),
			want: `resource "thing" "a" {
  name     = "web"
  password = null # sensitive
  size     = null
  tags     = null
}`,
		},
		"a value marked sensitive is never written": {
			v: cty.ObjectVal(map[string]cty.Value{
				"id": cty.StringVal("i-1"), "name": cty.StringVal("web").Mark(marks.Sensitive), "size": cty.NullVal(cty.Number),
				"zone": cty.NullVal(cty.String), "region": cty.NullVal(cty.String),
				"tags": cty.NullVal(cty.Map(cty.String)), "password": cty.NullVal(cty.String), "token_wo": cty.NullVal(cty.String),
				"disk":    cty.ListValEmpty(schema.BlockTypes["disk"].ImpliedType()),
				"network": cty.NullVal(schema.BlockTypes["network"].ImpliedType()),
			}),
			want: `resource "thing" "a" {
  name     = null # sensitive
  password = null # sensitive
  size     = null
  tags     = null
}`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := Resource(addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "thing", Name: "a"}, "", schema, tc.v)
			if got != tc.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func TestFile(t *testing.T) {
	// The third was imported by identity: there is no ID to name.
	got := string(File([]string{"resource \"a\" \"b\" {\n}", "resource \"a\" \"c\" {\n}", "resource \"a\" \"d\" {\n}"}, []string{"id-1", "id-2", ""}))
	want := "# __generated__ by strata\n# Please review these resources and move them into your main configuration files.\n\n" +
		"# __generated__ by strata from \"id-1\"\nresource \"a\" \"b\" {\n}\n\n" +
		"# __generated__ by strata from \"id-2\"\nresource \"a\" \"c\" {\n}\n\n" +
		"# __generated__ by strata\nresource \"a\" \"d\" {\n}\n"
	if got != want {
		t.Fatalf("got:\n%q\nwant:\n%q", got, want)
	}
}
