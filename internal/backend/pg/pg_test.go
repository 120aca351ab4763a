package pg

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/backend/backendbase"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
)

func TestNewEnvironmentFallback(t *testing.T) {
	env := map[string]string{"PG_CONN_STR": "postgres://env", "PG_SCHEMA_NAME": "from_env", "PG_SKIP_INDEX_CREATION": "1"}
	b, diags := New(&backendbase.Settings{
		Values: map[string]cty.Value{"schema_name": cty.StringVal("from_block"), "skip_table_creation": cty.False},
		Getenv: func(k string) string { return env[k] },
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	c := b.Config
	if c.ConnStr != "postgres://env" || c.SchemaName != "from_block" || c.SkipTableCreation || !c.SkipIndexCreation || c.SkipSchemaCreation {
		t.Errorf("config %+v", c)
	}
	env["PG_SKIP_SCHEMA_CREATION"] = "sometimes"
	if _, diags := New(&backendbase.Settings{Getenv: func(k string) string { return env[k] }}); !diags.HasErrors() ||
		diags[0].Detail != `The environment variable PG_SKIP_SCHEMA_CREATION must be true or false, not "sometimes".` {
		t.Errorf("bad PG_SKIP_SCHEMA_CREATION: %v", diags)
	}
}

// TestWorkspaces: against a real server (see pgtest), a workspace is
// created by reading its state, listed, read by terraform_remote_state's
// path, and deleted.
func TestWorkspaces(t *testing.T) {
	conn := pgtest.ConnString(t)
	ctx := context.Background()
	b, diags := New(&backendbase.Settings{Values: map[string]cty.Value{"conn_str": cty.StringVal(conn)}, DataDir: t.TempDir(), Version: "1.11.4"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if _, found, err := b.ReadState(ctx, "blue"); found || err != nil {
		t.Fatalf("blue before it exists: found %v, err %v", found, err)
	}
	mgr, diags := b.StateMgr(ctx, "blue")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	s, _, err := mgr.Read()
	if err != nil {
		t.Fatal(err)
	}
	s.Outputs["colour"] = &states.OutputValue{Value: cty.StringVal("blue")}
	if err := mgr.Write(s); err != nil {
		t.Fatal(err)
	}
	names, diags := b.Workspaces(ctx)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if diff := cmp.Diff([]string{"default", "blue"}, names); diff != "" {
		t.Errorf("workspaces (-want +got):\n%s", diff)
	}
	got, found, err := b.ReadState(ctx, "blue")
	if err != nil || !found || !got.Outputs["colour"].Value.RawEquals(cty.StringVal("blue")) {
		t.Errorf("blue: found %v, err %v", found, err)
	}
	if err := b.DeleteWorkspace(ctx, "blue"); err != nil {
		t.Fatal(err)
	}
	names, _ = b.Workspaces(ctx)
	if diff := cmp.Diff([]string{"default"}, names); diff != "" {
		t.Errorf("after delete (-want +got):\n%s", diff)
	}
}
