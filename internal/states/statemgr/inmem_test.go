package statemgr

import (
	"context"
	"errors"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/states"
)

func TestInmem(t *testing.T) {
	ctx := context.Background()
	st := NewInmemStore("", "1.11.4")
	m := st.Manager(DefaultWorkspace, "1.11.4")
	s, _, err := m.Read()
	if err != nil || !s.Empty() || m.Exists() {
		t.Fatalf("a new workspace: state %v, exists %v, err %v", s, m.Exists(), err)
	}
	s.Outputs["o"] = &states.OutputValue{Value: cty.StringVal("x")}
	if err := m.Write(s); err != nil {
		t.Fatal(err)
	}
	// Another manager of the same workspace sees the snapshot.
	got, _, err := st.Manager(DefaultWorkspace, "1.11.4").Read()
	if err != nil || got.Serial != 1 || got.Lineage != s.Lineage {
		t.Fatalf("read back: serial %d lineage %q, err %v; want 1, %q", got.Serial, got.Lineage, err, s.Lineage)
	}

	// One lock at a time, across managers of the workspace.
	if err := m.Lock(ctx, NewLockInfo("plan", "1.11.4"), 0); err != nil {
		t.Fatal(err)
	}
	other := st.Manager(DefaultWorkspace, "1.11.4")
	var le *LockError
	if err := other.Lock(ctx, NewLockInfo("plan", "1.11.4"), 0); !errors.As(err, &le) {
		t.Fatalf("second lock: %v, want a *LockError", err)
	}
	if err := m.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := other.Lock(ctx, NewLockInfo("plan", "1.11.4"), 0); err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}

	// Workspaces come and go.
	st.Manager("dev", "1.11.4")
	if got := len(st.Workspaces()); got != 2 {
		t.Errorf("%d workspaces, want 2", got)
	}
	st.DeleteWorkspace("dev")
	if got := len(st.Workspaces()); got != 1 {
		t.Errorf("%d workspaces after delete, want 1", got)
	}
}

func TestInmemLockID(t *testing.T) {
	const id = "2b6a6738-5dd5-50d6-c0ae-f6352977666b"
	st := NewInmemStore(id, "1.11.4")
	m := st.Manager(DefaultWorkspace, "1.11.4")
	var le *LockError
	if err := m.Lock(context.Background(), NewLockInfo("apply", "1.11.4"), 0); !errors.As(err, &le) || le.Info.ID != id {
		t.Fatalf("lock of a store made with lock_id: %v, want a *LockError naming %s", err, id)
	}
	if ok, err := m.ForceUnlock("bad", nil); ok || err == nil {
		t.Errorf("force-unlock with a wrong ID: %v, %v; want an error", ok, err)
	}
	if ok, err := m.ForceUnlock(id, nil); !ok || err != nil {
		t.Fatalf("force-unlock with the ID: %v, %v", ok, err)
	}
	if err := m.Lock(context.Background(), NewLockInfo("apply", "1.11.4"), 0); err != nil {
		t.Errorf("lock after force-unlock: %v", err)
	}
}
