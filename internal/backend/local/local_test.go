package local

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/backend/backendbase"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

func TestLocalWorkspaces(t *testing.T) {
	dir := t.TempDir()
	b, diags := New(&backendbase.Settings{Values: map[string]cty.Value{
		"path":          cty.StringVal(filepath.Join(dir, "main.tfstate")),
		"workspace_dir": cty.StringVal(filepath.Join(dir, "ws")),
	}, Version: "1.11.4"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ctx := context.Background()
	if got, want := b.StatePath("default"), filepath.Join(dir, "main.tfstate"); got != want {
		t.Errorf("default state %s, want %s", got, want)
	}
	// As Terraform, another workspace's file is always terraform.tfstate.
	if got, want := b.StatePath("blue"), filepath.Join(dir, "ws", "blue", "terraform.tfstate"); got != want {
		t.Errorf("blue state %s, want %s", got, want)
	}
	if b.StateExists() {
		t.Error("state exists before anything was written")
	}
	for _, ws := range []string{"blue", "amber"} {
		mgr, diags := b.StateMgr(ctx, ws)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if ws == "blue" {
			s, _, err := mgr.Read()
			if err != nil {
				t.Fatal(err)
			}
			s.Outputs["colour"] = &states.OutputValue{Value: cty.StringVal("blue")}
			if err := mgr.Write(s); err != nil {
				t.Fatal(err)
			}
		}
	}
	names, _ := b.Workspaces(ctx)
	if diff := cmp.Diff([]string{"default", "amber", "blue"}, names); diff != "" {
		t.Errorf("workspaces (-want +got):\n%s", diff)
	}
	if !b.StateExists() {
		t.Error("blue's state not seen")
	}
	if _, found, err := b.ReadState(ctx, "amber"); found || err != nil {
		t.Errorf("amber: found %v, err %v", found, err)
	}
	if s, found, err := b.ReadState(ctx, "blue"); !found || err != nil || !s.Outputs["colour"].Value.RawEquals(cty.StringVal("blue")) {
		t.Errorf("blue: found %v, err %v", found, err)
	}
	if err := b.DeleteWorkspace(ctx, "blue"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ws", "blue")); !os.IsNotExist(err) {
		t.Errorf("blue's directory is still there: %v", err)
	}
	if _, ok := func() (statemgr.Manager, bool) { m, d := b.StateMgr(ctx, "default"); return m, !d.HasErrors() }(); !ok {
		t.Error("default workspace")
	}
}
