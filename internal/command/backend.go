package command

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/backend/local"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/datadir"
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
func backendStatePath() string { return datadir.Join("terraform.tfstate") }

// decodeBackendBlock checks a backend block and returns its
// configuration, before any -backend-config options.
func decodeBackendBlock(b *configs.Backend) (*backend.Config, hcl.Diagnostics) {
	return backend.DecodeBlock(b.Type, b.Config, b.DeclRange)
}

// readBackendState reads the recorded backend configuration; nil when
// there is none.
func readBackendState() (*backend.Saved, hcl.Diagnostics) {
	return backend.ReadSaved(backendStatePath())
}

// backendInitRequired is Terraform's error for a backend configuration
// that init has not recorded. Terraform words it two ways: "please run"
// follows a comma for a first configuration or an unset backend, and a
// colon for a changed one.
func backendInitRequired(sep, reason string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Backend initialization required" + sep + " please run \"strata init\"",
		Detail: "Reason: " + reason + `

The "backend" is the interface that strata uses to store state,
perform operations, etc. If this message is showing up, it means that the
strata configuration you're using is using a custom configuration for
the strata backend.

Changes to backend configurations require reinitialization. This allows
strata to set up the new configuration, copy existing state, etc. Please run
"strata init" with either the "-reconfigure" or "-migrate-state" flags to
use the current configuration.

If the change reason above is incorrect, please verify your configuration
hasn't changed and try again. At this point, no changes to your existing
configuration or state have been made.`,
	}}
}

// resolveBackend returns the backend configuration commands other than
// init use: the one init recorded, as long as the backend block still
// matches it. nil is the default local backend.
//
// A backend block init never recorded is an error until init has run, as
// in Terraform: tools rely on commands failing in a directory that was
// never initialised.
func resolveBackend(mod *configs.Module) (*backend.Config, hcl.Diagnostics) {
	saved, diags := readBackendState()
	if diags.HasErrors() {
		return nil, diags
	}
	var block *configs.Backend
	if mod != nil {
		block = mod.Backend
	}
	if block == nil {
		if saved != nil {
			return nil, backendInitRequired(",", fmt.Sprintf("Unsetting the previously set backend %q", saved.Type))
		}
		return nil, nil
	}
	cfg, cdiags := decodeBackendBlock(block)
	diags = append(diags, cdiags...)
	if cdiags.HasErrors() {
		return nil, diags
	}
	if saved == nil {
		return nil, append(diags, backendInitRequired(",", fmt.Sprintf("Initial configuration of the requested backend %q", cfg.Type))...)
	}
	if saved.Type != cfg.Type {
		return nil, append(diags, backendInitRequired(":", fmt.Sprintf("Backend type changed from %q to %q", saved.Type, cfg.Type))...)
	}
	cached, err := saved.Value()
	if err == nil && (saved.Hash == cfg.Hash || cached.Equals(cfg.Value).True()) {
		cfg.Value = cached
		return cfg, diags
	}
	return nil, append(diags, backendInitRequired(":", "Backend configuration block has changed")...)
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
	b, diags := backend.Configure(c, backend.Options{Getenv: d.Getenv, DataDir: datadir.Path(), Version: TerraformCompatVersion})
	if diags.HasErrors() {
		return nil, diags
	}
	if d.backends == nil {
		d.backends = map[string]backend.Backend{}
	}
	d.backends[key] = b
	return b, diags
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
