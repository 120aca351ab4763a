// Package marks names the cty value marks strata uses. Sensitive marks a
// value that must never be shown; it travels through expressions and is
// recorded in state as sensitive_attributes.
package marks

import "github.com/zclconf/go-cty/cty"

// Sensitive is the mark carried by sensitive values.
const Sensitive = "sensitive"

// Contains reports whether v or anything inside it is sensitive.
func Contains(v cty.Value) bool {
	if !Any(v) {
		return false
	}
	sensitive := false
	_ = cty.Walk(v, func(_ cty.Path, v cty.Value) (bool, error) {
		if v.HasMark(Sensitive) {
			sensitive = true
			return false, nil
		}
		return true, nil
	})
	return sensitive
}

// Paths returns the paths within v that carry the sensitive mark, and v
// without marks.
func Paths(v cty.Value) (cty.Value, []cty.Path) {
	if !Any(v) {
		return v, nil
	}
	unmarked, pvm := v.UnmarkDeepWithPaths()
	var paths []cty.Path
	for _, p := range pvm {
		if _, ok := p.Marks[Sensitive]; ok {
			paths = append(paths, p.Path)
		}
	}
	return unmarked, paths
}

// Apply marks the given paths of v as sensitive. Paths that do not exist
// in v are ignored.
func Apply(v cty.Value, paths []cty.Path) cty.Value {
	if len(paths) == 0 {
		return v
	}
	pvm := make([]cty.PathValueMarks, len(paths))
	for i, p := range paths {
		pvm[i] = cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(Sensitive)}
	}
	return v.MarkWithPaths(pvm)
}
