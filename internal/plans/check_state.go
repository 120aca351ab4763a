package plans

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

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

// splitModule splits an address such as module.a[0].output.o into its
// module instance and the names after it (output, o).
func splitModule(s string) (addrs.ModuleInstance, []string, error) {
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, nil, fmt.Errorf("invalid address: %s", diags.Error())
	}
	var names []string
	i := 0
	for i+1 < len(trav) && stepName(trav[i]) == "module" {
		end := i + 2
		if end < len(trav) {
			if _, ok := trav[end].(hcl.TraverseIndex); ok {
				end++
			}
		}
		if end >= len(trav) {
			break
		}
		i = end
	}
	var mi addrs.ModuleInstance
	if i > 0 {
		var ok bool
		if mi, ok = addrs.ParseModuleInstance(trav[:i]); !ok {
			return nil, nil, fmt.Errorf("invalid module address in %s", s)
		}
	}
	for _, t := range trav[i:] {
		if n := stepName(t); n != "" {
			names = append(names, n)
		}
	}
	return mi, names, nil
}

func stepName(t hcl.Traverser) string {
	switch t := t.(type) {
	case hcl.TraverseRoot:
		return t.Name
	case hcl.TraverseAttr:
		return t.Name
	}
	return ""
}

// stateCheckKind is the kind as the state file spells it: outputs are
// "output" there, "output_value" in plan documents.
func stateCheckKind(kind string) string {
	if kind == CheckKindOutput {
		return "output"
	}
	return kind
}
