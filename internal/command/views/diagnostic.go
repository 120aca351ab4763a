package views

import (
	"bufio"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/mitchellh/go-wordwrap"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
)

// FormatDiagnostic renders one diagnostic the way Terraform does: the
// severity and summary, the file and line with the enclosing block, the
// source lines with the subject underlined (in color mode), and the
// detail. In color mode the message sits in a box drawn at the left.
func FormatDiagnostic(d *hcl.Diagnostic, files map[string]*hcl.File, noColor bool) string {
	// Paragraphs wrap at 77 columns (75 inside the box), as Terraform's
	// do.
	width := 77
	if !noColor {
		width = 75
	}
	return formatDiagnostic(d, files, noColor, width)
}

// formatDiagnostic is FormatDiagnostic with paragraphs wrapped at width.
func formatDiagnostic(d *hcl.Diagnostic, files map[string]*hcl.File, noColor bool, width int) string {
	sev, color := "Error", severityColor(d)
	if d.Severity == hcl.DiagWarning {
		sev = "Warning"
	}
	var b strings.Builder
	if noColor {
		fmt.Fprintf(&b, "\n%s: %s\n\n", sev, d.Summary)
	} else {
		// The escape codes are placed as Terraform places them: each
		// piece it colours ends with a reset of its own, which lands at
		// the start of the next line when the piece ends with one.
		b.WriteString(bold + color + sev + ": " + reset + reset + bold + d.Summary + reset + "\n\n" + reset)
	}
	if d.Subject != nil {
		b.WriteString(snippet(d, files, noColor))
	}
	if d.Detail != "" {
		detail := wrapParagraphs(d.Detail, width)
		b.WriteString(detail)
		b.WriteString("\n")
	}
	text := b.String()
	if noColor {
		return text
	}
	// Draw the box.
	var out strings.Builder
	out.WriteString(color + "╷" + reset + reset + "\n")
	sc := bufio.NewScanner(strings.NewReader(strings.TrimRight(text, "\n")))
	for sc.Scan() {
		out.WriteString(color + "│" + reset + " " + reset + sc.Text() + "\n")
	}
	out.WriteString(color + "╵" + reset + reset + "\n")
	return out.String()
}

// The escape codes of coloured diagnostics.
const (
	reset     = "\x1b[0m"
	bold      = "\x1b[1m"
	underline = "\x1b[4m"
	darkGray  = "\x1b[90m"
	red       = "\x1b[31m"
	yellow    = "\x1b[33m"
)

// severityColor is the colour of a diagnostic's box: red for errors,
// yellow for warnings.
func severityColor(d *hcl.Diagnostic) string {
	if d.Severity == hcl.DiagWarning {
		return yellow
	}
	return red
}

// wrapParagraphs wraps each line of text to width, leaving indented lines
// (code examples) alone.
func wrapParagraphs(text string, width int) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, " ") {
			continue
		}
		lines[i] = wordwrap.WrapString(l, uint(width))
	}
	return strings.Join(lines, "\n")
}

// snippet renders "  on FILE line N, in CONTEXT:" and the source lines of
// the subject.
func snippet(d *hcl.Diagnostic, files map[string]*hcl.File, noColor bool) string {
	rng := *d.Subject
	var b strings.Builder
	f := files[rng.Filename]
	context := ""
	if f != nil {
		if nav, ok := f.Nav.(interface{ ContextString(int) string }); ok {
			if cs := nav.ContextString(rng.Start.Byte - 1); cs != "" {
				context = ", in " + cs
			}
		}
	}
	if obj, ok := d.Extra.(interface{ DiagnosticObject() string }); ok && obj.DiagnosticObject() != "" {
		fmt.Fprintf(&b, "  with %s,\n", obj.DiagnosticObject())
	}
	fmt.Fprintf(&b, "  on %s line %d%s:\n", rng.Filename, rng.Start.Line, context)
	if f == nil || f.Bytes == nil {
		b.WriteString("  (source code not available)\n\n")
		return b.String()
	}
	sn, ok := snippetOf(widen(rng), d.Context, f.Bytes)
	if ok {
		code := sn.Code
		if !noColor {
			// One underline over the whole subject, across lines, as
			// Terraform colours it, and its reset at the end.
			code = code[:sn.HighlightStart] + underline + code[sn.HighlightStart:sn.HighlightEnd] + reset + code[sn.HighlightEnd:] + reset
		}
		for i, line := range strings.Split(code, "\n") {
			fmt.Fprintf(&b, "%4d: %s\n", sn.StartLine+i, line)
		}
	}
	if vals := expressionValues(d, noColor); vals != "" {
		b.WriteString(vals)
	}
	b.WriteString("\n")
	return b.String()
}

// expressionValues lists the values of the variables an expression in the
// diagnostic refers to, as Terraform does ("├────────────────" lines).
func expressionValues(d *hcl.Diagnostic, noColor bool) string {
	vals := diagnosticValues(d)
	call := functionCall(d)
	if len(vals) == 0 && call == "" {
		return ""
	}
	var b strings.Builder
	if noColor {
		b.WriteString("    ├────────────────\n")
		if call != "" {
			b.WriteString("    │ while calling " + call + "\n")
		}
		for _, v := range vals {
			fmt.Fprintf(&b, "    │ %s %s\n", v.Traversal, v.Statement)
		}
		return b.String()
	}
	// Coloured as Terraform colours each line (see formatDiagnostic).
	b.WriteString("    " + darkGray + "├────────────────" + reset + "\n" + reset)
	if call != "" {
		name, params, _ := strings.Cut(call, "(")
		b.WriteString("    " + darkGray + "│" + reset + " while calling " + bold + name + reset + "(" + reset + params + "\n")
	}
	for _, v := range vals {
		b.WriteString("    " + darkGray + "│" + reset + " " + bold + v.Traversal + reset + " " + v.Statement + "\n" + reset)
	}
	return b.String()
}

// JSONValue is one value a diagnostic's expression refers to, as the
// snippets of Terraform's JSON diagnostics list them.
type JSONValue struct {
	Traversal string `json:"traversal"`
	Statement string `json:"statement"`
}

// diagnosticValues describes the values of the variables the expression
// of a diagnostic refers to, sorted by traversal, each once.
func diagnosticValues(d *hcl.Diagnostic) []JSONValue {
	if d.Expression == nil || d.EvalContext == nil {
		return nil
	}
	var out []JSONValue
	seen := map[string]bool{}
	for _, trav := range d.Expression.Variables() {
		v, diags := trav.TraverseAbs(d.EvalContext)
		if diags.HasErrors() {
			continue
		}
		name := addrs.TraversalString(trav)
		if seen[name] {
			continue
		}
		seen[name] = true
		desc := describeValue(v, causedByUnknown(d), causedBySensitive(d))
		if desc == "" {
			continue
		}
		out = append(out, JSONValue{Traversal: name, Statement: desc})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Traversal < out[j].Traversal })
	return out
}

// functionCall describes the function call a diagnostic is about, with
// its parameter names, as Terraform does: "file(path)", "format(format,
// args...)"; "" when it is not about a call.
func functionCall(d *hcl.Diagnostic) string {
	extra, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallDiagExtra](d)
	if !ok || extra.CalledFunctionName() == "" {
		return ""
	}
	name := extra.CalledFunctionName()
	f, ok := d.EvalContext.Functions[name]
	if !ok {
		return name
	}
	var params []string
	for _, p := range f.Params() {
		params = append(params, p.Name)
	}
	if vp := f.VarParam(); vp != nil {
		params = append(params, vp.Name+"...")
	}
	return name + "(" + strings.Join(params, ", ") + ")"
}

// causedByUnknown reports whether a diagnostic says a value is not known
// yet, so that unknown values in it are described as such, as Terraform
// does.
func causedByUnknown(d *hcl.Diagnostic) bool {
	u, ok := d.Extra.(interface{ DiagnosticCausedByUnknown() bool })
	return ok && u.DiagnosticCausedByUnknown()
}

// causedBySensitive reports whether a diagnostic is about a value being
// sensitive (or ephemeral): only then are such values named under its
// snippet, as Terraform does. Otherwise they are left out, so that a
// diagnostic says nothing about a sensitive value.
func causedBySensitive(d *hcl.Diagnostic) bool {
	s, ok := d.Extra.(interface{ DiagnosticCausedBySensitive() bool })
	return ok && s.DiagnosticCausedBySensitive()
}

// describeValue says what a value in a diagnostic's expression is, or ""
// when that is not worth saying.
func describeValue(v cty.Value, causedByUnknown, causedBySensitive bool) string {
	if v.IsMarked() {
		if !causedBySensitive {
			return ""
		}
		// The marks are lang/marks' "sensitive" and "ephemeral", named
		// here as strings: views does not import lang.
		if !v.HasMark("sensitive") && v.HasMark("ephemeral") {
			return "has an ephemeral value"
		}
		return "has a sensitive value"
	}
	switch {
	case !v.IsKnown() && v.Type() == cty.DynamicPseudoType:
		if !causedByUnknown {
			return ""
		}
		return "will be known only after apply"
	case !v.IsKnown() && causedByUnknown:
		return "is a " + v.Type().FriendlyName() + ", known only after apply"
	case !v.IsKnown():
		return "is a " + v.Type().FriendlyName()
	case v.IsNull():
		return "is null"
	}
	if s := CompactValue(v); s != "" {
		return "is " + s
	}
	return ""
}
