package views

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Workspace is the view of the `strata workspace` subcommands.
type Workspace interface {
	Diagnosticser
	// List shows the workspaces, marking the selected one.
	List(names []string, current string)
	// Show prints the selected workspace's name.
	Show(name string)
	// Created reports workspace new's success.
	Created(name string)
	// Selected reports workspace select's success.
	Selected(name string)
	// Deleted reports workspace delete's success; nonEmpty warns that
	// the workspace (deleted with -force) still tracked resources.
	Deleted(name string, nonEmpty bool)
	// NotEmpty refuses to delete a workspace that still tracks the
	// managed resource instances named.
	NotEmpty(name string, instances []string)
	// Error prints a plain error message in red on stderr, with no
	// "Error:" frame, as Terraform's workspace commands print theirs.
	Error(msg string)
}

// NewWorkspace returns the workspace commands' view, which has only a
// human form.
func NewWorkspace(v *View) Workspace { return &WorkspaceHuman{View: v} }

// WorkspaceHuman is the text the workspace commands print, as
// Terraform's.
type WorkspaceHuman struct{ *View }

var _ Workspace = (*WorkspaceHuman)(nil)

// List implements Workspace.
func (h *WorkspaceHuman) List(names []string, current string) {
	for _, n := range names {
		mark := "  "
		if n == current {
			mark = "* "
		}
		h.Raw(mark + n + "\n")
	}
	h.Raw("\n")
}

// Show implements Workspace.
func (h *WorkspaceHuman) Show(name string) { h.Raw(name + "\n") }

// Created implements Workspace.
func (h *WorkspaceHuman) Created(name string) {
	h.OutputLine(fmt.Sprintf("[reset][green][bold]Created and switched to workspace %q![reset][green]\n\nYou're now on a new, empty workspace. Workspaces isolate their state,\nso if you run \"strata plan\" strata will not see any existing state\nfor this configuration.[reset]", name))
}

// Selected implements Workspace.
func (h *WorkspaceHuman) Selected(name string) {
	h.OutputLine(fmt.Sprintf("[reset][green]Switched to workspace %q.[reset]", name))
}

// Deleted implements Workspace.
func (h *WorkspaceHuman) Deleted(name string, nonEmpty bool) {
	h.OutputLine(fmt.Sprintf("[reset][green]Deleted workspace %q![reset]", name))
	if nonEmpty {
		h.OutputLine(fmt.Sprintf("[reset][yellow]WARNING: %q was non-empty.\nThe resources managed by the deleted workspace may still exist,\nbut are no longer manageable by strata since the state has\nbeen deleted.\n[reset]", name))
	}
}

// NotEmpty implements Workspace.
func (h *WorkspaceHuman) NotEmpty(name string, instances []string) {
	h.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Workspace is not empty",
		Detail: fmt.Sprintf("Workspace %q is currently tracking the following resource instances:\n  - %s\n\nDeleting this workspace would cause strata to lose track of any associated remote objects, which would then require you to delete them manually outside of strata. You should destroy these objects with strata before deleting the workspace.\n\nIf you want to delete this workspace anyway, and have strata forget about these managed objects, use the -force option to disable this safety check.", name, strings.Join(instances, "\n  - "))}})
	// Terraform ends the message with an empty line.
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Fprint(h.Stderr, h.Colorize("[reset]")+"\n")
}

// Error implements Workspace.
func (h *WorkspaceHuman) Error(msg string) { h.LegacyError(msg) }
