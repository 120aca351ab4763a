// Package inmem is the inmem backend: state kept in the memory of the
// strata process only (statemgr.InmemStore), as Terraform's inmem backend
// keeps it, for testing tools that drive the CLI. Every command starts
// with empty workspaces and everything is gone when it exits.
//
// It is registered in internal/backend; only that package imports it.
package inmem

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/backend/backendbase"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// Info describes the inmem backend.
var Info = backendbase.Info{
	Name:       "inmem",
	Schema:     backendbase.Schema{"lock_id": cty.String},
	ForTesting: true,
}

// Backend is a configured inmem backend: its own store of workspaces.
type Backend struct {
	store   *statemgr.InmemStore
	version string
}

// New makes an inmem backend with an empty store. lock_id, when set,
// starts the default workspace locked with that ID.
func New(s *backendbase.Settings) (*Backend, hcl.Diagnostics) {
	return &Backend{store: statemgr.NewInmemStore(s.String("lock_id", ""), s.Version), version: s.Version}, nil
}

// StateMgr returns the manager of workspace ws, creating the workspace.
func (b *Backend) StateMgr(_ context.Context, ws string) (statemgr.Manager, hcl.Diagnostics) {
	return b.store.Manager(ws, b.version), nil
}

// Workspaces lists the store's workspaces.
func (b *Backend) Workspaces(context.Context) ([]string, hcl.Diagnostics) {
	return backendbase.WithDefault(b.store.Workspaces()), nil
}

// DeleteWorkspace removes a workspace and its state.
func (b *Backend) DeleteWorkspace(_ context.Context, ws string) error {
	b.store.DeleteWorkspace(ws)
	return nil
}
