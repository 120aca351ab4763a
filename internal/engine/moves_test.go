package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/strata-dev/strata/internal/plans"
)

func TestMoves(t *testing.T) {
	const before = `resource "terraform_data" "a" { input = 1 }`
	cases := []struct {
		name    string
		before  string // defaults to the const before
		after   string
		wantErr string
		want    map[string]bool // addresses in the new state
	}{
		{
			name: "resource renamed",
			after: `
resource "terraform_data" "b" { input = 1 }
moved {
  from = terraform_data.a
  to   = terraform_data.b
}`,
			want: map[string]bool{"terraform_data.a": false, "terraform_data.b": true},
		},
		{
			name: "source still declared",
			after: before + `
resource "terraform_data" "b" { input = 1 }
moved {
  from = terraform_data.a
  to   = terraform_data.b
}`,
			wantErr: "Moved object still exists; This statement declares a move from terraform_data.a, but that resource is still declared at ",
		},
		{
			name:   "source instance still declared",
			before: `resource "terraform_data" "a" { count = 2 }`,
			after: `
resource "terraform_data" "a" { count = 2 }
resource "terraform_data" "b" {}
moved {
  from = terraform_data.a[1]
  to   = terraform_data.b
}`,
			wantErr: "This statement declares a move from terraform_data.a[1], but that resource instance is still declared at ",
		},
		{
			name:   "instance moved out of a shrinking count",
			before: `resource "terraform_data" "a" { count = 2 }`,
			after: `
resource "terraform_data" "a" { count = 1 }
resource "terraform_data" "b" {}
moved {
  from = terraform_data.a[1]
  to   = terraform_data.b
}`,
			want: map[string]bool{"terraform_data.a[0]": true, "terraform_data.a[1]": false, "terraform_data.b": true},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := before
			if tc.before != "" {
				src = tc.before
			}
			_, state := planApply(t, builtinEngine(testConfigInline(t, map[string]string{"main.tf": src})), nil, PlanOpts{})
			e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": tc.after}))
			if tc.wantErr != "" {
				_, diags := e.Plan(context.Background(), state, PlanOpts{})
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("diagnostics = %v, want %q", diags, tc.wantErr)
				}
				return
			}
			plan, state := planApply(t, e, state, PlanOpts{})
			for addr, action := range actions(plan) {
				if action != plans.NoOp {
					t.Errorf("a move alone planned %s for %s", action, addr)
				}
			}
			for addr, want := range tc.want {
				if got := state.Object(mustInstance(t, addr)) != nil; got != want {
					t.Errorf("%s in state = %v, want %v", addr, got, want)
				}
			}
		})
	}
}
