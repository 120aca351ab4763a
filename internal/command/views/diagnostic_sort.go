package views

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// sortDiagnostics orders diagnostics as Terraform shows them: warnings
// before errors, then those without a source location, then by file
// (shallower paths first) and position. Diagnostics that tie keep the
// order they were produced in.
func sortDiagnostics(diags hcl.Diagnostics) hcl.Diagnostics {
	out := make(hcl.Diagnostics, len(diags))
	copy(out, diags)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Severity != b.Severity {
			return a.Severity == hcl.DiagWarning
		}
		if (a.Subject == nil) != (b.Subject == nil) {
			return a.Subject == nil
		}
		if a.Subject == nil {
			return false
		}
		as, bs := a.Subject, b.Subject
		if as.Filename != bs.Filename {
			sep := string(filepath.Separator)
			if ac, bc := strings.Count(as.Filename, sep), strings.Count(bs.Filename, sep); ac != bc {
				return ac < bc
			}
			return as.Filename < bs.Filename
		}
		if as.Start.Byte != bs.Start.Byte {
			return as.Start.Byte < bs.Start.Byte
		}
		return as.End.Byte < bs.End.Byte
	})
	return out
}

// consolidateWarnings keeps, as Terraform does, only the first of the
// warnings that share a summary and have a source location, noting how
// many more there were: "(and 2 more similar warnings elsewhere)". A
// diagnostic whose Extra says DoNotConsolidate (a check block's failed
// assertion) is always shown.
func consolidateWarnings(diags hcl.Diagnostics) hcl.Diagnostics {
	first := map[string]int{} // summary to the index in out of the kept one
	more := map[int]int{}
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity != hcl.DiagWarning || d.Subject == nil {
			out = append(out, d)
			continue
		}
		if nc, ok := d.Extra.(interface{ DoNotConsolidate() bool }); ok && nc.DoNotConsolidate() {
			out = append(out, d)
			continue
		}
		if i, ok := first[d.Summary]; ok {
			more[i]++
			continue
		}
		first[d.Summary] = len(out)
		out = append(out, d)
	}
	for i, n := range more {
		c := *out[i]
		note := "(and one more similar warning elsewhere)"
		if n > 1 {
			note = fmt.Sprintf("(and %d more similar warnings elsewhere)", n)
		}
		if c.Detail != "" {
			c.Detail += "\n\n" + note
		} else {
			c.Detail = note
		}
		out[i] = &c
	}
	return out
}
