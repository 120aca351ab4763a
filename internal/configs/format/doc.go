// Package format implements the canonical source formatting used by the
// "strata fmt" command.
//
// The formatting rules are those of "terraform fmt": the token-level
// whitespace normalisation of hclwrite (indentation, spacing between tokens,
// alignment of "=" in runs of consecutive single-line attributes) plus a small
// number of Terraform-specific rewrites of deprecated idioms:
//
//   - an attribute value that is nothing but a single template interpolation,
//     such as "${var.foo}", is replaced by the bare expression var.foo;
//   - the legacy type constraints of a top-level variable block are replaced
//     by their modern equivalents: "string" becomes string, "list" becomes
//     list(string), "map" becomes map(string), and the bare list, map and set
//     keywords become list(any), map(any) and set(any);
//   - block labels are written in their quoted form.
//
// Heredocs and templates that contain anything besides a single
// interpolation are left untouched, as are line endings: like terraform fmt,
// a file using CRLF line endings keeps them.
//
// Source formats a file; UnifiedDiff renders the difference between the
// original and formatted contents in the unified format printed by
// "terraform fmt -diff".
package format
