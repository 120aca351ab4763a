package marks

import "github.com/zclconf/go-cty/cty"

// Ephemeral is the mark carried by ephemeral values: those of ephemeral
// resources, ephemeral variables and outputs, and terraform.applying. They
// may flow into provider configurations, provisioners and write-only
// attributes, never into anything stored in state or plans.
const Ephemeral = "ephemeral"

// EphemeralPaths returns the paths within v that carry the ephemeral
// mark, outermost first.
func EphemeralPaths(v cty.Value) []cty.Path {
	if !Any(v) {
		return nil
	}
	_, pvm := v.UnmarkDeepWithPaths()
	var paths []cty.Path
	for _, p := range pvm {
		if _, ok := p.Marks[Ephemeral]; ok {
			paths = append(paths, p.Path)
		}
	}
	return paths
}

// ContainsEphemeral reports whether v or anything inside it is ephemeral.
func ContainsEphemeral(v cty.Value) bool {
	if !Any(v) {
		return false
	}
	found := false
	_ = cty.Walk(v, func(_ cty.Path, v cty.Value) (bool, error) {
		if v.HasMark(Ephemeral) {
			found = true
			return false, nil
		}
		return true, nil
	})
	return found
}
