package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/providertest"
)

// skipHook records the changes the apply reports as skipped.
type skipHook struct {
	hooks.Nil
	mu      sync.Mutex
	skipped map[string]string // address (and deposed key) -> "action cause"
}

func (h *skipHook) SkippedApply(addr addrs.AbsResourceInstance, deposed string, action plans.Action, cause hooks.SkipCause) {
	h.mu.Lock()
	defer h.mu.Unlock()
	key := addr.String()
	if deposed != "" {
		key += " deposed " + deposed
	}
	if _, dup := h.skipped[key]; dup {
		key += " (again)"
	}
	h.skipped[key] = fmt.Sprintf("%s, %s", action, cause)
}

// TestApplyReportsSkippedChanges: the changes that depend on a failed one,
// directly, transitively or through a module's input variable in every
// module instance, are reported to SkipHook as skipped because a
// dependency failed; the others are applied and not reported. After an
// interrupt, the changes never started are reported as interrupted.
func TestApplyReportsSkippedChanges(t *testing.T) {
	files := map[string]string{
		"main.tf": `
resource "test_thing" "bad" { name = "bad" }
resource "test_thing" "ok" { name = "ok" }
resource "test_thing" "after" { name = test_thing.bad.id }
resource "test_thing" "later" { name = test_thing.after.id }
module "m" {
  count  = 2
  source = "./m"
  name   = test_thing.after.id
}
module "free" {
  source = "./m"
  name   = "free"
}
`,
		"m/main.tf": `
variable "name" {}
resource "test_thing" "inner" { name = var.name }
`,
	}
	dep := fmt.Sprint(hooks.SkipDependencyFailed)
	interrupted := fmt.Sprint(hooks.SkipInterrupted)
	tests := map[string]struct {
		// apply runs in the provider's ApplyResourceChange for the
		// object named name, with the cancel function of the apply; it
		// returns false to fail. "bad" is applied once the independent
		// objects ("ok" and "free") are.
		apply func(name string, cancel func()) bool
		want  map[string]string
	}{
		"a failed dependency": {
			apply: func(name string, _ func()) bool { return name != "bad" },
			want: map[string]string{
				"test_thing.after":             "Create, " + dep,
				"test_thing.later":             "Create, " + dep,
				"module.m[0].test_thing.inner": "Create, " + dep,
				"module.m[1].test_thing.inner": "Create, " + dep,
			},
		},
		"a failure the interrupt caused": {
			// It failed after the interrupt (which typically stopped
			// it): what depends on it was stopped by the interrupt.
			apply: func(name string, cancel func()) bool {
				if name == "bad" {
					cancel()
					return false
				}
				return true
			},
			want: map[string]string{
				"test_thing.after":             "Create, " + interrupted,
				"test_thing.later":             "Create, " + interrupted,
				"module.m[0].test_thing.inner": "Create, " + interrupted,
				"module.m[1].test_thing.inner": "Create, " + interrupted,
			},
		},
		"an interrupt": {
			apply: func(name string, cancel func()) bool {
				if name == "bad" {
					cancel()
				}
				return true
			},
			want: map[string]string{
				"test_thing.after":             "Create, " + interrupted,
				"test_thing.later":             "Create, " + interrupted,
				"module.m[0].test_thing.inner": "Create, " + interrupted,
				"module.m[1].test_thing.inner": "Create, " + interrupted,
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			p := &providertest.Provider{Schema: testSchema()}
			var mu sync.Mutex
			var applied []string
			var independent sync.WaitGroup
			independent.Add(2)
			p.ApplyResourceChangeFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
				v := req.PlannedState.AsValueMap()
				name := v["name"].AsString()
				mu.Lock()
				applied = append(applied, name)
				mu.Unlock()
				switch name {
				case "ok", "free":
					independent.Done()
				case "bad":
					independent.Wait()
				}
				if !tc.apply(name, cancel) {
					return providers.ApplyResourceChangeResponse{Diagnostics: providers.Diagnostics{{Severity: providers.Error, Summary: name + " failed"}}}
				}
				v["id"], v["size"] = cty.StringVal(name+"-id"), cty.NumberIntVal(1)
				return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(v)}
			}
			e := testEngine(t, p, "")
			e.Config = testConfigInline(t, files)
			h := &skipHook{skipped: map[string]string{}}
			e.Hooks = []hooks.Hook{h}
			plan, diags := e.Plan(context.Background(), nil, PlanOpts{})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			_, diags = e.Apply(ctx, plan)
			if !diags.HasErrors() {
				t.Fatal("the apply did not fail")
			}
			slices.Sort(applied)
			if want := []string{"bad", "free", "ok"}; !slices.Equal(applied, want) {
				t.Errorf("applied %v, want %v", applied, want)
			}
			if !maps.Equal(h.skipped, tc.want) {
				t.Errorf("skipped changes:\n got %v\nwant %v\n(applied %v)", h.skipped, tc.want, applied)
			}
		})
	}
}

// TestApplyReportsSkippedDeletions: in a destroy, an object's deletion
// waits for the deletion of what depends on it; when that fails, the
// deletion is reported skipped, and so is the next one down the chain.
func TestApplyReportsSkippedDeletions(t *testing.T) {
	p := &providertest.Provider{Schema: testSchema()}
	p.ApplyResourceChangeFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		if req.PlannedState.IsNull() {
			if req.PriorState.GetAttr("name").AsString() == "c" {
				return providers.ApplyResourceChangeResponse{Diagnostics: providers.Diagnostics{{Severity: providers.Error, Summary: "c cannot go"}}}
			}
			return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
		}
		v := req.PlannedState.AsValueMap()
		v["id"], v["size"] = cty.StringVal(v["name"].AsString()), cty.NumberIntVal(1)
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(v)}
	}
	e := testEngine(t, p, `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id == "a" ? "b" : "x" }
resource "test_thing" "c" { name = test_thing.b.id == "b" ? "c" : "x" }
resource "test_thing" "free" { name = "free" }
`)
	_, state := planApply(t, e, nil, PlanOpts{})
	h := &skipHook{skipped: map[string]string{}}
	e.Hooks = []hooks.Hook{h}
	plan, diags := e.Plan(context.Background(), state, PlanOpts{Mode: plans.DestroyMode})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	newState, diags := e.Apply(context.Background(), plan)
	if !diags.HasErrors() {
		t.Fatal("the destroy did not fail")
	}
	dep := fmt.Sprint(hooks.SkipDependencyFailed)
	want := map[string]string{"test_thing.a": "Delete, " + dep, "test_thing.b": "Delete, " + dep}
	if !maps.Equal(h.skipped, want) {
		t.Errorf("skipped changes:\n got %v\nwant %v", h.skipped, want)
	}
	if newState.Object(mustInstance(t, "test_thing.free")) != nil {
		t.Error("free was not destroyed")
	}
}
