package command

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/states/statefile"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// newWorkspaceCommand is "strata workspace" and its subcommands.
func newWorkspaceCommand(d *Deps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "workspace",
		Short: "Workspace management",
		Long: `Usage: strata [global options] workspace

  new, list, show, select and delete strata workspaces. Each workspace
  has its own state; the selected one is recorded in .terraform/environment
  (or given by TF_WORKSPACE).

Subcommands:
    delete    Delete a workspace
    list      List Workspaces
    new       Create a new workspace
    select    Select a workspace
    show      Show the name of the current workspace`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// As Terraform: the usage, and exit status 1.
			fmt.Fprintln(d.Stdout, cmd.Long)
			return errReported
		},
	}
	var noColor bool
	var force, orCreate bool
	var newState string
	lock := stateFlags{lock: true}
	list := &cobra.Command{Use: "list", Short: "List Workspaces", Long: "Usage: strata [global options] workspace list\n\n  List strata workspaces, marking the selected one with *.", Args: noArgs(d),
		RunE: func(cmd *cobra.Command, args []string) error { return runWorkspaceList(cmd.Context(), d) }}
	show := &cobra.Command{Use: "show", Short: "Show the name of the current workspace", Long: "Usage: strata [global options] workspace show\n\n  Show the name of the current workspace.", Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			views.NewWorkspace(d.newView(viewFlags{})).Show(workspaceName(d))
			return nil
		}}
	newCmd := &cobra.Command{Use: "new [options] NAME", Short: "Create a new workspace", Long: "Usage: strata [global options] workspace new [options] NAME\n\n  Create a new strata workspace and switch to it.", Args: singleName(d),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := runWorkspaceNew(cmd.Context(), d, args[0], lock, noColor); err != nil || newState == "" {
				return err
			}
			return copyIntoWorkspace(d, args[0], newState, noColor)
		}}
	newCmd.Flags().StringVar(&newState, "state", "", "Copy an existing state file into the new workspace.")
	sel := &cobra.Command{Use: "select [options] NAME", Short: "Select a workspace", Long: "Usage: strata [global options] workspace select [options] NAME\n\n  Select a different strata workspace.", Args: singleName(d),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWorkspaceSelect(cmd.Context(), d, args[0], orCreate, lock, noColor)
		}}
	sel.Flags().BoolVar(&orCreate, "or-create", false, "Create the workspace if it doesn't exist.")
	del := &cobra.Command{Use: "delete [options] NAME", Short: "Delete a workspace", Long: "Usage: strata [global options] workspace delete [options] NAME\n\n  Delete a strata workspace.", Args: singleName(d),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWorkspaceDelete(cmd.Context(), d, args[0], force, lock, noColor)
		}}
	del.Flags().BoolVar(&force, "force", false, "Remove a workspace even if it is managing resources.\nstrata can no longer track or manage the workspace's\ninfrastructure.")
	for _, c := range []*cobra.Command{newCmd, sel, del} {
		views.RegisterNoColor(c.Flags(), &noColor)
		c.Flags().BoolVar(&lock.lock, "lock", true, "Don't hold a state lock during the operation.")
		c.Flags().DurationVar(&lock.lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
	}
	cmd.AddCommand(list, show, newCmd, sel, del)
	return cmd
}

// workspaces lists the workspaces of the configured backend, sorted, with
// "default" first.
func workspaces(ctx context.Context, d *Deps, mod *configs.Module) ([]string, hcl.Diagnostics) {
	be, diags := resolveBackend(d, mod)
	if diags.HasErrors() {
		return nil, diags
	}
	return backendWorkspaces(ctx, d, be)
}

// workspacePlugins refuses, as Terraform does when it opens the backend,
// provider packages that are missing or altered since init; the
// backend's own errors are left to workspaces, which reports them.
func workspacePlugins(d *Deps, mod *configs.Module) hcl.Diagnostics {
	if _, diags := resolveBackend(d, mod); diags.HasErrors() {
		return nil
	}
	return requiredPlugins(d)
}

// singleStateBackend reports, with Terraform's plain error text on
// stderr, that the configured backend has a single state (as http does), so that
// the workspace commands other than show cannot work there. prefix is
// what Terraform puts before the error (for "workspace new").
func singleStateBackend(d *Deps, v *views.View, mod *configs.Module, prefix string) bool {
	be, diags := resolveBackend(d, mod)
	if diags.HasErrors() || !singleState(be) {
		return false // errors are reported by workspaces
	}
	views.NewWorkspace(v).Error(prefix + "workspaces not supported")
	return true
}

func runWorkspaceList(ctx context.Context, d *Deps) error {
	v := d.newView(viewFlags{})
	v.Legacy = true // as Terraform's older UI layer: a blank line after each diagnostic
	cfg, _, diags := loadConfig(d, v)
	// As Terraform: workspaces of the default local backend need no
	// configuration files.
	diags = dropNoConfigFiles(diags)
	mod := rootOf(cfg)
	if hasErrors(v, diags) || hasErrors(v, workspacePlugins(d, mod)) {
		return errReported
	}
	if singleStateBackend(d, v, mod, "") {
		return errReported
	}
	names, wdiags := workspaces(ctx, d, mod)
	if hasErrors(v, wdiags) {
		return errReported
	}
	views.NewWorkspace(v).List(names, workspaceName(d))
	return nil
}

// selectWorkspace records the selected workspace in .terraform/environment.
func selectWorkspace(d *Deps, name string) error {
	if err := os.MkdirAll(d.dataDir(), 0o755); err != nil {
		return err
	}
	return os.WriteFile(d.dataDir("environment"), []byte(name), 0o644)
}

// validWorkspaceName reports whether name can name a workspace: not
// empty and, as in Terraform, made only of characters that need no
// escaping in a URL path (so no separators, spaces or non-ASCII).
func validWorkspaceName(name string) bool {
	return name != "" && url.PathEscape(name) == name && name != "." && name != ".."
}

// workspaceMissing is Terraform's message for a workspace that does not
// exist; select starts it with an empty line.
func workspaceMissing(name string) string {
	return fmt.Sprintf("Workspace %q doesn't exist.\n\nYou can create this workspace with the \"new\" subcommand \nor include the \"-or-create\" flag with the \"select\" subcommand.", name)
}

func runWorkspaceNew(ctx context.Context, d *Deps, name string, lock stateFlags, noColor bool) error {
	v := d.newView(viewFlags{noColor: noColor})
	v.Legacy = true // as Terraform's older UI layer: a blank line after each diagnostic
	if !validWorkspaceName(name) {
		views.NewWorkspace(v).Error(fmt.Sprintf("\nThe workspace name %q is not allowed. The name must contain only URL safe\ncharacters, and no path separators.\n", name))
		return errReported
	}
	cfg, _, diags := loadConfig(d, v)
	// As Terraform: workspaces of the default local backend need no
	// configuration files.
	diags = dropNoConfigFiles(diags)
	mod := rootOf(cfg)
	if hasErrors(v, diags) || hasErrors(v, workspacePlugins(d, mod)) {
		return errReported
	}
	if singleStateBackend(d, v, mod, "Failed to get configured named states: ") {
		return errReported
	}
	names, wdiags := workspaces(ctx, d, mod)
	if hasErrors(v, wdiags) {
		return errReported
	}
	for _, n := range names {
		if n == name {
			views.NewWorkspace(v).Error(fmt.Sprintf("Workspace %q already exists", name))
			return errReported
		}
	}
	be, _ := resolveBackend(d, mod) // its errors were reported by workspaces
	if singleState(be) {
		v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Workspaces not supported", Detail: fmt.Sprintf("The %s backend stores a single state and does not support workspaces.", be.TypeName())}})
		return errReported
	}
	if diags := createWorkspace(ctx, d, be, name, "OperationTypeWorkspaceNew", "Failed to create workspace", lock); hasErrors(v, diags) {
		return errReported
	}
	if err := selectWorkspace(d, name); err != nil {
		v.Diagnostics(errorDiag("Failed to select workspace", err))
		return errReported
	}
	views.NewWorkspace(v).Created(name)
	return nil
}

func runWorkspaceSelect(ctx context.Context, d *Deps, name string, orCreate bool, lock stateFlags, noColor bool) error {
	v := d.newView(viewFlags{noColor: noColor})
	v.Legacy = true // as Terraform's older UI layer: a blank line after each diagnostic
	cfg, _, diags := loadConfig(d, v)
	// As Terraform: workspaces of the default local backend need no
	// configuration files.
	diags = dropNoConfigFiles(diags)
	mod := rootOf(cfg)
	if hasErrors(v, diags) || hasErrors(v, workspacePlugins(d, mod)) {
		return errReported
	}
	if singleStateBackend(d, v, mod, "") {
		return errReported
	}
	names, wdiags := workspaces(ctx, d, mod)
	if hasErrors(v, wdiags) {
		return errReported
	}
	for _, n := range names {
		if n == name {
			if name == workspaceName(d) {
				return nil // already selected: Terraform says nothing
			}
			if err := selectWorkspace(d, name); err != nil {
				v.Diagnostics(errorDiag("Failed to select workspace", err))
				return errReported
			}
			views.NewWorkspace(v).Selected(name)
			return nil
		}
	}
	if orCreate {
		return runWorkspaceNew(ctx, d, name, lock, noColor)
	}
	views.NewWorkspace(v).Error("\n" + workspaceMissing(name))
	return errReported
}

func runWorkspaceDelete(ctx context.Context, d *Deps, name string, force bool, lock stateFlags, noColor bool) error {
	v := d.newView(viewFlags{noColor: noColor})
	v.Legacy = true // as Terraform's older UI layer: a blank line after each diagnostic
	cfg, _, diags := loadConfig(d, v)
	// As Terraform: workspaces of the default local backend need no
	// configuration files.
	diags = dropNoConfigFiles(diags)
	mod := rootOf(cfg)
	if hasErrors(v, diags) || hasErrors(v, workspacePlugins(d, mod)) {
		return errReported
	}
	if singleStateBackend(d, v, mod, "") {
		return errReported
	}
	// Terraform's order: the workspace must exist, not be the selected
	// one, and (without -force) track no resources; only then does the
	// backend refuse to delete the default workspace.
	names, wdiags := workspaces(ctx, d, mod)
	if hasErrors(v, wdiags) {
		return errReported
	}
	if !slices.Contains(names, name) {
		views.NewWorkspace(v).Error(workspaceMissing(name))
		return errReported
	}
	if name == workspaceName(d) {
		views.NewWorkspace(v).Error(fmt.Sprintf("Workspace %q is your active workspace.\n\nYou cannot delete the currently active workspace. Please switch\nto another workspace and try again.", name))
		return errReported
	}
	be, _ := resolveBackend(d, mod) // its errors were reported by workspaces
	b, diags := d.configuredBackend(be)
	if hasErrors(v, diags) {
		return errReported
	}
	// A local state read here keeps no backup: it is about to go.
	mgr, diags := backendStateManager(d, be, name, &stateFlags{backupPath: "-"})
	if hasErrors(v, diags) {
		return errReported
	}
	if lock.lock {
		if err := mgr.Lock(ctx, statemgr.NewLockInfo("OperationTypeWorkspaceDelete", d.Version), lock.lockTimeout); err != nil {
			v.Diagnostics(errorDiag("Error acquiring the state lock", err))
			return errReported
		}
	}
	s, _, err := mgr.Read()
	if lock.lock {
		_ = mgr.Unlock()
	}
	if err != nil {
		v.Diagnostics(errorDiag("Failed to read the workspace's state", err))
		return errReported
	}
	var tracked []string
	for _, addr := range s.AllInstances() {
		if addr.Resource.Resource.Mode == addrs.ManagedResourceMode {
			tracked = append(tracked, addr.String())
		}
	}
	if len(tracked) > 0 && !force {
		views.NewWorkspace(v).NotEmpty(name, tracked)
		return errReported
	}
	if name == statemgr.DefaultWorkspace {
		views.NewWorkspace(v).Error("cannot delete default state")
		return errReported
	}
	err = b.DeleteWorkspace(ctx, name)
	if err != nil {
		v.Diagnostics(errorDiag("Failed to delete workspace", err))
		return errReported
	}
	views.NewWorkspace(v).Deleted(name, len(tracked) > 0)
	return nil
}

// createWorkspace makes workspace name of the backend be exist: its state
// is read under the lock (taken for operation), which creates it (local:
// its directory; pg: its row, as in Terraform; inmem: its entry), as
// lock's -lock and -lock-timeout say. Errors of the lock or the read are
// summarised as summary.
func createWorkspace(ctx context.Context, d *Deps, be *backend.Config, name, operation, summary string, lock stateFlags) hcl.Diagnostics {
	mgr, diags := backendStateManager(d, be, name, nil)
	if diags.HasErrors() {
		return diags
	}
	if lock.lock {
		if err := mgr.Lock(ctx, statemgr.NewLockInfo(operation, d.Version), lock.lockTimeout); err != nil {
			return append(diags, errorDiag(summary, err)...)
		}
	}
	_, _, err := mgr.Read()
	if lock.lock {
		if uerr := mgr.Unlock(); err == nil {
			err = uerr
		}
	}
	if err != nil {
		return append(diags, errorDiag(summary, err)...)
	}
	return diags
}

// copyIntoWorkspace writes the state file at path into the workspace just
// created (workspace new -state), as the new workspace's first snapshot,
// with a lineage of its own as in Terraform.
func copyIntoWorkspace(d *Deps, name, path string, noColor bool) error {
	v := d.newView(viewFlags{noColor: noColor})
	v.Legacy = true // as Terraform's older UI layer: a blank line after each diagnostic
	data, err := d.readFile(path)
	if err != nil {
		v.Diagnostics(errorDiag("Failed to read the state file", err))
		return errReported
	}
	s, err := statefile.Read(data)
	if err != nil {
		v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to read the state file", Detail: fmt.Sprintf("The file %s is not a valid state: %s.", path, err)}})
		return errReported
	}
	cfg, _, _ := loadConfig(d, &views.View{})
	be, diags := resolveBackend(d, rootOf(cfg))
	if hasErrors(v, diags) {
		return errReported
	}
	mgr, diags := backendStateManager(d, be, name, nil)
	if hasErrors(v, diags) {
		return errReported
	}
	s.Lineage = ""
	if s.Serial > 0 {
		s.Serial-- // Write counts the copy as a new snapshot; Terraform keeps the serial
	}
	if err := mgr.Write(s); err != nil {
		v.Diagnostics(errorDiag("Failed to write the state", err))
		return errReported
	}
	return nil
}

// singleName takes the NAME of workspace new, select and delete, and
// reports anything else as Terraform does.
func singleName(d *Deps) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 1 {
			return nil
		}
		return usageError(d, cmd, "Expected a single argument: NAME.\n")
	}
}
