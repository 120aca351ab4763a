package command

import (
	"context"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/command/statecmd"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// stateEnv is what the state commands (package statecmd: state list, mv,
// rm..., taint and untaint) need of d.
func (d *Deps) stateEnv() *statecmd.Env {
	return &statecmd.Env{
		Stdin: d.Stdin, Stdout: d.Stdout, Stderr: d.Stderr,
		Dir:        d.Dir,
		ReadFile:   d.readFile,
		NoColor:    func() bool { return d.noColor || hasNoColor(d.args) }, // flag errors come before -no-color is parsed
		Reported:   errReported,
		Usage:      func(cmd *cobra.Command, msg string) error { return usageError(d, cmd, msg) },
		Help:       helpText,
		FlagError:  goFlagMessage,
		ReadAnswer: func() (string, bool) { return readAnswer(d.Stdin) },
		StateManager: func(statePath, stateOut, backupPath string, checkPlugins bool) (statemgr.Manager, hcl.Diagnostics) {
			mgr, diags := stateCommandManager(d, &stateFlags{statePath: statePath, stateOut: stateOut, backupPath: backupPath}, checkPlugins)
			if mgr == nil {
				return nil, diags
			}
			return &recordingManager{Manager: mgr, d: d}, diags
		},
		ProviderPackages: func() hcl.Diagnostics { return requiredPlugins(d) },
		CheckConfig: func(v *views.View, absPaths bool) hcl.Diagnostics {
			dir := "."
			if absPaths {
				dir = d.Dir
			}
			p := d.newParser()
			_, diags := p.LoadModule(dir)
			v.SetFiles(p.Files())
			var errs hcl.Diagnostics
			for _, diag := range diags {
				if diag.Severity == hcl.DiagError {
					errs = append(errs, diag)
				}
			}
			return errs
		},
		ReadState: func(ctx context.Context, mgr statemgr.Manager, lock bool, timeout time.Duration, operation string) (*states.State, func(), hcl.Diagnostics) {
			return openState(ctx, d, mgr, &stateFlags{lock: lock, lockTimeout: timeout}, operation)
		},
		ResourceSchema: func(ctx context.Context, provider addrs.AbsProviderConfig, addr addrs.AbsResourceInstance) *configschema.Block {
			e := &engine.Engine{Providers: d.Providers(".")}
			return schemaLookup(ctx, e)(&plans.ResourceInstanceChange{Addr: addr, ProviderAddr: provider})
		},
		StateVersion: TerraformCompatVersion,
		Encrypt: func(m *statemgr.Local) {
			enc, _ := d.workdirEncryption()
			m.SetEncryption(enc.State())
		},
		DecryptState: func(data []byte) ([]byte, error) {
			// A pulled state is in clear: push takes it whatever the
			// configuration says of unencrypted states.
			if !encryption.IsEncrypted(data) {
				return data, nil
			}
			enc, _ := d.workdirEncryption()
			plain, _, err := enc.State().DecryptState(data)
			return plain, err
		},
	}
}

// stateCommandManager returns the manager of the state a command that
// works on the state alone (state commands, force-unlock) uses: -state
// when given, else the backend's and workspace's state. As in Terraform,
// which reads the backend from it, the root module must load (no syntax
// errors, no unknown or duplicate blocks), with -state too; what it
// refers to and the modules it calls do not matter. checkPlugins is
// stateManager's check of the provider packages. On error the manager is
// nil.
func stateCommandManager(d *Deps, f *stateFlags, checkPlugins bool) (statemgr.Manager, hcl.Diagnostics) {
	mod, rdiags := loadRootModule(d, &views.View{}, nil)
	if rdiags.HasErrors() {
		return nil, rdiags
	}
	cfg, _, _ := loadConfig(d, &views.View{})
	if cfg == nil {
		cfg = &configs.Config{Module: mod}
	}
	mgr, diags := backendState(d, rootOf(cfg), f, checkPlugins)
	if diags.HasErrors() {
		return nil, diags
	}
	return mgr, diags
}
