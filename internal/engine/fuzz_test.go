package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-dev/strata/internal/configs"
)

// FuzzPlanConfig feeds arbitrary configuration text through loading,
// validation, planning and applying with the built-in provider: whatever
// the input, strata must report diagnostics, never panic or hang.
func FuzzPlanConfig(f *testing.F) {
	seeds := []string{
		`resource "terraform_data" "a" { input = 1 }`,
		`variable "v" { default = [1,2] }
resource "terraform_data" "a" {
  for_each = toset([for x in var.v : tostring(x)])
  input    = each.value
}
output "o" { value = terraform_data.a }`,
		`locals { x = local.y
 y = 1 }
resource "terraform_data" "a" { count = local.x
 input = count.index
 triggers_replace = try(local.x.nope, "t") }`,
		`resource "terraform_data" "a" {
  dynamic "x" {
    for_each = [1]
    content {}
  }
}`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		mod, diags := configs.NewParser().LoadConfig(dir)
		if diags.HasErrors() {
			return
		}
		e := builtinEngine(mod)
		ctx := context.Background()
		if diags := e.Validate(ctx); diags.HasErrors() {
			return
		}
		plan, diags := e.Plan(ctx, nil, PlanOpts{})
		if diags.HasErrors() {
			return
		}
		_, _ = e.Apply(ctx, plan)
	})
}
