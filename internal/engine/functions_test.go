package engine

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/builtin"
	"github.com/strata-dev/strata/internal/providers/providertest"
	"github.com/strata-dev/strata/internal/states"
)

// funcProviders starts a new fake provider with an upper function for
// every instance asked for, and keeps them all.
type funcProviders struct {
	mu        sync.Mutex
	instances []*providertest.Provider
	called    []string
}

func (fp *funcProviders) factory() (providers.Interface, error) {
	schema := testSchema()
	schema.Provider = providers.Schema{Block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"region": {Type: cty.String, Optional: true},
	}}}
	schema.Functions = map[string]providers.FunctionDecl{
		"upper": {
			Parameters: []providers.FunctionParam{{Name: "input", Type: cty.String}},
			ReturnType: cty.String,
		},
	}
	p := &providertest.Provider{Schema: schema}
	p.CallFunctionFn = func(req providers.CallFunctionRequest) providers.CallFunctionResponse {
		fp.mu.Lock()
		fp.called = append(fp.called, req.Arguments[0].AsString())
		fp.mu.Unlock()
		in := req.Arguments[0].AsString()
		if in == "" {
			zero := 0
			return providers.CallFunctionResponse{Err: &providers.FunctionError{Text: "input must not be empty", Argument: &zero}}
		}
		return providers.CallFunctionResponse{Result: cty.StringVal(strings.ToUpper(in))}
	}
	fp.mu.Lock()
	fp.instances = append(fp.instances, p)
	fp.mu.Unlock()
	return p, nil
}

func funcEngine(t *testing.T, fp *funcProviders, files map[string]string) *Engine {
	t.Helper()
	factories := builtin.Factories()
	factories[addrs.NewDefaultProvider("test")] = fp.factory
	return &Engine{Config: testConfigInline(t, files), Providers: factories, Version: "test"}
}

const funcRequired = `
terraform {
  required_providers {
    test = { source = "hashicorp/test" }
  }
}
`

func TestProviderFunctionPlanApply(t *testing.T) {
	fp := &funcProviders{}
	e := funcEngine(t, fp, map[string]string{"main.tf": funcRequired + `
provider "test" {
  region = provider::test::upper("eu")
}
variable "name" {
  default = "one"
}
resource "test_thing" "a" {
  name = provider::test::upper(var.name)
}
resource "test_thing" "b" {
  name = "b"
  # Unknown during plan: the call waits for apply.
  color = provider::test::upper(test_thing.a.id)
}
output "a" {
  value = provider::test::upper("${test_thing.a.name}-x")
}
`})
	_, state := planApply(t, e, nil, PlanOpts{})
	if got := objectAttr(t, state, "test_thing.a", "name"); got != `"ONE"` {
		t.Errorf("name = %s, want \"ONE\"", got)
	}
	if got := objectAttr(t, state, "test_thing.b", "color"); len(got) < 3 || got != strings.ToUpper(got) {
		t.Errorf("color = %q, want the upper-cased id", got)
	}
	if out := state.Outputs["a"]; out == nil || !out.Value.RawEquals(cty.StringVal("ONE-X")) {
		t.Errorf("output a = %#v", out)
	}
	// Function calls went to instances that were never configured; the
	// configured one got the function's result in its configuration.
	var configured []string
	for _, p := range fp.instances {
		calls := strings.Join(p.Calls(), ",")
		switch {
		case strings.Contains(calls, "ConfigureProvider") && strings.Contains(calls, "CallFunction"):
			t.Errorf("a configured instance was called for functions: %s", calls)
		case strings.Contains(calls, "ConfigureProvider"):
			configured = append(configured, calls)
		}
	}
	if len(configured) == 0 {
		t.Fatal("no instance was configured")
	}
}

func TestProviderFunctionConfigureValue(t *testing.T) {
	fp := &funcProviders{}
	var region cty.Value
	e := funcEngine(t, fp, map[string]string{"main.tf": funcRequired + `
provider "test" {
  region = provider::test::upper("eu")
}
resource "test_thing" "a" {
  name = "a"
}
`})
	orig := e.Providers[addrs.NewDefaultProvider("test")]
	e.Providers[addrs.NewDefaultProvider("test")] = func() (providers.Interface, error) {
		p, _ := orig()
		tp := p.(*providertest.Provider)
		tp.ConfigureProviderFn = func(req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
			region = req.Config.GetAttr("region")
			return providers.ConfigureProviderResponse{}
		}
		return tp, nil
	}
	if _, diags := e.Plan(context.Background(), nil, PlanOpts{}); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if !region.RawEquals(cty.StringVal("EU")) {
		t.Errorf("provider configured with region %#v, want EU", region)
	}
}

func TestProviderFunctionModules(t *testing.T) {
	fp := &funcProviders{}
	e := funcEngine(t, fp, map[string]string{
		"main.tf": funcRequired + `
module "child" {
  source = "./child"
}
output "child" {
  value = module.child.out
}
output "root" {
  value = provider::test::upper("root")
}
`,
		"child/main.tf": `
terraform {
  required_providers {
    other = { source = "hashicorp/test" }
  }
}
output "out" {
  value = provider::other::upper("child")
}
`,
	})
	_, state := planApply(t, e, nil, PlanOpts{})
	outs := state.Outputs
	if !outs["child"].Value.RawEquals(cty.StringVal("CHILD")) || !outs["root"].Value.RawEquals(cty.StringVal("ROOT")) {
		t.Errorf("outputs child=%#v root=%#v", outs["child"].Value, outs["root"].Value)
	}
}

func TestProviderFunctionErrors(t *testing.T) {
	tests := map[string]struct {
		src     string
		summary string
		detail  string
		subject string
	}{
		"undeclared provider": {
			src:     `output "x" { value = provider::nope::upper("a") }`,
			summary: "Unknown provider function",
			detail:  `Ensure that provider name "nope" is declared in this module's required_providers block`,
			subject: "main.tf:7,22-43",
		},
		"implied provider": {
			// Terraform offers the functions of required_providers only.
			src:     `resource "test_thing" "a" { name = provider::test::upper("a") }`,
			summary: "Unknown provider function",
			subject: "main.tf:7,36-57",
		},
		"no such function": {
			src:     `output "x" { value = provider::test::lower("a") }`,
			summary: "Unknown provider function",
			detail:  `The function "lower" is not available from the provider "test".`,
			subject: "main.tf:7,22-43",
		},
		"bad argument type": {
			src:     `output "x" { value = provider::test::upper(["a"]) }`,
			summary: "Invalid function argument",
			detail:  `Invalid value for "input" parameter: string required`,
			subject: "main.tf:7,44-45",
		},
		"function error": {
			src:     `output "x" { value = provider::test::upper("") }`,
			summary: "Invalid function argument",
			detail:  `Invalid value for "input" parameter: input must not be empty.`,
			subject: "main.tf:7,46-46",
		},
		"wrong number of arguments": {
			src:     `output "x" { value = provider::test::upper("a", "b") }`,
			summary: "Too many function arguments",
			subject: "main.tf:7,50-51",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			src := funcRequired
			if name == "implied provider" {
				src = "\n\n\n\n\n\n"
			}
			e := funcEngine(t, &funcProviders{}, map[string]string{"main.tf": src + tc.src})
			for _, op := range []string{"validate", "plan"} {
				var diags []string
				var all string
				if op == "validate" {
					d := e.Validate(context.Background())
					all = d.Error()
					for _, x := range d {
						diags = append(diags, x.Summary+"|"+x.Detail+"|"+shortRange(x.Subject))
					}
				} else {
					_, d := e.Plan(context.Background(), nil, PlanOpts{})
					all = d.Error()
					for _, x := range d {
						diags = append(diags, x.Summary+"|"+x.Detail+"|"+shortRange(x.Subject))
					}
				}
				if len(diags) != 1 {
					t.Fatalf("%s: want one diagnostic, got %s", op, all)
				}
				parts := strings.SplitN(diags[0], "|", 3)
				if parts[0] != tc.summary || !strings.Contains(parts[1], tc.detail) || parts[2] != tc.subject {
					t.Errorf("%s: got %q, want %s / %s / %s", op, diags[0], tc.summary, tc.detail, tc.subject)
				}
			}
		})
	}
}

func shortRange(r interface{ String() string }) string {
	s := r.String()
	if i := strings.LastIndex(s, "/"); i >= 0 {
		s = s[i+1:]
	}
	return s
}

func TestProviderFunctionConsole(t *testing.T) {
	fp := &funcProviders{}
	e := funcEngine(t, fp, map[string]string{"main.tf": funcRequired + `
locals {
  greeting = provider::test::upper("hello")
}
`})
	c, diags := e.NewConsole(context.Background(), states.New(), nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	defer c.Close(context.Background())
	for src, want := range map[string]cty.Value{
		`local.greeting`:                 cty.StringVal("HELLO"),
		`provider::test::upper("again")`: cty.StringVal("AGAIN"),
	} {
		got, diags := c.Eval(src)
		if diags.HasErrors() || !got.RawEquals(want) {
			t.Errorf("%s = %#v, %s", src, got, diags.Error())
		}
	}
}

func TestBuiltinProviderFunctions(t *testing.T) {
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    terraform = { source = "terraform.io/builtin/terraform" }
  }
}
output "expr" {
  value = provider::terraform::encode_expr({a = 1, b = "x", c = [true, null], d = { "x y" = 1.5 } })
}
output "tfvars" {
  value = provider::terraform::encode_tfvars({a = 1, b = "x", c = [true, null], d = { "x y" = 1.5 }, long_name = "z" })
}
output "decoded" {
  value = provider::terraform::decode_tfvars("a = 1\nb = \"x\"\n")
}
output "template" {
  value = provider::terraform::encode_expr("a\nb ${"$"}{x}")
}
`}))
	_, state := planApply(t, e, nil, PlanOpts{})
	outs := state.Outputs
	// Terraform 1.11's results for the same expressions.
	want := map[string]cty.Value{
		"expr":     cty.StringVal("{\n  a = 1\n  b = \"x\"\n  c = [true, null]\n  d = {\n    \"x y\" = 1.5\n  }\n}"),
		"tfvars":   cty.StringVal("a = 1\nb = \"x\"\nc = [true, null]\nd = {\n  \"x y\" = 1.5\n}\nlong_name = \"z\"\n"),
		"decoded":  cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.StringVal("x")}),
		"template": cty.StringVal("\"a\\nb $${x}\""),
	}
	for name, w := range want {
		if got := outs[name]; got == nil || !got.Value.RawEquals(w) {
			t.Errorf("output %s = %#v, want %#v", name, got, w)
		}
	}
}
