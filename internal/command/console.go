package command

import (
	"bufio"
	"context"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/command/views/render"
	"github.com/strata-dev/strata/internal/engine"
	"github.com/strata-dev/strata/internal/plans"
)

type consoleOptions struct {
	vars  varFlags
	state stateFlags
	plan  bool
}

func newConsoleCommand(d *Deps) *cobra.Command {
	opts := &consoleOptions{}
	cmd := &cobra.Command{
		Use:   "console [options]",
		Short: "Try strata expressions at an interactive command prompt",
		Long: `Usage: strata [global options] console [options]

  Starts an interactive console for experimenting with strata
  interpolations.

  This will open an interactive console that you can use to type
  interpolations into and inspect their values. This command loads the
  current state. This lets you explore and test interpolations before
  using them in future configurations.

  This command will never modify your state. Type "exit" or press Ctrl-D
  to leave. Expressions can also be piped in, one per line.`,
		Args: noArgs(d),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runConsole(cmd.Context(), d, opts)
		},
	}
	fs := cmd.Flags()
	opts.vars.register(fs)
	fs.BoolVar(&opts.plan, "plan", false, "Create a new plan (as if running \"strata plan\") and then evaluate\nexpressions against its planned state, instead of evaluating against\nthe current state. You can use this to inspect the effects of\nconfiguration changes that haven't been applied yet.")
	fs.StringVar(&opts.state.statePath, "state", "", "Legacy option for the local backend only: the path to the\nstate file to read. Defaults to \"terraform.tfstate\".")
	return cmd
}

func runConsole(ctx context.Context, d *Deps, opts *consoleOptions) error {
	v := d.newView(viewFlags{})
	// As Terraform's older UI layer: a blank line after each diagnostic,
	// an expression's errors too.
	v.Legacy = true
	op, err := prepareOperation(ctx, d, views.NewOperation(v, nil), &opts.vars, &stateFlags{statePath: opts.state.statePath}, 1, "OperationTypeConsole", plans.NormalMode)
	if err != nil {
		return err
	}
	// The console only reads: release the lock at once.
	op.release()
	var console *engine.Console
	var diags hcl.Diagnostics
	if opts.plan {
		op.engine.Hooks = nil // as Terraform, no progress lines: stdout is for results
		console, diags = op.engine.NewPlanConsole(ctx, op.state, engine.PlanOpts{Mode: plans.NormalMode, Variables: op.vars})
	} else {
		console, diags = op.engine.NewConsole(ctx, op.state, op.vars)
	}
	if hasErrors(v, diags) {
		return errReported
	}
	defer console.Close(context.WithoutCancel(ctx))
	sc := bufio.NewScanner(d.Stdin)
	sc.Buffer(make([]byte, 1024*1024), 1024*1024)
	// As Terraform: at a terminal every result prints; with input piped
	// in, only the last line's result, and the first error ends the
	// console.
	piped := !d.StdinIsTerminal
	last := ""
	for {
		if !piped {
			v.Raw("> ")
		}
		if !sc.Scan() {
			break
		}
		line := strings.TrimSpace(sc.Text())
		if line == "exit" {
			if piped {
				return nil
			}
			break
		}
		out, ediags := consoleResult(console, line)
		if ediags.HasErrors() {
			v.Diagnostics(ediags)
			if piped {
				return errReported
			}
			continue
		}
		if piped {
			last = out
		} else if out != "" {
			v.Raw(out + "\n")
		}
	}
	if piped {
		v.Raw(last + "\n")
	}
	return nil
}

// consoleHelp is what the console's "help" prints.
const consoleHelp = `The strata console allows you to experiment with strata interpolations.
You may access resources in the state (if you have one) just as you would
from a configuration. For example: "aws_instance.foo.id" would evaluate
to the ID of "aws_instance.foo" if it exists in your state.

Type in the interpolation to test and hit <enter> to see the result.

To exit the console, type "exit" and hit <enter>, or use Control-C or
Control-D.`

// consoleResult evaluates one line of console input and returns what it
// prints: the value, a type(...) result, the help text, or nothing for an
// empty line.
func consoleResult(console *engine.Console, line string) (string, hcl.Diagnostics) {
	switch line {
	case "":
		return "", nil
	case "help":
		return consoleHelp, nil
	}
	val, diags := console.Eval(line)
	if diags.HasErrors() {
		return "", diags
	}
	if ty, ok := engine.ConsoleTypeString(val); ok {
		return ty, nil
	}
	// render.Value prints each sensitive part of the value as
	// (sensitive value), as terraform console does: a sensitive
	// attribute hides only itself, not the whole object.
	return render.Value(val, 0), nil
}
