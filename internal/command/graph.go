package command

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/engine/hooks"
)

type graphOptions struct {
	view viewFlags
	typ  string
	plan string
	// drawCycles draws a graph with a cycle instead of failing;
	// moduleDepth is accepted as Terraform accepts it: modules are
	// always shown whole.
	drawCycles  bool
	moduleDepth int
}

func newGraphCommand(d *Deps, runF func(*graphOptions) error) *cobra.Command {
	opts := &graphOptions{}
	cmd := &cobra.Command{
		Use:   "graph [options]",
		Short: "Generate a Graphviz graph of the steps in an operation",
		Long: `Usage: strata [global options] graph [options]

  Produces a representation of the dependency graph between different
  objects in the current configuration, in the DOT language, which
  GraphViz can render:

      strata graph | dot -Tsvg > graph.svg

  By default it shows resources and the resources they depend on. With
  -type, it shows every step strata walks for that operation: variables,
  locals, outputs, module calls, provider configurations and resources,
  plus the resources only in the state; -type=apply plans first and adds
  a step for each deletion of that plan.`,
		Args: noArgs(d),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runGraph(cmd.Context(), d, opts)
		},
	}
	cmd.Flags().StringVar(&opts.typ, "type", "", "Type of operation graph to output: plan, plan-refresh-only,\nplan-destroy or apply. By default, a simplified graph of\nresources only.")
	cmd.Flags().StringVar(&opts.plan, "plan", "", "Render the graph for applying a saved plan, instead of the\ngraph for the current configuration.")
	cmd.Flags().BoolVar(&opts.drawCycles, "draw-cycles", false, "Draw the graph even when it has a cycle, so that the cycle\ncan be seen; strata draws its edges like any others, without\nhighlighting them.")
	cmd.Flags().IntVar(&opts.moduleDepth, "module-depth", -1, "(deprecated) In prior versions of Terraform, specified the\ndepth of modules to show in the output.")
	_ = cmd.Flags().MarkHidden("module-depth")
	opts.view.register(cmd.Flags())
	return cmd
}

func runGraph(ctx context.Context, d *Deps, opts *graphOptions) error {
	v := d.newView(opts.view)
	v.Legacy = true // as Terraform's older UI layer: a blank line after each diagnostic
	switch opts.typ {
	case "", "plan", "plan-refresh-only", "plan-destroy", "apply":
	case "validate", "eval": // graph types of earlier Terraform versions
		v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Graph type no longer available",
			Detail: fmt.Sprintf("The graph type %q is no longer available. Use -type=plan instead to get a similar result.", opts.typ)}})
		return errReported
	default:
		v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unsupported graph type",
			Detail: `The -type=... argument must be either "plan", "plan-refresh-only", "plan-destroy", or "apply".`}})
		return errReported
	}
	if opts.plan != "" {
		return graphPlan(ctx, d, v, opts)
	}
	cfg, parser, diags := loadConfig(d, v)
	// As Terraform's, the graph of a directory without configuration
	// files is that of an empty configuration.
	diags = dropNoConfigFiles(diags)
	if hasErrors(v, diags) || hasErrors(v, backendPlugins(d, rootOf(cfg))) {
		return errReported
	}
	// Every graph shows the resources of the state (those the
	// configuration no longer has too); "apply" plans, so it depends on
	// the variables too.
	var vars map[string]engine.InputValue
	mgr, mdiags := backendState(d, cfg.Module, nil, false) // packages checked above
	if hasErrors(v, mdiags) {
		return errReported
	}
	state, release, sdiags := openState(ctx, d, mgr, &stateFlags{lock: false}, "graph")
	release()
	if hasErrors(v, sdiags) {
		return errReported
	}
	if opts.typ != "" {
		vals, vdiags := collectVariables(d, cfg.Module, parser, &varFlags{items: &[]varItem{}}, false)
		if hasErrors(v, vdiags) {
			return errReported
		}
		vars = vals
	}
	dot, gdiags := newEngine(d, cfg, hooks.Nil{}, 0).GraphDOT(ctx, state, opts.typ, vars, opts.drawCycles)
	if hasErrors(v, gdiags) {
		return errReported
	}
	v.Raw(dot)
	return nil
}

// graphPlan renders the apply graph of a saved plan (graph -plan=FILE),
// with the configuration the plan was made from.
func graphPlan(ctx context.Context, d *Deps, v *views.View, opts *graphOptions) error {
	if opts.typ != "" && opts.typ != "apply" {
		v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Incompatible graph options",
			Detail: fmt.Sprintf("The -type=%s option is not compatible with -plan: a saved plan has only an apply graph.", opts.typ)}})
		return errReported
	}
	c, cfg, diags := readPlan(d, v, opts.plan)
	if hasErrors(v, diags) || hasErrors(v, requiredPlugins(d)) {
		return errReported
	}
	dot, gdiags := newEngine(d, cfg, hooks.Nil{}, 0).PlanGraphDOT(ctx, c.Plan)
	if hasErrors(v, gdiags) {
		return errReported
	}
	v.Raw(dot)
	return nil
}
