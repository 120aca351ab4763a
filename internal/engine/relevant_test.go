package engine_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/plans/planstest"
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

// The fixtures, shared with the JSON plan document's tests.
var (
	builtin, dataSchema             = planstest.Builtin, planstest.DataSchema
	schemas, inst, managed          = planstest.Schemas, planstest.Inst, planstest.Managed
	assertJSON, loadTree            = planstest.AssertJSON, planstest.LoadTree
	moduleTreeFiles, moduleTreePlan = planstest.ModuleTreeFiles, planstest.ModuleTreePlan
)

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
