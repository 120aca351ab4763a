package command

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/pflag"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/datadir"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// DefaultStatePath is the local state file of the default workspace.
const DefaultStatePath = "terraform.tfstate"

// stateFlags are the options for the local state of plan, apply, destroy
// and friends.
type stateFlags struct {
	statePath   string
	stateOut    string
	backupPath  string
	lock        bool
	lockTimeout time.Duration
}

func (f *stateFlags) register(fs *pflag.FlagSet, withOut bool) {
	if withOut {
		fs.StringVar(&f.statePath, "state", "", "Path to read and save state (unless -state-out is specified).\nDefaults to \"terraform.tfstate\". Legacy option for the local\nbackend only.")
		fs.StringVar(&f.stateOut, "state-out", "", "Path to write state to that is different than \"-state\". This\ncan be used to preserve the old state. Legacy option for the local\nbackend only.")
		fs.StringVar(&f.backupPath, "backup", "", "Path to backup the existing state file before modifying.\nDefaults to the \"-state-out\" path with \".backup\" extension. Set\nto \"-\" to disable backup. Legacy option for the local backend only.")
	} else {
		fs.StringVar(&f.statePath, "state", "", "A legacy option used for the local backend only: the path to\nthe state file to read. Defaults to \"terraform.tfstate\".")
	}
	fs.BoolVar(&f.lock, "lock", true, "Don't hold a state lock during the operation. This is\ndangerous if others might concurrently run commands against the\nsame workspace.")
	fs.DurationVar(&f.lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
}

// stateManager returns the state manager of the working directory's
// backend (as init recorded it, see resolveBackend) and the selected
// workspace. -state names a local file instead, whatever the backend (the
// legacy option of the local backend).
func stateManager(d *Deps, mod *configs.Module, f *stateFlags) (statemgr.Manager, hcl.Diagnostics) {
	be, diags := resolveBackend(mod)
	if diags.HasErrors() {
		return nil, diags
	}
	mgr, mdiags := backendStateManager(d, be, workspaceName(d), f)
	return mgr, append(diags, mdiags...)
}

// backendStateManager returns the state manager of workspace ws of the
// backend be (nil: the default local backend).
func backendStateManager(d *Deps, be *backendConfig, ws string, f *stateFlags) (statemgr.Manager, hcl.Diagnostics) {
	out, backup := "", ""
	if f != nil {
		out, backup = f.stateOut, f.backupPath
	}
	if be != nil && (f == nil || f.statePath == "") {
		switch be.Type {
		case "pg":
			return pgStateManager(d, be.attrs(), be.Range, ws)
		case "http":
			return httpStateManager(d, be.attrs(), be.Range, ws)
		case "inmem":
			return d.inmemStore(be).Manager(ws, TerraformCompatVersion), nil
		}
	}
	if be != nil && be.Type != "local" && be.Type != "pg" && be.Type != "http" && be.Type != "inmem" {
		return nil, hcl.Diagnostics{unsupportedBackend(be.Type, be.Range.Ptr())}
	}
	var local *backendConfig
	if be != nil && be.Type == "local" {
		local = be
	}
	path := localStatePath(local, ws)
	if ws != statemgr.DefaultWorkspace && (f == nil || f.statePath == "") {
		// Local state of other workspaces lives in terraform.tfstate.d. A
		// selected workspace that does not exist yet (TF_WORKSPACE, say)
		// is created, as Terraform's local backend does.
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Failed to create workspace",
				Detail:   fmt.Sprintf("The workspace %q (from TF_WORKSPACE or .terraform/environment) could not be created: %s.", ws, err),
			}}
		}
	}
	if f != nil && f.statePath != "" {
		path = f.statePath
	}
	// terraform_version records the Terraform version whose format strata
	// writes: Terraform refuses states from versions newer than itself, so
	// strata's own version number must not appear there.
	return statemgr.NewLocal(path, out, backup, TerraformCompatVersion), nil
}

// pgStateManager configures the pg backend from its block, with the
// PG_* environment variables for what the block leaves out, and prepares
// the database (schema, table and index) as Terraform does on every
// command.
func pgStateManager(d *Deps, attrs map[string]cty.Value, rng hcl.Range, ws string) (statemgr.Manager, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	str := func(name, env string) string {
		if v, ok := attrs[name]; ok {
			return v.AsString()
		}
		return d.Getenv(env)
	}
	flag := func(name, env string) bool {
		if v, ok := attrs[name]; ok {
			return v.True()
		}
		e := d.Getenv(env)
		if e == "" {
			return false
		}
		on, err := strconv.ParseBool(e)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid backend configuration",
				Detail:   fmt.Sprintf("The environment variable %s must be true or false, not %q.", env, e),
			})
		}
		return on
	}
	cfg := statemgr.PGConfig{
		ConnStr:            str("conn_str", "PG_CONN_STR"),
		SchemaName:         str("schema_name", "PG_SCHEMA_NAME"),
		SkipSchemaCreation: flag("skip_schema_creation", "PG_SKIP_SCHEMA_CREATION"),
		SkipTableCreation:  flag("skip_table_creation", "PG_SKIP_TABLE_CREATION"),
		SkipIndexCreation:  flag("skip_index_creation", "PG_SKIP_INDEX_CREATION"),
	}
	if diags.HasErrors() {
		return nil, diags
	}
	// The journal of an apply stays on this machine until the final
	// snapshot is in the database.
	journal := datadir.Join("pg-" + url.PathEscape(ws) + ".tfstate.journal")
	mgr := statemgr.NewPG(cfg, ws, journal, TerraformCompatVersion)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := mgr.Setup(ctx); err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to configure the backend \"pg\"",
			Detail:   err.Error() + ".",
			Subject:  rng.Ptr(),
		}}
	}
	return mgr, nil
}

// httpStateManager configures the http backend from its block, with the
// TF_HTTP_* environment variables for what the block leaves out, as
// Terraform does. The http backend has only the default workspace.
func httpStateManager(d *Deps, attrs map[string]cty.Value, rng hcl.Range, ws string) (statemgr.Manager, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	if ws != statemgr.DefaultWorkspace {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Workspaces not supported",
			Detail:   fmt.Sprintf("The http backend has only the default workspace, but workspace %q is selected (by TF_WORKSPACE or .terraform/environment).", ws),
			Subject:  rng.Ptr(),
		}}
	}
	envErr := func(env, want, got string) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid backend configuration",
			Detail:   fmt.Sprintf("The environment variable %s must be %s, not %q.", env, want, got),
		})
	}
	str := func(name string) string {
		if v, ok := attrs[name]; ok {
			return v.AsString()
		}
		return d.Getenv("TF_HTTP_" + strings.ToUpper(name))
	}
	integer := func(name string, def int) int {
		if v, ok := attrs[name]; ok {
			n, acc := v.AsBigFloat().Int64()
			if acc != 0 || n < 0 || n > 1<<31 {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid backend configuration",
					Detail:   fmt.Sprintf("%s must be a whole number of at least 0.", name),
					Subject:  rng.Ptr(),
				})
			}
			return int(n)
		}
		env := "TF_HTTP_" + strings.ToUpper(name)
		e := d.Getenv(env)
		if e == "" {
			return def
		}
		n, err := strconv.Atoi(e)
		if err != nil || n < 0 {
			envErr(env, "a whole number", e)
		}
		return n
	}
	skip := false
	if v, ok := attrs["skip_cert_verification"]; ok {
		skip = v.True()
	} else if e := d.Getenv("TF_HTTP_SKIP_CERT_VERIFICATION"); e != "" {
		on, err := strconv.ParseBool(e)
		if err != nil {
			envErr("TF_HTTP_SKIP_CERT_VERIFICATION", "true or false", e)
		}
		skip = on
	}
	cfg := statemgr.HTTPConfig{
		Address:                str("address"),
		UpdateMethod:           str("update_method"),
		LockAddress:            str("lock_address"),
		LockMethod:             str("lock_method"),
		UnlockAddress:          str("unlock_address"),
		UnlockMethod:           str("unlock_method"),
		Username:               str("username"),
		Password:               str("password"),
		SkipCertVerification:   skip,
		ClientCACertificatePEM: str("client_ca_certificate_pem"),
		ClientCertificatePEM:   str("client_certificate_pem"),
		ClientPrivateKeyPEM:    str("client_private_key_pem"),
		RetryMax:               integer("retry_max", statemgr.DefaultHTTPRetryMax),
		RetryWaitMin:           time.Duration(integer("retry_wait_min", int(statemgr.DefaultHTTPRetryWaitMin/time.Second))) * time.Second,
		RetryWaitMax:           time.Duration(integer("retry_wait_max", int(statemgr.DefaultHTTPRetryWaitMax/time.Second))) * time.Second,
	}
	if diags.HasErrors() {
		return nil, diags
	}
	// The journal of an apply stays on this machine until the final
	// snapshot is sent.
	journal := datadir.Join("http-default.tfstate.journal")
	mgr, err := statemgr.NewHTTP(cfg, journal, TerraformCompatVersion)
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to configure the backend \"http\"",
			Detail:   err.Error() + ".",
			Subject:  rng.Ptr(),
		}}
	}
	return mgr, nil
}

// backendAttrs evaluates the arguments of a backend block or of a
// -backend-config file, which may be literal values only (no variables or
// other references), each converted to its type in want. Null arguments
// are left out, as if not set.
func backendAttrs(body hcl.Body, want map[string]cty.Type) (map[string]cty.Value, hcl.Diagnostics) {
	attrs, diags := body.JustAttributes()
	if diags.HasErrors() {
		return nil, diags
	}
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	sort.Strings(names)
	vals := map[string]cty.Value{}
	for _, name := range names {
		a := attrs[name]
		ty, ok := want[name]
		if !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("An argument named %q is not expected here.", name),
				Subject:  a.NameRange.Ptr(),
			})
			continue
		}
		v, vdiags := a.Expr.Value(nil)
		diags = append(diags, vdiags...)
		if vdiags.HasErrors() {
			continue
		}
		if v.IsNull() {
			continue // as if not set
		}
		cv, err := convert.Convert(v, ty)
		if err != nil || !cv.IsWhollyKnown() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Incorrect attribute value type",
				Detail:   fmt.Sprintf("Inappropriate value for attribute %q: %s required.", name, typeNoun(ty)),
				Subject:  a.Expr.Range().Ptr(),
			})
			continue
		}
		vals[name] = cv
	}
	return vals, diags
}

func typeNoun(ty cty.Type) string {
	if ty == cty.Bool {
		return "a bool is"
	}
	return "a " + ty.FriendlyName() + " is"
}

// openState locks (unless disabled) and reads the state. The returned
// release function unlocks; call it when the command is done.
func openState(ctx context.Context, d *Deps, mgr statemgr.Manager, f *stateFlags, operation string) (*states.State, func(), hcl.Diagnostics) {
	release := func() {}
	if f == nil || f.lock {
		timeout := time.Duration(0)
		if f != nil {
			timeout = f.lockTimeout
		}
		if err := mgr.Lock(ctx, statemgr.NewLockInfo(operation, d.Version), timeout); err != nil {
			return nil, release, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Error acquiring the state lock", Detail: strings.TrimPrefix(err.Error(), "Error acquiring the state lock: ")}}
		}
		release = func() {
			if err := mgr.Unlock(); err != nil {
				fmt.Fprintf(d.Stderr, "Error releasing the state lock: %s\n", err)
			}
		}
	}
	d.logger().Debug("reading the state from " + mgr.String())
	s, pending, err := mgr.Read()
	if err == nil {
		d.logger().Info(fmt.Sprintf("state of %s: lineage %q, serial %d, %d resources", mgr, s.Lineage, s.Serial, len(s.Resources)))
	}
	if err != nil {
		release()
		var empty *statemgr.EmptyStateError
		if errors.As(err, &empty) {
			return nil, func() {}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Empty state file", Detail: sentence(err) + "."}}
		}
		return nil, func() {}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to load state", Detail: err.Error()}}
	}
	var diags hcl.Diagnostics
	for _, p := range pending {
		what := p.Addr
		if p.Deposed != "" {
			what += " (deposed object " + p.Deposed + ")"
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Operation interrupted: " + what,
			Detail: fmt.Sprintf("A previous run was stopped while the provider was performing a %s of %s, so strata does not know whether it finished. %s",
				p.Action, what, pendingAdvice(p.Action)),
		})
	}
	return s, release, diags
}

// saveState writes the final state of an apply. When it cannot be
// written, the state goes to errored.tfstate so that nothing is lost.
func saveState(d *Deps, mgr statemgr.Manager, s *states.State) hcl.Diagnostics {
	err := mgr.EndJournal(s)
	if err == nil {
		d.logger().Info(fmt.Sprintf("state written to %s: serial %d, %d resources", mgr, s.Serial, len(s.Resources)))
		return nil
	}
	d.logger().Error(fmt.Sprintf("writing the state to %s: %s", mgr, err))
	data, encErr := statefile.Write(s)
	if encErr == nil {
		encErr = os.WriteFile("errored.tfstate", data, 0o600)
	}
	detail := fmt.Sprintf("Error saving state: %s\n\nstrata was unable to persist the state to %s. The state has been written to \"errored.tfstate\" in the current directory; the state journal also still holds every change, so the next command will recover it. Once the problem is fixed, re-run the command, or copy errored.tfstate over the state file.", err, mgr)
	if encErr != nil {
		detail = fmt.Sprintf("Error saving state: %s\n\nThe state could not be written to errored.tfstate either (%s). The state journal still holds every change made; the next command will recover it.", err, encErr)
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to save state", Detail: detail}}
}

// pendingAdvice says what to do about an operation left in flight.
func pendingAdvice(action string) string {
	switch action {
	case "create", "replace":
		return "If the new object was created, the state does not record it: delete it in the remote system (strata cannot import objects yet) and run apply again; if it was not, simply run apply again."
	default:
		return "The state still holds the object as last recorded, and the next plan reads its current state from the provider, so running the operation again is safe."
	}
}

// useTimestampedBackup makes a local state's backup PATH.<time>.backup,
// as state commands do; other backends keep no local backup.
func useTimestampedBackup(mgr statemgr.Manager) {
	if l, ok := mgr.(*statemgr.Local); ok {
		l.BackupPath = timestampedBackup(l.OutPath)
	}
}

// localOutPath is the file a local state is written to, "" for other
// backends.
func localOutPath(mgr statemgr.Manager) string {
	if l, ok := mgr.(*statemgr.Local); ok {
		return l.OutPath
	}
	return ""
}

// inmemStore returns the process's inmem backend store, made on first use
// with the block's lock_id: the state lives as long as this command.
func (d *Deps) inmemStore(be *backendConfig) *statemgr.InmemStore {
	if d.inmem == nil {
		lockID := ""
		if v, ok := be.attrs()["lock_id"]; ok {
			lockID = v.AsString()
		}
		d.inmem = statemgr.NewInmemStore(lockID, TerraformCompatVersion)
	}
	return d.inmem
}
