package views

import "fmt"

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
	// Deleted reports workspace delete's success.
	Deleted(name string)
	// NotSupported reports, with Terraform's plain error line on stderr,
	// a backend that stores a single state; prefix goes before it.
	NotSupported(prefix string)
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
	h.Outputf("[reset][green][bold]Created and switched to workspace %q![reset][green]\n\nYou're now on a new, empty workspace. Workspaces isolate their state,\nso if you run \"strata plan\" strata will not see any existing state\nfor this configuration.[reset]\n", name)
}

// Selected implements Workspace.
func (h *WorkspaceHuman) Selected(name string) {
	h.Outputf("[reset][green]Switched to workspace %q.[reset]\n", name)
}

// Deleted implements Workspace.
func (h *WorkspaceHuman) Deleted(name string) {
	h.Outputf("[reset][green]Deleted workspace %q![reset]\n", name)
}

// NotSupported implements Workspace.
func (h *WorkspaceHuman) NotSupported(prefix string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Fprint(h.Stderr, h.Colorize("[red]"+prefix+"workspaces not supported[reset]")+"\n")
}
