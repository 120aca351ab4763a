package command

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/strata-dev/strata/internal/command/statecmd"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/logging"
	"github.com/strata-dev/strata/internal/providers/plugin"
	"github.com/strata-dev/strata/internal/runrecord"
)

// Run runs strata with the given arguments (without the program name) and
// returns the process exit code.
func Run(args []string, d *Deps) int {
	// No plugin process outlives the run, whatever path the command
	// takes; the processes of other runs (tests run commands in parallel)
	// go on.
	d.plugins = plugin.NewTracker()
	defer d.plugins.Close()
	defer d.closeBackends()
	log, logFile := logging.New(d.Getenv, "", d.logOutput(), "TF_LOG_CORE", "TF_LOG")
	if logFile != nil {
		defer logFile.Close()
	}
	d.log = log
	log.Info(fmt.Sprintf("strata version: %s (implements Terraform %s)", d.Version, TerraformCompatVersion))
	log.Info("Go runtime version: " + runtime.Version())
	// The values of -var and -backend-config are secrets as often as
	// not: they stay out of the log (Terraform logs them).
	log.Info(fmt.Sprintf("CLI args: %#v", append([]string{"strata"}, runrecord.RedactArgs(args)...)))
	if _, err := plugin.ParseReattach(d.Getenv(plugin.ReattachEnv)); err != nil {
		// As Terraform: every command refuses a value it cannot read.
		fmt.Fprintln(d.Stderr, sentence(err))
		return 1
	}
	args, chdir, err := globalOptions(args)
	if err != nil {
		return reportGlobalOptionsError(d, err)
	}
	if args, err = withEnvArgs(d.Getenv, args); err != nil {
		fmt.Fprintln(d.Stderr, sentence(err))
		return 1
	}
	log.Info(fmt.Sprintf("CLI command args: %#v", runrecord.RedactArgs(args)))
	d.args = args
	// As Terraform: -no-color is taken out of the arguments wherever it
	// is, before the command parses its flags (so "-out -no-color" lacks
	// the plan path rather than saving the plan as "-no-color").
	args, noColor := withoutNoColor(args)
	d.originalDir = d.Dir
	if chdir != "" {
		dir := d.abs(chdir)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			if err == nil {
				err = &os.PathError{Op: "chdir", Path: chdir, Err: syscall.ENOTDIR}
			} else {
				err = &os.PathError{Op: "chdir", Path: chdir, Err: errors.Unwrap(err)}
			}
			fmt.Fprintf(d.Stderr, "Error handling -chdir option: %s\n", err)
			return 1
		}
		d.Dir = dir
	}
	root := NewRootCommand(d)
	d.noColor = d.noColor || noColor // after NewRootCommand, which registers the flag's default
	if len(args) == 0 {
		// As Terraform: usage, and the "command not found" exit code.
		fmt.Fprintln(d.Stdout, rootUsage)
		return 127
	}
	root.SetArgs(normalizeArgs(args))
	err = root.Execute()
	if err != nil {
		var ee *ExitError
		if !asExit(err, &ee) && !reportCLIError(d, root, normalizeArgs(args), err) {
			help := "strata -help"
			if c, _, ferr := root.Find(normalizeArgs(args)); ferr == nil && c != root {
				help = c.CommandPath() + " -help"
			}
			fmt.Fprintf(d.Stderr, "Error: %s\n\nFor more help, run: %s\n", flagErrorText(err), help)
		}
	}
	return ExitCode(err)
}

// sentence is an error's message with a capital first letter, for the
// errors Terraform prints as a line of their own.
func sentence(err error) string {
	msg := err.Error()
	if msg == "" {
		return msg
	}
	return strings.ToUpper(msg[:1]) + msg[1:]
}

func asExit(err error, target **ExitError) bool {
	ee, ok := err.(*ExitError)
	if ok {
		*target = ee
	}
	return ok
}

// globalOptions takes the options that come before the subcommand:
// -chdir=DIR, -version and -help. Its errors are Terraform's, printed by
// reportGlobalOptionsError.
func globalOptions(args []string) (rest []string, chdir string, err error) {
	chdirSeen := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		a := strings.TrimLeft(args[0], "-")
		switch {
		case (a == "chdir" || strings.HasPrefix(a, "chdir=")) && !chdirSeen:
			// As Terraform, once only; -chdir DIR (a strata extension)
			// too.
			chdir = strings.TrimPrefix(a, "chdir=")
			if a == "chdir" {
				if len(args) < 2 || strings.HasPrefix(args[1], "-") {
					return nil, "", errChdirForm
				}
				chdir, args = args[1], args[1:]
			}
			if chdir == "" {
				return nil, "", errChdirForm
			}
			chdirSeen = true
		case a == "version" || a == "v":
			return append([]string{"version"}, args[1:]...), chdir, nil
		case a == "help" || a == "h":
			// -help COMMAND is COMMAND -help; -help alone (or before
			// another option) is the list of commands.
			if len(args) > 1 && !strings.HasPrefix(args[1], "-") {
				return append(append([]string{}, args[1:]...), "-help"), chdir, nil
			}
			return []string{"help"}, chdir, nil
		default:
			for _, later := range args[1:] {
				if !strings.HasPrefix(later, "-") {
					return nil, "", errFlagsBeforeCommand
				}
			}
			return nil, "", errNoCommand
		}
		args = args[1:]
	}
	if len(args) > 0 && args[0] == "help" {
		return nil, "", errHelpCommand
	}
	return args, chdir, nil
}

// The errors of globalOptions.
var (
	// errHelpCommand is "help" given as a command: as in Terraform, help
	// is the -help option, not a command.
	errHelpCommand = errors.New("help is not a command")
	// errChdirForm is -chdir without "=DIR".
	errChdirForm = errors.New("-chdir without =DIR")
	// errFlagsBeforeCommand is an option globalOptions does not know
	// before the subcommand.
	errFlagsBeforeCommand = errors.New("unknown options before the subcommand")
	// errNoCommand is options and no subcommand.
	errNoCommand = errors.New("no subcommand")
)

// reportGlobalOptionsError prints an error of globalOptions as Terraform
// does, and returns the exit status.
func reportGlobalOptionsError(d *Deps, err error) int {
	switch err {
	case errHelpCommand:
		unknownCommand(d.Stderr, nil, "help")
	case errChdirForm:
		fmt.Fprintln(d.Stderr, "Invalid -chdir option: must include an equals sign followed by a directory path, like -chdir=example")
	case errFlagsBeforeCommand:
		fmt.Fprintf(d.Stdout, "Invalid flags before the subcommand. If these flags are for\nthe subcommand, please put them after the subcommand.\n\n%s\n", rootUsage)
	case errNoCommand:
		// As with no arguments at all: the usage, and the "command not
		// found" exit code.
		fmt.Fprintln(d.Stdout, rootUsage)
		return 127
	}
	return 1
}

// normalizeArgs turns Terraform-style single-dash long flags (-var=x,
// -auto-approve) into the double-dash form cobra parses. Arguments after
// "--" are left alone.
func normalizeArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && isLetter(a[1]) {
			a = "-" + a
		}
		out = append(out, a)
	}
	return out
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// flagErrorText rewrites cobra's messages to name flags with one dash.
func flagErrorText(err error) string {
	return strings.ReplaceAll(err.Error(), "--", "-")
}

// NewRootCommand builds the command tree.
func NewRootCommand(d *Deps) *cobra.Command {
	root := &cobra.Command{
		Use:           "strata",
		Short:         "A plan/apply infrastructure tool compatible with Terraform",
		Long:          rootUsage,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(d.Stdout)
	root.SetErr(d.Stderr)
	root.SetIn(d.Stdin)
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetHelpFunc(func(c *cobra.Command, _ []string) {
		fmt.Fprintln(c.OutOrStdout(), helpText(c))
	})
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &flagParseError{cmd: c, err: err} })
	// Every command takes -no-color, as in Terraform, also those whose
	// help does not list it (version, workspace list, console...).
	views.RegisterNoColor(root.PersistentFlags(), &d.noColor)
	_ = root.PersistentFlags().MarkHidden("no-color")
	root.AddCommand(
		newInitCommand(d, nil),
		newGetCommand(d, nil),
		newValidateCommand(d, nil),
		newPlanCommand(d, nil),
		newApplyCommand(d, nil, false),
		newApplyCommand(d, nil, true),
		newProvidersCommand(d),
		newMetadataCommand(d),
		newModulesCommand(d, nil),
		newRefreshCommand(d, nil),
		newShowCommand(d, nil),
		newOutputCommand(d, nil),
		newConsoleCommand(d),
		newFmtCommand(d, nil),
		newGraphCommand(d, nil),
		newImportCommand(d, nil),
		newVersionCommand(d, nil),
		newWorkspaceCommand(d),
		statecmd.New(d.stateEnv()),
		statecmd.NewTaint(d.stateEnv(), false),
		statecmd.NewTaint(d.stateEnv(), true),
		newForceUnlockCommand(d, nil),
		newTestCommand(d, nil),
		newRunsCommand(d),
		newHistoryCommand(d),
		newWatchCommand(d, nil),
	)
	return root
}

// helpText renders a command's help: its Long text followed by its flags
// in Terraform's single-dash spelling.
func helpText(c *cobra.Command) string {
	var b strings.Builder
	b.WriteString(c.Long)
	if c.HasAvailableLocalFlags() && c.Parent() != nil {
		header := "\n\nOptions:\n" // once there is a flag to list
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Name == "help" {
				return
			}
			b.WriteString(header)
			header = ""
			name := "-" + f.Name
			switch {
			case f.Value.Type() == "bool" && f.DefValue == "true":
				// Flags that are on by default are written to turn them off.
				name += "=false"
			case f.Value.Type() != "bool":
				name += "=" + placeholder(f.Name)
			}
			fmt.Fprintf(&b, "\n  %s\n      %s\n", name, strings.ReplaceAll(f.Usage, "\n", "\n      "))
		})
	}
	return strings.TrimRight(b.String(), "\n")
}

// placeholder is what a flag's value looks like in help text.
func placeholder(flag string) string {
	switch flag {
	case "var":
		return "'NAME=VALUE'"
	case "var-file":
		return "FILENAME"
	case "state", "state-out", "backup":
		return "PATH"
	case "lock-timeout", "interval", "converged-timeout", "debounce":
		return "DURATION"
	case "parallelism", "max-changes":
		return "N"
	case "listen":
		return "ADDRESS"
	case "jitter":
		return "FRACTION"
	case "watch-config":
		return "PATH"
	case "id", "lock-id":
		return "ID"
	case "out", "plugin-dir", "config":
		return "PATH"
	case "target", "replace":
		return "ADDRESS"
	case "type":
		return "TYPE"
	case "backup-out":
		return "PATH"
	}
	return "VALUE"
}

// rootUsage is the usage strata prints without a command, and for
// -help.
const rootUsage = `Usage: strata [global options] <subcommand> [args]

strata describes infrastructure in configuration files, compares it with
what exists, shows a plan of the changes and applies them. It reads and
writes Terraform's configuration language, state files and plans.

Main commands:
  init          Prepare your working directory for other commands
  validate      Check whether the configuration is valid
  plan          Show changes required by the current configuration
  apply         Create or update infrastructure
  destroy       Destroy previously-created infrastructure

All other commands:
  console       Try strata expressions at an interactive command prompt
  fmt           Reformat your configuration in the standard style
  force-unlock  Release a stuck lock on the current workspace
  graph         Generate a Graphviz graph of the steps in an operation
  history       Show every recorded change to one resource instance
  import        Associate existing infrastructure with a strata resource
  output        Show output values from your root module
  providers     Show the providers required for this configuration
  refresh       Update the state to match remote systems
  runs          Show the records of past runs (list, show)
  show          Show the current state or a saved plan
  state         Advanced state management
  taint         Mark a resource instance as not fully functional
  untaint       Remove the 'tainted' state from a resource instance
  version       Show the current strata version
  workspace     Workspace management

Global options (use these before the subcommand, if any):
  -chdir=DIR    Switch to a different working directory before executing the
                given subcommand.
  -help         Show this help output, or the help for a specified subcommand.
  -version      An alias for the "version" subcommand.`
