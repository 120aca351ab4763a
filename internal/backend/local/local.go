// Package local is the local backend: each workspace's state in a file
// of the working directory, terraform.tfstate for the default workspace
// and terraform.tfstate.d/NAME/terraform.tfstate for the others, as
// Terraform's local backend keeps them.
//
// It is registered in internal/backend; only that package imports it
// (and commands, for the local-only parts of a state migration).
package local

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/backend/backendbase"
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// DefaultStatePath is the state file of the default workspace, and the
// name of every other workspace's file in its directory.
const DefaultStatePath = "terraform.tfstate"

// DefaultWorkspaceDir is the directory of the workspaces other than
// default.
const DefaultWorkspaceDir = "terraform.tfstate.d"

// Info describes the local backend.
var Info = backendbase.Info{
	Name: "local",
	Schema: backendbase.Schema{
		"path":          cty.String,
		"workspace_dir": cty.String,
	},
}

// Backend is a configured local backend.
type Backend struct {
	// Path is the default workspace's state file.
	Path string
	// WorkspaceDir holds a directory per other workspace.
	WorkspaceDir string
	// Version is recorded as terraform_version in snapshots.
	Version string
	// Dir is the absolute directory Path and WorkspaceDir are relative
	// to; empty for the process's working directory.
	Dir string

	enc *encryption.Target // for ReadState
}

// New configures a local backend: path and workspace_dir, relative to
// the working directory, default to terraform.tfstate and
// terraform.tfstate.d.
func New(s *backendbase.Settings) (*Backend, hcl.Diagnostics) {
	b := &Backend{Path: DefaultStatePath, WorkspaceDir: DefaultWorkspaceDir, Version: s.Version, Dir: s.WorkDir, enc: s.Encryption}
	var diags hcl.Diagnostics
	// Set, each must not be empty (null is unset).
	for _, arg := range []struct {
		name, summary string
		to            *string
	}{
		{"path", "Invalid local state file path", &b.Path},
		{"workspace_dir", "Invalid local workspace directory path", &b.WorkspaceDir},
	} {
		if _, set := s.Values[arg.name]; !set {
			continue
		}
		if v := s.String(arg.name, ""); v != "" {
			*arg.to = v
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  arg.summary,
			Detail:   fmt.Sprintf("The %q attribute value must not be empty.", arg.name),
			Subject:  s.Subject(arg.name),
			Extra:    backendbase.Invalid{},
		})
	}
	return b, diags
}

// Abs is p, a path relative to the working directory such as Path or
// StatePath's, resolved against Dir.
func (b *Backend) Abs(p string) string { return b.abs(p) }

// abs is p resolved against Dir.
func (b *Backend) abs(p string) string {
	if b.Dir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(b.Dir, p)
}

// StatePath is the state file of workspace ws.
func (b *Backend) StatePath(ws string) string {
	if ws == statemgr.DefaultWorkspace {
		return b.Path
	}
	return filepath.Join(b.WorkspaceDir, ws, DefaultStatePath)
}

// StateMgr returns the manager of workspace ws's state file. The
// directory of a workspace that does not exist yet (selected with
// TF_WORKSPACE, say) is created, as Terraform's local backend does.
func (b *Backend) StateMgr(_ context.Context, ws string) (statemgr.Manager, hcl.Diagnostics) {
	path := b.StatePath(ws)
	if ws != statemgr.DefaultWorkspace {
		if err := os.MkdirAll(filepath.Dir(b.abs(path)), 0o755); err != nil {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Failed to create workspace",
				Detail:   fmt.Sprintf("The workspace %q (from TF_WORKSPACE or .terraform/environment) could not be created: %s.", ws, err),
			}}
		}
	}
	m := statemgr.NewLocal(path, "", "", b.Version)
	m.Dir = b.Dir
	return m, nil
}

// Workspaces lists default and the directories of the workspace
// directory, sorted.
func (b *Backend) Workspaces(context.Context) ([]string, hcl.Diagnostics) {
	entries, _ := os.ReadDir(b.abs(b.WorkspaceDir))
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return backendbase.WithDefault(names), nil
}

// DeleteWorkspace removes the workspace's directory.
func (b *Backend) DeleteWorkspace(_ context.Context, ws string) error {
	return os.RemoveAll(filepath.Dir(b.abs(b.StatePath(ws))))
}

// ReadState reads workspace ws's state file as it is, without recovering
// a journal or taking the lock: found is false when there is no file or
// it is empty.
func (b *Backend) ReadState(_ context.Context, ws string) (s *states.State, found bool, err error) {
	path := b.StatePath(ws)
	src, err := os.ReadFile(b.abs(path))
	if os.IsNotExist(err) || (err == nil && len(src) == 0) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	crypt := statemgr.SnapshotCrypt{Target: b.enc}
	if src, err = crypt.Open(src); err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	s, err = statefile.Read(src)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	return s, true, nil
}

// StateExists reports whether any workspace holds a non-empty state file.
func (b *Backend) StateExists() bool {
	names, _ := b.Workspaces(context.Background())
	for _, ws := range names {
		if st, err := os.Stat(b.abs(b.StatePath(ws))); err == nil && st.Size() > 0 {
			return true
		}
	}
	return false
}
