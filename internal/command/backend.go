package command

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/backend/local"
	"github.com/strata-dev/strata/internal/configs"
)

// The backend configuration a working directory uses is the backend block
// merged with init's -backend-config options. As Terraform does, init
// records it in .terraform/terraform.tfstate (the "backend state file"),
// and later commands use the recorded configuration as long as the block
// is unchanged. internal/backend owns the types, their arguments and the
// file; this file connects them to the working directory.

// DefaultStatePath is the local state file of the default workspace.
const DefaultStatePath = local.DefaultStatePath

// backendStatePath is the file init records the backend configuration in,
// in the data directory (.terraform, or TF_DATA_DIR).
func backendStatePath(d *Deps) string { return d.dataDir("terraform.tfstate") }

// readBackendState reads the recorded backend configuration; nil when
// there is none.
func readBackendState(d *Deps) (*backend.Saved, hcl.Diagnostics) {
	return backend.ReadSaved(backendStatePath(d))
}

// backendBlock is mod's backend block (nil: none, or no module).
func backendBlock(mod *configs.Module) *backend.Block {
	if mod == nil || mod.Backend == nil {
		return nil
	}
	return &backend.Block{Type: mod.Backend.Type, Body: mod.Backend.Config, Range: mod.Backend.DeclRange}
}

// resolveBackend returns the backend configuration commands other than
// init use (see backend.Resolve): the one init recorded, as long as the
// backend block still matches it. nil is the default local backend.
func resolveBackend(d *Deps, mod *configs.Module) (*backend.Config, hcl.Diagnostics) {
	return backend.Resolve(backendStatePath(d), backendBlock(mod))
}

// configuredBackend returns the backend c configures (nil: the default
// local one). A command configures each backend once: an inmem backend's
// workspaces live as long as the command.
func (d *Deps) configuredBackend(c *backend.Config) (backend.Backend, hcl.Diagnostics) {
	key := c.TypeName()
	if c != nil {
		raw, err := ctyjson.Marshal(c.Value, c.Value.Type())
		if err != nil {
			return nil, errorDiag("Invalid backend configuration", err)
		}
		key += " " + string(raw)
	}
	if b, ok := d.backends[key]; ok {
		return b, nil
	}
	b, diags := backend.Configure(c, backend.Options{Getenv: d.Getenv, DataDir: d.dataDir(), WorkDir: d.Dir, Version: TerraformCompatVersion})
	if diags.HasErrors() {
		return nil, diags
	}
	if d.backends == nil {
		d.backends = map[string]backend.Backend{}
	}
	d.backends[key] = b
	return b, diags
}

// closeBackends closes the backends configured by the command (the pg
// backend's database session), when it ends.
func (d *Deps) closeBackends() {
	for key, b := range d.backends {
		if err := backend.Close(b); err != nil {
			d.logger().Warn("closing the backend", "error", err)
		}
		delete(d.backends, key)
	}
}

// backendWorkspaces lists the workspaces of the backend c (nil: the
// default local backend), sorted, with "default" first.
func backendWorkspaces(ctx context.Context, d *Deps, c *backend.Config) ([]string, hcl.Diagnostics) {
	b, diags := d.configuredBackend(c)
	if diags.HasErrors() {
		return nil, diags
	}
	return b.Workspaces(ctx)
}

// singleState reports whether the backend c keeps a single state (only
// the default workspace).
func singleState(c *backend.Config) bool {
	t, ok := backend.Lookup(c.TypeName())
	return ok && t.SingleState
}
