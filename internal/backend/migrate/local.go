package migrate

import (
	"context"
	"os"
	"path/filepath"

	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/backend/local"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// Local state files take some care of their own in a migration: two
// local backends may keep a workspace in the same file, and local state
// copied into another backend is emptied.

// local returns the local backend c configures (nil: the default one),
// or nil when c is another type.
func (m *migration) local(c *backend.Config) *local.Backend {
	b, diags := m.env.Backend(c)
	if diags.HasErrors() {
		return nil
	}
	l, _ := b.(*local.Backend)
	return l
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

// sameLocalPaths reports whether two local backends keep their state in
// the same files.
func sameLocalPaths(a, b *local.Backend) bool {
	return sameFile(a.Abs(a.Path), b.Abs(b.Path)) && sameFile(a.Abs(a.WorkspaceDir), b.Abs(b.WorkspaceDir))
}

// localPathsConflict reports whether the local backend b keeps any
// workspace of the local backend a in the same file.
func localPathsConflict(a, b *local.Backend) bool {
	names, _ := a.Workspaces(context.Background())
	for _, ws := range names {
		if sameFile(a.Abs(a.StatePath(ws)), b.Abs(b.StatePath(ws))) {
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
