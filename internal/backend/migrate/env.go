package migrate

import (
	"io"
	"path/filepath"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// Env is what a migration needs of the working directory and the process.
type Env struct {
	// Backend returns the backend c configures (nil: the default local
	// one), configured once per command.
	Backend func(c *backend.Config) (backend.Backend, hcl.Diagnostics)
	// StateMgr returns the state manager of workspace ws of the backend c,
	// with the working directory's state encryption.
	StateMgr func(c *backend.Config, ws string) (statemgr.Manager, hcl.Diagnostics)
	// Dir is the working directory relative paths (-backend-config
	// files, local state) are resolved against; empty: the process's.
	Dir string
	// SavedPath is the file init records the backend configuration in
	// (.terraform/terraform.tfstate).
	SavedPath string
	// Workspace is the selected workspace.
	Workspace string
	// SelectWorkspace records name as the selected workspace.
	SelectWorkspace func(name string) error
	// Version is strata's version, for lock information.
	Version string
	// StateVersion is the Terraform version whose format strata writes.
	StateVersion string
	// Stderr receives the errors of releasing a lock, which come after
	// the outcome.
	Stderr io.Writer
}

// Options are init's options for the backend.
type Options struct {
	// Configs are the -backend-config options: files or key=value.
	Configs []string
	// Reconfigure ignores the recorded configuration.
	Reconfigure bool
	// MigrateState allows copying the state out of a changed or removed
	// backend.
	MigrateState bool
	// ForceCopy answers yes to every question.
	ForceCopy bool
	// Lock locks the states while they are copied.
	Lock bool
	// LockTimeout is how long to retry a lock.
	LockTimeout time.Duration
	// Input is whether the user may be asked.
	Input bool
}

// View is what a migration shows and asks.
type View interface {
	// AddSource records a -backend-config file's content, for the
	// snippets of diagnostics about it.
	AddSource(filename string, src []byte)
	// BackendUnsetting announces the migration away from a removed
	// backend block of type typ.
	BackendUnsetting(typ string)
	// BackendUnset reports local state in use again.
	BackendUnset(typ string)
	// BackendChanged announces the migration to a changed backend.
	BackendChanged()
	// BackendConfigured reports the backend of type typ configured.
	BackendConfigured(typ string)
	// NoWorkspacesAtDestination heads the question of a migration to a
	// backend of type typ, which has a single state.
	NoWorkspacesAtDestination(typ string)
	// Ask asks a yes/no question and returns the line answered; ok is
	// false when the input ended before an answer.
	Ask(query, description string) (answer string, ok bool)
}

// abs resolves p against the working directory.
func (e *Env) abs(p string) string {
	if e.Dir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(e.Dir, p)
}
