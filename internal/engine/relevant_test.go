package engine_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// The tests of the relevant attributes analysis, with the plan
// document's form of the result (relMarshal).

// relMarshal is the JSON of relevant attributes as the plan document
// lists them: the resource, and the path's names and keys.
func relMarshal(attrs []plans.RelevantAttr) ([]byte, error) {
	type relevantAttribute struct {
		Resource  string            `json:"resource"`
		Attribute []json.RawMessage `json:"attribute"`
	}
	var ret []relevantAttribute
	for _, ra := range attrs {
		path := []json.RawMessage{}
		for _, step := range ra.Attr {
			switch s := step.(type) {
			case cty.GetAttrStep:
				b, _ := json.Marshal(s.Name)
				path = append(path, b)
			case cty.IndexStep:
				b, err := ctyjson.Marshal(s.Key, s.Key.Type())
				if err != nil {
					return nil, err
				}
				path = append(path, b)
			}
		}
		ret = append(ret, relevantAttribute{Resource: ra.Resource, Attribute: path})
	}
	return json.Marshal(ret)
}

var (
	builtin  = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	testProv = addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("test")}
)

// dataSchema is terraform_data's schema.
var dataSchema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"id":               {Type: cty.String, Computed: true},
	"input":            {Type: cty.DynamicPseudoType, Optional: true},
	"output":           {Type: cty.DynamicPseudoType, Computed: true},
	"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
}}

// thingSchema has a schema-sensitive attribute and nested blocks.
var thingSchema = &configschema.Block{
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

// lookupSchema is the dataSource schema of test_lookup (a data source).
var lookupSchema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"key":    {Type: cty.String, Required: true},
	"config": {Type: cty.Map(cty.String), Optional: true},
	"result": {Type: cty.String, Computed: true},
}}

func schemas(p addrs.AbsProviderConfig, mode addrs.ResourceMode, typ string) *configschema.Block {
	switch {
	case typ == "terraform_data" && mode == addrs.ManagedResourceMode:
		return dataSchema
	case typ == "test_thing" && mode == addrs.ManagedResourceMode:
		return thingSchema
	case typ == "test_lookup" && mode == addrs.DataResourceMode:
		return lookupSchema
	}
	return nil
}

func inst(mode addrs.ResourceMode, typ, name string, key addrs.InstanceKey) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: mode, Type: typ, Name: name}.Absolute(addrs.RootModuleInstance).Instance(key)
}

func managed(name string, key addrs.InstanceKey) addrs.AbsResourceInstance {
	return inst(addrs.ManagedResourceMode, "terraform_data", name, key)
}

// assertJSON compares documents as JSON values and reports the
// difference.
func assertJSON(t *testing.T, got []byte, want string) {
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

// loadTree loads a module tree from files keyed by path relative to the
// root module, such as "main.tf" and "modules/x/main.tf".
func loadTree(t testing.TB, files map[string]string) *configs.Config {
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

func TestRelevantAttributes(t *testing.T) {
	cfg := loadTree(t, map[string]string{"main.tf": `
locals {
  l = terraform_data.m2.output
}
resource "terraform_data" "m" {
  input = "m"
}
resource "terraform_data" "m2" {
  input = "m"
}
resource "terraform_data" "h" {
  input = terraform_data.m.output
}
resource "terraform_data" "s" {
  input            = terraform_data.m.input
  triggers_replace = local.l
}
resource "terraform_data" "t" {
  input            = terraform_data.s
  triggers_replace = terraform_data.h.id
}
resource "terraform_data" "noop" {
  input = terraform_data.m.id
}
output "noop" {
  value = terraform_data.m2.id
}
`})
	changes := &plans.Changes{
		Resources: []*plans.ResourceInstanceChange{
			{Addr: managed("t", addrs.NoKey), Action: plans.DeleteThenCreate},
			{Addr: managed("noop", addrs.NoKey), Action: plans.NoOp},
			{Addr: managed("orphan", addrs.NoKey), Action: plans.Delete},
		},
		Outputs: []*plans.OutputChange{{Name: "noop", Action: plans.NoOp}},
	}
	b, _ := relMarshal(engine.RelevantAttributes(cfg, &plans.Plan{Changes: changes}, schemas))
	// t refers to the whole of s, so everything s refers to counts, through
	// local.l; h.id is not configured, so nothing behind it counts. The
	// no-op resource and output add nothing.
	assertJSON(t, b, `[
	  {"resource": "terraform_data.h", "attribute": ["id"]},
	  {"resource": "terraform_data.m", "attribute": ["input"]},
	  {"resource": "terraform_data.m2", "attribute": ["output"]},
	  {"resource": "terraform_data.s", "attribute": []}
	]`)
	if got := engine.RelevantAttributes(cfg, &plans.Plan{}, schemas); got != nil {
		t.Errorf("no changes, relevant attributes %v", got)
	}
}

// TestRelevantAttributesPaths: every path taken from a resource counts,
// with its instance key, while what is behind a local value, and behind
// a resource argument, is followed once whichever parts of it are used.
// The expected list is what Terraform 1.11 plans for this configuration.
func TestRelevantAttributesPaths(t *testing.T) {
	cfg := loadTree(t, map[string]string{"main.tf": `
locals {
  m = { a = terraform_data.x[0].output, b = terraform_data.y.input }
}
resource "terraform_data" "src" {
  input = "s"
}
resource "terraform_data" "src2" {
  input = "s2"
}
resource "terraform_data" "x" {
  count = 2
  input = { k = terraform_data.src.output }
}
resource "terraform_data" "y" {
  input = terraform_data.src2.output
}
resource "terraform_data" "t" {
  input = [local.m.a, local.m["b"], terraform_data.x[1].input, terraform_data.x[0].input, terraform_data.x[1].output.k]
}
`})
	changes := &plans.Changes{Resources: []*plans.ResourceInstanceChange{{Addr: managed("t", addrs.NoKey), Action: plans.Create}}}
	b, _ := relMarshal(engine.RelevantAttributes(cfg, &plans.Plan{Changes: changes}, schemas))
	assertJSON(t, b, `[
	  {"resource": "terraform_data.src", "attribute": ["output"]},
	  {"resource": "terraform_data.src2", "attribute": ["output"]},
	  {"resource": "terraform_data.x[0]", "attribute": ["input"]},
	  {"resource": "terraform_data.x[0]", "attribute": ["output"]},
	  {"resource": "terraform_data.x[1]", "attribute": ["input"]},
	  {"resource": "terraform_data.x[1]", "attribute": ["output", "k"]},
	  {"resource": "terraform_data.y", "attribute": ["input"]}
	]`)
}

func TestRelevantAttributesModules(t *testing.T) {
	cfg := loadTree(t, moduleTreeFiles)
	refreshOnly := moduleTreePlan(plans.RefreshOnlyMode)
	refreshOnly.Changes = &plans.Changes{}
	delete(refreshOnly.PriorState.Resources, `module.each["gone"].terraform_data.r`)
	tests := map[string]struct {
		plan *plans.Plan
		want string
	}{
		// Every changing resource and root output, and every output of the
		// module instances the plan keeps.
		"normal": {moduleTreePlan(plans.NormalMode), `[
		  {"resource": "module.counted[0].terraform_data.r", "attribute": ["output"]},
		  {"resource": "module.counted[1].terraform_data.r", "attribute": ["output"]},
		  {"resource": "module.each[\"a\"].terraform_data.r", "attribute": ["output"]},
		  {"resource": "module.each[\"b\"].terraform_data.r", "attribute": ["output"]},
		  {"resource": "terraform_data.root", "attribute": ["output"]}
		]`},
		// A destroy plan has no module outputs: only the deleted resources'
		// arguments and the root output count.
		"destroy": {moduleTreePlan(plans.DestroyMode), `[
		  {"resource": "module.counted[1].terraform_data.r", "attribute": ["output"]},
		  {"resource": "module.each[\"a\"].terraform_data.r", "attribute": ["output"]},
		  {"resource": "terraform_data.root", "attribute": ["output"]}
		]`},
		// With no changes, the module instances come from the prior state.
		"refresh-only": {refreshOnly, `[
		  {"resource": "module.each[\"a\"].terraform_data.r", "attribute": ["output"]},
		  {"resource": "terraform_data.root", "attribute": ["output"]}
		]`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			b, _ := relMarshal(engine.RelevantAttributes(cfg, tc.plan, schemas))
			assertJSON(t, b, tc.want)
		})
	}
}

// namingModule is a naming-module-style module (as in the public Azure
// and label modules): one large local map built from other locals, an
// output per entry reaching into that map, a second map that refers to
// the first entry by entry, and one resource that the locals depend on.
func namingModule(entries int) string {
	var b strings.Builder
	b.WriteString(`
variable "prefix" { default = [] }
variable "suffix" { default = [] }
variable "seed" { default = "" }
resource "terraform_data" "seed" {
  input = var.seed
}
locals {
  random        = substr(md5(terraform_data.seed.output), 0, 4)
  prefix        = join("-", var.prefix)
  suffix        = join("-", var.suffix)
  suffix_unique = join("-", concat(var.suffix, [local.random]))
  az = {
`)
	for i := 0; i < entries; i++ {
		fmt.Fprintf(&b, `    r%[1]d = {
      name        = substr(join("-", compact([local.prefix, "r%[1]d", local.suffix])), 0, 60)
      name_unique = substr(join("-", compact([local.prefix, "r%[1]d", local.suffix_unique])), 0, 60)
      slug        = "r%[1]d"
      max_length  = 60
      regex       = "^[a-z0-9-]+$"
    }
`, i)
	}
	b.WriteString("  }\n  validation = {\n")
	for i := 0; i < entries; i++ {
		fmt.Fprintf(&b, "    r%[1]d = length(regexall(local.az.r%[1]d.regex, local.az.r%[1]d.name)) > 0 && length(local.az.r%[1]d.name) <= local.az.r%[1]d.max_length\n", i)
	}
	b.WriteString("  }\n}\n")
	for i := 0; i < entries; i++ {
		fmt.Fprintf(&b, "output \"r%[1]d\" {\n  value = local.az.r%[1]d\n}\noutput \"r%[1]d_valid\" {\n  value = local.validation.r%[1]d\n}\n", i)
	}
	b.WriteString("output \"seed\" {\n  value = terraform_data.seed.output\n}\n")
	return b.String()
}

// namingTree is a root module calling namingModule(entries) once per
// name in calls, each call chaining on the previous one's output, and
// a resource in the root that refers to the first and last call.
func namingTree(entries int, calls []string) map[string]string {
	var root strings.Builder
	prev := `[]`
	for _, c := range calls {
		fmt.Fprintf(&root, "module %q {\n  source = \"./modules/naming\"\n  prefix = %s\n  suffix = [%q]\n  seed   = %q\n}\n", c, prev, c, c)
		prev = fmt.Sprintf("[module.%s.r0.name]", c)
	}
	fmt.Fprintf(&root, "resource \"terraform_data\" \"root\" {\n  input = [module.%s.r1.name, module.%s.r2.name_unique]\n}\n", calls[0], calls[len(calls)-1])
	return map[string]string{"main.tf": root.String(), "modules/naming/main.tf": namingModule(entries)}
}

// namingForEachTree is a root module calling namingModule(entries) with
// for_each over instances keys.
func namingForEachTree(entries, instances int) map[string]string {
	root := fmt.Sprintf(`
module "n" {
  source   = "./modules/naming"
  for_each = toset([for i in range(%d) : "k${i}"])
  prefix   = ["p", each.key]
  seed     = each.key
}
resource "terraform_data" "root" {
  input = [for k, m in module.n : m.r0.name]
}
`, instances)
	return map[string]string{"main.tf": root, "modules/naming/main.tf": namingModule(entries)}
}

// namingPlan plans the creation of every resource of a naming tree whose
// module instances are given.
func namingPlan(instances []addrs.ModuleInstance) *plans.Plan {
	create := func(addr addrs.AbsResourceInstance) *plans.ResourceInstanceChange {
		return &plans.ResourceInstanceChange{Addr: addr, ProviderAddr: builtin, Action: plans.Create,
			Before: cty.NullVal(dataSchema.ImpliedType()), After: cty.UnknownVal(dataSchema.ImpliedType())}
	}
	changes := &plans.Changes{}
	for _, mi := range instances {
		changes.Resources = append(changes.Resources, create(addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "seed"}.Absolute(mi).Instance(addrs.NoKey)))
	}
	changes.Resources = append(changes.Resources, create(managed("root", addrs.NoKey)))
	return &plans.Plan{Mode: plans.NormalMode, Changes: changes}
}

func BenchmarkRelevantAttributesNaming(b *testing.B) {
	for _, n := range []int{5, 10} {
		b.Run(fmt.Sprintf("calls=%d", n), func(b *testing.B) {
			var calls []string
			var insts []addrs.ModuleInstance
			for i := 0; i < n; i++ {
				calls = append(calls, fmt.Sprintf("m%d", i))
				insts = append(insts, addrs.RootModuleInstance.Child(calls[i], addrs.NoKey))
			}
			cfg := loadTree(b, namingTree(100, calls))
			p := namingPlan(insts)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if got := engine.RelevantAttributes(cfg, p, schemas); len(got) != n {
					b.Fatalf("wrong number of relevant attributes %d: %v", len(got), got)
				}
			}
		})
	}
	for _, n := range []int{10, 20} {
		b.Run(fmt.Sprintf("for_each=%d", n), func(b *testing.B) {
			var insts []addrs.ModuleInstance
			for i := 0; i < n; i++ {
				insts = append(insts, addrs.RootModuleInstance.Child("n", addrs.StringKey(fmt.Sprintf("k%d", i))))
			}
			cfg := loadTree(b, namingForEachTree(100, n))
			p := namingPlan(insts)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if got := engine.RelevantAttributes(cfg, p, schemas); len(got) == 0 {
					b.Fatal("no relevant attributes")
				}
			}
		})
	}
}

// relTestConfig is the configuration of jsonplan's plan document test,
// shared so that both tests analyse the same module.
const relTestConfig = "../plans/jsonplan/testdata/plan.tf"

// TestRelevantAttributesConfig is the analysis on relTestConfig: the
// changing instances of a, b, t and l and the changing outputs a and
// secret (fn refers to nothing); through local.m to a's output.
func TestRelevantAttributesConfig(t *testing.T) {
	src, err := os.ReadFile(relTestConfig)
	if err != nil {
		t.Fatal(err)
	}
	mod, diags := configs.NewParser().LoadModuleFromSources(".", map[string][]byte{"main.tf": src})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	cfg := configs.NewRootConfig(mod)
	change := func(addr addrs.AbsResourceInstance, action plans.Action) *plans.ResourceInstanceChange {
		return &plans.ResourceInstanceChange{Addr: addr, Action: action}
	}
	changes := &plans.Changes{
		Resources: []*plans.ResourceInstanceChange{
			change(managed("gone", addrs.NoKey), plans.Delete),
			change(managed("a", addrs.IntKey(1)), plans.Create),
			change(managed("a", addrs.IntKey(0)), plans.DeleteThenCreate),
			change(managed("b", addrs.StringKey("x")), plans.Create),
			change(inst(addrs.ManagedResourceMode, "test_thing", "t", addrs.NoKey), plans.Update),
			change(inst(addrs.DataResourceMode, "test_lookup", "l", addrs.NoKey), plans.Read),
		},
		Outputs: []*plans.OutputChange{
			{Name: "a", Action: plans.Update}, {Name: "secret", Action: plans.Create},
			{Name: "old", Action: plans.Delete}, {Name: "fn", Action: plans.Update},
		},
	}
	b, _ := relMarshal(engine.RelevantAttributes(cfg, &plans.Plan{Mode: plans.NormalMode, PriorState: states.New(), Changes: changes}, schemas))
	assertJSON(t, b, `[
	  {"resource": "terraform_data.a", "attribute": []},
	  {"resource": "terraform_data.a", "attribute": ["output"]},
	  {"resource": "terraform_data.a[0]", "attribute": ["id"]},
	  {"resource": "terraform_data.a[0]", "attribute": ["output"]},
	  {"resource": "terraform_data.a[1]", "attribute": ["id"]}
	]`)
}
