package views

import (
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
