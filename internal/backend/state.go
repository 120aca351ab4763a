package backend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// OpenOptions say how OpenState takes the state.
type OpenOptions struct {
	// Lock takes the state lock, retrying for up to Timeout.
	Lock    bool
	Timeout time.Duration
	// Operation and Version are the lock information's: what holds the
	// lock, and strata's version.
	Operation, Version string
	// Log receives what was read (nil: nothing is logged).
	Log hclog.Logger
	// Stderr receives the error of releasing the lock, which comes after
	// the command's outcome.
	Stderr io.Writer
}

// OpenState locks mgr (unless o says not to) and reads its state, as every
// command that works on a state does. The returned release function
// unlocks; call it when the command is done. Operations a crash left
// pending in the state's journal are warnings, with advice that depends
// on the action.
func OpenState(ctx context.Context, mgr statemgr.Manager, o OpenOptions) (*states.State, func(), hcl.Diagnostics) {
	log := o.Log
	if log == nil {
		log = hclog.NewNullLogger()
	}
	release := func() {}
	if o.Lock {
		if err := mgr.Lock(ctx, statemgr.NewLockInfo(o.Operation, o.Version), o.Timeout); err != nil {
			return nil, release, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Error acquiring the state lock", Detail: strings.TrimPrefix(err.Error(), "Error acquiring the state lock: ")}}
		}
		release = func() {
			if err := mgr.Unlock(); err != nil && o.Stderr != nil {
				fmt.Fprintf(o.Stderr, "Error releasing the state lock: %s\n", err)
			}
		}
	}
	log.Debug("reading the state from " + mgr.String())
	s, pending, err := mgr.Read()
	if err == nil {
		log.Info(fmt.Sprintf("state of %s: lineage %q, serial %d, %d resources", mgr, s.Lineage, s.Serial, len(s.Resources)))
	}
	if err != nil {
		release()
		var empty *statemgr.EmptyStateError
		if errors.As(err, &empty) {
			return nil, func() {}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Empty state file", Detail: capitalized(err.Error()) + "."}}
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

// pendingAdvice says what to do about an operation left in flight.
func pendingAdvice(action string) string {
	switch action {
	case "create", "replace":
		return "If the new object was created, the state does not record it: import it with strata import, or delete it in the remote system, and run apply again; if it was not, simply run apply again."
	default:
		return "The state still holds the object as last recorded, and the next plan reads its current state from the provider, so running the operation again is safe."
	}
}

// capitalized is msg with a capital first letter.
func capitalized(msg string) string {
	if msg == "" {
		return msg
	}
	return strings.ToUpper(msg[:1]) + msg[1:]
}

// SaveState writes the final state of an apply, ending the journal. When
// it cannot be written, the state goes to erroredPath (errored.tfstate),
// through encrypt (as the state is encrypted), so that nothing is lost.
func SaveState(mgr statemgr.Manager, s *states.State, erroredPath string, encrypt func([]byte) ([]byte, error), log hclog.Logger) hcl.Diagnostics {
	if log == nil {
		log = hclog.NewNullLogger()
	}
	err := mgr.EndJournal(s)
	if err == nil {
		log.Info(fmt.Sprintf("state written to %s: serial %d, %d resources", mgr, s.Serial, len(s.Resources)))
		return nil
	}
	log.Error(fmt.Sprintf("writing the state to %s: %s", mgr, err))
	data, encErr := statefile.Write(s)
	if encErr == nil {
		data, encErr = encrypt(data)
	}
	if encErr == nil {
		encErr = statemgr.WriteFileAtomic(erroredPath, data, 0o600)
	}
	detail := fmt.Sprintf("Error saving state: %s\n\nstrata was unable to persist the state to %s. The state has been written to \"errored.tfstate\" in the current directory; the state journal also still holds every change, so the next command will recover it. Once the problem is fixed, re-run the command, or copy errored.tfstate over the state file.", err, mgr)
	if encErr != nil {
		detail = fmt.Sprintf("Error saving state: %s\n\nThe state could not be written to errored.tfstate either (%s). The state journal still holds every change made; the next command will recover it.", err, encErr)
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to save state", Detail: detail}}
}

// ReadableStateWarning warns, for plan and apply, when the local state
// file mgr read (s) holds sensitive values and can be read by every user
// of the machine. strata creates state files with mode 0600; Terraform
// applies the umask (usually 0644) and does not warn.
func ReadableStateWarning(mgr statemgr.Manager, s *states.State) hcl.Diagnostics {
	if !holdsSensitive(s) {
		return nil
	}
	if u, ok := mgr.(interface{ Unwrap() statemgr.Manager }); ok {
		mgr = u.Unwrap()
	}
	l, ok := mgr.(*statemgr.Local)
	if !ok {
		return nil
	}
	st, err := os.Stat(l.File())
	if err != nil || st.Size() == 0 || st.Mode().Perm()&0o004 == 0 {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "State file readable by all users",
		Detail: fmt.Sprintf("The state file %s has mode %04o: every user of this machine can read it, with the secrets it holds. "+
			"Restrict it with \"chmod 600 %s\"; strata creates state files readable by their owner only.", l.Path, st.Mode().Perm(), l.Path),
	}}
}

// holdsSensitive reports whether s records a sensitive output or
// attribute.
func holdsSensitive(s *states.State) bool {
	for _, o := range s.Outputs {
		if o.Sensitive {
			return true
		}
	}
	for _, a := range s.AllInstances() {
		if o := s.Object(a); o != nil && len(o.SensitivePaths) > 0 {
			return true
		}
	}
	return false
}
