package command

import (
	"context"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/command/views/render"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

type showOptions struct {
	view  viewFlags
	state stateFlags
}

func newShowCommand(d *Deps, runF func(*showOptions) error) *cobra.Command {
	opts := &showOptions{}
	cmd := &cobra.Command{
		Use:   "show [options] [PLAN]",
		Short: "Show the current state or a saved plan",
		Long: `Usage: strata [global options] show [options]

  Reads and outputs the latest state snapshot in a human-readable form:
  every resource instance with its attributes, then the root module's
  output values. Given a plan file saved by "strata plan -out", shows the
  plan as "strata plan" did.`,
		Args: cobra.MaximumNArgs(1),
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
	cmd.Flags().BoolVar(&opts.view.noColor, "no-color", false, "If specified, output won't contain any color.")
	return cmd
}

func runShow(ctx context.Context, d *Deps, opts *showOptions) error {
	v := d.newView(opts.view)
	mod, _, _ := loadConfig(v)
	mgr, diags := stateManager(d, mod, &opts.state)
	if hasErrors(v, diags) {
		return errReported
	}
	s, release, sdiags := openState(ctx, d, mgr, &stateFlags{lock: false}, "show")
	release()
	if hasErrors(v, sdiags) {
		return errReported
	}
	if s.Empty() {
		v.Output("No state.\n")
		return nil
	}
	v.Raw(formatState(ctx, d, s))
	return nil
}

// formatState renders every resource instance and the outputs of a state
// as `strata show` prints them.
func formatState(ctx context.Context, d *Deps, s *states.State) string {
	var b strings.Builder
	lookup := schemaLookup(ctx, &engine.Engine{Providers: d.Providers(".")})
	for _, r := range s.SortedResources() {
		for _, k := range r.SortedKeys() {
			inst := r.Instances[k]
			addr := r.Addr.Instance(k)
			objs := []struct {
				deposed string
				obj     *states.ObjectSrc
			}{{"", inst.Current}}
			dks := make([]string, 0, len(inst.Deposed))
			for dk := range inst.Deposed {
				dks = append(dks, dk)
			}
			sort.Strings(dks)
			for _, dk := range dks {
				objs = append(objs, struct {
					deposed string
					obj     *states.ObjectSrc
				}{dk, inst.Deposed[dk]})
			}
			for _, o := range objs {
				if o.obj == nil {
					continue
				}
				schema := lookup(&plans.ResourceInstanceChange{Addr: addr, ProviderAddr: r.ProviderConfig})
				label := addr.String()
				if o.deposed != "" {
					label += ": (deposed object " + o.deposed + ")"
				}
				if schema == nil {
					b.WriteString("# " + label + ": (no schema available)\n\n")
					continue
				}
				val, err := ctyjson.Unmarshal(o.obj.AttrsJSON, schema.ImpliedType())
				if err != nil {
					b.WriteString("# " + label + ": (stored object does not match the schema)\n\n")
					continue
				}
				val = marks.Apply(val, o.obj.SensitivePaths)
				text := render.StateResource(label, val, schema)
				if o.obj.Status == states.ObjectTainted {
					text = strings.Replace(text, ":\n", ": (tainted)\n", 1)
				}
				b.WriteString(text)
				b.WriteString("\n")
			}
		}
	}
	if len(s.Outputs) > 0 {
		b.WriteString("\nOutputs:\n\n")
		names := make([]string, 0, len(s.Outputs))
		for n := range s.Outputs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			o := s.Outputs[n]
			b.WriteString(render.StateOutput(n, o.Value, o.Sensitive) + "\n")
		}
	}
	return b.String()
}

// runShowPlan renders a saved plan.
func runShowPlan(ctx context.Context, d *Deps, opts *showOptions, path string) error {
	v := d.newView(opts.view)
	c, _, diags := readPlan(d, v, path)
	if hasErrors(v, diags) {
		return errReported
	}
	v.Plan(c.Plan, schemaLookup(ctx, &engine.Engine{Providers: d.Providers(".")}))
	return nil
}
