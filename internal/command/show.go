package command

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/plans/jsonplan"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

type showOptions struct {
	view  viewFlags
	state stateFlags
}

func newShowCommand(d *Deps, runF func(*showOptions) error) *cobra.Command {
	opts := &showOptions{}
	cmd := &cobra.Command{
		Use:   "show [options] [path]",
		Short: "Show the current state or a saved plan",
		Long: `Usage: strata [global options] show [options] [path]

  Reads and outputs the latest state snapshot in a human-readable form:
  every resource instance with its attributes, then the root module's
  output values. Given a plan file saved by "strata plan -out", shows the
  plan as "strata plan" did.

  With -json, prints Terraform's machine-readable JSON document instead:
  the state document for the current state (or for a state file given
  as PATH), the plan document for a saved plan.`,
		Args: maxArgs(1, "Too many command line arguments", "Expected at most one positional argument."),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			if len(args) == 1 {
				return runShowPlan(cmd.Context(), d, opts, args[0])
			}
			return runShow(cmd.Context(), d, opts)
		},
	}
	opts.view.register(cmd.Flags())
	cmd.Flags().BoolVar(&opts.view.json, "json", false, "If specified, output the state or plan as Terraform's machine-readable\nJSON document.")
	return cmd
}

func runShow(ctx context.Context, d *Deps, opts *showOptions) error {
	v := d.newView(opts.view)
	cfg, _, _ := loadConfig(d, v)
	mgr, diags := stateManager(d, rootOf(cfg), &opts.state)
	if hasErrors(v, diags) {
		return errReported
	}
	s, release, sdiags := openState(ctx, d, mgr, &stateFlags{lock: false}, "show")
	release()
	if hasErrors(v, sdiags) {
		return errReported
	}
	if opts.view.json {
		return showStateJSON(ctx, d, v, s)
	}
	if s.Empty() && !mgr.Exists() {
		s = nil // no snapshot at all, rather than an empty one
	}
	views.NewShow(v).State(s, schemaLookup(ctx, &engine.Engine{Providers: d.Providers(".")}))
	return nil
}

// jsonSchemas looks up resource type schemas for the JSON documents,
// fetching each provider's schema at most once.
func jsonSchemas(ctx context.Context, d *Deps) jsonplan.SchemaFunc {
	schemas, _ := jsonSchemaLookups(ctx, d)
	return schemas
}

// jsonSchemaLookups returns jsonSchemas' lookup and one for the versions
// of the same schemas, sharing the providers' schemas.
func jsonSchemaLookups(ctx context.Context, d *Deps) (jsonplan.SchemaFunc, jsonplan.SchemaVersionFunc) {
	e := &engine.Engine{Providers: d.Providers(".")}
	return func(p addrs.AbsProviderConfig, mode addrs.ResourceMode, typeName string) *configschema.Block {
			return e.ResourceSchema(ctx, p.Provider, mode, typeName)
		}, func(p addrs.Provider, mode addrs.ResourceMode, typeName string) (uint64, bool) {
			s, ok := e.ResourceTypeSchema(ctx, p, mode, typeName)
			return uint64(s.Version), ok
		}
}

// showStateJSON prints the JSON state document of s.
func showStateJSON(ctx context.Context, d *Deps, v *views.View, s *states.State) error {
	data, err := jsonplan.State(s, jsonSchemas(ctx, d), TerraformCompatVersion)
	if err != nil {
		v.Diagnostics(errorDiag("Failed to marshal state to json", err))
		return errReported
	}
	views.NewShow(v).Document(data)
	return nil
}

// runShowPlan renders a saved plan.
func runShowPlan(ctx context.Context, d *Deps, opts *showOptions, path string) error {
	v := d.newView(opts.view)
	if _, err := d.readFile(path); err != nil {
		// Neither a state nor a plan, in Terraform's words.
		v.Diagnostics(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read the given file as a state or plan file",
			Detail:   fmt.Sprintf("State read error: Error loading statefile: %s\n\nPlan read error: couldn't load the provided path as either a local plan file (%s) or a saved cloud plan (%s)", err, err, err),
		}})
		return errReported
	}
	if opts.view.json {
		return showPlanJSON(ctx, d, v, path)
	}
	if data, err := d.readFile(path); err == nil {
		if st, serr := statefile.Read(data); serr == nil {
			// A state file rather than a plan.
			if hasErrors(v, eachUninstalled(d)) {
				return errReported
			}
			views.NewShow(v).State(st, schemaLookup(ctx, &engine.Engine{Providers: d.Providers(".")}))
			return nil
		}
	}
	c, cfg, diags := readPlan(d, v, path)
	if hasErrors(v, diags) {
		return errReported
	}
	// As Terraform, a plan or state file given is shown only with the
	// provider packages in place, each missing or altered one an error.
	if hasErrors(v, eachUninstalled(d)) {
		return errReported
	}
	e := &engine.Engine{Providers: d.Providers(".")}
	views.NewShow(v).Plan(c.Plan, schemaLookup(ctx, e), relevantAttrs(ctx, e, cfg, c.Plan))
	return nil
}

// showPlanJSON prints the JSON plan document of a saved plan. As with
// Terraform, a state file may be given instead, and is shown as the JSON
// state document.
func showPlanJSON(ctx context.Context, d *Deps, v *views.View, path string) error {
	c, cfg, diags := readPlan(d, v, path)
	if diags.HasErrors() {
		if c == nil {
			if data, err := d.readFile(path); err == nil {
				if s, err := statefile.Read(data); err == nil {
					if hasErrors(v, eachUninstalled(d)) {
						return errReported
					}
					return showStateJSON(ctx, d, v, s)
				}
			}
		}
		v.Diagnostics(diags)
		return errReported
	}
	if hasErrors(v, eachUninstalled(d)) {
		return errReported
	}
	var stamp time.Time
	if st, err := d.stat(path); err == nil {
		// Plans do not record when they were made; the file was written
		// at the end of planning.
		stamp = st.ModTime()
	}
	schemas, versions := jsonSchemaLookups(ctx, d)
	data, err := jsonplan.Plan(c.Plan, cfg, schemas, jsonplan.PlanOptions{TerraformVersion: TerraformCompatVersion, Timestamp: planStamp(c.Plan, stamp), SchemaVersion: versions})
	if err != nil {
		v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to marshal plan to json", Detail: err.Error()}})
		return errReported
	}
	views.NewShow(v).Document(data)
	return nil
}

// planStamp is when the plan was made: recorded in the plan, or for plans
// that do not record it, when the file was written.
func planStamp(p *plans.Plan, written time.Time) time.Time {
	if !p.Timestamp.IsZero() {
		return p.Timestamp
	}
	return written
}
