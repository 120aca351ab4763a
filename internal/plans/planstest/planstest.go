// Package planstest holds fixtures for the tests of code that reads
// plans (the engine's relevant-attribute analysis, the JSON plan
// document): the schemas of terraform_data and of a test provider's
// types, resource addresses, and a module tree with a plan of it.
package planstest

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// Builtin is the built-in terraform provider's configuration, TestProv
// hashicorp/test's default one.
var (
	Builtin  = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	TestProv = addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("test")}
)

// DataSchema is terraform_data's schema.
var DataSchema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"id":               {Type: cty.String, Computed: true},
	"input":            {Type: cty.DynamicPseudoType, Optional: true},
	"output":           {Type: cty.DynamicPseudoType, Computed: true},
	"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
}}

// ThingSchema has a schema-sensitive attribute and nested blocks.
var ThingSchema = &configschema.Block{
	Attributes: map[string]*configschema.Attribute{
		"id":    {Type: cty.String, Computed: true},
		"name":  {Type: cty.String, Optional: true},
		"token": {Type: cty.String, Optional: true, Sensitive: true},
	},
	BlockTypes: map[string]*configschema.NestedBlock{
		"rule": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
			"port": {Type: cty.Number, Optional: true},
			"key":  {Type: cty.String, Optional: true, Sensitive: true},
		}}},
		"timeouts": {Nesting: configschema.NestingSingle, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
			"create": {Type: cty.String, Optional: true},
		}}},
		"tag": {Nesting: configschema.NestingMap, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
			"value": {Type: cty.String, Optional: true},
		}}},
	},
}

// LookupSchema is the dataSource schema of test_lookup (a data source).
var LookupSchema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"key":    {Type: cty.String, Required: true},
	"config": {Type: cty.Map(cty.String), Optional: true},
	"result": {Type: cty.String, Computed: true},
}}

// Schemas gives the schemas above to their resource types.
func Schemas(p addrs.AbsProviderConfig, mode addrs.ResourceMode, typ string) *configschema.Block {
	switch {
	case typ == "terraform_data" && mode == addrs.ManagedResourceMode:
		return DataSchema
	case typ == "test_thing" && mode == addrs.ManagedResourceMode:
		return ThingSchema
	case typ == "test_lookup" && mode == addrs.DataResourceMode:
		return LookupSchema
	}
	return nil
}

// Inst is a resource instance of the root module.
func Inst(mode addrs.ResourceMode, typ, name string, key addrs.InstanceKey) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: mode, Type: typ, Name: name}.Absolute(addrs.RootModuleInstance).Instance(key)
}

// Managed is terraform_data.NAME[KEY] of the root module.
func Managed(name string, key addrs.InstanceKey) addrs.AbsResourceInstance {
	return Inst(addrs.ManagedResourceMode, "terraform_data", name, key)
}

// AssertJSON compares documents as JSON values and reports the
// difference.
func AssertJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("invalid JSON %v:\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("invalid expected JSON %v:\n%s", err, want)
	}
	if d := cmp.Diff(w, g); d != "" {
		t.Errorf("document differs (-want +got):\n%s\ngot: %s", d, got)
	}
}

// LoadTree loads a module tree from files keyed by path relative to the
// root module, such as "main.tf" and "modules/x/main.tf".
func LoadTree(t testing.TB, files map[string]string) *configs.Config {
	t.Helper()
	sources := map[string][]byte{}
	for name, src := range files {
		sources[name] = []byte(src)
	}
	cfg, diags := configs.NewParser().LoadConfigFromSnapshot(sources)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return cfg
}

// ModuleTreeFiles is a root module calling a module with for_each, the
// same module with count and a provider configuration passed in, a
// module with a single instance, and a registry module with a version;
// the called module calls another one inside each of its instances.
var ModuleTreeFiles = map[string]string{
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

// moduleInst is a resource instance of the module instance path.
func moduleInst(mode addrs.ResourceMode, typ, name string, key addrs.InstanceKey, path ...addrs.ModuleInstanceStep) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: mode, Type: typ, Name: name}.Absolute(addrs.ModuleInstance(path)).Instance(key)
}

// step is one step of a module instance path.
func step(name string, key addrs.InstanceKey) addrs.ModuleInstanceStep {
	return addrs.ModuleInstanceStep{Name: name, Key: key}
}

// ModuleTreePlan is a plan of ModuleTreeFiles: a prior state with
// instances in module.each["a"] (and its nested module) and in
// module.each["gone"], whose key is no longer configured.
func ModuleTreePlan(mode plans.Mode) *plans.Plan {
	eachA, eachB, gone := step("each", addrs.StringKey("a")), step("each", addrs.StringKey("b")), step("each", addrs.StringKey("gone"))
	counted0, counted1 := step("counted", addrs.IntKey(0)), step("counted", addrs.IntKey(1))
	nested := step("nested", addrs.NoKey)
	data := func(id, input string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id), "input": cty.StringVal(input), "output": cty.StringVal(input), "triggers_replace": cty.NullVal(cty.DynamicPseudoType)})
	}
	prior := states.New()
	for _, addr := range []addrs.AbsResourceInstance{
		Managed("root", addrs.NoKey),
		moduleInst(addrs.ManagedResourceMode, "terraform_data", "r", addrs.NoKey, eachA),
		moduleInst(addrs.ManagedResourceMode, "terraform_data", "n", addrs.NoKey, eachA, nested),
		moduleInst(addrs.ManagedResourceMode, "terraform_data", "r", addrs.NoKey, gone),
	} {
		prior.SetObject(addr, &states.ObjectSrc{
			AttrsJSON: []byte(`{"id":"x","input":{"value":"v","type":"string"},"output":{"value":"v","type":"string"},"triggers_replace":null}`),
			Status:    states.ObjectReady,
		}, addrs.AbsProviderConfig{Provider: Builtin.Provider})
	}
	change := func(addr addrs.AbsResourceInstance, action plans.Action, before, after cty.Value) *plans.ResourceInstanceChange {
		return &plans.ResourceInstanceChange{Addr: addr, ProviderAddr: Builtin, Action: action, Before: before, After: after}
	}
	none := cty.NullVal(DataSchema.ImpliedType())
	thing := cty.ObjectVal(map[string]cty.Value{
		"id": cty.UnknownVal(cty.String), "name": cty.UnknownVal(cty.String), "token": cty.NullVal(cty.String),
		"rule":     cty.ListValEmpty(ThingSchema.BlockTypes["rule"].ImpliedType().ElementType()),
		"timeouts": cty.NullVal(ThingSchema.BlockTypes["timeouts"].ImpliedType()),
		"tag":      cty.MapValEmpty(ThingSchema.BlockTypes["tag"].ImpliedType().ElementType()),
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
				ProviderAddr: addrs.AbsProviderConfig{Provider: TestProv.Provider, Alias: "west"}, Action: plans.Create,
				Before: cty.NullVal(ThingSchema.ImpliedType()), After: thing,
			},
			change(Managed("root", addrs.NoKey), plans.NoOp, data("r", "r"), data("r", "r")),
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
