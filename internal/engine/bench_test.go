package engine

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

func chainSource(n int) string {
	var b strings.Builder
	b.WriteString("resource \"terraform_data\" \"r0\" {\n  input = \"start\"\n}\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = terraform_data.r%d.output\n}\n", i, i-1)
	}
	return b.String()
}

// BenchmarkApplyChain plans and applies N chained resources from empty.
func BenchmarkApplyChain(b *testing.B) {
	for _, n := range []int{500, 2000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			t := &testing.T{}
			cfg := testConfigInline(t, map[string]string{"main.tf": chainSource(n)})
			e := builtinEngine(cfg)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
				if diags.HasErrors() {
					b.Fatal(diags.Error())
				}
				if _, diags := e.Apply(context.Background(), plan); diags.HasErrors() {
					b.Fatal(diags.Error())
				}
			}
		})
	}
}

// BenchmarkNoopPlanChain plans N chained resources that are up to date.
func BenchmarkNoopPlanChain(b *testing.B) {
	for _, n := range []int{500, 2000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			t := &testing.T{}
			cfg := testConfigInline(t, map[string]string{"main.tf": chainSource(n)})
			e := builtinEngine(cfg)
			plan, _ := e.Plan(context.Background(), nil, PlanOpts{})
			var state *states.State
			state, _ = e.Apply(context.Background(), plan)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p, diags := e.Plan(context.Background(), state, PlanOpts{})
				if diags.HasErrors() || p.Changes.HasChanges() {
					b.Fatal("unexpected changes or errors")
				}
			}
		})
	}
}

// BenchmarkDestroyChain plans and applies the destruction of N chained
// resources.
func BenchmarkDestroyChain(b *testing.B) {
	t := &testing.T{}
	cfg := testConfigInline(t, map[string]string{"main.tf": chainSource(2000)})
	e := builtinEngine(cfg)
	plan, _ := e.Plan(context.Background(), nil, PlanOpts{})
	state, _ := e.Apply(context.Background(), plan)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, diags := e.Plan(context.Background(), state, PlanOpts{Mode: plans.DestroyMode})
		if diags.HasErrors() {
			b.Fatal(diags.Error())
		}
		if _, diags := e.Apply(context.Background(), p); diags.HasErrors() {
			b.Fatal(diags.Error())
		}
	}
}

// BenchmarkDestroyChainFromFile is BenchmarkDestroyChain from a state read
// back from its file, whose objects record every transitive dependency,
// as Terraform's do.
func BenchmarkDestroyChainFromFile(b *testing.B) {
	t := &testing.T{}
	cfg := testConfigInline(t, map[string]string{"main.tf": chainSource(2000)})
	e := builtinEngine(cfg)
	plan, _ := e.Plan(context.Background(), nil, PlanOpts{})
	state, _ := e.Apply(context.Background(), plan)
	data, err := statefile.Write(state)
	if err != nil {
		b.Fatal(err)
	}
	if state, err = statefile.Read(data); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, diags := e.Plan(context.Background(), state, PlanOpts{Mode: plans.DestroyMode, SkipRefresh: true})
		if diags.HasErrors() {
			b.Fatal(diags.Error())
		}
		if _, diags := e.Apply(context.Background(), p); diags.HasErrors() {
			b.Fatal(diags.Error())
		}
	}
}

// moduleFanSource calls a module of ten chained resources once per key of
// a for_each with n keys, each instance feeding an output the root uses.
func moduleFanSource(n int) map[string]string {
	var mod strings.Builder
	mod.WriteString("variable \"name\" {}\nresource \"terraform_data\" \"r0\" {\n  input = var.name\n}\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&mod, "resource \"terraform_data\" \"r%d\" {\n  input = terraform_data.r%d.output\n}\n", i, i-1)
	}
	mod.WriteString("output \"last\" {\n  value = terraform_data.r9.output\n}\n")
	root := fmt.Sprintf(`module "fan" {
  source   = "./mod"
  for_each = toset([for i in range(%d) : tostring(i)])
  name     = each.key
}
resource "terraform_data" "all" {
  input = [for k, m in module.fan : m.last]
}
`, n)
	return map[string]string{"main.tf": root, "mod/main.tf": mod.String()}
}

// BenchmarkModuleFan plans and applies n module instances of ten resources
// each from empty, then plans again with nothing to do.
func BenchmarkModuleFan(b *testing.B) {
	for _, n := range []int{200} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			t := &testing.T{}
			e := builtinEngine(testConfigInline(t, moduleFanSource(n)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
				if diags.HasErrors() {
					b.Fatal(diags.Error())
				}
				state, diags := e.Apply(context.Background(), plan)
				if diags.HasErrors() {
					b.Fatal(diags.Error())
				}
				if _, diags := e.Plan(context.Background(), state, PlanOpts{}); diags.HasErrors() {
					b.Fatal(diags.Error())
				}
			}
		})
	}
}

// chainsSource is the configuration `go run ./internal/bench` generates:
// n terraform_data resources in chains of 10.
func chainsSource(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		prev := `"start"`
		if i%10 != 0 {
			prev = fmt.Sprintf("terraform_data.r%d.output", i-1)
		}
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = %s\n}\n", i, prev)
	}
	return b.String()
}

// BenchmarkNoopPlanFromFile is the no-op plan of the CLI less loading the
// configuration: n resources in chains of 10, the state read from its
// file, a fresh engine each time. live-MB is the heap still in use once
// the plan is made, with the configuration, the state read, the engine
// and the plan alive, as in the plan command: what its peak memory
// follows.
func BenchmarkNoopPlanFromFile(b *testing.B) {
	for _, n := range []int{10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			t := &testing.T{}
			cfg := testConfigInline(t, map[string]string{"main.tf": chainsSource(n)})
			plan, _ := builtinEngine(cfg).Plan(context.Background(), nil, PlanOpts{})
			state, _ := builtinEngine(cfg).Apply(context.Background(), plan)
			data, err := statefile.Write(state)
			if err != nil {
				b.Fatal(err)
			}
			plan, state = nil, nil
			var e *Engine
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				plan, e = nil, nil
				if state, err = statefile.Read(data); err != nil {
					b.Fatal(err)
				}
				e = builtinEngine(cfg)
				p, diags := e.Plan(context.Background(), state, PlanOpts{})
				if diags.HasErrors() || p.Changes.HasChanges() {
					b.Fatal("unexpected changes or errors")
				}
				plan = p
			}
			b.StopTimer()
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "live-MB")
			runtime.KeepAlive(plan)
			runtime.KeepAlive(state)
			runtime.KeepAlive(cfg)
			runtime.KeepAlive(e)
		})
	}
}
