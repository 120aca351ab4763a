package backendbase

import (
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// ErrWorkspacesNotSupported is the error of a backend that keeps a single
// state (Info.SingleState) asked for another workspace.
var ErrWorkspacesNotSupported = errors.New("workspaces not supported")

// Schema is the arguments of a backend block, with the types Terraform's
// schemas give them: the configuration init records, and its hash, cover
// exactly these, so that strata and Terraform agree on the file.
type Schema map[string]cty.Type

// Info describes a backend type.
type Info struct {
	// Name is the type's name in a backend block, `backend "NAME"`.
	Name string
	// Schema is the arguments of its block.
	Schema Schema
	// Required names the arguments its schema requires, as Terraform's
	// does: terraform_remote_state's config must set them (a backend
	// block may leave them to -backend-config or the environment).
	Required []string
	// SingleState is set for a backend that keeps one state: only the
	// default workspace exists, and the workspace commands refuse to work.
	SingleState bool
	// ForTesting is set for a backend meant for tests only (inmem):
	// messages list it apart.
	ForTesting bool
	// SharesRuns is set for a backend whose store also keeps the run
	// records of every working directory that uses it (pg), so that
	// `strata runs` lists them all.
	SharesRuns bool
}

// Settings are what a backend is configured from.
type Settings struct {
	// Values are the arguments that are set, converted to their types in
	// the schema; an argument not here is unset.
	Values map[string]cty.Value
	// Range is the backend block, for diagnostics; empty when the
	// settings come from elsewhere (terraform_remote_state's config).
	Range hcl.Range
	// Ranges are where the arguments that are set were given, for
	// diagnostics about their values; empty like Range.
	Ranges map[string]hcl.Range
	// Getenv reads the environment variables that stand in for unset
	// arguments (PG_CONN_STR, TF_HTTP_ADDRESS...).
	Getenv func(string) string
	// DataDir is the working directory's data directory (.terraform),
	// where a remote backend keeps the journal of an apply until the
	// final snapshot is stored.
	DataDir string
	// WorkDir is the absolute working directory relative paths (the local
	// backend's path) are resolved against; empty for the process's.
	WorkDir string
	// Version is the Terraform version whose format strata writes: it is
	// recorded as terraform_version in snapshots.
	Version string
	// Encryption decrypts the states terraform_remote_state reads
	// (ReadState); nil when they are not encrypted.
	Encryption *encryption.Target
}

// Invalid marks, as a diagnostic's Extra, an error about the values of a
// backend's arguments that Terraform reports as it is wherever the
// backend is configured, terraform_remote_state's config included (where
// other configuration errors are "Unable to read remote state").
type Invalid struct{}

// ConfigError is a configuration error that Terraform reports, reading a
// state for terraform_remote_state, as its bare text: a summary with no
// detail and no source location.
type ConfigError struct{ Msg string }

func (e *ConfigError) Error() string { return e.Msg }

// Subject is the range a diagnostic about argument name's value points
// at: where it was given, or else the backend block; nil when the
// settings come from elsewhere.
func (s *Settings) Subject(name string) *hcl.Range {
	if r, ok := s.Ranges[name]; ok {
		return r.Ptr()
	}
	if s.Range == (hcl.Range{}) {
		return nil
	}
	return s.Range.Ptr()
}

func (s *Settings) getenv(name string) string {
	if s.Getenv == nil || name == "" {
		return ""
	}
	return s.Getenv(name)
}

// String returns the string argument name, or else the environment
// variable env ("" for none).
func (s *Settings) String(name, env string) string {
	if v, ok := s.Values[name]; ok {
		return v.AsString()
	}
	return s.getenv(env)
}

// Bool returns the bool argument name, or else the environment variable
// env parsed as a bool (false when unset). A value of env that is not a
// bool is an error diagnostic appended to diags.
func (s *Settings) Bool(name, env string, diags *hcl.Diagnostics) bool {
	if v, ok := s.Values[name]; ok {
		return v.True()
	}
	e := s.getenv(env)
	if e == "" {
		return false
	}
	on, err := strconv.ParseBool(e)
	if err != nil {
		*diags = append(*diags, envError(env, "true or false", e))
	}
	return on
}

// Int returns the number argument name, or else the environment variable
// env, or else def. Either must be a whole number of at least 0, or an
// error diagnostic is appended to diags.
func (s *Settings) Int(name, env string, def int, diags *hcl.Diagnostics) int {
	if v, ok := s.Values[name]; ok {
		n, acc := v.AsBigFloat().Int64()
		if acc != 0 || n < 0 || n > 1<<31 {
			*diags = append(*diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid backend configuration",
				Detail:   fmt.Sprintf("%s must be a whole number of at least 0.", name),
				Subject:  s.Range.Ptr(),
			})
		}
		return int(n)
	}
	e := s.getenv(env)
	if e == "" {
		return def
	}
	n, err := strconv.Atoi(e)
	if err != nil || n < 0 {
		*diags = append(*diags, envError(env, "a whole number", e))
	}
	return n
}

func envError(env, want, got string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid backend configuration",
		Detail:   fmt.Sprintf("The environment variable %s must be %s, not %q.", env, want, got),
	}
}

// WithDefault returns the workspace names sorted, with "default" first
// whether or not names has it.
func WithDefault(names []string) []string {
	out := []string{statemgr.DefaultWorkspace}
	for _, n := range names {
		if n != statemgr.DefaultWorkspace {
			out = append(out, n)
		}
	}
	sort.Strings(out[1:])
	return out
}
