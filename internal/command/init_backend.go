package command

import (
	"context"
	"io"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/pflag"

	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/backend/migrate"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// backendInitFlags are init's options for the backend.
type backendInitFlags struct {
	configs      []string
	reconfigure  bool
	migrateState bool
	forceCopy    bool
	lock         bool
	lockTimeout  time.Duration
}

func (f *backendInitFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.configs, "backend-config", nil, "Configuration to be merged with what is in the\nconfiguration file's 'backend' block. This can be\neither a path to an HCL file with key/value\nassignments (same format as terraform.tfvars) or a\n'key=value' format, and can be specified multiple\ntimes. The backend type must be in the configuration\nitself.")
	fs.BoolVar(&f.reconfigure, "reconfigure", false, "Reconfigure a backend, ignoring any saved\nconfiguration.")
	fs.BoolVar(&f.migrateState, "migrate-state", false, "Reconfigure a backend, and attempt to migrate any\nexisting state.")
	fs.BoolVar(&f.forceCopy, "force-copy", false, "Suppress prompts about copying state data when\ninitializing a new state backend. This is\nequivalent to providing a \"yes\" to all\nconfirmation prompts.")
	fs.BoolVar(&f.lock, "lock", true, "Don't hold a state lock during backend migration.\nThis is dangerous if others might concurrently run\ncommands against the same workspace.")
	fs.DurationVar(&f.lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
}

// initBackend configures the backend for init (package migrate: the
// -backend-config options merged over the backend block, compared with
// the configuration recorded in .terraform/terraform.tfstate, state
// migrated when the backend changes, the new configuration recorded),
// then opens the selected workspace.
func initBackend(ctx context.Context, d *Deps, v *views.View, mod *configs.Module, flags *backendInitFlags, input bool) hcl.Diagnostics {
	env := &migrate.Env{
		Backend: d.configuredBackend,
		StateMgr: func(c *backend.Config, ws string) (statemgr.Manager, hcl.Diagnostics) {
			return backendStateManager(d, c, ws, nil)
		},
		Dir:             d.Dir,
		SavedPath:       backendStatePath(d),
		Workspace:       workspaceName(d),
		SelectWorkspace: func(name string) error { return selectWorkspace(d, name) },
		Version:         d.Version,
		StateVersion:    TerraformCompatVersion,
		Stderr:          d.Stderr,
	}
	diags := migrate.Init(ctx, env, migrateView{View: v, stdin: d.Stdin}, backendBlock(mod), migrate.Options{
		Configs:      flags.configs,
		Reconfigure:  flags.reconfigure,
		MigrateState: flags.migrateState,
		ForceCopy:    flags.forceCopy,
		Lock:         flags.lock,
		LockTimeout:  flags.lockTimeout,
		Input:        input,
	})
	if diags.HasErrors() {
		return diags
	}
	return append(diags, loadSelectedWorkspace(ctx, d, mod, stateFlags{lock: flags.lock, lockTimeout: flags.lockTimeout})...)
}

// migrateView is init's view as a migration uses it: questions are
// answered on stdin.
type migrateView struct {
	*views.View
	stdin io.Reader
}

// Ask asks in Terraform's layout, and ends the line after an answer.
func (m migrateView) Ask(query, description string) (string, bool) {
	m.Prompt(query, description)
	answer, ok := readAnswer(m.stdin)
	if ok {
		m.Output("\n")
	}
	return answer, ok
}

// loadSelectedWorkspace opens the selected workspace's state, as
// Terraform's init does last: a local workspace that does not exist yet
// (TF_WORKSPACE) is created (under lock's -lock and -lock-timeout), and a backend with a single state refuses any
// workspace but default.
func loadSelectedWorkspace(ctx context.Context, d *Deps, mod *configs.Module, lock stateFlags) hcl.Diagnostics {
	ws := workspaceName(d)
	if ws == statemgr.DefaultWorkspace {
		return nil
	}
	be, diags := resolveBackend(d, mod)
	if diags.HasErrors() {
		return diags
	}
	if singleState(be) {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Error loading state: workspaces not supported"}}
	}
	names, diags := backendWorkspaces(ctx, d, be)
	if diags.HasErrors() {
		return diags
	}
	for _, n := range names {
		if n == ws {
			return nil
		}
	}
	// A new workspace is created under its lock, as "workspace new"
	// does.
	return createWorkspace(ctx, d, be, ws, "OperationTypeInvalid", "Error loading state", lock)
}
