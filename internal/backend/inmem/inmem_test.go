package inmem

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/backend/backendbase"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

func TestInmemWorkspacesAndLock(t *testing.T) {
	ctx := context.Background()
	b, _ := New(&backendbase.Settings{Values: map[string]cty.Value{"lock_id": cty.StringVal("held")}, Version: "1.11.4"})
	mgr, _ := b.StateMgr(ctx, "default")
	if err := mgr.Lock(ctx, statemgr.NewLockInfo("test", "1"), 0); err == nil {
		t.Error("lock_id did not start the default workspace locked")
	}
	if _, diags := b.StateMgr(ctx, "blue"); diags.HasErrors() {
		t.Fatal(diags)
	}
	names, _ := b.Workspaces(ctx)
	if diff := cmp.Diff([]string{"default", "blue"}, names); diff != "" {
		t.Errorf("workspaces (-want +got):\n%s", diff)
	}
	if err := b.DeleteWorkspace(ctx, "blue"); err != nil {
		t.Fatal(err)
	}
	names, _ = b.Workspaces(ctx)
	if diff := cmp.Diff([]string{"default"}, names); diff != "" {
		t.Errorf("after delete (-want +got):\n%s", diff)
	}
}
