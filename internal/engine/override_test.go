package engine

import (
	"context"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestInstanceOverrides: strata test's override_module and
// override_resource can name one instance (module.child[1],
// terraform_data.top[1]): that instance alone is replaced, in the plan,
// the apply and the console that evaluates assertions afterwards; an
// override of the whole call still loses to one of an instance.
func TestInstanceOverrides(t *testing.T) {
	cfg := testConfigInline(t, map[string]string{
		"main.tf": `
module "child" {
  source = "./child"
  count  = 3
  name   = "c${count.index}"
}
resource "terraform_data" "top" {
  count = 2
  input = "top${count.index}"
}
output "outs" {
  value = module.child[*].out
}
`,
		"child/main.tf": `
variable "name" {}
resource "terraform_data" "r" {
  input = var.name
}
output "out" {
  value = terraform_data.r.output
}
`,
	})
	e := builtinEngine(cfg)
	e.ModuleOverrides = map[string]cty.Value{"module.child[1]": cty.ObjectVal(map[string]cty.Value{"out": cty.StringVal("over")})}
	e.Overrides = map[string]Override{"terraform_data.top[1]": {Values: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("fixed")})}}
	_, state := planApply(t, e, nil, PlanOpts{})

	want := cty.TupleVal([]cty.Value{cty.StringVal("c0"), cty.StringVal("over"), cty.StringVal("c2")})
	if got := state.Outputs["outs"]; got == nil || !got.Value.RawEquals(want) {
		t.Errorf("outs = %#v, want %#v", got, want)
	}
	for addr, want := range map[string]bool{
		"module.child[0].terraform_data.r": true,
		"module.child[1].terraform_data.r": false,
		"module.child[2].terraform_data.r": true,
	} {
		if got := state.Object(mustInstance(t, addr)) != nil; got != want {
			t.Errorf("%s in state: %v, want %v", addr, got, want)
		}
	}
	console, diags := e.NewConsole(context.Background(), state, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	defer console.Close(context.Background())
	for expr, want := range map[string]cty.Value{
		"module.child[1].out":                   cty.StringVal("over"),
		"module.child[2].out":                   cty.StringVal("c2"),
		"terraform_data.top[1].id":              cty.StringVal("fixed"),
		"terraform_data.top[0].id == \"fixed\"": cty.False,
	} {
		got, diags := console.Eval(expr)
		if diags.HasErrors() || !got.RawEquals(want) {
			t.Errorf("%s = %#v (%v), want %#v", expr, got, diags, want)
		}
	}

	// The whole call overridden, one instance differently.
	e = builtinEngine(cfg)
	e.ModuleOverrides = map[string]cty.Value{
		"module.child":    cty.ObjectVal(map[string]cty.Value{"out": cty.StringVal("all")}),
		"module.child[2]": cty.ObjectVal(map[string]cty.Value{"out": cty.StringVal("two")}),
	}
	_, state = planApply(t, e, nil, PlanOpts{})
	want = cty.TupleVal([]cty.Value{cty.StringVal("all"), cty.StringVal("all"), cty.StringVal("two")})
	if got := state.Outputs["outs"]; got == nil || !got.Value.RawEquals(want) {
		t.Errorf("outs with the whole call overridden = %#v, want %#v", got, want)
	}
}
