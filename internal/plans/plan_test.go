package plans

import (
	"testing"

	"github.com/strata-dev/strata/internal/addrs"
)

func TestChangesCountsAndHasChanges(t *testing.T) {
	inst := func(name string) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: name}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	}
	tests := map[string]struct {
		actions              []Action
		outputs              []Action
		add, change, destroy int
		wantChanges          bool
	}{
		"empty":           {},
		"no-ops only":     {actions: []Action{NoOp, NoOp}, outputs: []Action{NoOp}},
		"output only":     {outputs: []Action{Create}, wantChanges: true},
		"one of each":     {actions: []Action{Create, Update, Delete, NoOp}, add: 1, change: 1, destroy: 1, wantChanges: true},
		"replacements":    {actions: []Action{DeleteThenCreate, CreateThenDelete}, add: 2, destroy: 2, wantChanges: true},
		"reads not count": {actions: []Action{Read}, wantChanges: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := &Changes{}
			for i, a := range tc.actions {
				c.Resources = append(c.Resources, &ResourceInstanceChange{Addr: inst(string(rune('a' + i))), Action: a})
			}
			for _, a := range tc.outputs {
				c.Outputs = append(c.Outputs, &OutputChange{Name: "o", Action: a})
			}
			add, change, destroy := c.Counts()
			if add != tc.add || change != tc.change || destroy != tc.destroy {
				t.Errorf("counts %d/%d/%d, want %d/%d/%d", add, change, destroy, tc.add, tc.change, tc.destroy)
			}
			if got := c.HasChanges(); got != tc.wantChanges {
				t.Errorf("HasChanges = %v, want %v", got, tc.wantChanges)
			}
			if len(tc.actions) > 0 && c.Resource(inst("a")) != c.Resources[0] {
				t.Error("Resource did not find the first change")
			}
		})
	}
}
