package engine

import (
	"encoding/json"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/plans"
)

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
	merged := make([]*plans.CheckResult, 0, len(byKey))
	for _, r := range byKey {
		merged = append(merged, r)
	}
	raw, err := plans.EncodeStateChecks(merged)
	if err != nil {
		return nil
	}
	return raw
}
