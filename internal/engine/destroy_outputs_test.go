package engine

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// destroyOutputsApplied is the configuration applied before each destroy
// of TestDestroyPlanOutputs; destroyOutputsNow is the configuration the
// destroy is planned with.
const destroyOutputsApplied = `
resource "terraform_data" "a" {
  input = "x"
}
output "changed" {
  value = "old"
}
output "same" {
  value = terraform_data.a.output
}
output "dep" {
  value = "${terraform_data.a.output}-1"
}
output "removed" {
  value = "r"
}
output "removed_s" {
  value     = "rs"
  sensitive = true
}
output "becomes_null" {
  value = "bn"
}
output "becomes_sens" {
  value = "bs"
}
output "goes_unknown" {
  value = "was"
}
`

const destroyOutputsNow = `
resource "terraform_data" "a" {
  input = "x"
}
resource "terraform_data" "b" {
  input = "y"
}
output "changed" {
  value = "new"
}
output "same" {
  value = terraform_data.a.output
}
output "dep" {
  value = "${terraform_data.a.output}-2"
}
output "added" {
  value = "n"
}
output "p" {
  value     = "s"
  sensitive = true
}
output "becomes_null" {
  value = null
}
output "becomes_sens" {
  value     = "bs"
  sensitive = true
}
output "goes_unknown" {
  value = terraform_data.b.output
}
output "added_unknown" {
  value = [terraform_data.b.output, "k"]
}
`

// TestDestroyPlanOutputs: a destroy plan's outputs go, as Terraform's,
// from the value the normal plan made first evaluated (outputs added since
// the last apply included, those now null left out, those now unknown at
// the value recorded) to null; without that plan (-refresh=false) from the
// recorded values. With -target the plan changes no output, and applying
// it keeps the values the normal plan evaluated for the targeted outputs
// and the recorded ones for the others, outputs no longer configured too.
func TestDestroyPlanOutputs(t *testing.T) {
	t.Parallel()
	type out struct {
		Before    string
		Sensitive bool
	}
	tests := map[string]struct {
		opts   PlanOpts
		empty  bool
		want   map[string]out
		remain map[string]string // the outputs after applying
	}{
		"refreshed": {
			opts: PlanOpts{},
			want: map[string]out{
				"added":        {`"n"`, false},
				"becomes_sens": {`"bs"`, true},
				"changed":      {`"new"`, false},
				"dep":          {`"x-2"`, false},
				"goes_unknown": {`"was"`, false},
				"p":            {`"s"`, true},
				"removed":      {`"r"`, false},
				"removed_s":    {`"rs"`, true},
				"same":         {`"x"`, false},
			},
			remain: map[string]string{},
		},
		"refresh=false": {
			opts: PlanOpts{SkipRefresh: true},
			want: map[string]out{
				"becomes_null": {`"bn"`, false},
				"becomes_sens": {`"bs"`, false},
				"changed":      {`"old"`, false},
				"dep":          {`"x-1"`, false},
				"goes_unknown": {`"was"`, false},
				"removed":      {`"r"`, false},
				"removed_s":    {`"rs"`, true},
				"same":         {`"x"`, false},
			},
			remain: map[string]string{},
		},
		"target": {
			opts: PlanOpts{Targets: []addrs.Target{mustTarget(t, "terraform_data.a")}},
			want: map[string]out{},
			remain: map[string]string{
				"becomes_null": `"bn"`,
				"becomes_sens": `"bs"`,
				"changed":      `"old"`,
				"dep":          `"x-2"`,
				"goes_unknown": `"was"`,
				"removed":      `"r"`,
				"removed_s":    `"rs"`,
				"same":         `"x"`,
			},
		},
		"empty state": {
			empty:  true,
			want:   map[string]out{},
			remain: map[string]string{},
		},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var state *states.State
			if !test.empty {
				_, state = planApply(t, builtinEngine(testConfigInline(t, map[string]string{"main.tf": destroyOutputsApplied})), nil, PlanOpts{})
			}
			e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": destroyOutputsNow}))
			opts := test.opts
			opts.Mode = plans.DestroyMode
			plan, newState := planApply(t, e, state, opts)
			got := map[string]out{}
			for _, oc := range plan.Changes.Outputs {
				if oc.Action != plans.Delete || !oc.After.IsNull() {
					t.Errorf("%s: action %s, after %#v", oc.Name, oc.Action, oc.After)
				}
				got[oc.Name] = out{ctyString(oc.Before), oc.Sensitive}
			}
			if diff := cmp.Diff(test.want, got); diff != "" {
				t.Errorf("wrong output changes (-want +got)\n%s", diff)
			}
			remain := map[string]string{}
			for name, o := range newState.Outputs {
				remain[name] = ctyString(o.Value)
			}
			if diff := cmp.Diff(test.remain, remain); diff != "" {
				t.Errorf("wrong outputs after applying (-want +got)\n%s", diff)
			}
		})
	}
}

// TestTargetedPlanKeepsRemovedOutputs: with -target, an output no longer
// configured keeps its value, as in Terraform (whose plan shows no
// change for it); without, the plan removes it.
func TestTargetedPlanKeepsRemovedOutputs(t *testing.T) {
	t.Parallel()
	_, state := planApply(t, builtinEngine(testConfigInline(t, map[string]string{"main.tf": `
resource "terraform_data" "a" {}
output "removed" {
  value = "r"
}
`})), nil, PlanOpts{})
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`}))
	for _, targeted := range []bool{false, true} {
		var opts PlanOpts
		if targeted {
			opts.Targets = []addrs.Target{mustTarget(t, "terraform_data.a")}
		}
		plan, newState := planApply(t, e, state, opts)
		if got := len(plan.Changes.Outputs) == 0 && newState.Outputs["removed"] != nil; got != targeted {
			t.Errorf("targeted %v: output changes %d, removed kept %v", targeted, len(plan.Changes.Outputs), newState.Outputs["removed"] != nil)
		}
	}
}

// TestDestroyShowsValidationWarnings: a destroy validates the
// configuration first, as Terraform does, and returns validation's
// warnings once, whether it plans normally first (a state to refresh)
// or not (an empty state, -refresh=false); none with
// HideValidationWarnings.
func TestDestroyShowsValidationWarnings(t *testing.T) {
	t.Parallel()
	const src = `
resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    ignore_changes = [output]
  }
}
`
	tests := map[string]struct {
		empty bool
		opts  PlanOpts
		want  []string
	}{
		"empty state":   {empty: true, want: []string{"Redundant ignore_changes element"}},
		"refresh":       {want: []string{"Redundant ignore_changes element"}},
		"refresh=false": {opts: PlanOpts{SkipRefresh: true}, want: []string{"Redundant ignore_changes element"}},
		// As terraform test's cleanup.
		"hidden": {opts: PlanOpts{SkipRefresh: true, HideValidationWarnings: true}},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": src}))
			var state *states.State
			if !test.empty {
				_, state = planApply(t, e, nil, PlanOpts{})
			}
			opts := test.opts
			opts.Mode = plans.DestroyMode
			_, diags := e.Plan(context.Background(), state, opts)
			var got []string
			for _, d := range diags {
				if d.Severity == hcl.DiagWarning {
					got = append(got, d.Summary)
				}
			}
			if diff := cmp.Diff(test.want, got); diff != "" || diags.HasErrors() {
				t.Errorf("wrong diagnostics (-want +got)\n%s%s", diff, diags.Error())
			}
		})
	}
}

// ctyString renders a value for comparisons: strings quoted, others as
// their Go syntax.
func ctyString(v cty.Value) string {
	if v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
		return `"` + v.AsString() + `"`
	}
	return v.GoString()
}
