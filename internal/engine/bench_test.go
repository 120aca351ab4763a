package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
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
