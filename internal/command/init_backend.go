package command

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/pflag"

	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/backend/local"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
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

// backendInit is the state of one init's backend step.
type backendInit struct {
	ctx   context.Context
	d     *Deps
	v     *views.View
	flags *backendInitFlags
	input bool
}

// initBackend configures the backend for init: it merges the
// -backend-config options over the backend block, compares the result
// with the configuration recorded in .terraform/terraform.tfstate,
// migrates state when the backend changes (as -migrate-state, or a first
// backend over local state, ask) and records the new configuration.
func initBackend(ctx context.Context, d *Deps, v *views.View, mod *configs.Module, flags *backendInitFlags, input bool) hcl.Diagnostics {
	diags := configureBackend(ctx, d, v, mod, flags, input)
	if diags.HasErrors() {
		return diags
	}
	return append(diags, loadSelectedWorkspace(ctx, d, mod)...)
}

// loadSelectedWorkspace opens the selected workspace's state, as
// Terraform's init does last: a local workspace that does not exist yet
// (TF_WORKSPACE) is created, and a backend with a single state refuses any
// workspace but default.
func loadSelectedWorkspace(ctx context.Context, d *Deps, mod *configs.Module) hcl.Diagnostics {
	ws := workspaceName(d)
	if ws == statemgr.DefaultWorkspace {
		return nil
	}
	be, diags := resolveBackend(mod)
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
	return createWorkspace(ctx, d, be, ws, "OperationTypeInvalid", "Error loading state")
}

// configureBackend is initBackend's configuration and migration step.
func configureBackend(ctx context.Context, d *Deps, v *views.View, mod *configs.Module, flags *backendInitFlags, input bool) hcl.Diagnostics {
	bi := &backendInit{ctx: ctx, d: d, v: v, flags: flags, input: input}
	saved, diags := readBackendState()
	if diags.HasErrors() {
		return diags
	}
	if flags.reconfigure {
		saved = nil
	}
	var cfg *backend.Config
	if mod.Backend != nil {
		var cdiags hcl.Diagnostics
		cfg, cdiags = decodeBackendBlock(mod.Backend)
		diags = append(diags, cdiags...)
		if cdiags.HasErrors() {
			return diags
		}
		for _, item := range flags.configs {
			// A -backend-config file's source, for the snippets of
			// diagnostics about its values.
			if item != "" && !strings.Contains(item, "=") {
				if src, err := os.ReadFile(item); err == nil {
					bi.v.AddSource(item, src)
				}
			}
		}
		over, ranges, odiags := backend.Overrides(cfg.Type, flags.configs)
		diags = append(diags, odiags...)
		if odiags.HasErrors() {
			return diags
		}
		cfg.Merge(over, ranges)
	} else if len(flags.configs) > 0 {
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
			return append(diags, errorDiag("Failed to load the backend state", fmt.Errorf("the backend recorded in %s: %w. Run \"strata init -reconfigure\" to ignore it", backendStatePath(), err))...)
		}
	}

	switch {
	case cfg == nil && old == nil:
		// The default local backend, as before.
		return diags

	case cfg == nil:
		// The backend block was removed: back to local state.
		if !flags.migrateState {
			return append(diags, backendChangedDiag())
		}
		v.BackendUnsetting(old.Type)
		if mdiags := bi.migrate(old, nil); hasErrorsOf(&diags, mdiags) {
			return diags
		}
		if err := writeBackendState(nil); err != nil {
			return append(diags, errorDiag("Failed to save the backend state", err)...)
		}
		v.BackendUnset(old.Type)
		return diags

	case old == nil:
		// A first backend: local state, if any, may move into it.
		if _, mdiags := backendStateManager(d, cfg, statemgr.DefaultWorkspace, nil); hasErrorsOf(&diags, mdiags) {
			return diags
		}
		defLocal, toLocal := localBackend(d, nil), localBackend(d, cfg)
		if (toLocal == nil || !sameLocalPaths(defLocal, toLocal)) && defLocal.StateExists() {
			copied, mdiags := bi.migrateFrom(nil, cfg)
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
				if err := emptyLocalState(defLocal.StatePath(ws)); err != nil {
					diags = append(diags, errorDiag("Failed to empty the migrated local state", err)...)
				}
			}
		}

	case old.Type == cfg.Type && old.Value.Equals(cfg.Value).True():
		// Unchanged; the block may have moved arguments to
		// -backend-config, which changes its hash.
		if _, mdiags := backendStateManager(d, cfg, statemgr.DefaultWorkspace, nil); hasErrorsOf(&diags, mdiags) {
			return diags
		}
		if old.Hash != cfg.Hash {
			if err := writeBackendState(cfg); err != nil {
				return append(diags, errorDiag("Failed to save the backend state", err)...)
			}
		}
		return diags

	default:
		if !flags.migrateState {
			return append(diags, backendChangedDiag())
		}
		if _, mdiags := backendStateManager(d, cfg, statemgr.DefaultWorkspace, nil); hasErrorsOf(&diags, mdiags) {
			return diags
		}
		v.BackendChanged()
		if mdiags := bi.migrate(old, cfg); hasErrorsOf(&diags, mdiags) {
			return diags
		}
	}
	if err := writeBackendState(cfg); err != nil {
		return append(diags, errorDiag("Failed to save the backend state", err)...)
	}
	v.BackendConfigured(cfg.Type)
	return diags
}

// hasErrorsOf appends more to *diags and reports whether more has errors.
func hasErrorsOf(diags *hcl.Diagnostics, more hcl.Diagnostics) bool {
	*diags = append(*diags, more...)
	return more.HasErrors()
}

func backendChangedDiag() *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Backend configuration changed",
		Detail: "A change in the backend configuration has been detected, which may require migrating existing state.\n\n" +
			"If you wish to attempt automatic migration of the state, use \"strata init -migrate-state\".\n" +
			"If you wish to store the current configuration with no changes to the state, use \"strata init -reconfigure\".",
	}
}

// emptyLocalState replaces a migrated local state file by an empty one,
// its content going to PATH.backup.
func emptyLocalState(path string) error {
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 {
		return nil
	}
	if err := statemgr.WriteFileAtomic(path+".backup", data, 0o600); err != nil {
		return err
	}
	return statemgr.WriteFileAtomic(path, nil, 0o600)
}

func (bi *backendInit) migrate(from, to *backend.Config) hcl.Diagnostics {
	_, diags := bi.migrateFrom(from, to)
	return diags
}

// migrateFrom copies the state of every workspace of the backend from
// into the backend to (nil: the default local backend), asking first
// unless -force-copy, as Terraform does: one question for the default
// workspace alone, one for all of them otherwise. It returns the
// workspaces whose state was copied or was already there.
func (bi *backendInit) migrateFrom(from, to *backend.Config) ([]string, hcl.Diagnostics) {
	srcType, dstType := from.TypeName(), to.TypeName()
	names, diags := backendWorkspaces(bi.ctx, bi.d, from)
	if diags.HasErrors() {
		return nil, diags
	}
	force := bi.flags.forceCopy
	migrated := func(src, dst string, force bool) ([]string, hcl.Diagnostics) {
		ok, diags := bi.copyWorkspace(from, to, src, dst, force)
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
		current := workspaceName(bi.d)
		if !force {
			bi.v.NoWorkspacesAtDestination(dstType)
			ok, err := bi.confirmAction("Do you want to copy only your current workspace?", fmt.Sprintf(
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
			if err := selectWorkspace(statemgr.DefaultWorkspace); err != nil {
				cdiags = append(cdiags, errorDiag("Failed to select workspace", err)...)
			}
		}
		return copied, cdiags

	default:
		if !force {
			ok, err := bi.confirmAction(fmt.Sprintf("Do you want to migrate all workspaces to %q?", dstType), fmt.Sprintf(
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
func (bi *backendInit) confirm(query, description string) (bool, hcl.Diagnostics) {
	if !bi.input {
		return false, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Can't ask approval for state migration when interactive input is disabled",
			Detail:   "Please remove the \"-input=false\" option and try again, or use -force-copy to copy the state without asking.",
		}}
	}
	bi.v.Prompt(query, description)
	answer, ok := readAnswer(bi.d.Stdin)
	if !ok {
		// No answer at all (end of input): an error, as in Terraform,
		// rather than a "no" that would go on without the state.
		return false, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: noAnswer}}
	}
	bi.v.Output("\n")
	return answer == "yes", nil
}

// noAnswer is Terraform's error for a question that got no answer.
const noAnswer = "Error asking for confirmation: EOF"

// confirmAction is confirm for the questions about the whole migration,
// whose errors Terraform words so.
func (bi *backendInit) confirmAction(query, description string) (bool, hcl.Diagnostics) {
	ok, diags := bi.confirm(query, description)
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
func (bi *backendInit) copyWorkspace(from, to *backend.Config, src, dst string, force bool) (bool, hcl.Diagnostics) {
	srcType, dstType := from.TypeName(), to.TypeName()
	fromLocal, toLocal := localBackend(bi.d, from), localBackend(bi.d, to)
	if fromLocal != nil && toLocal != nil && sameFile(fromLocal.StatePath(src), toLocal.StatePath(dst)) {
		// Two local backends sharing a workspace directory (another
		// path only), or a default path (another workspace directory
		// only), keep that workspace in one file: it is already there.
		return true, nil
	}
	var locked []statemgr.Manager
	defer func() {
		for _, m := range locked {
			if err := m.Unlock(); err != nil {
				fmt.Fprintf(bi.d.Stderr, "Error releasing the state lock: %s\n", err)
			}
		}
	}()
	lock := func(m statemgr.Manager) hcl.Diagnostics {
		if !bi.flags.lock {
			return nil
		}
		if err := m.Lock(bi.ctx, statemgr.NewLockInfo("OperationTypeInvalid", bi.d.Version), bi.flags.lockTimeout); err != nil {
			return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Error acquiring the state lock", Detail: strings.TrimPrefix(err.Error(), "Error acquiring the state lock: ")}}
		}
		locked = append(locked, m)
		return nil
	}
	srcMgr, diags := bi.workspaceManager(from, src)
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
	dstMgr, ddiags := bi.workspaceManager(to, dst)
	if hasErrorsOf(&diags, ddiags) || hasErrorsOf(&diags, lock(dstMgr)) {
		return false, diags
	}
	dstState, _, err := dstMgr.Read()
	if err != nil {
		return false, append(diags, errorDiag("Failed to load state", err)...)
	}
	switch {
	case srcState.Lineage == dstState.Lineage && statefile.SameData(srcState, withSerial(dstState, srcState.Serial)):
		return true, diags // already there
	}
	if !force {
		var ok bool
		var cdiags hcl.Diagnostics
		if dstState.Empty() {
			ok, cdiags = bi.confirm("Do you want to copy existing state to the new backend?", fmt.Sprintf(
				"Pre-existing state was found while migrating the previous %[1]q backend to the\n"+
					"newly configured %[2]q backend. No existing state was found in the newly\n"+
					"configured %[2]q backend. Do you want to copy this state to the new %[2]q\n"+
					"backend? Enter \"yes\" to copy and \"no\" to start with an empty state.", srcType, dstType))
		} else {
			prev, cleanPrev := tempStateFile(srcState)
			defer cleanPrev()
			next, cleanNext := tempStateFile(dstState)
			defer cleanNext()
			ok, cdiags = bi.confirm("Do you want to copy existing state to the new backend?", fmt.Sprintf(
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
func (bi *backendInit) workspaceManager(b *backend.Config, ws string) (statemgr.Manager, hcl.Diagnostics) {
	if l := localBackend(bi.d, b); l != nil {
		path := l.StatePath(ws)
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
		mgr := statemgr.NewLocal(path, path, backup, TerraformCompatVersion)
		mgr.AllowEmpty = true // emptied by an earlier migration
		return mgr, nil
	}
	return backendStateManager(bi.d, b, ws, nil)
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

// sameLocalPaths reports whether two local backends keep their state in
// the same files.
func sameLocalPaths(a, b *local.Backend) bool {
	return sameFile(a.Path, b.Path) && sameFile(a.WorkspaceDir, b.WorkspaceDir)
}

// localPathsConflict reports whether the local backend b keeps any
// workspace of the local backend a in the same file.
func localPathsConflict(a, b *local.Backend) bool {
	names, _ := a.Workspaces(context.Background())
	for _, ws := range names {
		if sameFile(a.StatePath(ws), b.StatePath(ws)) {
			return true
		}
	}
	return false
}

// sameFile reports whether two paths, relative to the working directory
// or absolute, name the same file.
func sameFile(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return aa == ab
}
