package command

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/plans/planfile"
	"github.com/strata-dev/strata/internal/states"
)

// lockFileName is the dependency lock file saved plans carry.
const lockFileName = ".terraform.lock.hcl"

// savePlan writes a plan file with the configuration as it was planned.
func savePlan(d *Deps, cfg *configs.Config, files map[string]*hcl.File, plan *plans.Plan, path string) hcl.Diagnostics {
	config := cfg.SnapshotFiles(files)
	lock, err := d.readFile(lockFileName)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return errorDiag("Failed to save the plan", err)
	}
	data, err := planfile.Write(&planfile.Contents{Plan: plan, Config: config, LockFile: lock, StrataVersion: d.Version})
	if err != nil {
		return errorDiag("Failed to save the plan", err)
	}
	enc, diags := d.encryptionFor(cfg.Module)
	if diags.HasErrors() {
		return diags
	}
	if data, err = enc.Plan().EncryptPlan(data); err != nil {
		return errorDiag("Failed to save the plan", err)
	}
	if err := writePrivateFile(d.abs(path), data); err != nil {
		return errorDiag("Failed to write plan file", err)
	}
	return nil
}

// writePrivateFile writes data to path, readable by its owner only (a
// plan holds the values of sensitive variables): an existing file is
// replaced, so that its mode does not carry over.
func writePrivateFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readPlan reads a saved plan and loads its configuration snapshot.
func readPlan(d *Deps, v diagView, path string) (*planfile.Contents, *configs.Config, hcl.Diagnostics) {
	return readPlanWith(d, d.newParser(), v, path)
}

// readPlanWith is readPlan loading the configuration with p, whose files
// are the view's snippets: files p reads later (variables files) have
// them too.
func readPlanWith(d *Deps, p *configs.Parser, v diagView, path string) (*planfile.Contents, *configs.Config, hcl.Diagnostics) {
	data, err := d.readFile(path)
	if err != nil {
		return nil, nil, errorDiag("Failed to read plan file", err)
	}
	enc, ediags := d.workdirEncryption()
	if ediags.HasErrors() {
		return nil, nil, ediags
	}
	if data, _, err = enc.Plan().DecryptPlan(data); err != nil {
		return nil, nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid plan file",
			Detail:   fmt.Sprintf("The plan file %s cannot be used: %s.", path, err),
		}}
	}
	c, err := planfile.Read(data, d.Version)
	if err != nil {
		return nil, nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid plan file",
			Detail:   fmt.Sprintf("The plan file %s cannot be used: %s.", path, err),
		}}
	}
	// Early evaluation sees the variable values the plan was made with.
	p.SetRootVariables(".", func(*configs.Module) map[string]cty.Value { return c.Plan.VariableValues })
	cfg, diags := p.LoadConfigFromSnapshot(c.Config)
	v.SetFiles(p.Files())
	return c, cfg, diags
}

// checkNotStale refuses a saved plan made from another state than the
// current one: another lineage (another state altogether), or the same
// lineage at another serial (the state has moved on). A plan made with no
// state applies only while there is still none.
func checkNotStale(plan *plans.Plan, current *states.State) hcl.Diagnostics {
	prior := plan.PriorState
	if prior.Serial != 0 && current.Lineage != prior.Lineage {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Saved plan does not match the given state",
			Detail:   "The given plan file can not be applied because it was created from a different state lineage.",
		}}
	}
	if current.Serial != prior.Serial {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Saved plan is stale",
			Detail:   "The given plan file can no longer be applied because the state was changed by another operation after the plan was created.",
		}}
	}
	return nil
}

// runApplySaved applies a plan file: exactly its changes, without asking
// and without refreshing, refusing it when the state has moved on.
func runApplySaved(ctx context.Context, d *Deps, opts *applyOptions, path string) error {
	v := d.newOperationView(opts.view)
	if _, err := d.stat(path); err != nil {
		v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: fmt.Sprintf("Failed to load %q as a plan file", path), Detail: "Error: " + err.Error()}})
		return errReported
	}
	if opts.destroy {
		v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Destroy can't be called with a plan file", Detail: fmt.Sprintf("If this plan was created using plan -destroy, apply it using:\n  strata apply %q", path)}})
		return errReported
	}
	p := d.newParser()
	c, cfg, diags := readPlanWith(d, p, v, path)
	if hasErrors(v, diags) {
		return errReported
	}
	plan := c.Plan
	if plan.Errored {
		v.Diagnostics(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot apply incomplete plan",
			Detail:   "strata encountered an error when generating this plan, so it cannot be applied.",
		}})
		return errReported
	}
	vdiags := applyTimeVariables(d, p, &opts.vars, cfg, plan)
	v.SetFiles(p.Files())
	if hasErrors(v, vdiags) {
		return errReported
	}
	if hasErrors(v, savedPlanProviderDiags(d, cfg, c.LockFile)) {
		return errReported
	}
	mgr, mdiags := backendState(d, cfg.Module, &opts.state, false) // packages checked above
	if hasErrors(v, mdiags) {
		return errReported
	}
	state, release, sdiags := openState(ctx, d, mgr, &opts.state, "OperationTypeApply")
	if hasErrors(v, sdiags) {
		return errReported
	}
	defer release()
	if hasErrors(v, checkNotStale(plan, state)) {
		return errReported
	}
	if state.Serial == 0 {
		// The plan was made with no state: keep the lineage it recorded.
		state.Lineage = plan.PriorState.Lineage
	}
	ctx, cancel := applyInterrupts(ctx, d, v)
	defer cancel()
	op := &operation{cfg: cfg, engine: newEngine(d, cfg, v.Hook(), opts.parallelism), mgr: mgr, state: state, release: release}
	// The schemas the run record asks for start the providers the apply
	// then uses.
	defer op.keepProviders(ctx)()
	setContractChecks(d, op.engine, opts.strict)
	name := "apply"
	if plan.Mode == plans.DestroyMode {
		name = "destroy"
	}
	rec := startApplyRecord(d, name, op, opts.view.json)
	rec.SetPlanFile(path)
	v.SavedPlan(plan)
	rec.Planned(plan, schemaLookup(ctx, op.engine), false, len(plan.Targets) > 0 || len(plan.Excludes) > 0)
	// Nothing reads the plan's values once it is applied.
	op.engine.ReleasePlanned = true
	// A saved destroy plan ends as any apply does: "Apply complete!",
	// as in Terraform.
	return applyPlan(ctx, d, v, op, plan, false, false, rec, nil, incompleteWarning(plan))
}
