package engine

import (
	"context"
	"strings"
	"testing"
)

// TestReviewConditionReferencesOrderTheGraph checks that a resource's
// preconditions and postconditions and an output's preconditions wait for
// what they refer to: otherwise they are evaluated against values not yet
// computed, come out unknown and a failing condition passes silently.
func TestReviewConditionReferencesOrderTheGraph(t *testing.T) {
	t.Parallel()
	e := builtinEngine(testConfigInline(t, map[string]string{
		"main.tf": `
resource "terraform_data" "a" {
  input = "a"
}
resource "terraform_data" "b" {
  input = "b"
  lifecycle {
    precondition {
      condition     = terraform_data.a.input == "zzz"
      error_message = "pre a is wrong"
    }
    postcondition {
      condition     = terraform_data.a.input == "zzz"
      error_message = "post a is wrong"
    }
  }
}
output "o" {
  value = "v"
  precondition {
    condition     = terraform_data.a.input == "zzz"
    error_message = "out a is wrong"
  }
}
module "m" {
  source = "./child"
}
`,
		"child/main.tf": `
resource "terraform_data" "r" {
  input = "x"
}
output "o" {
  value = 1
  precondition {
    condition     = terraform_data.r.input == "zzz"
    error_message = "child out r is wrong"
  }
}
`,
	}))
	for i := 0; i < 10; i++ {
		_, diags := e.Plan(context.Background(), nil, PlanOpts{})
		var got string
		for _, d := range diags {
			got += d.Summary + ": " + d.Detail + "\n"
		}
		for _, want := range []string{"pre a is wrong", "out a is wrong", "child out r is wrong"} {
			if !strings.Contains(got, want) {
				t.Fatalf("run %d: plan diagnostics lack %q:\n%s", i, want, got)
			}
		}
	}
}
