package jsonplan

import (
	"encoding/json"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// moduleTreeFiles is a root module calling a module with for_each, the
// same module with count and a provider configuration passed in, a
// module with a single instance, and a registry module with a version;
// the called module calls another one inside each of its instances.
var moduleTreeFiles = map[string]string{
	"main.tf": `
terraform {
  required_providers {
    test = { source = "hashicorp/test" }
  }
}

provider "test" {
  alias = "west"
}

resource "terraform_data" "root" {
  input = "r"
}

module "each" {
  source     = "./modules/leaf"
  for_each   = { a = 1, b = 2 }
  value      = module.names.full
  depends_on = [terraform_data.root]
}

module "counted" {
  source = "./modules/leaf"
  count  = 2
  value  = "c"
  providers = {
    test = test.west
  }
}

module "names" {
  source = "./modules/names"
  base   = terraform_data.root.output
}

module "reg" {
  source  = "example.com/acme/thing/test"
  version = "~> 1.2,  < 2"
}

output "keyed" {
  value = module.each["a"].result
}
`,
	"modules/leaf/main.tf": `
variable "value" {
  type = string
}

resource "terraform_data" "r" {
  input = var.value
}

resource "test_thing" "t" {
  name = terraform_data.r.output
}

module "nested" {
  source = "../names"
  base   = var.value
}

output "result" {
  value = terraform_data.r.output
}

output "nested" {
  value = module.nested.full
}
`,
	"modules/names/main.tf": `
variable "base" {
  type = string
}

locals {
  full = "${var.base}-full"
}

resource "terraform_data" "n" {
  input = local.full
}

output "full" {
  value = local.full
}
`,
	configs.ManifestPath():           `{"Modules":[{"Key":"reg","Source":"example.com/acme/thing/test","Version":"1.2.3","Dir":".terraform/modules/reg"}]}`,
	".terraform/modules/reg/main.tf": `output "o" { value = 1 }`,
}

func moduleInst(mode addrs.ResourceMode, typ, name string, key addrs.InstanceKey, path ...addrs.ModuleInstanceStep) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: mode, Type: typ, Name: name}.Absolute(addrs.ModuleInstance(path)).Instance(key)
}

func step(name string, key addrs.InstanceKey) addrs.ModuleInstanceStep {
	return addrs.ModuleInstanceStep{Name: name, Key: key}
}

// moduleTreePlan is a plan of moduleTreeFiles: a prior state with
// instances in module.each["a"] (and its nested module) and in
// module.each["gone"], whose key is no longer configured.
func moduleTreePlan(mode plans.Mode) *plans.Plan {
	eachA, eachB, gone := step("each", addrs.StringKey("a")), step("each", addrs.StringKey("b")), step("each", addrs.StringKey("gone"))
	counted0, counted1 := step("counted", addrs.IntKey(0)), step("counted", addrs.IntKey(1))
	nested := step("nested", addrs.NoKey)
	data := func(id, input string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id), "input": cty.StringVal(input), "output": cty.StringVal(input), "triggers_replace": cty.NullVal(cty.DynamicPseudoType)})
	}
	prior := states.New()
	for _, addr := range []addrs.AbsResourceInstance{
		managed("root", addrs.NoKey),
		moduleInst(addrs.ManagedResourceMode, "terraform_data", "r", addrs.NoKey, eachA),
		moduleInst(addrs.ManagedResourceMode, "terraform_data", "n", addrs.NoKey, eachA, nested),
		moduleInst(addrs.ManagedResourceMode, "terraform_data", "r", addrs.NoKey, gone),
	} {
		prior.SetObject(addr, &states.ObjectSrc{
			AttrsJSON: []byte(`{"id":"x","input":{"value":"v","type":"string"},"output":{"value":"v","type":"string"},"triggers_replace":null}`),
			Status:    states.ObjectReady,
		}, addrs.AbsProviderConfig{Provider: builtin.Provider})
	}
	change := func(addr addrs.AbsResourceInstance, action plans.Action, before, after cty.Value) *plans.ResourceInstanceChange {
		return &plans.ResourceInstanceChange{Addr: addr, ProviderAddr: builtin, Action: action, Before: before, After: after}
	}
	none := cty.NullVal(dataSchema.ImpliedType())
	thing := cty.ObjectVal(map[string]cty.Value{
		"id": cty.UnknownVal(cty.String), "name": cty.UnknownVal(cty.String), "token": cty.NullVal(cty.String),
		"rule":     cty.ListValEmpty(thingSchema.BlockTypes["rule"].ImpliedType().ElementType()),
		"timeouts": cty.NullVal(thingSchema.BlockTypes["timeouts"].ImpliedType()),
		"tag":      cty.MapValEmpty(thingSchema.BlockTypes["tag"].ImpliedType().ElementType()),
	})
	goneR := change(moduleInst(addrs.ManagedResourceMode, "terraform_data", "r", addrs.NoKey, gone), plans.Delete, data("g", "v"), none)
	goneR.Reason = plans.ReasonDeleteBecauseNoModule
	changes := &plans.Changes{
		Resources: []*plans.ResourceInstanceChange{
			change(moduleInst(addrs.ManagedResourceMode, "terraform_data", "n", addrs.NoKey, eachA, nested), plans.NoOp, data("n", "v"), data("n", "v")),
			change(moduleInst(addrs.ManagedResourceMode, "terraform_data", "r", addrs.NoKey, eachB), plans.NoOp, data("b", "v"), data("b", "v")),
			goneR,
			change(moduleInst(addrs.ManagedResourceMode, "terraform_data", "r", addrs.NoKey, eachA), plans.Update, data("a", "v"), data("a", "w")),
			change(moduleInst(addrs.ManagedResourceMode, "terraform_data", "r", addrs.NoKey, counted1), plans.Create, none, data("c1", "c")),
			change(moduleInst(addrs.ManagedResourceMode, "terraform_data", "r", addrs.NoKey, counted0), plans.NoOp, data("c0", "c"), data("c0", "c")),
			{
				Addr:         moduleInst(addrs.ManagedResourceMode, "test_thing", "t", addrs.NoKey, counted1),
				ProviderAddr: addrs.AbsProviderConfig{Provider: testProv.Provider, Alias: "west"}, Action: plans.Create,
				Before: cty.NullVal(thingSchema.ImpliedType()), After: thing,
			},
			change(managed("root", addrs.NoKey), plans.NoOp, data("r", "r"), data("r", "r")),
		},
		Outputs: []*plans.OutputChange{{Name: "keyed", Action: plans.Update, Before: cty.StringVal("v"), After: cty.StringVal("w")}},
	}
	if mode == plans.DestroyMode {
		for _, rc := range changes.Resources {
			rc.Action, rc.After = plans.Delete, cty.NullVal(rc.Before.Type())
		}
		changes.Outputs[0].Action = plans.Delete
	}
	return &plans.Plan{Mode: mode, PriorState: prior, PrevRunState: prior, Changes: changes}
}

// moduleAddrs projects a module of a document onto its address, the
// addresses of its resources and its child modules.
func moduleAddrs(t *testing.T, doc []byte) []byte {
	t.Helper()
	var project func(m map[string]any) map[string]any
	project = func(m map[string]any) map[string]any {
		ret := map[string]any{}
		if a, ok := m["address"]; ok {
			ret["address"] = a
		}
		for _, r := range asList(m["resources"]) {
			ret["resources"] = append(asList(ret["resources"]), r.(map[string]any)["address"])
		}
		for _, c := range asList(m["child_modules"]) {
			ret["child_modules"] = append(asList(ret["child_modules"]), project(c.(map[string]any)))
		}
		return ret
	}
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(project(m))
	return b
}

// changeAddrs projects resource changes onto their address and
// module_address.
func changeAddrs(t *testing.T, doc []byte) []byte {
	t.Helper()
	var rcs []map[string]any
	if err := json.Unmarshal(doc, &rcs); err != nil {
		t.Fatal(err)
	}
	var ret [][2]any
	for _, rc := range rcs {
		ret = append(ret, [2]any{rc["address"], rc["module_address"]})
	}
	b, _ := json.Marshal(ret)
	return b
}

// withoutModule projects a module call onto its own arguments.
func withoutModule(t *testing.T, doc []byte) []byte {
	t.Helper()
	var call map[string]any
	if err := json.Unmarshal(doc, &call); err != nil {
		t.Fatal(err)
	}
	delete(call, "module")
	b, _ := json.Marshal(call)
	return b
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func TestPlanModules(t *testing.T) {
	cfg := loadTree(t, moduleTreeFiles)
	got, err := Plan(moduleTreePlan(plans.NormalMode), cfg, schemas, PlanOptions{TerraformVersion: "1.11.4"})
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		path []any
		// project, when set, reduces the part of the document compared.
		project func(*testing.T, []byte) []byte
		want    string
	}{
		// A passed-in configuration and the inherited default one are not
		// entries of their own.
		"provider_config": {[]any{"configuration", "provider_config"}, nil, `{
		  "test": {"name": "test", "full_name": "registry.terraform.io/hashicorp/test"},
		  "test.west": {"name": "test", "full_name": "registry.terraform.io/hashicorp/test", "alias": "west"},
		  "terraform": {"name": "terraform", "full_name": "terraform.io/builtin/terraform"}
		}`},
		"call with count, passed provider, nested call": {[]any{"configuration", "root_module", "module_calls", "counted"}, nil, `{
		  "source": "./modules/leaf",
		  "expressions": {"value": {"constant_value": "c"}},
		  "count_expression": {"constant_value": 2},
		  "module": {
		    "outputs": {
		      "result": {"expression": {"references": ["terraform_data.r.output", "terraform_data.r"]}},
		      "nested": {"expression": {"references": ["module.nested.full", "module.nested"]}}
		    },
		    "resources": [
		      {"address": "terraform_data.r", "mode": "managed", "type": "terraform_data", "name": "r", "provider_config_key": "terraform",
		       "expressions": {"input": {"references": ["var.value"]}}, "schema_version": 0},
		      {"address": "test_thing.t", "mode": "managed", "type": "test_thing", "name": "t", "provider_config_key": "test.west",
		       "expressions": {"name": {"references": ["terraform_data.r.output", "terraform_data.r"]}}, "schema_version": 0}
		    ],
		    "module_calls": {
		      "nested": {
		        "source": "../names",
		        "expressions": {"base": {"references": ["var.value"]}},
		        "module": {
		          "outputs": {"full": {"expression": {"references": ["local.full"]}}},
		          "resources": [
		            {"address": "terraform_data.n", "mode": "managed", "type": "terraform_data", "name": "n", "provider_config_key": "terraform",
		             "expressions": {"input": {"references": ["local.full"]}}, "schema_version": 0}
		          ],
		          "variables": {"base": {}}
		        }
		      }
		    },
		    "variables": {"value": {}}
		  }
		}`},
		"call with for_each and depends_on": {[]any{"configuration", "root_module", "module_calls", "each"}, withoutModule, `{
		  "source": "./modules/leaf",
		  "expressions": {"value": {"references": ["module.names.full", "module.names"]}},
		  "for_each_expression": {"constant_value": {"a": 1, "b": 2}},
		  "depends_on": ["terraform_data.root"]
		}`},
		"default provider in a called module": {[]any{"configuration", "root_module", "module_calls", "each", "module", "resources", 1, "provider_config_key"}, nil, `"test"`},
		"registry module": {[]any{"configuration", "root_module", "module_calls", "reg"}, nil, `{
		  "source": "example.com/acme/thing/test", "version_constraint": "~> 1.2,  < 2",
		  "module": {"outputs": {"o": {"expression": {"constant_value": 1}}}}
		}`},
		"output of a keyed module instance": {[]any{"configuration", "root_module", "outputs", "keyed"}, nil, `{
		  "expression": {"references": ["module.each[\"a\"].result", "module.each[\"a\"]"]}
		}`},
		// Shallower modules first, then call by call, by name and key.
		"resource_changes": {[]any{"resource_changes"}, changeAddrs, `[
		  ["terraform_data.root", null],
		  ["module.counted[0].terraform_data.r", "module.counted[0]"],
		  ["module.counted[1].terraform_data.r", "module.counted[1]"],
		  ["module.counted[1].test_thing.t", "module.counted[1]"],
		  ["module.each[\"a\"].terraform_data.r", "module.each[\"a\"]"],
		  ["module.each[\"b\"].terraform_data.r", "module.each[\"b\"]"],
		  ["module.each[\"gone\"].terraform_data.r", "module.each[\"gone\"]"],
		  ["module.each[\"a\"].module.nested.terraform_data.n", "module.each[\"a\"].module.nested"]
		]`},
		// A module inside a module instance is a child of that instance.
		"planned_values": {[]any{"planned_values", "root_module"}, moduleAddrs, `{
		  "resources": ["terraform_data.root"],
		  "child_modules": [
		    {"address": "module.counted[0]", "resources": ["module.counted[0].terraform_data.r"]},
		    {"address": "module.counted[1]", "resources": ["module.counted[1].terraform_data.r", "module.counted[1].test_thing.t"]},
		    {"address": "module.each[\"a\"]", "resources": ["module.each[\"a\"].terraform_data.r"], "child_modules": [
		      {"address": "module.each[\"a\"].module.nested", "resources": ["module.each[\"a\"].module.nested.terraform_data.n"]}
		    ]},
		    {"address": "module.each[\"b\"]", "resources": ["module.each[\"b\"].terraform_data.r"]}
		  ]
		}`},
		"prior_state": {[]any{"prior_state", "values", "root_module"}, moduleAddrs, `{
		  "resources": ["terraform_data.root"],
		  "child_modules": [
		    {"address": "module.each[\"a\"]", "resources": ["module.each[\"a\"].terraform_data.r"], "child_modules": [
		      {"address": "module.each[\"a\"].module.nested", "resources": ["module.each[\"a\"].module.nested.terraform_data.n"]}
		    ]},
		    {"address": "module.each[\"gone\"]", "resources": ["module.each[\"gone\"].terraform_data.r"]}
		  ]
		}`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			doc := field(t, got, tc.path...)
			if tc.project != nil {
				doc = tc.project(t, doc)
			}
			assertJSON(t, doc, tc.want)
		})
	}
}
