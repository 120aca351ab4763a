package command

import (
	"context"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// operation is what plan, apply and destroy share once prepared: the
// configuration, variable values and the locked state.
type operation struct {
	cfg     *configs.Config
	engine  *engine.Engine
	vars    map[string]engine.InputValue
	mgr     statemgr.Manager
	state   *states.State
	release func()
	// files are the parsed configuration sources, for a saved plan's
	// configuration snapshot; parser parsed them.
	files  map[string]*hcl.File
	parser *configs.Parser
	// varWarnings are the warnings about the variable values, kept when
	// the varFlags ask for it (deferWarnings).
	varWarnings hcl.Diagnostics
}

// keepProviders lets the engine's walks (validate, plan, apply) share
// their provider processes instead of starting them again for each (see
// engine.Engine.KeepProviders); the function returned closes them.
func (op *operation) keepProviders(ctx context.Context) (closeProviders func()) {
	op.engine.KeepProviders = true
	return func() { op.engine.CloseProviders(context.WithoutCancel(ctx)) }
}

// prepareOperation loads the configuration in the working directory and
// the variables, then locks and reads the state. On error it has reported
// the diagnostics and holds no lock.
func prepareOperation(ctx context.Context, d *Deps, v views.Operation, vf *varFlags, sf *stateFlags, parallelism int, opName string, mode plans.Mode) (*operation, error) {
	return prepareOperationIn(ctx, d, v, ".", vf, sf, parallelism, opName, mode)
}

// emptyConfigDiags is what an operation (opName, in mode) says of a
// directory without configuration files, as Terraform's: the console,
// refresh and destroy work there (destroying everything in the state);
// plan and apply refuse, in Terraform's words, since they would destroy
// everything.
func emptyConfigDiags(diags hcl.Diagnostics, opName string, mode plans.Mode) hcl.Diagnostics {
	var detail string
	switch {
	case opName == "OperationTypeConsole" || opName == "OperationTypeRefresh" || mode == plans.DestroyMode:
		return dropNoConfigFiles(diags)
	case opName == "OperationTypePlan":
		detail = "Plan requires configuration to be present. Planning without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run plan with the -destroy option. Otherwise, create a strata configuration file (.tf file) and try again."
	case opName == "OperationTypeApply":
		detail = "Apply requires configuration to be present. Applying without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run 'strata destroy' instead."
	default:
		return diags
	}
	for i, diag := range diags {
		if diag.Summary == noConfigFiles {
			c := *diag
			c.Detail = detail
			diags[i] = &c
		}
	}
	return diags
}

// prepareOperationIn is prepareOperation with the configuration in
// configDir (import -config); state, variable files and providers still
// come from the working directory, as in Terraform.
func prepareOperationIn(ctx context.Context, d *Deps, v views.Operation, configDir string, vf *varFlags, sf *stateFlags, parallelism int, opName string, mode plans.Mode) (*operation, error) {
	cfg, parser, diags := loadConfigDirVars(d, v, configDir, vf)
	diags = emptyConfigDiags(diags, opName, mode)
	if opName == "OperationTypePlan" || opName == "OperationTypeApply" {
		// Terraform warns about development overrides in plan, apply and
		// destroy (and validate), not in refresh, console or import.
		diags = append(devOverrideWarnings(d), diags...)
	}
	var mgr statemgr.Manager
	if !diags.HasErrors() {
		// As in Terraform, the backend is checked (a backend block that
		// init has not set up) before the providers and the variables.
		var mdiags hcl.Diagnostics
		mgr, mdiags = stateManager(d, cfg.Module, sf)
		diags = append(diags, mdiags...)
	}
	if !diags.HasErrors() {
		// stateManager has refused missing or altered provider packages.
		diags = append(diags, checkDependencyLocks(d, cfg)...)
	}
	if hasErrors(v, diags) {
		return nil, errReported
	}
	vars, vdiags := collectVariables(d, cfg.Module, parser, vf, true)
	var varWarnings hcl.Diagnostics
	if vf != nil && vf.deferWarnings && !vdiags.HasErrors() {
		varWarnings, vdiags = vdiags, nil
	}
	if hasErrors(v, vdiags) {
		return nil, errReported
	}
	state, release, sdiags := openState(ctx, d, mgr, sf, opName)
	if !sdiags.HasErrors() {
		sdiags = append(sdiags, backend.ReadableStateWarning(mgr, state)...)
	}
	if hasErrors(v, sdiags) {
		return nil, errReported
	}
	return &operation{
		cfg: cfg, engine: newEngine(d, cfg, v.Hook(), parallelism), vars: vars,
		mgr: mgr, state: state, release: release, files: parser.Files(), parser: parser, varWarnings: varWarnings,
	}, nil
}
