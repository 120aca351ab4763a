package plans

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/strata-dev/strata/internal/addrs"
)

// StateCheckResult is one entry of the state file's "check_results", as
// Terraform writes them after an apply.
type StateCheckResult struct {
	ObjectKind string             `json:"object_kind"`
	ConfigAddr string             `json:"config_addr"`
	Status     string             `json:"status"`
	Objects    []StateCheckObject `json:"objects"`
}

// StateCheckObject is the result of one instance in a StateCheckResult.
type StateCheckObject struct {
	ObjectAddr      string   `json:"object_addr"`
	Status          string   `json:"status"`
	FailureMessages []string `json:"failure_messages,omitempty"`
}

// EncodeStateChecks renders check results as the state file's
// "check_results", ordered by address; nil when there are none.
func EncodeStateChecks(results []*CheckResult) (json.RawMessage, error) {
	if len(results) == 0 {
		return nil, nil
	}
	out := make([]StateCheckResult, 0, len(results))
	for _, r := range results {
		sr := StateCheckResult{ObjectKind: stateCheckKind(r.Kind), ConfigAddr: r.ConfigAddr(), Status: string(r.Status)}
		for _, i := range r.Instances {
			o := StateCheckObject{ObjectAddr: r.Addr(i), Status: string(i.Status)}
			if i.Status == CheckFail {
				o.FailureMessages = i.Problems
			}
			sr.Objects = append(sr.Objects, o)
		}
		sort.Slice(sr.Objects, func(a, b int) bool { return sr.Objects[a].ObjectAddr < sr.Objects[b].ObjectAddr })
		out = append(out, sr)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].ConfigAddr < out[b].ConfigAddr })
	return json.Marshal(out)
}

// DecodeStateChecks reads the state file's "check_results" back into
// check results, for show -json of a state.
func DecodeStateChecks(raw json.RawMessage) ([]*CheckResult, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var entries []StateCheckResult
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, err
	}
	out := make([]*CheckResult, 0, len(entries))
	for _, e := range entries {
		r := &CheckResult{Kind: e.ObjectKind, Status: CheckStatus(e.Status)}
		if r.Kind == "output" {
			r.Kind = CheckKindOutput
		}
		module, local, err := splitModule(e.ConfigAddr)
		if err != nil {
			return nil, fmt.Errorf("check result %q: %w", e.ConfigAddr, err)
		}
		r.Module = module.Module()
		if r.Kind == CheckKindResource {
			ar, diags := addrs.ParseAbsResourceStr(e.ConfigAddr)
			if diags.HasErrors() {
				return nil, fmt.Errorf("check result %q: %s", e.ConfigAddr, diags.Error())
			}
			r.Resource = ar.Resource
		} else if len(local) == 2 {
			r.Name = local[1]
		}
		for _, o := range e.Objects {
			i := &CheckInstanceResult{Status: CheckStatus(o.Status), Problems: o.FailureMessages}
			if r.Kind == CheckKindResource {
				ai, diags := addrs.ParseAbsResourceInstanceStr(o.ObjectAddr)
				if diags.HasErrors() {
					return nil, fmt.Errorf("check result %q: %s", o.ObjectAddr, diags.Error())
				}
				i.Module, i.Key = ai.Module, ai.Resource.Key
			} else {
				mi, _, err := splitModule(o.ObjectAddr)
				if err != nil {
					return nil, fmt.Errorf("check result %q: %w", o.ObjectAddr, err)
				}
				i.Module = mi
			}
			r.Instances = append(r.Instances, i)
		}
		// As Terraform shows them: by module instance, then instance key.
		sort.SliceStable(r.Instances, func(a, b int) bool {
			ma, mb := r.Instances[a].Module.String(), r.Instances[b].Module.String()
			if ma != mb {
				return ma < mb
			}
			return addrs.CompareKeys(r.Instances[a].Key, r.Instances[b].Key) < 0
		})
		out = append(out, r)
	}
	return out, nil
}

// splitModule is addrs.SplitModuleInstance with an error.
func splitModule(s string) (addrs.ModuleInstance, []string, error) {
	mi, names, ok := addrs.SplitModuleInstance(s)
	if !ok {
		return nil, nil, fmt.Errorf("invalid address %q", s)
	}
	return mi, names, nil
}

// stateCheckKind is the kind as the state file spells it: outputs are
// "output" there, "output_value" in plan documents.
func stateCheckKind(kind string) string {
	if kind == CheckKindOutput {
		return "output"
	}
	return kind
}
