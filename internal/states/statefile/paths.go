package statefile

import (
	"encoding/json"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/ctyjson"
)

// encodePaths renders attribute paths as the state file's
// sensitive_attributes: a list of paths, each a list of steps.
func encodePaths(paths []cty.Path) (json.RawMessage, error) {
	if len(paths) == 0 {
		return json.RawMessage("[]"), nil
	}
	out := make([][]pathStepV4, 0, len(paths))
	for _, p := range paths {
		steps := make([]pathStepV4, 0, len(p))
		for _, s := range p {
			switch s := s.(type) {
			case cty.GetAttrStep:
				name, _ := json.Marshal(s.Name)
				steps = append(steps, pathStepV4{Type: "get_attr", Value: name})
			case cty.IndexStep:
				v, err := ctyjson.Marshal(s.Key, cty.DynamicPseudoType)
				if err != nil {
					return nil, err
				}
				steps = append(steps, pathStepV4{Type: "index", Value: v})
			}
		}
		out = append(out, steps)
	}
	return json.Marshal(out)
}

// decodePaths parses sensitive_attributes.
func decodePaths(raw json.RawMessage) ([]cty.Path, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if string(raw) == "[]" {
		// What almost every object has: no need for encoding/json.
		return []cty.Path{}, nil
	}
	var in [][]pathStepV4
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("invalid sensitive_attributes: %w", err)
	}
	paths := make([]cty.Path, 0, len(in))
	for _, steps := range in {
		var p cty.Path
		for _, s := range steps {
			switch s.Type {
			case "get_attr":
				var name string
				if err := json.Unmarshal(s.Value, &name); err != nil {
					return nil, fmt.Errorf("invalid sensitive_attributes: %w", err)
				}
				p = p.GetAttr(name)
			case "index":
				v, err := ctyjson.Unmarshal(s.Value, cty.DynamicPseudoType)
				if err != nil {
					return nil, fmt.Errorf("invalid sensitive_attributes index: %w", err)
				}
				p = p.Index(v)
			default:
				return nil, fmt.Errorf("invalid sensitive_attributes: unknown step type %q", s.Type)
			}
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// MarshalPaths encodes attribute paths in the state file's
// sensitive_attributes form, for other files that record paths.
func MarshalPaths(paths []cty.Path) (json.RawMessage, error) { return encodePaths(paths) }

// UnmarshalPaths decodes what MarshalPaths produced.
func UnmarshalPaths(raw json.RawMessage) ([]cty.Path, error) { return decodePaths(raw) }
