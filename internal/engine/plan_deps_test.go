package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// chainConfig is terraform_data resources r0..rN-1 where input[i] names
// the resource ri refers to ("" for a literal).
func chainConfig(refs ...string) string {
	var b strings.Builder
	for i, ref := range refs {
		input := `"lit"`
		if ref != "" {
			input = "terraform_data." + ref + ".output"
		}
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = %s\n}\n", i, input)
	}
	return b.String()
}

// roundTrip writes s as a state file and reads it back, as the next
// command sees it (every object records its transitive dependencies).
func roundTrip(t *testing.T, s *states.State) *states.State {
	t.Helper()
	data, err := statefile.Write(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := statefile.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func storedDeps(t *testing.T, s *states.State) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, addr := range s.AllInstances() {
		var names []string
		for _, d := range s.Object(addr).Dependencies {
			names = append(names, d.String())
		}
		got[addr.String()] = strings.Join(names, ",")
	}
	return got
}

// TestPlanDependenciesFromFile: a plan from a state read from its file
// records, once written, the dependencies of the configuration, whether
// the objects keep the lists read (the same closure) or take the
// configuration's; and a no-op plan copies none of the resources it read.
func TestPlanDependenciesFromFile(t *testing.T) {
	tests := map[string]struct {
		before, after []string
		want          map[string]string
		shared        bool
	}{
		"unchanged chain": {
			before: []string{"", "r0", "r1", "r2"}, after: []string{"", "r0", "r1", "r2"},
			want: map[string]string{
				"terraform_data.r0": "", "terraform_data.r1": "terraform_data.r0",
				"terraform_data.r2": "terraform_data.r0,terraform_data.r1",
				"terraform_data.r3": "terraform_data.r0,terraform_data.r1,terraform_data.r2",
			},
			shared: true,
		},
		"link removed upstream": {
			before: []string{"", "r0", "r1", "r2"}, after: []string{"", "", "r1", "r2"},
			want: map[string]string{
				"terraform_data.r0": "", "terraform_data.r1": "",
				"terraform_data.r2": "terraform_data.r1",
				"terraform_data.r3": "terraform_data.r1,terraform_data.r2",
			},
		},
		"link added upstream": {
			before: []string{"", "", "r1", "r2"}, after: []string{"", "r0", "r1", "r2"},
			want: map[string]string{
				"terraform_data.r0": "", "terraform_data.r1": "terraform_data.r0",
				"terraform_data.r2": "terraform_data.r0,terraform_data.r1",
				"terraform_data.r3": "terraform_data.r0,terraform_data.r1,terraform_data.r2",
			},
		},
		"reference moved to a resource the old one depended on": {
			before: []string{"", "r0", "r1", "r2"}, after: []string{"", "r0", "r1", "r1"},
			want: map[string]string{
				"terraform_data.r0": "", "terraform_data.r1": "terraform_data.r0",
				"terraform_data.r2": "terraform_data.r0,terraform_data.r1",
				"terraform_data.r3": "terraform_data.r0,terraform_data.r1",
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, state := planApply(t, builtinEngine(testConfigInline(t, map[string]string{"main.tf": chainConfig(tc.before...)})), nil, PlanOpts{})
			prev := roundTrip(t, state)
			e := builtinEngine(testConfigInline(t, map[string]string{"main.tf": chainConfig(tc.after...)}))
			plan, diags := e.Plan(context.Background(), prev, PlanOpts{})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if tc.shared {
				for key, r := range plan.PrevRunState.Resources {
					if plan.PriorState.Resources[key] != r {
						t.Errorf("%s: the no-op plan's prior state copied the resource it read", key)
					}
				}
			}
			applied, diags := e.Apply(context.Background(), plan)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if diff := cmp.Diff(tc.want, storedDeps(t, roundTrip(t, applied))); diff != "" {
				t.Errorf("wrong dependencies written after apply (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, storedDeps(t, roundTrip(t, plan.PriorState))); diff != "" {
				t.Errorf("wrong dependencies written for the plan's prior state (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPlanRemovedModuleInstances: the objects of a resource in module
// instances that no longer exist are planned for deletion, the others
// kept, for few module instances (compared one by one) and many (looked
// up in a set).
func TestPlanRemovedModuleInstances(t *testing.T) {
	for _, n := range []int{2, 12} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			files := func(keys int) map[string]string {
				return map[string]string{
					"main.tf":     fmt.Sprintf("module \"m\" {\n  source   = \"./mod\"\n  for_each = toset([for i in range(%d) : tostring(i)])\n}\n", keys),
					"mod/main.tf": "resource \"terraform_data\" \"r\" {\n  input = \"x\"\n}\n",
				}
			}
			_, state := planApply(t, builtinEngine(testConfigInline(t, files(n))), nil, PlanOpts{})
			plan, diags := builtinEngine(testConfigInline(t, files(n-1))).Plan(context.Background(), roundTrip(t, state), PlanOpts{})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got := map[string]string{}
			for _, c := range plan.Changes.Resources {
				got[c.Addr.String()] = c.Action.String()
			}
			want := map[string]string{}
			for i := 0; i < n; i++ {
				action := plans.NoOp.String()
				if i == n-1 {
					action = plans.Delete.String()
				}
				want[fmt.Sprintf(`module.m["%d"].terraform_data.r`, i)] = action
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("wrong actions (-want +got):\n%s", diff)
			}
		})
	}
}
