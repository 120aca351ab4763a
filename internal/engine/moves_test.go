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
		name   string
		before string // defaults to the const before
		after  string
		// mod and modAfter are the module at ./mod before and after
		// (modAfter defaults to mod).
		mod, modAfter string
		wantErr       string
		want          map[string]bool // addresses in the new state
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
		{
			name: "two destinations for one source",
			after: `
resource "terraform_data" "b" { input = 1 }
resource "terraform_data" "c" { input = 1 }
moved {
  from = terraform_data.a
  to   = terraform_data.b
}
moved {
  from = terraform_data.a
  to   = terraform_data.c
}`,
			wantErr: "Ambiguous move statements; A statement at ",
		},
		{
			name: "two sources for one destination",
			after: `
resource "terraform_data" "c" { input = 1 }
moved {
  from = terraform_data.a
  to   = terraform_data.c
}
moved {
  from = terraform_data.b
  to   = terraform_data.c
}`,
			wantErr: "but this statement instead declares that terraform_data.b moved there.",
		},
		{
			name: "a cycle",
			after: `
resource "terraform_data" "c" { input = 1 }
moved {
  from = terraform_data.a
  to   = terraform_data.b
}
moved {
  from = terraform_data.b
  to   = terraform_data.a
}`,
			wantErr: "Cyclic dependency in move statements; The following chained move statements form a cycle, and so there is no final location to move objects to:\n  - ",
		},
		{
			name:   "module call renamed",
			mod:    `resource "terraform_data" "r" { input = 1 }`,
			before: `module "a" { source = "./mod" }`,
			after: `
module "b" { source = "./mod" }
moved {
  from = module.a
  to   = module.b
}`,
			want: map[string]bool{"module.a.terraform_data.r": false, "module.b.terraform_data.r": true},
		},
		{
			name: "every instance of a renamed call keeps its key",
			mod:  `resource "terraform_data" "r" { input = 1 }`,
			before: `module "a" {
  source = "./mod"
  count  = 2
}`,
			after: `
module "b" {
  source = "./mod"
  count  = 2
}
moved {
  from = module.a
  to   = module.b
}`,
			want: map[string]bool{"module.a[1].terraform_data.r": false, "module.b[0].terraform_data.r": true, "module.b[1].terraform_data.r": true},
		},
		{
			name: "module instance moved to another call",
			mod:  `resource "terraform_data" "r" { input = 1 }`,
			before: `module "c" {
  source = "./mod"
  count  = 2
}`,
			after: `
module "c" {
  source = "./mod"
  count  = 1
}
module "d" {
  source   = "./mod"
  for_each = toset(["x"])
}
moved {
  from = module.c[1]
  to   = module.d["x"]
}`,
			want: map[string]bool{"module.c[0].terraform_data.r": true, "module.c[1].terraform_data.r": false, `module.d["x"].terraform_data.r`: true},
		},
		{
			name:     "moved block inside a module applies in each instance",
			mod:      `resource "terraform_data" "old" { input = 1 }`,
			modAfter: "resource \"terraform_data\" \"new\" { input = 1 }\nmoved {\n  from = terraform_data.old\n  to   = terraform_data.new\n}\n",
			before: `module "a" {
  source = "./mod"
  count  = 2
}`,
			after: `module "a" {
  source = "./mod"
  count  = 2
}`,
			want: map[string]bool{"module.a[0].terraform_data.old": false, "module.a[0].terraform_data.new": true, "module.a[1].terraform_data.new": true},
		},
		{
			name:   "module call still declared",
			mod:    `resource "terraform_data" "r" { input = 1 }`,
			before: `module "a" { source = "./mod" }`,
			after: `
module "a" { source = "./mod" }
module "b" { source = "./mod" }
moved {
  from = module.a
  to   = module.b
}`,
			wantErr: "This statement declares a move from module.a, but that module call is still declared at ",
		},
		{
			name: "module instance still declared",
			mod:  `resource "terraform_data" "r" { input = 1 }`,
			before: `module "c" {
  source = "./mod"
  count  = 2
}`,
			after: `
module "c" {
  source = "./mod"
  count  = 2
}
module "d" { source = "./mod" }
moved {
  from = module.c[1]
  to   = module.d
}`,
			wantErr: "This statement declares a move from module.c[1], but that module instance is still declared at ",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := before
			if tc.before != "" {
				src = tc.before
			}
			files := func(main, mod string) map[string]string {
				f := map[string]string{"main.tf": main}
				if mod != "" {
					f["mod/main.tf"] = mod
				}
				return f
			}
			modAfter := tc.mod
			if tc.modAfter != "" {
				modAfter = tc.modAfter
			}
			_, state := planApply(t, builtinEngine(testConfigInline(t, files(src, tc.mod))), nil, PlanOpts{})
			e := builtinEngine(testConfigInline(t, files(tc.after, modAfter)))
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

// TestRemovedInModule: a child module's removed block names a resource of
// that module and applies in each of its instances.
func TestRemovedInModule(t *testing.T) {
	files := func(mod string) map[string]string {
		return map[string]string{
			"main.tf":     "module \"m\" {\n  source = \"./mod\"\n  count  = 2\n}\n",
			"mod/main.tf": mod,
		}
	}
	_, state := planApply(t, builtinEngine(testConfigInline(t, files(`resource "terraform_data" "r" {}`))), nil, PlanOpts{})
	e := builtinEngine(testConfigInline(t, files("removed {\n  from = terraform_data.r\n  lifecycle {\n    destroy = false\n  }\n}\n")))
	plan, diags := e.Plan(context.Background(), state, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for _, addr := range []string{"module.m[0].terraform_data.r", "module.m[1].terraform_data.r"} {
		if got := actions(plan)[addr]; got != plans.Forget {
			t.Errorf("%s: %s, want forget", addr, got)
		}
	}
}
