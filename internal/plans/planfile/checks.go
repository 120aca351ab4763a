package planfile

import (
	"fmt"
	"strings"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/plans"
)

// checkJSON is a check result in the plan file. Addresses are written as
// Terraform writes them: the module path, the resource, and each
// instance's module instance and key.
type checkJSON struct {
	Kind      string              `json:"kind"`
	Module    string              `json:"module,omitempty"`
	Resource  string              `json:"resource,omitempty"`
	Name      string              `json:"name,omitempty"`
	Status    string              `json:"status"`
	Instances []checkInstanceJSON `json:"instances,omitempty"`
}

type checkInstanceJSON struct {
	Module   string   `json:"module,omitempty"`
	Key      string   `json:"key,omitempty"` // in index syntax: [0] or ["a"]
	Status   string   `json:"status"`
	Problems []string `json:"problems,omitempty"`
}

func encodeChecks(checks []*plans.CheckResult) []checkJSON {
	out := make([]checkJSON, 0, len(checks))
	for _, c := range checks {
		cj := checkJSON{Kind: c.Kind, Module: c.Module.String(), Name: c.Name, Status: string(c.Status)}
		if c.Kind == plans.CheckKindResource {
			cj.Resource = c.Resource.String()
		}
		for _, i := range c.Instances {
			cj.Instances = append(cj.Instances, checkInstanceJSON{Module: i.Module.String(), Key: addrs.KeyString(i.Key), Status: string(i.Status), Problems: i.Problems})
		}
		out = append(out, cj)
	}
	return out
}

func decodeChecks(in []checkJSON) ([]*plans.CheckResult, error) {
	var out []*plans.CheckResult
	for _, cj := range in {
		c := &plans.CheckResult{Kind: cj.Kind, Name: cj.Name, Status: plans.CheckStatus(cj.Status)}
		mi, err := parseModuleInstance(cj.Module)
		if err != nil {
			return nil, err
		}
		c.Module = mi.Module()
		if cj.Resource != "" {
			r, diags := addrs.ParseAbsResourceStr(cj.Resource)
			if diags.HasErrors() {
				return nil, fmt.Errorf("invalid check address %q", cj.Resource)
			}
			c.Resource = r.Resource
		}
		for _, ij := range cj.Instances {
			mi, err := parseModuleInstance(ij.Module)
			if err != nil {
				return nil, err
			}
			key, err := parseKey(ij.Key)
			if err != nil {
				return nil, err
			}
			c.Instances = append(c.Instances, &plans.CheckInstanceResult{Module: mi, Key: key, Status: plans.CheckStatus(ij.Status), Problems: ij.Problems})
		}
		out = append(out, c)
	}
	return out, nil
}

func parseModuleInstance(s string) (addrs.ModuleInstance, error) {
	if s == "" {
		return addrs.RootModuleInstance, nil
	}
	mi, ok := addrs.ParseModuleInstanceStr(s)
	if !ok {
		return nil, fmt.Errorf("invalid module address %q", s)
	}
	return mi, nil
}

// parseKey parses an instance key in index syntax.
func parseKey(s string) (addrs.InstanceKey, error) {
	if s == "" {
		return addrs.NoKey, nil
	}
	inst, diags := addrs.ParseAbsResourceInstanceStr("x.y" + s)
	if diags.HasErrors() || !strings.HasPrefix(s, "[") {
		return nil, fmt.Errorf("invalid instance key %q", s)
	}
	return inst.Resource.Key, nil
}
