package jsonplan

import (
	"sort"

	"github.com/strata-dev/strata/internal/plans"
)

// check is an entry of a plan document's "checks": a checkable object and
// the status of each of its instances.
type check struct {
	Address   checkAddress    `json:"address"`
	Status    string          `json:"status"`
	Instances []checkInstance `json:"instances,omitempty"`
}

type checkAddress struct {
	Kind      string `json:"kind"`
	Mode      string `json:"mode,omitempty"`
	Module    string `json:"module,omitempty"`
	Name      string `json:"name"`
	ToDisplay string `json:"to_display"`
	Type      string `json:"type,omitempty"`
}

type checkInstance struct {
	Address  checkInstanceAddress `json:"address"`
	Status   string               `json:"status"`
	Problems []checkProblem       `json:"problems,omitempty"`
}

type checkInstanceAddress struct {
	InstanceKey any    `json:"instance_key,omitempty"`
	Module      string `json:"module,omitempty"`
	ToDisplay   string `json:"to_display"`
}

type checkProblem struct {
	Message string `json:"message"`
}

// marshalChecks describes check results as Terraform's plan document
// does, ordered by address.
func marshalChecks(results []*plans.CheckResult) []check {
	out := make([]check, 0, len(results))
	for _, r := range results {
		c := check{Status: string(r.Status)}
		c.Address = checkAddress{Kind: r.Kind, Module: r.Module.String(), Name: r.Name, ToDisplay: r.ConfigAddr()}
		if r.Kind == plans.CheckKindResource {
			c.Address.Mode, c.Address.Type, c.Address.Name = r.Resource.Mode.StateName(), r.Resource.Type, r.Resource.Name
		}
		for _, i := range r.Instances {
			ci := checkInstance{
				Address: checkInstanceAddress{InstanceKey: instanceKeyJSON(i.Key), Module: i.Module.String(), ToDisplay: r.Addr(i)},
				Status:  string(i.Status),
			}
			for _, p := range i.Problems {
				ci.Problems = append(ci.Problems, checkProblem{Message: p})
			}
			c.Instances = append(c.Instances, ci)
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Address.ToDisplay < out[j].Address.ToDisplay })
	return out
}
