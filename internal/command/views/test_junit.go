package views

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/moduletest"
)

// WriteTestJUnit writes the results of strata test as a JUnit XML report
// (-junit-xml), in the layout terraform test writes: a testsuite per file,
// a testcase per run block, failures and errors with their diagnostics
// rendered without colour. sources provide the diagnostics' snippets.
func WriteTestJUnit(w io.Writer, files []*moduletest.File, sources map[string]*hcl.File) error {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><testsuites>` + "\n")
	for _, f := range files {
		var skipped, failures, errors int
		for _, r := range f.Runs {
			switch r.Status {
			case moduletest.Skip, moduletest.Pending:
				skipped++
			case moduletest.Fail:
				failures++
			case moduletest.Error:
				errors++
			}
		}
		fmt.Fprintf(&b, "  <testsuite name=%s tests=\"%d\" skipped=\"%d\" failures=\"%d\" errors=\"%d\">\n", xmlAttr(f.Path), len(f.Runs), skipped, failures, errors)
		lastError := ""
		for _, r := range f.Runs {
			fmt.Fprintf(&b, "    <testcase name=%s classname=%s", xmlAttr(r.Config.Name), xmlAttr(f.Path))
			if !r.Start.IsZero() {
				fmt.Fprintf(&b, " time=\"%g\" timestamp=\"%s\"", r.Elapsed.Seconds(), r.Start.UTC().Format("2006-01-02T15:04:05Z"))
			}
			b.WriteString(">")
			errs, warnings := junitDiagnostics(r.Diagnostics, sources)
			switch r.Status {
			case moduletest.Fail:
				fmt.Fprintf(&b, "\n      <failure message=%s>%s</failure>\n    ", xmlAttr(failureMessage(r)), cdata(errs))
			case moduletest.Error:
				lastError = r.Config.Name
				fmt.Fprintf(&b, "\n      <error message=\"Encountered an error\">%s</error>\n    ", cdata(errs))
			case moduletest.Skip, moduletest.Pending:
				text := "Testcase skipped"
				if lastError != "" {
					text = fmt.Sprintf("Previous testcase %q ended in error, which caused the remaining tests in the file to be skipped", lastError)
				}
				fmt.Fprintf(&b, "\n      <skipped message=\"Testcase skipped due to a previous testcase error\">%s</skipped>\n    ", cdata(text))
			}
			if warnings != "" {
				if !strings.HasSuffix(b.String(), "\n    ") {
					b.WriteString("\n    ")
				}
				fmt.Fprintf(&b, "  <system-err>%s</system-err>\n    ", cdata(warnings))
			}
			b.WriteString("</testcase>\n")
		}
		b.WriteString("  </testsuite>\n")
	}
	b.WriteString("</testsuites>")
	_, err := w.Write(b.Bytes())
	return err
}

// failureMessage is a failed run's summary: how many assertions failed,
// and the first one's message.
func failureMessage(r *moduletest.Run) string {
	failed, first := 0, ""
	for _, d := range r.Diagnostics {
		if d.Summary == "Test assertion failed" {
			if failed == 0 {
				first = d.Detail
			}
			failed++
		}
	}
	sep := ": "
	if failed > 1 {
		sep = ", including: "
	}
	return fmt.Sprintf("%d of %d assertions failed%s%s", failed, len(r.Config.Asserts), sep, first)
}

// junitDiagnostics renders a run's errors (for its failure or error
// element) and its warnings (for system-err), wrapped at 79 columns as in
// terraform's reports.
func junitDiagnostics(diags hcl.Diagnostics, sources map[string]*hcl.File) (errs, warnings string) {
	var e, w strings.Builder
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning {
			w.WriteString(formatDiagnostic(d, sources, true, 79))
		} else {
			e.WriteString(formatDiagnostic(d, sources, true, 79))
		}
	}
	return e.String(), w.String()
}

// xmlAttr quotes s as an XML attribute value.
func xmlAttr(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "\n", "&#xA;")
	return `"` + r.Replace(s) + `"`
}

// cdata wraps s in a CDATA section, splitting any "]]>" it holds.
func cdata(s string) string {
	return "<![CDATA[" + strings.ReplaceAll(s, "]]>", "]]]]><![CDATA[>") + "]]>"
}
