package migrate

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// Init configures the backend for init: it merges the -backend-config
// options over the backend block (nil: none), compares the result with
// the configuration recorded at env.SavedPath, migrates state when the
// backend changes (as -migrate-state, or a first backend over local
// state, ask) and records the new configuration.
func Init(ctx context.Context, env *Env, view View, block *backend.Block, opts Options) hcl.Diagnostics {
	m := &migration{ctx: ctx, env: env, view: view, opts: opts}
	saved, diags := backend.ReadSaved(env.SavedPath)
	if diags.HasErrors() {
		return diags
	}
	if opts.Reconfigure {
		saved = nil
	}
	var cfg *backend.Config
	if block != nil {
		var cdiags hcl.Diagnostics
		cfg, cdiags = block.Decode()
		diags = append(diags, cdiags...)
		if cdiags.HasErrors() {
			return diags
		}
		for _, item := range opts.Configs {
			// A -backend-config file's source, for the snippets of
			// diagnostics about its values.
			if item != "" && !strings.Contains(item, "=") {
				if src, err := os.ReadFile(env.abs(item)); err == nil {
					view.AddSource(item, src)
				}
			}
		}
		over, ranges, odiags := backend.Overrides(env.Dir, cfg.Type, opts.Configs)
		diags = append(diags, odiags...)
		if odiags.HasErrors() {
			return diags
		}
		cfg.Merge(over, ranges)
	} else if len(opts.Configs) > 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Missing backend configuration",
			Detail:   "-backend-config was used without a \"backend\" block in the configuration.\n\nIf you intended to override the default local backend configuration, no action is required, but you may add an explicit backend block to your configuration to clear this warning:\n\nterraform {\n  backend \"local\" {}\n}\n\nHowever, if you intended to override a defined backend, please verify that the backend configuration is present and valid.",
		})
	}

	var old *backend.Config
	if saved != nil {
		var err error
		if old, err = saved.Configured(); err != nil {
			return append(diags, errorDiag("Failed to load the backend state", fmt.Errorf("the backend recorded in %s: %w. Run \"strata init -reconfigure\" to ignore it", env.SavedPath, err))...)
		}
	}

	switch {
	case cfg == nil && old == nil:
		// The default local backend, as before.
		return diags

	case cfg == nil:
		// The backend block was removed: back to local state.
		if !opts.MigrateState {
			return append(diags, changedDiag())
		}
		view.BackendUnsetting(old.Type)
		if _, mdiags := m.migrateFrom(old, nil); hasErrorsOf(&diags, mdiags) {
			return diags
		}
		if err := m.writeSaved(nil); err != nil {
			return append(diags, errorDiag("Failed to save the backend state", err)...)
		}
		view.BackendUnset(old.Type)
		return diags

	case old == nil:
		// A first backend: local state, if any, may move into it.
		if _, mdiags := env.StateMgr(cfg, statemgr.DefaultWorkspace); hasErrorsOf(&diags, mdiags) {
			return diags
		}
		defLocal, toLocal := m.local(nil), m.local(cfg)
		if (toLocal == nil || !sameLocalPaths(defLocal, toLocal)) && defLocal.StateExists() {
			copied, mdiags := m.migrateFrom(nil, cfg)
			if hasErrorsOf(&diags, mdiags) {
				return diags
			}
			// As Terraform does, the local copies are emptied (their
			// .backup keeps them) so that nobody works from them by
			// mistake. strata keeps those the user chose not to copy.
			// A local backend that keeps one of the workspaces in the
			// same file as the default one (the same path, or the same
			// workspace directory with workspaces besides default):
			// then none is emptied, as in Terraform.
			if toLocal != nil && localPathsConflict(defLocal, toLocal) {
				copied = nil
			}
			for _, ws := range copied {
				if err := emptyLocalState(defLocal.Abs(defLocal.StatePath(ws))); err != nil {
					diags = append(diags, errorDiag("Failed to empty the migrated local state", err)...)
				}
			}
		}

	case old.Type == cfg.Type && old.Value.Equals(cfg.Value).True():
		// Unchanged; the block may have moved arguments to
		// -backend-config, which changes its hash.
		if _, mdiags := env.StateMgr(cfg, statemgr.DefaultWorkspace); hasErrorsOf(&diags, mdiags) {
			return diags
		}
		if old.Hash != cfg.Hash {
			if err := m.writeSaved(cfg); err != nil {
				return append(diags, errorDiag("Failed to save the backend state", err)...)
			}
		}
		return diags

	default:
		if !opts.MigrateState {
			return append(diags, changedDiag())
		}
		if _, mdiags := env.StateMgr(cfg, statemgr.DefaultWorkspace); hasErrorsOf(&diags, mdiags) {
			return diags
		}
		view.BackendChanged()
		if _, mdiags := m.migrateFrom(old, cfg); hasErrorsOf(&diags, mdiags) {
			return diags
		}
	}
	if err := m.writeSaved(cfg); err != nil {
		return append(diags, errorDiag("Failed to save the backend state", err)...)
	}
	view.BackendConfigured(cfg.Type)
	return diags
}

// migration is the state of one init's backend step.
type migration struct {
	ctx  context.Context
	env  *Env
	view View
	opts Options
}

// writeSaved records c as the working directory's backend; nil records
// that there is none (the default local backend).
func (m *migration) writeSaved(c *backend.Config) error {
	return backend.WriteSaved(m.env.SavedPath, c, m.env.StateVersion)
}

// hasErrorsOf appends more to *diags and reports whether more has errors.
func hasErrorsOf(diags *hcl.Diagnostics, more hcl.Diagnostics) bool {
	*diags = append(*diags, more...)
	return more.HasErrors()
}

// errorDiag turns a Go error into a single error diagnostic.
func errorDiag(summary string, err error) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: err.Error()}}
}

func changedDiag() *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Backend configuration changed",
		Detail: "A change in the backend configuration has been detected, which may require migrating existing state.\n\n" +
			"If you wish to attempt automatic migration of the state, use \"strata init -migrate-state\".\n" +
			"If you wish to store the current configuration with no changes to the state, use \"strata init -reconfigure\".",
	}
}

// singleState reports whether the backend c keeps a single state (only
// the default workspace).
func singleState(c *backend.Config) bool {
	t, ok := backend.Lookup(c.TypeName())
	return ok && t.SingleState
}
