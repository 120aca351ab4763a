package configs

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"
)

// checkProviderLocalName refuses a provider local name Terraform refuses:
// one with characters other than letters, digits and dashes, or a leading
// or trailing dash ("Invalid provider local name"), or one not in its
// normal, lower-case form. rng is what the diagnostic points at.
func checkProviderLocalName(name string, rng hcl.Range) hcl.Diagnostics {
	invalid := name == "" || strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-")
	for _, r := range name {
		if r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			invalid = true
		}
	}
	if invalid {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider local name",
			Detail:   fmt.Sprintf("%s is an invalid provider local name: must contain only letters, digits, and dashes, and may not use leading or trailing dashes", name),
			Subject:  rng.Ptr(),
		}}
	}
	if norm := strings.ToLower(name); norm != name {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider local name",
			Detail:   fmt.Sprintf("Provider names must be normalized. Replace %q with %q to fix this error.", name, norm),
			Subject:  rng.Ptr(),
		}}
	}
	return nil
}
