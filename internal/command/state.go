package command

import (
	"context"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/pflag"

	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// stateFlags are the options for the local state of plan, apply, destroy
// and friends.
type stateFlags struct {
	statePath   string
	stateOut    string
	backupPath  string
	lock        bool
	lockTimeout time.Duration
}

func (f *stateFlags) register(fs *pflag.FlagSet, withOut bool) {
	if withOut {
		fs.StringVar(&f.statePath, "state", "", "Path to read and save state (unless -state-out is specified).\nDefaults to \"terraform.tfstate\". Legacy option for the local\nbackend only.")
		fs.StringVar(&f.stateOut, "state-out", "", "Path to write state to that is different than \"-state\". This\ncan be used to preserve the old state. Legacy option for the local\nbackend only.")
		fs.StringVar(&f.backupPath, "backup", "", "Path to backup the existing state file before modifying.\nDefaults to the \"-state-out\" path with \".backup\" extension. Set\nto \"-\" to disable backup. Legacy option for the local backend only.")
	} else {
		fs.StringVar(&f.statePath, "state", "", "A legacy option used for the local backend only: the path to\nthe state file to read. Defaults to \"terraform.tfstate\".")
	}
	fs.BoolVar(&f.lock, "lock", true, "Don't hold a state lock during the operation. This is\ndangerous if others might concurrently run commands against the\nsame workspace.")
	fs.DurationVar(&f.lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
}

// stateManager returns the state manager of the working directory's
// backend (as init recorded it, see resolveBackend) and the selected
// workspace. -state names a local file instead, whatever the backend (the
// legacy option of the local backend). As Terraform does whenever it
// opens the backend, with -state too, it first refuses provider packages
// that are missing or altered since init (requiredPlugins).
func stateManager(d *Deps, mod *configs.Module, f *stateFlags) (statemgr.Manager, hcl.Diagnostics) {
	return backendState(d, mod, f, true)
}

// backendState is stateManager; checkPlugins false leaves the provider
// packages to the caller, which has checked them its own way.
func backendState(d *Deps, mod *configs.Module, f *stateFlags, checkPlugins bool) (statemgr.Manager, hcl.Diagnostics) {
	be, diags := resolveBackend(d, mod)
	if diags.HasErrors() {
		return nil, diags
	}
	if checkPlugins {
		if diags = append(diags, requiredPlugins(d)...); diags.HasErrors() {
			return nil, diags
		}
	}
	if mod != nil {
		_, ediags := d.encryptionFor(mod)
		if diags = append(diags, ediags...); diags.HasErrors() {
			return nil, diags
		}
	}
	mgr, mdiags := backendStateManager(d, be, workspaceName(d), f)
	return mgr, append(diags, mdiags...)
}

// backendStateManager returns the state manager of workspace ws of the
// backend be (nil: the default local backend). A local state is written
// to f's -state-out and backed up to its -backup, when given.
func backendStateManager(d *Deps, be *backend.Config, ws string, f *stateFlags) (statemgr.Manager, hcl.Diagnostics) {
	// terraform_version records the Terraform version whose format strata
	// writes: Terraform refuses states from versions newer than itself, so
	// strata's own version number must not appear there.
	enc, diags := d.workdirEncryption()
	if diags.HasErrors() {
		return nil, diags
	}
	if f != nil && f.statePath != "" {
		mgr := statemgr.NewLocal(f.statePath, f.stateOut, f.backupPath, TerraformCompatVersion)
		mgr.Dir = d.Dir
		mgr.SetEncryption(enc.State())
		return mgr, diags
	}
	b, bdiags := d.configuredBackend(be)
	if diags = append(diags, bdiags...); diags.HasErrors() {
		return nil, diags
	}
	mgr, mdiags := b.StateMgr(context.Background(), ws)
	diags = append(diags, mdiags...)
	if mgr != nil && !statemgr.SetEncryption(mgr, enc.State()) && enc.State() != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "State encryption not supported by this backend",
			Detail:   "The state is configured to be encrypted, and this backend's state manager cannot encrypt what it stores.",
		})
		return nil, diags
	}
	if l, ok := mgr.(*statemgr.Local); ok && f != nil {
		if f.stateOut != "" {
			l.OutPath = f.stateOut
		}
		l.BackupPath = f.backupPath
	}
	return mgr, diags
}

// openState locks (unless disabled) and reads the state (see
// backend.OpenState). The returned release function unlocks; call it
// when the command is done.
func openState(ctx context.Context, d *Deps, mgr statemgr.Manager, f *stateFlags, operation string) (*states.State, func(), hcl.Diagnostics) {
	o := backend.OpenOptions{Lock: f == nil || f.lock, Operation: operation, Version: d.Version, Log: d.logger(), Stderr: d.Stderr}
	if f != nil {
		o.Timeout = f.lockTimeout
	}
	return backend.OpenState(ctx, mgr, o)
}

// saveState writes the final state of an apply. When it cannot be
// written, the state goes to errored.tfstate so that nothing is lost.
func saveState(d *Deps, mgr statemgr.Manager, s *states.State) hcl.Diagnostics {
	// errored.tfstate is encrypted as the state is.
	encrypt := func(data []byte) ([]byte, error) {
		enc, _ := d.workdirEncryption()
		return enc.State().EncryptState(data)
	}
	return backend.SaveState(mgr, s, d.abs("errored.tfstate"), encrypt, d.logger())
}
