package engine

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
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

// TestReviewDestroyProviderConfigFromResource destroys a configuration
// whose provider configuration refers to a resource attribute. As in
// Terraform, the provider is configured with the value recorded in the
// state, during the destroy plan and its apply.
func TestReviewDestroyProviderConfigFromResource(t *testing.T) {
	t.Parallel()
	e := regionEngine(t, map[string]string{
		"main.tf": `
resource "terraform_data" "r" {
  input = "eu"
}
provider "test" {
  region = terraform_data.r.output
}
module "m" {
  source = "./child"
}
`,
		"child/main.tf": `
resource "test_thing" "a" {
  name = "a"
}
`,
	})
	_, state := planApply(t, e, nil, PlanOpts{Targets: []addrs.Target{mustTarget(t, "terraform_data.r")}})
	_, state = planApply(t, e, state, PlanOpts{})
	if got := objectAttr(t, state, "module.m.test_thing.a", "region"); got != `"eu"` {
		t.Fatalf("region = %s", got)
	}
	// Record the region each configuration of the provider gets.
	var mu sync.Mutex
	var regions []string
	inner := regionFactory()
	e.Providers[addrs.NewDefaultProvider("test")] = func() (providers.Interface, error) {
		p, err := inner()
		if err != nil {
			return nil, err
		}
		fp := p.(*providertest.Provider)
		configure := fp.ConfigureProviderFn
		fp.ConfigureProviderFn = func(req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
			r := req.Config.GetAttr("region")
			mu.Lock()
			regions = append(regions, r.GoString())
			mu.Unlock()
			if !r.IsKnown() {
				return providers.ConfigureProviderResponse{Diagnostics: providers.Diagnostics{{Severity: providers.Error, Summary: "region unknown"}}}
			}
			return configure(req)
		}
		return fp, nil
	}
	_, state = planApply(t, e, state, PlanOpts{Mode: plans.DestroyMode})
	mu.Lock()
	t.Logf("configured with %v", regions)
	mu.Unlock()
	if !state.Empty() {
		t.Fatalf("state not empty: %v", stateAddrs(state))
	}
}

// TestReviewMovedToUnconfiguredTarget: an object moved to an address
// that is not configured (here inside an undeclared module call) is
// deleted because the move's target is missing, as Terraform reports it.
func TestReviewMovedToUnconfiguredTarget(t *testing.T) {
	t.Parallel()
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}`}))
	_, state := planApply(t, e, nil, PlanOpts{})
	e = builtinEngine(testConfigInline(t, map[string]string{"main.tf": `
moved {
  from = terraform_data.a
  to   = module.nope.terraform_data.a
}
`}))
	plan, diags := e.Plan(context.Background(), state, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	c := plan.Changes.Resource(mustInstance(t, "module.nope.terraform_data.a"))
	if c == nil || c.Action != plans.Delete || c.Reason != plans.ReasonDeleteBecauseNoMoveTarget || c.PrevRunAddr == nil || c.PrevRunAddr.String() != "terraform_data.a" {
		t.Fatalf("wrong change %+v", c)
	}
}

// TestReviewChecksWithoutInstances: Terraform lists every checkable
// object in a plan's checks, with status pass and no instances when it
// has none (a resource with count = 0, anything in a module with count =
// 0), and unknown when it was not evaluated.
func TestReviewChecksWithoutInstances(t *testing.T) {
	t.Parallel()
	e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": `
resource "terraform_data" "c0" {
  count = 0
  lifecycle {
    postcondition {
      condition     = self.output == null
      error_message = "x"
    }
  }
}
`}))
	plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if len(plan.Checks) != 1 || plan.Checks[0].Status != plans.CheckPass || len(plan.Checks[0].Instances) != 0 {
		t.Fatalf("wrong checks %+v", plan.Checks)
	}
}
