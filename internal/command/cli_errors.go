package command

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
)

// flagParseError is a command-line flag the command could not parse,
// reported in Terraform's words by reportCLIError.
type flagParseError struct {
	cmd *cobra.Command
	err error
}

func (e *flagParseError) Error() string { return goFlagMessage(e.err) }

// diagnosticFlagErrors are the commands whose flag errors Terraform
// reports as a diagnostic, `Error: Failed to parse command-line flags`;
// the others print `Error parsing command-line flags: ...` after their
// usage.
var diagnosticFlagErrors = map[string]bool{
	"plan": true, "apply": true, "destroy": true, "refresh": true, "validate": true,
	"output": true, "show": true, "init": true, "test": true, "modules": true,
}

// goFlagMessage is a flag error of cobra's (pflag) in the words of Go's
// flag package, which Terraform parses its flags with: "flag provided but
// not defined: -bogus", `invalid value "x" for flag -parallelism: parse
// error`.
func goFlagMessage(err error) string {
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "unknown flag: "):
		return "flag provided but not defined: -" + strings.TrimLeft(strings.TrimPrefix(msg, "unknown flag: "), "-")
	case strings.HasPrefix(msg, "unknown shorthand flag: "):
		// "unknown shorthand flag: 'x' in -xyz"
		if i := strings.LastIndex(msg, " in "); i >= 0 {
			return "flag provided but not defined: -" + strings.TrimLeft(msg[i+len(" in "):], "-")
		}
	case strings.HasPrefix(msg, "flag needs an argument: "):
		rest := strings.TrimPrefix(msg, "flag needs an argument: ")
		if i := strings.LastIndex(rest, " in "); i >= 0 { // shorthand form
			rest = rest[i+len(" in "):]
		}
		return "flag needs an argument: -" + strings.TrimLeft(rest, "-")
	case strings.HasPrefix(msg, "invalid argument "):
		// invalid argument "abc" for "--parallelism" flag: strconv.ParseInt: parsing "abc": invalid syntax
		var value, name string
		rest := strings.TrimPrefix(msg, "invalid argument ")
		if n, _ := fmt.Sscanf(rest, "%q for %q flag:", &value, &name); n == 2 {
			reason := rest[strings.Index(rest, " flag: ")+len(" flag: "):]
			name = "-" + strings.TrimLeft(name, "-")
			if i := strings.Index(name, ", -"); i >= 0 { // "-p, --parallelism"
				name = "-" + strings.TrimLeft(name[i+len(", -"):], "-")
			}
			isBool := strings.Contains(reason, "ParseBool")
			switch {
			case strings.HasSuffix(reason, "invalid syntax"):
				reason = "parse error"
			case strings.HasSuffix(reason, "value out of range"):
				reason = "value out of range"
			case strings.HasPrefix(reason, "time: "):
				// A duration (-lock-timeout): Go's flag package says
				// only this.
				reason = "parse error"
			}
			if isBool {
				return fmt.Sprintf("invalid boolean value %q for %s: %s", value, name, reason)
			}
			return fmt.Sprintf("invalid value %q for flag %s: %s", value, name, reason)
		}
	}
	return strings.ReplaceAll(msg, "--", "-")
}

// argsError is a command given more positional arguments than it takes,
// reported by reportCLIError as Terraform reports it.
type argsError struct {
	cmd             *cobra.Command
	summary, detail string
	// help adds the pointer to the command's help.
	help bool
}

func (e *argsError) Error() string { return e.summary }

// maxArgs accepts at most n positional arguments; more is the error
// Terraform gives for the command (summary, detail), followed by the
// pointer to its help.
func maxArgs(n int, summary, detail string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) <= n {
			return nil
		}
		return &argsError{cmd: cmd, summary: summary, detail: detail, help: true}
	}
}

// argsLayout is how Terraform reports wrong positional arguments to one
// of its commands that predate diagnostics: a message in red (the older
// UI layer's errors), and the command's usage or not.
type argsLayout int

const (
	// argsMessage is the message alone.
	argsMessage argsLayout = iota + 1
	// argsUsageStderr is the message, then the usage, on stderr.
	argsUsageStderr
	// argsUsageStdout is the message on stderr, the usage on stdout.
	argsUsageStdout
)

// legacyArgs are the commands whose wrong positional arguments Terraform
// reports outside diagnostics, and how. The others (strata's own
// commands) say "Error: MESSAGE" and point at the command's help.
var legacyArgs = map[string]argsLayout{
	"import": argsUsageStderr, "taint": argsUsageStderr, "untaint": argsUsageStderr,
	"state mv": argsUsageStdout, "state rm": argsUsageStdout, "state push": argsUsageStdout,
	"state replace-provider": argsUsageStdout, "state show": argsUsageStdout, "force-unlock": argsUsageStdout,
	"workspace new": argsUsageStdout, "workspace select": argsUsageStdout, "workspace delete": argsUsageStdout,
	"console": argsMessage, "get": argsMessage, "graph": argsMessage, "providers": argsMessage, "workspace list": argsMessage,
}

// plainErrors are the commands whose command-line errors Terraform
// prints without colour.
var plainErrors = map[string]bool{"state show": true}

// commandName is a command's name below the root: "state mv".
func commandName(cmd *cobra.Command) string {
	if cmd.HasParent() {
		return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	}
	return ""
}

// usageError reports wrong positional arguments as Terraform does for
// the command (legacyArgs), and returns errReported. A message that ends
// with a newline is followed by a blank line, as Terraform's are.
func usageError(d *Deps, cmd *cobra.Command, msg string) error {
	name := commandName(cmd)
	layout, ok := legacyArgs[name]
	if !ok {
		fmt.Fprintf(d.Stderr, "Error: %s\n\nFor more help, run: %s -help\n", strings.TrimSuffix(msg, "\n"), cmd.CommandPath())
		return errReported
	}
	write := d.legacyErrorWriter(name)
	write(msg)
	switch layout {
	case argsUsageStderr:
		write(helpText(cmd))
	case argsUsageStdout:
		fmt.Fprintln(d.Stdout, helpText(cmd))
	}
	return errReported
}

// legacyErrorWriter writes a line of error text as Terraform's older UI
// layer does for the command: red, unless -no-color or the command is
// one of plainErrors.
func (d *Deps) legacyErrorWriter(name string) func(string) {
	if plainErrors[name] {
		return func(text string) { fmt.Fprintln(d.Stderr, text) }
	}
	return d.newView(viewFlags{noColor: d.noColor || hasNoColor(d.args)}).LegacyErrorText
}

// noArgs refuses positional arguments as Terraform's commands without
// any do: they suspect a directory meant for -chdir.
func noArgs(d *Deps) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		return usageError(d, cmd, "Too many command line arguments. Did you mean to use -chdir?")
	}
}

// reportCLIError prints an error cobra returned before the command ran
// (an unknown command, a flag it could not parse) as Terraform does.
// It reports whether err was one of those.
func reportCLIError(d *Deps, root *cobra.Command, args []string, err error) bool {
	var ae *argsError
	if errors.As(err, &ae) {
		d.newView(viewFlags{noColor: hasNoColor(args)}).Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: ae.summary, Detail: ae.detail}})
		if ae.help {
			helpPrompt(d, strings.TrimPrefix(ae.cmd.CommandPath(), root.Name()+" "))
		}
		return true
	}
	var fe *flagParseError
	if errors.As(err, &fe) {
		name := strings.TrimPrefix(fe.cmd.CommandPath(), root.Name()+" ")
		if diagnosticFlagErrors[name] {
			v := d.newView(viewFlags{noColor: hasNoColor(args)})
			v.Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to parse command-line flags", Detail: fe.Error()}})
			helpPrompt(d, name)
			return true
		}
		write := d.legacyErrorWriter(name)
		// As Terraform: the usage, then the error, each as its older UI
		// layer prints errors, with the quirks of some commands.
		switch name {
		case "import":
			write(helpText(fe.cmd)) // the usage alone
		case "console":
			write(helpText(fe.cmd))
			write("Error parsing command line flags: " + fe.Error() + "\n")
		default:
			write(helpText(fe.cmd))
			write("Error parsing command-line flags: " + fe.Error() + "\n")
		}
		return true
	}
	if c, _, _ := root.Find(args); c == root && len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		unknownCommand(d.Stderr, root, args[0])
		return true
	}
	return false
}

// unknownCommand is Terraform's message for a command it does not have,
// with the closest one of root's as a suggestion (none when root is nil).
func unknownCommand(w io.Writer, root *cobra.Command, name string) {
	suggestion := ""
	if root != nil {
		if s := root.SuggestionsFor(name); len(s) > 0 {
			suggestion = fmt.Sprintf(" Did you mean %q?", s[0])
		}
	}
	fmt.Fprintf(w, "strata has no command named %q.%s\n\nTo see all of strata's top-level commands, run:\n  strata -help\n\n", name, suggestion)
}

// withoutNoColor returns args without -no-color (up to a "--"), and
// whether there was one.
func withoutNoColor(args []string) ([]string, bool) {
	out := make([]string, 0, len(args))
	found := false
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...), found
		}
		if a == "-no-color" || a == "--no-color" {
			found = true
			continue
		}
		out = append(out, a)
	}
	return out, found
}

// hasNoColor reports whether the command line asks for -no-color, for
// errors found before its flags are parsed.
func hasNoColor(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-no-color" || a == "--no-color" {
			return true
		}
	}
	return false
}

// parallelismDiags refuses a negative -parallelism, as Terraform's plan,
// apply, destroy and refresh do (0 means the default).
func parallelismDiags(n int) hcl.Diagnostics {
	if n >= 0 {
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid parallelism value", Detail: fmt.Sprintf("The parallelism must be a positive value. Not %d.", n)}}
}

// deprecatedStateFlag warns about -state on plan, apply, destroy and
// refresh, as Terraform does (it still works).
func deprecatedStateFlag(path string) hcl.Diagnostics {
	if path == "" {
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "Deprecated flag: -state",
		Detail: "Use `path` attribute within the `local` backend instead: https://developer.hashicorp.com/terraform/language/v1.10.x/settings/backends/local#path"}}
}

// argumentErrors prints the errors found in a command's arguments (flag
// values that parse but make no sense, such as an invalid -target) and,
// in human output, Terraform's pointer to the command's help. It reports
// whether there were errors.
func argumentErrors(d *Deps, v diagView, json bool, command string, diags hcl.Diagnostics) bool {
	v.Diagnostics(diags)
	if !diags.HasErrors() {
		return false
	}
	if !json {
		helpPrompt(d, command)
	}
	return true
}

// helpPrompt is Terraform's pointer to a command's help after an error in
// its arguments.
func helpPrompt(d *Deps, command string) {
	fmt.Fprintf(d.Stderr, "\nFor more help on using this command, run:\n  strata %s -help\n", command)
}
