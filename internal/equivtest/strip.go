package equivtest

import (
	"reflect"
	"strconv"
	"strings"
)

// A field path names JSON values to remove: steps separated by dots, each
// a key of an object, an index of a list, or "*" for every member of
// either. "*.@timestamp" removes @timestamp from every message of an
// apply -json output, "0" its first message.

// step is one step of a field path, optionally limited to the members
// whose value at Filter.Path equals Filter.Value.
type step struct {
	Key    string
	Filter *filter
}

type filter struct {
	Path  []string
	Value any
}

func field(path string) []step {
	var steps []step
	for _, s := range strings.Split(path, ".") {
		steps = append(steps, step{Key: s})
	}
	return steps
}

// defaultIgnored are the fields removed from the outputs of these names
// in every test: what changes from one run to the next (versions, times,
// durations).
var defaultIgnored = map[string][][]step{
	"apply.json": {
		field("0"), // the version message
		field("*.@timestamp"),
		field("*.hook.elapsed_seconds"),
		// The summary of apply_complete says how long the apply took.
		{{Key: "*", Filter: &filter{Path: []string{"type"}, Value: "apply_complete"}}, {Key: "@message"}},
	},
	"plan.json": {
		field("terraform_version"),
		field("prior_state.terraform_version"),
		field("timestamp"),
	},
	"state.json": {
		field("terraform_version"),
	},
}

// Strip removes from v, a JSON value as encoding/json decodes it into an
// interface, the default fields of the output file name and those spec
// lists for it, and returns what is left. v may be changed in place.
func Strip(name string, spec Spec, v any) any {
	paths := append([][]step(nil), defaultIgnored[name]...)
	for _, p := range spec.IgnoreFields[name] {
		paths = append(paths, field(p))
	}
	for _, p := range paths {
		v = strip(p, v)
	}
	return v
}

func strip(steps []step, v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, member := range v {
			if !steps[0].matches(k, member) {
				continue
			}
			if len(steps) == 1 {
				delete(v, k)
			} else {
				v[k] = strip(steps[1:], member)
			}
		}
		return v
	case []any:
		out := v[:0:0]
		for i, member := range v {
			if !steps[0].matches(strconv.Itoa(i), member) {
				out = append(out, member)
				continue
			}
			if len(steps) > 1 {
				out = append(out, strip(steps[1:], member))
			}
		}
		return out
	default:
		// Nothing to go into: the path does not apply here.
		return v
	}
}

// matches says whether the step selects the member of key k.
func (s step) matches(k string, member any) bool {
	if s.Key != "*" && s.Key != k {
		return false
	}
	if s.Filter == nil {
		return true
	}
	at := member
	for _, p := range s.Filter.Path {
		m, ok := at.(map[string]any)
		if !ok {
			return false
		}
		at = m[p]
	}
	return reflect.DeepEqual(at, s.Filter.Value)
}
