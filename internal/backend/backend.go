package backend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/backend/backendbase"
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// Backend is a configured backend: where the state of each workspace is
// kept.
type Backend interface {
	// StateMgr returns the state manager of workspace ws, through which
	// the state is locked, read, written and unlocked. A workspace that
	// does not exist yet is created when its state is first read (local:
	// its directory, now; pg: its row, by Read).
	StateMgr(ctx context.Context, ws string) (statemgr.Manager, hcl.Diagnostics)
	// Workspaces lists the workspaces, sorted, default first.
	Workspaces(ctx context.Context) ([]string, hcl.Diagnostics)
	// DeleteWorkspace removes workspace ws and its state; the caller has
	// checked that it may (it exists, is not default, and is empty or
	// forced).
	DeleteWorkspace(ctx context.Context, ws string) error
}

// Close releases what backend b holds (the pg backend's database
// session) once its command is done with it. Backends holding nothing
// need not implement io.Closer.
func Close(b Backend) error {
	if c, ok := b.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// StateReader is a Backend whose states terraform_remote_state can read.
type StateReader interface {
	// ReadState reads workspace ws's stored state without changing
	// anything: no lock, no journal recovery, no workspace created. found
	// is false when nothing is stored.
	ReadState(ctx context.Context, ws string) (s *states.State, found bool, err error)
}

// ConfigError is ReadState's error for a configuration Terraform refuses
// with its bare text (see backendbase.ConfigError).
type ConfigError = backendbase.ConfigError

// ErrWorkspacesNotSupported is the error of a backend that keeps a single
// state asked for another workspace.
var ErrWorkspacesNotSupported = backendbase.ErrWorkspacesNotSupported

// Options are what configuring a backend needs from the process.
type Options struct {
	// Getenv reads the environment variables that stand in for unset
	// arguments.
	Getenv func(string) string
	// DataDir is the working directory's data directory (.terraform).
	DataDir string
	// WorkDir is the absolute working directory; see
	// backendbase.Settings.
	WorkDir string
	// Version is the Terraform version whose format strata writes.
	Version string
}

// Configure returns the backend c configures; nil is the default local
// backend.
func Configure(c *Config, o Options) (Backend, hcl.Diagnostics) {
	t, ok := Lookup(c.TypeName())
	if !ok {
		return nil, hcl.Diagnostics{Unsupported(c.Type, c.Range.Ptr())}
	}
	s := &backendbase.Settings{Values: c.Args(), Getenv: o.Getenv, DataDir: o.DataDir, WorkDir: o.WorkDir, Version: o.Version}
	if c != nil {
		s.Range = c.Range
		s.Ranges = c.ArgRanges
	}
	return t.New(s)
}

// ReadState reads workspace ws's stored state from a backend of type t
// configured with args (environment variables from o.Getenv for the
// others, relative paths in o.WorkDir), without changing anything: for
// terraform_remote_state, which checks ReadsState first. enc decrypts the
// state (nil: it is not encrypted). A configuration error is returned as
// an error whose text is the diagnostic's detail as a clause.
func (t *Type) ReadState(ctx context.Context, args map[string]cty.Value, o Options, ws string, enc *encryption.Target) (*states.State, bool, error) {
	b, diags := t.New(&backendbase.Settings{Values: args, Getenv: o.Getenv, DataDir: o.DataDir, WorkDir: o.WorkDir, Version: o.Version, Encryption: enc})
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		if _, ok := d.Extra.(backendbase.Invalid); ok {
			return nil, false, &InvalidError{Summary: d.Summary, Detail: d.Detail}
		}
		return nil, false, errors.New(clause(d.Detail))
	}
	r, ok := b.(StateReader)
	if !ok {
		return nil, false, fmt.Errorf("the %q backend's states cannot be read from another configuration", t.Name)
	}
	return r.ReadState(ctx, ws)
}

// CheckArgs configures a backend of type t with args, as ReadState does,
// without reading anything, and returns the problems Terraform reports as
// they are (backendbase.Invalid), for terraform_remote_state's
// validation.
func (t *Type) CheckArgs(args map[string]cty.Value, o Options) []*InvalidError {
	_, diags := t.New(&backendbase.Settings{Values: args, Getenv: o.Getenv, DataDir: o.DataDir, WorkDir: o.WorkDir, Version: o.Version})
	var out []*InvalidError
	for _, d := range diags {
		if _, ok := d.Extra.(backendbase.Invalid); ok && d.Severity == hcl.DiagError {
			out = append(out, &InvalidError{Summary: d.Summary, Detail: d.Detail})
		}
	}
	return out
}

// InvalidError is ReadState's error for arguments the backend refuses
// with a diagnostic Terraform reports as it is (backendbase.Invalid).
type InvalidError struct{ Summary, Detail string }

func (e *InvalidError) Error() string { return clause(e.Detail) }

// clause turns a sentence into an error message: lower-case first letter,
// no full stop.
func clause(s string) string {
	s = strings.TrimSuffix(s, ".")
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}
