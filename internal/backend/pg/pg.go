// Package pg is the pg backend: each workspace's state in a row of a
// Postgres table, locked with advisory locks (statemgr.PG), configured
// as Terraform's pg backend is, with the PG_* environment variables for
// the arguments the block leaves out.
//
// It is registered in internal/backend; only that package imports it.
package pg

import (
	"context"
	"net/url"
	"path/filepath"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/backend/backendbase"
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// Info describes the pg backend.
var Info = backendbase.Info{
	Name:       "pg",
	SharesRuns: true,
	Schema: backendbase.Schema{
		"conn_str":             cty.String,
		"schema_name":          cty.String,
		"skip_schema_creation": cty.Bool,
		"skip_table_creation":  cty.Bool,
		"skip_index_creation":  cty.Bool,
	},
}

// Backend is a configured pg backend.
type Backend struct {
	Config  statemgr.PGConfig
	rng     hcl.Range
	dataDir string
	version string
	enc     *encryption.Target // for ReadState
	// persist is how often an apply writes the state reached
	// (TF_STATE_PERSIST_INTERVAL in the command's environment).
	persist time.Duration
	// sess is the database session of every workspace's manager: one
	// connection per command, ended by Close.
	sess *statemgr.PGSession
}

// New configures a pg backend from its arguments, with the PG_*
// environment variables for those left out.
func New(s *backendbase.Settings) (*Backend, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	cfg := statemgr.PGConfig{
		ConnStr:            s.String("conn_str", "PG_CONN_STR"),
		SchemaName:         s.String("schema_name", "PG_SCHEMA_NAME"),
		SkipSchemaCreation: s.Bool("skip_schema_creation", "PG_SKIP_SCHEMA_CREATION", &diags),
		SkipTableCreation:  s.Bool("skip_table_creation", "PG_SKIP_TABLE_CREATION", &diags),
		SkipIndexCreation:  s.Bool("skip_index_creation", "PG_SKIP_INDEX_CREATION", &diags),
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return &Backend{Config: cfg, rng: s.Range, dataDir: s.DataDir, version: s.Version, enc: s.Encryption, persist: statemgr.PersistInterval(s.Getenv), sess: statemgr.NewPGSession(cfg)}, nil
}

// StateMgr returns the manager of workspace ws, after preparing the
// database (schema, table and index) as Terraform does on every command.
// The journal of an apply stays on this machine, in the data directory,
// until the final snapshot is in the database.
func (b *Backend) StateMgr(ctx context.Context, ws string) (statemgr.Manager, hcl.Diagnostics) {
	journal := filepath.Join(b.dataDir, "pg-"+url.PathEscape(ws)+".tfstate.journal")
	mgr := b.sess.Manager(ws, journal, b.version)
	mgr.PersistInterval = b.persist
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := mgr.Setup(ctx); err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to configure the backend \"pg\"",
			Detail:   err.Error() + ".",
			Subject:  b.rng.Ptr(),
		}}
	}
	return mgr, nil
}

// Workspaces lists the workspaces that have a row, and default.
func (b *Backend) Workspaces(ctx context.Context) ([]string, hcl.Diagnostics) {
	mgr, diags := b.StateMgr(ctx, statemgr.DefaultWorkspace)
	if diags.HasErrors() {
		return nil, diags
	}
	names, err := mgr.(*statemgr.PG).Workspaces(ctx)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to list workspaces", Detail: err.Error()}}
	}
	return backendbase.WithDefault(names), nil
}

// DeleteWorkspace removes the workspace's row.
func (b *Backend) DeleteWorkspace(ctx context.Context, ws string) error {
	return b.sess.Manager(ws, "", b.version).DeleteWorkspace(ctx, ws)
}

// Close ends the backend's database session, which its managers share.
func (b *Backend) Close() error { return b.sess.Close() }

// ReadState reads workspace ws's row without creating the workspace,
// recovering a journal or touching any lock. As Terraform's backend does
// when configured, the schema and table are created unless skipped, so
// that a missing state is "not found".
func (b *Backend) ReadState(ctx context.Context, ws string) (*states.State, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	mgr := statemgr.NewPG(b.Config, ws, "", "")
	defer mgr.Close()
	mgr.SetEncryption(b.enc)
	if err := mgr.Setup(ctx); err != nil {
		return nil, false, err
	}
	s, err := mgr.ReadStored(ctx)
	if err != nil {
		return nil, false, err
	}
	return s, mgr.Exists(), nil
}
