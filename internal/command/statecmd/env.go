package statecmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// Env is what the state commands need of the rest of the CLI. Package
// command builds it from its Deps.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Dir is the absolute working directory relative paths are resolved
	// against; empty for the process's.
	Dir string
	// ReadFile reads a file the user names, relative to Dir, with errors
	// naming the path as given; nil is os.ReadFile.
	ReadFile func(path string) ([]byte, error)
	// NoColor reports the -no-color every command accepts (known once the
	// command line is parsed).
	NoColor func() bool
	// Reported is the error a command returns once it has reported what
	// went wrong: exit status 1, nothing more printed.
	Reported error
	// Usage reports wrong arguments as flag errors are reported, and
	// returns Reported.
	Usage func(cmd *cobra.Command, msg string) error
	// Help is a command's help text.
	Help func(cmd *cobra.Command) string
	// FlagError is the text of a flag parsing error.
	FlagError func(err error) string
	// ReadAnswer reads one answer to a prompt from Stdin; ok is false when
	// the input ended first.
	ReadAnswer func() (answer string, ok bool)
	// StateManager returns the manager of the state at statePath, or of
	// the selected workspace of the working directory's backend when
	// statePath is empty; a local state is written to stateOut and backed
	// up to backupPath when they are set. With checkPlugins it first
	// refuses provider packages that are missing or altered since init
	// (ProviderPackages), as Terraform does whenever it opens the backend.
	// On error the manager is nil.
	StateManager func(statePath, stateOut, backupPath string, checkPlugins bool) (statemgr.Manager, hcl.Diagnostics)
	// CheckConfig loads the root module of the working directory, whose
	// errors (syntax, unknown or duplicate blocks) stop every state
	// command in Terraform, which reads the backend from it, -state or
	// not. It gives v the files for source snippets; with absPaths the
	// diagnostics name the files by absolute path, as Terraform's do for
	// some commands. Nil: nothing is checked.
	CheckConfig func(v *views.View, absPaths bool) hcl.Diagnostics
	// ProviderPackages reports the provider packages the dependency lock
	// file selects that are missing or altered since init, as the error
	// "Required plugins are not installed"; nil when all are in place.
	ProviderPackages func() hcl.Diagnostics
	// ReadState locks mgr unless lock is false (waiting up to timeout)
	// and reads it; the returned function unlocks. Warnings about a
	// recovered journal are among the diagnostics.
	ReadState func(ctx context.Context, mgr statemgr.Manager, lock bool, timeout time.Duration, operation string) (*states.State, func(), hcl.Diagnostics)
	// ResourceSchema returns the schema of a resource's type, from the
	// provider that manages it; nil when it cannot be had.
	ResourceSchema func(ctx context.Context, provider addrs.AbsProviderConfig, addr addrs.AbsResourceInstance) *configschema.Block
	// StateVersion is the terraform_version new local state files record
	// (state mv -state-out).
	StateVersion string
	// Encrypt makes a local state manager the command creates (state mv
	// -state-out) encrypt as the working directory's state is.
	Encrypt func(*statemgr.Local)
	// DecryptState returns the state file JSON of a state given to the
	// command (state push): decrypted when it is encrypted, as it is.
	DecryptState func([]byte) ([]byte, error)
}

// viewFlags are the output options of a state command.
type viewFlags struct {
	noColor bool
}

// stateFlags are a state command's options for the state it works on.
type stateFlags struct {
	statePath   string
	stateOut    string
	backupPath  string
	lock        bool
	lockTimeout time.Duration
}

// register adds -no-color.
func (f *viewFlags) register(fs *pflag.FlagSet) { views.RegisterNoColor(fs, &f.noColor) }

func (d *Env) newView(f viewFlags) *views.View {
	// The state commands report as Terraform's older UI layer does.
	return &views.View{Stdout: d.Stdout, Stderr: d.Stderr, NoColor: f.noColor || d.NoColor(), Legacy: true}
}

// stderrView returns a view that sends every diagnostic, warnings too, to
// stderr: for commands whose stdout is data for other programs.
func stderrView(d *Env, f viewFlags) *views.View {
	return &views.View{Stdout: d.Stderr, Stderr: d.Stderr, NoColor: f.noColor || d.NoColor(), Legacy: true}
}

// usageError reports wrong arguments the way strata reports flag errors.
func usageError(d *Env, cmd *cobra.Command, msg string) error {
	return d.Usage(cmd, msg)
}

// hasErrors writes diagnostics and reports whether any is an error.
func hasErrors(v *views.View, diags hcl.Diagnostics) bool {
	v.Diagnostics(diags)
	return diags.HasErrors()
}

// errorDiag turns a Go error into a single error diagnostic.
func errorDiag(summary string, err error) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: err.Error()}}
}

// hideHelpFlag defines -help as a hidden flag, so that a command with no
// other options shows no empty "Options:" heading.
func hideHelpFlag(cmd *cobra.Command) {
	cmd.Flags().BoolP("help", "h", false, "Show this help output.")
	_ = cmd.Flags().MarkHidden("help")
}

// registerLockFlags adds -lock and -lock-timeout.
func registerLockFlags(fs *pflag.FlagSet, f *stateFlags) {
	fs.BoolVar(&f.lock, "lock", true, "Don't hold a state lock during the operation. This is\ndangerous if others might concurrently run commands\nagainst the same workspace.")
	fs.DurationVar(&f.lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
}

// registerIgnoreRemoteVersion accepts Terraform's -ignore-remote-version,
// which has no meaning without a remote backend.
func registerIgnoreRemoteVersion(fs *pflag.FlagSet) {
	var ignored bool
	fs.BoolVar(&ignored, "ignore-remote-version", false, "Accepted for compatibility with Terraform. strata has no remote\nbackend whose version could differ, so it has no effect.")
}

// timestampedBackup is the backup path state commands use by default, as
// Terraform's do: PATH.<unix time>.backup.
func timestampedBackup(path string) string {
	return fmt.Sprintf("%s.%d.backup", path, time.Now().Unix())
}

// openOptions say how a command opens its state.
type openOptions struct {
	// operation names the command in the lock information.
	operation string
	// lock takes the state lock as the -lock and -lock-timeout options
	// say; without it the state is read unlocked.
	lock bool
	// timestampedBackup backs a local state up to PATH.<time>.backup
	// before the first write, unless -backup names another path.
	timestampedBackup bool
	// requireFile makes a missing state an error, as it is for
	// Terraform's state commands.
	requireFile bool
	// direct is how Terraform's state rm, mv and replace-provider open
	// the state: an error opening it is the plain text "Error loading the
	// state: ...", and the state -state names is read without opening
	// the backend, so the provider packages are checked only when the
	// command writes it (see packagesBeforeWrite).
	direct bool
	// configAbs names the files of configuration errors by absolute
	// path, as Terraform's state rm, mv, pull, push, replace-provider and
	// taint do (see Env.CheckConfig).
	configAbs bool
}

// loadingStateMessage is Terraform's plain error text for a state that
// state rm, mv or replace-provider could not open.
func loadingStateMessage(diags hcl.Diagnostics) string {
	var errs []string
	for _, diag := range diags {
		if diag.Severity != hcl.DiagError {
			continue
		}
		msg := diag.Summary
		if diag.Detail != "" {
			msg += ": " + diag.Detail
		}
		errs = append(errs, msg)
	}
	return "Error loading the state: " + strings.Join(errs, "\n") + "\n\n" +
		"Please ensure that your strata state exists and that you've\n" +
		"configured it properly. You can use the \"-state\" flag to point\n" +
		"strata at another state file."
}

// packagesBeforeWrite checks, before state rm, mv or replace-provider
// writes the state -state names, the provider packages, as Terraform
// does only then (it needs the providers' schemas to write): on a missing
// or altered one it prints what the command did, said, and the error,
// and the state is left unchanged.
func (d *Env) packagesBeforeWrite(v *views.View, f *stateFlags, said string) bool {
	if f.statePath == "" || d.ProviderPackages == nil {
		return true // the packages were checked when the backend was opened
	}
	diags := d.ProviderPackages()
	if !diags.HasErrors() {
		return true
	}
	if said != "" {
		v.Raw(said)
	}
	v.Diagnostics(diags)
	return false
}

// open is how every state command opens the state it works on: the file
// -state names, else the state of the selected workspace of the working
// directory's backend; backed up, locked and read as o says. It reports
// its errors to v and returns ok false. The release function unlocks; it
// is always safe to call.
func (d *Env) open(ctx context.Context, v *views.View, f *stateFlags, o openOptions) (mgr statemgr.Manager, s *states.State, release func(), ok bool) {
	if d.CheckConfig != nil {
		if hasErrors(v, d.CheckConfig(v, o.configAbs)) {
			return nil, nil, func() {}, false
		}
	}
	mgr, diags := d.StateManager(f.statePath, f.stateOut, f.backupPath, !o.direct || f.statePath == "")
	if o.direct && diags.HasErrors() {
		v.LegacyErrorText(loadingStateMessage(diags))
		return nil, nil, func() {}, false
	}
	if hasErrors(v, diags) || mgr == nil {
		return nil, nil, func() {}, false
	}
	if o.timestampedBackup && f.backupPath == "" {
		if l, isLocal := asLocal(mgr); isLocal {
			l.BackupPath = timestampedBackup(l.OutPath)
		}
	}
	lock := f
	if !o.lock {
		lock = nil
	}
	s, release, ok = d.read(ctx, v, mgr, lock, o.operation, o.requireFile)
	return mgr, s, release, ok
}

// read locks the state when f asks for it (f == nil: never) and reads it.
// With requireFile, a missing state file is an error. The release
// function unlocks.
func (d *Env) read(ctx context.Context, v *views.View, mgr statemgr.Manager, f *stateFlags, operation string, requireFile bool) (*states.State, func(), bool) {
	lock, timeout := false, time.Duration(0)
	if f != nil {
		lock, timeout = f.lock, f.lockTimeout
	}
	s, release, diags := d.ReadState(ctx, mgr, lock, timeout, operation)
	if hasErrors(v, diags) {
		release()
		return nil, func() {}, false
	}
	if requireFile && !mgr.Exists() {
		release()
		v.LegacyError(noStateFileMessage)
		return nil, func() {}, false
	}
	return s, release, true
}

// noStateFileMessage is Terraform's error for a state command run where
// there is no state: a message, not a diagnostic.
const noStateFileMessage = "No state file was found!\n\n" +
	"State management commands require a state file. Run this command\n" +
	"in a directory where strata has been run or use the -state flag\n" +
	"to point the command to a specific state location."

// write saves s through mgr, which writes the backup and increases the
// serial.
func write(v *views.View, mgr statemgr.Manager, s *states.State) bool {
	if err := mgr.Write(s); err != nil {
		v.Diagnostics(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to write state",
			Detail:   fmt.Sprintf("Error writing the state to %s: %s. The state file is unchanged.", mgr, err),
		}})
		return false
	}
	return true
}

// localOutPath is the file a local state is written to, "" for other
// backends.
func localOutPath(mgr statemgr.Manager) string {
	if l, ok := asLocal(mgr); ok {
		return l.OutPath
	}
	return ""
}

// asLocal returns the local state manager mgr is, or wraps (the run
// record's recording manager has Unwrap).
func asLocal(mgr statemgr.Manager) (*statemgr.Local, bool) {
	if u, ok := mgr.(interface{ Unwrap() statemgr.Manager }); ok {
		mgr = u.Unwrap()
	}
	l, ok := mgr.(*statemgr.Local)
	return l, ok
}

// samePath reports whether two paths, relative to the working directory
// dir or absolute, name the same file.
func samePath(dir, a, b string) bool {
	if a == "" || b == "" {
		return a == b
	}
	abs := func(p string) string {
		if dir == "" || filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(dir, p)
	}
	return abs(a) == abs(b)
}

// readFile reads path with ReadFile, or os.ReadFile without one.
func (e *Env) readFile(path string) ([]byte, error) {
	if e.ReadFile == nil {
		return os.ReadFile(path)
	}
	return e.ReadFile(path)
}
