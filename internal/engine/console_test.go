package engine

import (
	"context"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestConsoleModules: the console sees module outputs, computed from the
// state's objects in each module instance.
func TestConsoleModules(t *testing.T) {
	cfg := testConfigInline(t, map[string]string{
		"main.tf": `
module "m" {
  source   = "./mod"
  for_each = toset(["a", "b"])
  name     = each.key
}
locals {
  names = [for k, m in module.m : m.out]
}
`,
		"mod/main.tf": `
variable "name" {}
resource "terraform_data" "r" { input = upper(var.name) }
output "out" { value = terraform_data.r.output }
`,
	})
	e := builtinEngine(cfg)
	_, state := planApply(t, e, nil, PlanOpts{})
	c, diags := e.NewConsole(context.Background(), state, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	defer c.Close(context.Background())
	for expr, want := range map[string]string{
		`module.m["b"].out`: "B",
		`local.names[0]`:    "A",
		`length(module.m)`:  "2",
	} {
		v, diags := c.Eval(expr)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", expr, diags.Error())
		}
		var got string
		switch v.Type() {
		case cty.String:
			got = v.AsString()
		case cty.Number:
			got = v.AsBigFloat().Text('f', -1)
		default:
			got = v.GoString()
		}
		if got != want {
			t.Errorf("%s = %s, want %s", expr, got, want)
		}
	}
}
