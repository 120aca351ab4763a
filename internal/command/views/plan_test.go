package views

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
)

func TestDriftFilter(t *testing.T) {
	t.Parallel()
	desc := cty.GetAttrPath("description")
	relevant := []plans.RelevantAttr{
		{Resource: "t.a", Attr: desc},
		{Resource: "t.a", Attr: cty.Path{}},
		{Resource: "t.b[0]", Attr: cty.GetAttrPath("size")},
		{Resource: "t.c", Attr: desc},
	}
	tests := map[string]struct {
		addr string
		want []cty.Path
	}{
		"several paths, a nil one made empty": {"t.a", []cty.Path{desc, {}}},
		"an instance":                         {"t.b[0]", []cty.Path{cty.GetAttrPath("size")}},
		// A reference to t.c (count) names no instance: Terraform shows
		// the drift of none.
		"the resource of an instance": {"t.c[0]", nil},
		"none":                        {"t.d", nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := DriftFilter(tc.addr, relevant)
			if diff := cmp.Diff(tc.want, got, cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) })); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
		})
	}
	if got := DriftFilter("t.x", []plans.RelevantAttr{{Attr: nil}}); len(got) != 1 || got[0] == nil {
		t.Errorf("an attribute of no named resource applies to all, as a non-nil path: %#v", got)
	}
}

// TestPlanDrift checks when the human plan shows changes made outside
// strata: in a normal plan only drift in relevant attributes and only
// when there are changes; all of it in a refresh-only plan; none in a
// destroy plan.
func TestPlanDrift(t *testing.T) {
	t.Parallel()
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":          {Type: cty.String, Computed: true},
		"description": {Type: cty.String, Optional: true},
		"size":        {Type: cty.Number, Optional: true},
	}}
	obj := func(id, desc string, size int64) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id), "description": cty.StringVal(desc), "size": cty.NumberIntVal(size)})
	}
	addr := func(name string) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: name}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	}
	drift := []*plans.ResourceInstanceChange{
		{Addr: addr("a"), Action: plans.Update, Before: obj("a", "orig", 1), After: obj("a", "changed", 5)},
		{Addr: addr("c"), Action: plans.Delete, Before: obj("c", "x", 1), After: cty.NullVal(schema.ImpliedType())},
	}
	update := &plans.ResourceInstanceChange{Addr: addr("b"), Action: plans.Update, Before: obj("b", "orig", 1), After: obj("b", "changed", 1)}
	relevant := []plans.RelevantAttr{{Resource: "t.a", Attr: cty.GetAttrPath("description")}}
	const note = "Objects have changed outside of strata"
	tests := map[string]struct {
		mode     plans.Mode
		changes  []*plans.ResourceInstanceChange
		relevant []plans.RelevantAttr
		want     []string // in order
		wantNot  []string
	}{
		"relevant drift": {
			mode: plans.NormalMode, changes: []*plans.ResourceInstanceChange{update}, relevant: relevant,
			want: []string{note, "which may have affected this plan:", `~ description = "orig" -> "changed"`,
				"Unless you have made equivalent changes", "─────", "strata will perform the following actions:"},
			wantNot: []string{"size", "t.c has been deleted"},
		},
		"nothing relevant": {
			mode: plans.NormalMode, changes: []*plans.ResourceInstanceChange{update},
			relevant: []plans.RelevantAttr{{Resource: "t.b", Attr: cty.GetAttrPath("size")}},
			want:     []string{"strata will perform the following actions:"},
			wantNot:  []string{note},
		},
		"relevant but nothing that changed": {
			mode: plans.NormalMode, changes: []*plans.ResourceInstanceChange{update},
			relevant: []plans.RelevantAttr{{Resource: "t.a", Attr: cty.GetAttrPath("id")}},
			wantNot:  []string{note},
		},
		"no changes": {
			mode: plans.NormalMode, relevant: relevant,
			want: []string{"No changes."}, wantNot: []string{note},
		},
		"refresh-only": {
			mode: plans.RefreshOnlyMode,
			want: []string{note, "which may have affected this plan:", `~ size        = 1 -> 5`, "t.c has been deleted",
				"}\n\n\nThis is a refresh-only plan"},
		},
		"destroy": {
			mode: plans.DestroyMode, changes: []*plans.ResourceInstanceChange{{Addr: addr("b"), Action: plans.Delete, Before: obj("b", "orig", 1), After: cty.NullVal(schema.ImpliedType())}},
			relevant: relevant, wantNot: []string{note},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			v := &View{Stdout: &buf, Stderr: &buf, NoColor: true}
			p := &plans.Plan{Mode: tc.mode, Changes: &plans.Changes{Resources: tc.changes}, DriftedResources: drift}
			v.Plan(p, func(*plans.ResourceInstanceChange) *configschema.Block { return schema }, tc.relevant)
			got := buf.String()
			rest := got
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("no %q (in this order) in\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
			for _, w := range tc.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("%q shown in\n%s", w, got)
				}
			}
		})
	}
}

// TestJSONPlanDriftModes: the -json stream reports all drift (relevant or
// not) in normal and refresh-only plans, moves only in refresh-only
// plans, and none in destroy plans, as Terraform's does.
func TestJSONPlanDriftModes(t *testing.T) {
	t.Parallel()
	addr := func(name string) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: name}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	}
	drift := []*plans.ResourceInstanceChange{
		{Addr: addr("a"), Action: plans.Update, Before: cty.EmptyObjectVal, After: cty.EmptyObjectVal},
		{Addr: addr("m"), Action: plans.NoOp, Before: cty.EmptyObjectVal, After: cty.EmptyObjectVal},
	}
	tests := map[plans.Mode]int{plans.NormalMode: 1, plans.RefreshOnlyMode: 2, plans.DestroyMode: 0}
	for mode, want := range tests {
		var buf bytes.Buffer
		NewJSON(&buf, nil).Plan(&plans.Plan{Mode: mode, Changes: &plans.Changes{}, DriftedResources: drift})
		if got := strings.Count(buf.String(), `"type":"resource_drift"`); got != want {
			t.Errorf("mode %d: %d resource_drift messages, want %d\n%s", mode, got, want, buf.String())
		}
	}
}

// TestPlanInParts checks that a plan written out in parts, as a large
// one is, is byte for byte the plan written at once, coloured or not.
func TestPlanInParts(t *testing.T) {
	t.Parallel()
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":    {Type: cty.String, Computed: true},
		"input": {Type: cty.String, Optional: true},
	}}
	var changes []*plans.ResourceInstanceChange
	for i, a := range []plans.Action{plans.Create, plans.Update, plans.Delete, plans.Create} {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: string(rune('a' + i))}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
		before := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x"), "input": cty.StringVal("[red]one")})
		after := cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "input": cty.StringVal("two")})
		switch a {
		case plans.Create:
			before = cty.NullVal(schema.ImpliedType())
		case plans.Delete:
			after = cty.NullVal(schema.ImpliedType())
		}
		changes = append(changes, &plans.ResourceInstanceChange{Addr: addr, Action: a, Before: before, After: after})
	}
	p := &plans.Plan{Mode: plans.NormalMode, Changes: &plans.Changes{Resources: changes, Outputs: []*plans.OutputChange{
		{Name: "o", Action: plans.Create, Before: cty.NullVal(cty.String), After: cty.StringVal("v")},
	}}}
	schemaFn := func(*plans.ResourceInstanceChange) *configschema.Block { return schema }
	for _, noColor := range []bool{false, true} {
		var whole, parts bytes.Buffer
		(&View{Stdout: &whole, NoColor: noColor}).plan(p, schemaFn, nil, 1<<30)
		(&View{Stdout: &parts, NoColor: noColor}).plan(p, schemaFn, nil, 1)
		if !strings.Contains(whole.String(), `resource "t" "d"`) || !strings.Contains(whole.String(), "Plan:") {
			t.Fatalf("unexpected plan:\n%s", whole.String())
		}
		if diff := cmp.Diff(whole.String(), parts.String()); diff != "" {
			t.Errorf("no-color %t: the plan in parts differs (-whole +parts)\n%s", noColor, diff)
		}
	}
}
