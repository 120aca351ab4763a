package views

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/strata-dev/strata/internal/command/views/render"
)

// Diagnosticser is part of every command's view: it reports
// diagnostics.
type Diagnosticser interface {
	Diagnostics(diags hcl.Diagnostics)
}

// View is where a command's output goes.
type View struct {
	Stdout, Stderr io.Writer
	// NoColor disables colors (-no-color).
	NoColor bool
	// Files holds configuration sources for diagnostic snippets.
	Files map[string]*hcl.File
	// CompactWarnings lists warnings by summary only (-compact-warnings).
	CompactWarnings bool
	// Stream, when set, receives diagnostics and init's messages as
	// Terraform's -json UI stream instead of text (init -json).
	Stream *JSON
	// Legacy prints a blank line after each diagnostic, as the Terraform
	// commands that report through its older UI layer do (fmt, console,
	// graph, import, taint, force-unlock, the state and providers
	// subcommands).
	Legacy bool

	mu sync.Mutex
	// ruleShown is set once the rule that closes a plan is written.
	ruleShown bool
}

// Colorize resolves colorstring markup according to NoColor. Text from
// package render protects user data that looks like markup; render's
// Colorize removes that protection.
func (v *View) Colorize(s string) string {
	return render.Colorize(s, v.NoColor)
}

// Output writes colorstring-marked text to stdout.
func (v *View) Output(s string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	fmt.Fprint(v.Stdout, v.Colorize(s))
}

// OutputNoReset writes colorstring-marked text to stdout with no reset
// added after it: the first part of a text whose last part Output
// writes, as if the whole was given to Output. The parts must split the
// text between two markups.
func (v *View) OutputNoReset(s string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	fmt.Fprint(v.Stdout, render.ColorizeNoReset(s, v.NoColor))
}

// OutputLine writes colorstring-marked text and a newline to stdout,
// with no reset added after the text: the text places its own, as the
// messages Terraform's commands colour themselves do.
func (v *View) OutputLine(s string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	fmt.Fprint(v.Stdout, render.ColorizeNoReset(s, v.NoColor)+"\n")
}

// Outputf formats and writes colorstring-marked text to stdout.
func (v *View) Outputf(format string, args ...any) {
	v.Output(fmt.Sprintf(format, args...))
}

// Raw writes text to stdout without interpreting markup.
func (v *View) Raw(s string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	fmt.Fprint(v.Stdout, s)
}

// LegacyError writes a message to stderr as the Terraform commands that
// report through its older UI layer print errors that are not
// diagnostics: in red (unless NoColor), with the message's own markup.
func (v *View) LegacyError(msg string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.NoColor {
		fmt.Fprintln(v.Stderr, render.Colorize(msg, true))
		return
	}
	fmt.Fprint(v.Stderr, red+render.ColorizeNoReset(msg, false)+reset+reset+"\n")
}

// LegacyErrorText is LegacyError for text that holds no markup (a
// command's usage, whose brackets are not colours).
func (v *View) LegacyErrorText(text string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.NoColor {
		fmt.Fprintln(v.Stderr, text)
		return
	}
	fmt.Fprint(v.Stderr, red+text+reset+reset+"\n")
}

// Diagnostics writes diagnostics: errors to stderr, warnings to stdout,
// each with its source location and snippet.
func (v *View) Diagnostics(diags hcl.Diagnostics) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.Stream != nil {
		v.Stream.SetFiles(v.Files)
		v.Stream.Diagnostics(diags)
		return
	}
	diags = consolidateWarnings(sortDiagnostics(diags))
	if v.CompactWarnings && !diags.HasErrors() && len(diags) > 0 {
		// As Terraform: the heading in bold yellow, the list and the
		// closing note plain.
		var b strings.Builder
		for _, d := range diags {
			fmt.Fprintf(&b, "- %s\n", d.Summary)
			if d.Subject != nil {
				// As Terraform: where it is, without a snippet.
				fmt.Fprintf(&b, "  on %s line %d\n", d.Subject.Filename, d.Subject.Start.Line)
			}
		}
		b.WriteString("\nTo see the full warning notes, run strata without -compact-warnings.\n")
		fmt.Fprint(v.Stdout, v.Colorize("\n[bold][yellow]Warnings:[reset]\n\n")+b.String())
		return
	}
	for _, d := range diags {
		text := FormatDiagnostic(d, v.Files, v.NoColor)
		switch {
		case v.Legacy && v.NoColor:
			text += "\n"
		case v.Legacy:
			// Terraform's older UI layer colours the whole message
			// again, and resets twice after it.
			text = severityColor(d) + text + reset + reset + "\n"
		}
		if d.Severity == hcl.DiagError {
			fmt.Fprint(v.Stderr, text)
		} else {
			fmt.Fprint(v.Stdout, text)
		}
	}
}

// AddSource records a file's source so that diagnostics about it show
// snippets.
func (v *View) AddSource(filename string, src []byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.Files == nil {
		v.Files = map[string]*hcl.File{}
	}
	f, _ := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if f == nil {
		f = &hcl.File{}
	}
	f.Bytes = src
	v.Files[filename] = f
}

// SetFiles replaces the sources used for diagnostic snippets.
func (v *View) SetFiles(files map[string]*hcl.File) {
	v.mu.Lock()
	v.Files = files
	v.mu.Unlock()
}
