package engine

import (
	"encoding/json"
	"sort"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/plans"
)

// stateCheckResult is one entry of the state file's "check_results", as
// Terraform writes them after an apply.
type stateCheckResult struct {
	ObjectKind string             `json:"object_kind"`
	ConfigAddr string             `json:"config_addr"`
	Status     string             `json:"status"`
	Objects    []stateCheckObject `json:"objects"`
}

type stateCheckObject struct {
	ObjectAddr      string   `json:"object_addr"`
	Status          string   `json:"status"`
	FailureMessages []string `json:"failure_messages,omitempty"`
}

// applyCheckResults combines the checks an apply evaluated with those of
// its plan (objects the apply left alone keep their planned result) and
// encodes them for the state file; nil when there are none.
func applyCheckResults(planned, applied []*plans.CheckResult) json.RawMessage {
	byKey := map[string]*plans.CheckResult{}
	key := func(r *plans.CheckResult) string {
		return r.Kind + "|" + r.Module.String() + "|" + r.Name + "|" + r.Resource.String()
	}
	for _, r := range planned {
		byKey[key(r)] = r
	}
	for _, r := range applied {
		prev, ok := byKey[key(r)]
		if !ok {
			byKey[key(r)] = r
			continue
		}
		merged := &plans.CheckResult{Kind: r.Kind, Module: r.Module, Resource: r.Resource, Name: r.Name, Status: plans.CheckPass, Instances: r.Instances}
		for _, pi := range prev.Instances {
			found := false
			for _, ai := range r.Instances {
				found = found || (ai.Module.String() == pi.Module.String() && addrs.CompareKeys(ai.Key, pi.Key) == 0)
			}
			if !found {
				merged.Instances = append(merged.Instances, pi)
			}
		}
		for _, i := range merged.Instances {
			merged.Status = merged.Status.Worse(i.Status)
		}
		byKey[key(r)] = merged
	}
	if len(byKey) == 0 {
		return nil
	}
	out := make([]stateCheckResult, 0, len(byKey))
	for _, r := range byKey {
		sr := stateCheckResult{ObjectKind: stateCheckKind(r.Kind), ConfigAddr: r.ConfigAddr(), Status: string(r.Status)}
		for _, i := range r.Instances {
			o := stateCheckObject{ObjectAddr: r.Addr(i), Status: string(i.Status)}
			if i.Status == plans.CheckFail {
				o.FailureMessages = i.Problems
			}
			sr.Objects = append(sr.Objects, o)
		}
		sort.Slice(sr.Objects, func(a, b int) bool { return sr.Objects[a].ObjectAddr < sr.Objects[b].ObjectAddr })
		out = append(out, sr)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].ConfigAddr < out[b].ConfigAddr })
	raw, err := json.Marshal(out)
	if err != nil {
		return nil
	}
	return raw
}

// stateCheckKind is the kind as the state file spells it: outputs are
// "output" there, "output_value" in plan documents.
func stateCheckKind(kind string) string {
	if kind == plans.CheckKindOutput {
		return "output"
	}
	return kind
}
