package jsonformat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/plans"
)

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
				if got := RelevantAttributes(cfg, p, schemas); len(got) != n {
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
				if got := RelevantAttributes(cfg, p, schemas); len(got) == 0 {
					b.Fatal("no relevant attributes")
				}
			}
		})
	}
}
