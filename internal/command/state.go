package command

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/pflag"

	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
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
// legacy option of the local backend).
func stateManager(d *Deps, mod *configs.Module, f *stateFlags) (statemgr.Manager, hcl.Diagnostics) {
	be, diags := resolveBackend(mod)
	if diags.HasErrors() {
		return nil, diags
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

// openState locks (unless disabled) and reads the state. The returned
// release function unlocks; call it when the command is done.
func openState(ctx context.Context, d *Deps, mgr statemgr.Manager, f *stateFlags, operation string) (*states.State, func(), hcl.Diagnostics) {
	release := func() {}
	if f == nil || f.lock {
		timeout := time.Duration(0)
		if f != nil {
			timeout = f.lockTimeout
		}
		if err := mgr.Lock(ctx, statemgr.NewLockInfo(operation, d.Version), timeout); err != nil {
			return nil, release, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Error acquiring the state lock", Detail: strings.TrimPrefix(err.Error(), "Error acquiring the state lock: ")}}
		}
		release = func() {
			if err := mgr.Unlock(); err != nil {
				fmt.Fprintf(d.Stderr, "Error releasing the state lock: %s\n", err)
			}
		}
	}
	d.logger().Debug("reading the state from " + mgr.String())
	s, pending, err := mgr.Read()
	if err == nil {
		d.logger().Info(fmt.Sprintf("state of %s: lineage %q, serial %d, %d resources", mgr, s.Lineage, s.Serial, len(s.Resources)))
	}
	if err != nil {
		release()
		var empty *statemgr.EmptyStateError
		if errors.As(err, &empty) {
			return nil, func() {}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Empty state file", Detail: sentence(err) + "."}}
		}
		return nil, func() {}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to load state", Detail: err.Error()}}
	}
	var diags hcl.Diagnostics
	for _, p := range pending {
		what := p.Addr
		if p.Deposed != "" {
			what += " (deposed object " + p.Deposed + ")"
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Operation interrupted: " + what,
			Detail: fmt.Sprintf("A previous run was stopped while the provider was performing a %s of %s, so strata does not know whether it finished. %s",
				p.Action, what, pendingAdvice(p.Action)),
		})
	}
	return s, release, diags
}

// saveState writes the final state of an apply. When it cannot be
// written, the state goes to errored.tfstate so that nothing is lost.
func saveState(d *Deps, mgr statemgr.Manager, s *states.State) hcl.Diagnostics {
	err := mgr.EndJournal(s)
	if err == nil {
		d.logger().Info(fmt.Sprintf("state written to %s: serial %d, %d resources", mgr, s.Serial, len(s.Resources)))
		return nil
	}
	d.logger().Error(fmt.Sprintf("writing the state to %s: %s", mgr, err))
	// errored.tfstate is encrypted as the state is.
	data, encErr := statefile.Write(s)
	if encErr == nil {
		enc, _ := d.workdirEncryption()
		data, encErr = enc.State().EncryptState(data)
	}
	if encErr == nil {
		encErr = statemgr.WriteFileAtomic("errored.tfstate", data, 0o600)
	}
	detail := fmt.Sprintf("Error saving state: %s\n\nstrata was unable to persist the state to %s. The state has been written to \"errored.tfstate\" in the current directory; the state journal also still holds every change, so the next command will recover it. Once the problem is fixed, re-run the command, or copy errored.tfstate over the state file.", err, mgr)
	if encErr != nil {
		detail = fmt.Sprintf("Error saving state: %s\n\nThe state could not be written to errored.tfstate either (%s). The state journal still holds every change made; the next command will recover it.", err, encErr)
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to save state", Detail: detail}}
}

// pendingAdvice says what to do about an operation left in flight.
func pendingAdvice(action string) string {
	switch action {
	case "create", "replace":
		return "If the new object was created, the state does not record it: delete it in the remote system (strata cannot import objects yet) and run apply again; if it was not, simply run apply again."
	default:
		return "The state still holds the object as last recorded, and the next plan reads its current state from the provider, so running the operation again is safe."
	}
}
