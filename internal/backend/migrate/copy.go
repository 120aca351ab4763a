package migrate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// migrateFrom copies the state of every workspace of the backend from
// into the backend to (nil: the default local backend), asking first
// unless -force-copy, as Terraform does: one question for the default
// workspace alone, one for all of them otherwise. It returns the
// workspaces whose state was copied or was already there.
func (m *migration) migrateFrom(from, to *backend.Config) ([]string, hcl.Diagnostics) {
	srcType, dstType := from.TypeName(), to.TypeName()
	b, diags := m.env.Backend(from)
	if diags.HasErrors() {
		return nil, diags
	}
	names, diags := b.Workspaces(m.ctx)
	if diags.HasErrors() {
		return nil, diags
	}
	force := m.opts.ForceCopy
	migrated := func(src, dst string, force bool) ([]string, hcl.Diagnostics) {
		ok, diags := m.copyWorkspace(from, to, src, dst, force)
		if diags.HasErrors() {
			if diags[len(diags)-1].Summary == noAnswer {
				return nil, diags // the user's, not the copy's
			}
			return nil, errorDiag("Error migrating the workspace "+fmt.Sprintf("%q from the previous %q backend to the newly configured %q backend", src, srcType, dstType), diags)
		}
		if ok {
			return []string{src}, nil
		}
		return nil, nil
	}
	switch {
	case len(names) == 1 && names[0] == statemgr.DefaultWorkspace:
		return migrated(statemgr.DefaultWorkspace, statemgr.DefaultWorkspace, force)

	case singleState(to):
		// The destination has one state: only the selected workspace
		// can go there.
		current := m.env.Workspace
		if !force {
			m.view.NoWorkspacesAtDestination(dstType)
			ok, err := m.confirmAction("Do you want to copy only your current workspace?", fmt.Sprintf(
				"The existing %[1]q backend supports workspaces and you currently are\n"+
					"using more than one. The newly configured %[2]q backend doesn't support\n"+
					"workspaces. If you continue, strata will copy your current workspace %[3]q\n"+
					"to the default workspace in the new backend. Your existing workspaces in the\n"+
					"source backend won't be modified. If you want to switch workspaces, back them\n"+
					"up, or cancel altogether, answer \"no\" and strata will abort.", srcType, dstType, current))
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Migration aborted by user."}}
			}
		}
		// The copy itself asks again, as in Terraform.
		copied, cdiags := migrated(current, statemgr.DefaultWorkspace, force)
		if !cdiags.HasErrors() {
			if err := m.env.SelectWorkspace(statemgr.DefaultWorkspace); err != nil {
				cdiags = append(cdiags, errorDiag("Failed to select workspace", err)...)
			}
		}
		return copied, cdiags

	default:
		if !force {
			ok, err := m.confirmAction(fmt.Sprintf("Do you want to migrate all workspaces to %q?", dstType), fmt.Sprintf(
				"Both the existing %[1]q backend and the newly configured %[2]q backend\n"+
					"support workspaces. When migrating between backends, strata will copy\n"+
					"all workspaces (with the same names). THIS WILL OVERWRITE any conflicting\n"+
					"states in the destination.\n\n"+
					"strata initialization doesn't currently migrate only select workspaces.\n"+
					"If you want to migrate a select number of workspaces, you must manually\n"+
					"pull and push those states.\n\n"+
					"If you answer \"yes\", strata will migrate all states. If you answer\n"+
					"\"no\", strata will abort.", srcType, dstType))
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Migration aborted by user."}}
			}
		}
		var all []string
		for _, name := range names {
			copied, cdiags := migrated(name, name, true)
			if cdiags.HasErrors() {
				return all, cdiags
			}
			all = append(all, copied...)
		}
		return all, nil
	}
}

// confirm asks a yes/no question in Terraform's layout; only "yes" is
// yes. Without input (-input=false, or no terminal and nothing piped) it
// is an error, as in Terraform.
func (m *migration) confirm(query, description string) (bool, hcl.Diagnostics) {
	if !m.opts.Input {
		return false, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Can't ask approval for state migration when interactive input is disabled",
			Detail:   "Please remove the \"-input=false\" option and try again, or use -force-copy to copy the state without asking.",
		}}
	}
	answer, ok := m.view.Ask(query, description)
	if !ok {
		// No answer at all (end of input): an error, as in Terraform,
		// rather than a "no" that would go on without the state.
		return false, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: noAnswer}}
	}
	return answer == "yes", nil
}

// noAnswer is Terraform's error for a question that got no answer.
const noAnswer = "Error asking for confirmation: EOF"

// confirmAction is confirm for the questions about the whole migration,
// whose errors Terraform words so.
func (m *migration) confirmAction(query, description string) (bool, hcl.Diagnostics) {
	ok, diags := m.confirm(query, description)
	for _, d := range diags {
		if d.Summary == noAnswer {
			d.Summary = "Error asking for state migration action: " + d.Summary
		}
	}
	return ok, diags
}

// copyWorkspace copies workspace src of the backend from into workspace
// dst of the backend to, with both locked (unless -lock=false). It asks
// first unless force: into an empty workspace, whether to copy; over a
// different state, whether to overwrite it. It reports whether the
// destination now holds the source's state.
func (m *migration) copyWorkspace(from, to *backend.Config, src, dst string, force bool) (bool, hcl.Diagnostics) {
	srcType, dstType := from.TypeName(), to.TypeName()
	fromLocal, toLocal := m.local(from), m.local(to)
	if fromLocal != nil && toLocal != nil && sameFile(fromLocal.Abs(fromLocal.StatePath(src)), toLocal.Abs(toLocal.StatePath(dst))) {
		// Two local backends sharing a workspace directory (another
		// path only), or a default path (another workspace directory
		// only), keep that workspace in one file: it is already there.
		return true, nil
	}
	var locked []statemgr.Manager
	defer func() {
		for _, mgr := range locked {
			if err := mgr.Unlock(); err != nil {
				fmt.Fprintf(m.env.Stderr, "Error releasing the state lock: %s\n", err)
			}
		}
	}()
	lock := func(mgr statemgr.Manager) hcl.Diagnostics {
		if !m.opts.Lock {
			return nil
		}
		if err := mgr.Lock(m.ctx, statemgr.NewLockInfo("OperationTypeInvalid", m.env.Version), m.opts.LockTimeout); err != nil {
			return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Error acquiring the state lock", Detail: strings.TrimPrefix(err.Error(), "Error acquiring the state lock: ")}}
		}
		locked = append(locked, mgr)
		return nil
	}
	srcMgr, diags := m.workspaceManager(from, src)
	if diags.HasErrors() || hasErrorsOf(&diags, lock(srcMgr)) {
		return false, diags
	}
	srcState, _, err := srcMgr.Read()
	if err != nil {
		return false, append(diags, errorDiag("Failed to load state", err)...)
	}
	if srcState.Empty() {
		// Nothing to copy, and the destination is left alone: a
		// workspace created but never applied is not created there, as
		// in Terraform.
		return false, diags
	}
	dstMgr, ddiags := m.workspaceManager(to, dst)
	if hasErrorsOf(&diags, ddiags) || hasErrorsOf(&diags, lock(dstMgr)) {
		return false, diags
	}
	dstState, _, err := dstMgr.Read()
	if err != nil {
		return false, append(diags, errorDiag("Failed to load state", err)...)
	}
	if srcState.Lineage == dstState.Lineage && statefile.SameData(srcState, withSerial(dstState, srcState.Serial)) {
		return true, diags // already there
	}
	if !force {
		var ok bool
		var cdiags hcl.Diagnostics
		if dstState.Empty() {
			ok, cdiags = m.confirm("Do you want to copy existing state to the new backend?", fmt.Sprintf(
				"Pre-existing state was found while migrating the previous %[1]q backend to the\n"+
					"newly configured %[2]q backend. No existing state was found in the newly\n"+
					"configured %[2]q backend. Do you want to copy this state to the new %[2]q\n"+
					"backend? Enter \"yes\" to copy and \"no\" to start with an empty state.", srcType, dstType))
		} else {
			prev, cleanPrev := tempStateFile(srcState)
			defer cleanPrev()
			next, cleanNext := tempStateFile(dstState)
			defer cleanNext()
			ok, cdiags = m.confirm("Do you want to copy existing state to the new backend?", fmt.Sprintf(
				"Pre-existing state was found while migrating the previous %[1]q backend to the\n"+
					"newly configured %[2]q backend. An existing non-empty state already exists in\n"+
					"the new backend. The two states have been saved to temporary files that will be\n"+
					"removed after responding to this query.\n\n"+
					"Previous (type %[1]q): %[3]s\n"+
					"New      (type %[2]q): %[4]s\n\n"+
					"Do you want to overwrite the state in the new backend with the previous state?\n"+
					"Enter \"yes\" to copy and \"no\" to start with the existing state in the newly\n"+
					"configured %[2]q backend.", srcType, dstType, prev, next))
		}
		if hasErrorsOf(&diags, cdiags) || !ok {
			return false, diags
		}
	}
	// Into local state the copy keeps its serial even over another state,
	// as Terraform's does: the file then holds the very snapshot of the
	// source, and plans saved before the move still apply.
	keepSerial := dstState.Empty() || toLocal != nil
	if err := statemgr.WriteMigrated(dstMgr, srcState, keepSerial); err != nil {
		return false, append(diags, errorDiag("Error copying state", fmt.Errorf("copying the state from the previous %q backend to the newly configured %q backend: %w", srcType, dstType, err))...)
	}
	return true, diags
}

// workspaceManager returns the state manager of workspace ws of the
// backend b (nil: the default local backend), creating a local
// workspace's directory.
func (m *migration) workspaceManager(b *backend.Config, ws string) (statemgr.Manager, hcl.Diagnostics) {
	if l := m.local(b); l != nil {
		path := l.Abs(l.StatePath(ws))
		if ws != statemgr.DefaultWorkspace {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return nil, errorDiag("Failed to create workspace", err)
			}
		}
		backup := ""
		if st, err := os.Stat(path); err != nil || st.Size() == 0 {
			// Keep the backup of a state emptied by an earlier migration.
			backup = "-"
		}
		mgr := statemgr.NewLocal(path, path, backup, m.env.StateVersion)
		mgr.AllowEmpty = true // emptied by an earlier migration
		return mgr, nil
	}
	return m.env.StateMgr(b, ws)
}

// withSerial is a copy of s with another serial, to compare snapshots
// whatever their serials.
func withSerial(s *states.State, serial uint64) *states.State {
	c := s.DeepCopy()
	c.Serial = serial
	return c
}

// tempStateFile writes s to a temporary file for the user to look at; the
// returned function removes it.
func tempStateFile(s *states.State) (string, func()) {
	data, err := statefile.Write(s)
	if err != nil {
		return "(" + err.Error() + ")", func() {}
	}
	f, err := os.CreateTemp("", "strata-migrate-*.tfstate")
	if err == nil {
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return "(" + err.Error() + ")", func() {}
	}
	return f.Name(), func() { _ = os.Remove(f.Name()) }
}
