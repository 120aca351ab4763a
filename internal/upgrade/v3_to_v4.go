package upgrade

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// The parts of state format version 3 (Terraform 0.9 to 0.11) that carry
// over into version 4.
type stateV3 struct {
	TerraformVersion string     `json:"terraform_version"`
	Serial           uint64     `json:"serial"`
	Lineage          string     `json:"lineage"`
	Modules          []moduleV3 `json:"modules"`
}

type moduleV3 struct {
	Path      []string              `json:"path"`
	Outputs   map[string]outputV3   `json:"outputs"`
	Resources map[string]resourceV3 `json:"resources"`
}

type outputV3 struct {
	Sensitive bool            `json:"sensitive"`
	Type      string          `json:"type"`
	Value     json.RawMessage `json:"value"`
}

type resourceV3 struct {
	Type      string       `json:"type"`
	DependsOn []string     `json:"depends_on"`
	Primary   *instanceV3  `json:"primary"`
	Deposed   []instanceV3 `json:"deposed"`
	Provider  string       `json:"provider"`
}

type instanceV3 struct {
	ID         string            `json:"id"`
	Attributes map[string]string `json:"attributes"`
	Meta       map[string]any    `json:"meta"`
	Tainted    bool              `json:"tainted"`
}

// v3ToV4 converts a version 3 state. Attributes stay in the flat map form
// (attributes_flat) for the provider's UpgradeResourceState to decode.
func v3ToV4(src []byte) ([]byte, error) {
	var old stateV3
	if err := json.Unmarshal(src, &old); err != nil {
		return nil, fmt.Errorf("the version 3 state file could not be parsed: %w", err)
	}
	type instance struct {
		IndexKey       any               `json:"index_key,omitempty"`
		Status         string            `json:"status,omitempty"`
		Deposed        string            `json:"deposed,omitempty"`
		SchemaVersion  uint64            `json:"schema_version"`
		AttributesFlat map[string]string `json:"attributes_flat"`
		Dependencies   []string          `json:"dependencies,omitempty"`
	}
	type resource struct {
		Module    string     `json:"module,omitempty"`
		Mode      string     `json:"mode"`
		Type      string     `json:"type"`
		Name      string     `json:"name"`
		Provider  string     `json:"provider"`
		Instances []instance `json:"instances"`
	}
	type output struct {
		Value     json.RawMessage `json:"value"`
		Type      json.RawMessage `json:"type"`
		Sensitive bool            `json:"sensitive,omitempty"`
	}
	out := struct {
		Version          int               `json:"version"`
		TerraformVersion string            `json:"terraform_version"`
		Serial           uint64            `json:"serial"`
		Lineage          string            `json:"lineage"`
		Outputs          map[string]output `json:"outputs"`
		Resources        []*resource       `json:"resources"`
	}{Version: 4, TerraformVersion: old.TerraformVersion, Serial: old.Serial, Lineage: old.Lineage, Outputs: map[string]output{}}

	byAddr := map[string]*resource{}
	for _, m := range old.Modules {
		module := modulePathV3(m.Path)
		if module == "" {
			for name, o := range m.Outputs {
				ty, err := outputTypeV3(name, o)
				if err != nil {
					return nil, err
				}
				out.Outputs[name] = output{Value: o.Value, Type: ty, Sensitive: o.Sensitive}
			}
		}
		keys := make([]string, 0, len(m.Resources))
		for k := range m.Resources {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			rv3 := m.Resources[k]
			mode, typ, name, index, err := parseResourceKeyV3(k)
			if err != nil {
				return nil, err
			}
			provider, err := providerV3(rv3.Provider, typ)
			if err != nil {
				return nil, fmt.Errorf("resource %s: %w", k, err)
			}
			id := module + "|" + mode + "." + typ + "." + name
			r := byAddr[id]
			if r == nil {
				r = &resource{Module: module, Mode: mode, Type: typ, Name: name, Provider: provider}
				byAddr[id] = r
				out.Resources = append(out.Resources, r)
			}
			var deps []string
			seen := map[string]bool{}
			for _, d := range rv3.DependsOn {
				if dep, ok := dependencyV3(module, d); ok && !seen[dep] {
					seen[dep] = true
					deps = append(deps, dep)
				}
			}
			add := func(is instanceV3, deposed string) {
				inst := instance{Deposed: deposed, AttributesFlat: is.Attributes, Dependencies: deps}
				if index >= 0 {
					inst.IndexKey = index
				}
				if is.Tainted {
					inst.Status = "tainted"
				}
				if sv, ok := is.Meta["schema_version"]; ok {
					if n, err := strconv.ParseUint(fmt.Sprint(sv), 10, 64); err == nil {
						inst.SchemaVersion = n
					}
				}
				if inst.AttributesFlat == nil {
					inst.AttributesFlat = map[string]string{}
				}
				if _, ok := inst.AttributesFlat["id"]; !ok && is.ID != "" {
					inst.AttributesFlat["id"] = is.ID
				}
				r.Instances = append(r.Instances, inst)
			}
			if rv3.Primary != nil {
				add(*rv3.Primary, "")
			}
			for i, d := range rv3.Deposed {
				add(d, fmt.Sprintf("%08x", i+1))
			}
		}
	}
	return json.MarshalIndent(out, "", "  ")
}

func modulePathV3(path []string) string {
	var parts []string
	for _, p := range path {
		if p == "root" {
			continue
		}
		parts = append(parts, "module."+p)
	}
	return strings.Join(parts, ".")
}

// parseResourceKeyV3 parses "TYPE.NAME", "TYPE.NAME.INDEX" and the same
// prefixed by "data.". index is -1 when there is none.
func parseResourceKeyV3(k string) (mode, typ, name string, index int, err error) {
	parts := strings.Split(k, ".")
	mode, index = "managed", -1
	if len(parts) > 0 && parts[0] == "data" {
		mode, parts = "data", parts[1:]
	}
	switch len(parts) {
	case 2:
	case 3:
		if index, err = strconv.Atoi(parts[2]); err != nil || index < 0 {
			return "", "", "", 0, fmt.Errorf("invalid resource key %q in version 3 state", k)
		}
	default:
		return "", "", "", 0, fmt.Errorf("invalid resource key %q in version 3 state", k)
	}
	return mode, parts[0], parts[1], index, nil
}

// providerV3 converts "provider.aws" or "provider.aws.alias", optionally
// preceded by the module that configures it ("module.child.provider.aws"),
// or "" for the implied provider, into a version 4 provider address.
func providerV3(p, resourceType string) (string, error) {
	name, alias := strings.SplitN(resourceType, "_", 2)[0], ""
	var module []string
	if p != "" {
		rest := p
		for strings.HasPrefix(rest, "module.") {
			step := strings.SplitN(rest, ".", 3)
			if len(step) < 3 || step[1] == "" {
				return "", fmt.Errorf("invalid provider %q", p)
			}
			module = append(module, "module."+step[1])
			rest = step[2]
		}
		if len(module) > 0 && !strings.HasPrefix(rest, "provider.") {
			return "", fmt.Errorf("invalid provider %q", p)
		}
		parts := strings.Split(strings.TrimPrefix(rest, "provider."), ".")
		switch len(parts) {
		case 1:
			name = parts[0]
		case 2:
			name, alias = parts[0], parts[1]
		default:
			return "", fmt.Errorf("invalid provider %q", p)
		}
		if name == "" || (len(parts) == 2 && alias == "") {
			return "", fmt.Errorf("invalid provider %q", p)
		}
	}
	ret := fmt.Sprintf("provider[%q]", "registry.terraform.io/hashicorp/"+name)
	if len(module) > 0 {
		ret = strings.Join(module, ".") + "." + ret
	}
	if alias != "" {
		ret += "." + alias
	}
	return ret, nil
}

// dependencyV3 converts a depends_on entry of a resource in module (a
// version 4 module address, "" for the root) into the absolute resource
// address version 4 dependencies hold. Entries may name a data source, an
// instance ("aws_instance.a.0") or every instance ("aws_instance.a.*");
// entries naming a whole module have no resource address and are dropped.
func dependencyV3(module, dep string) (string, bool) {
	dep = strings.TrimSuffix(dep, ".*")
	if strings.HasPrefix(dep, "module.") {
		return "", false
	}
	mode, typ, name, _, err := parseResourceKeyV3(dep)
	if err != nil {
		return "", false
	}
	addr := typ + "." + name
	if mode == "data" {
		addr = "data." + addr
	}
	if module != "" {
		addr = module + "." + addr
	}
	return addr, true
}

// outputTypeV3 returns the version 4 type of a version 3 output. Lists and
// maps of strings keep those types; lists and maps holding other values
// (such as a list of maps) get the type their value implies.
func outputTypeV3(name string, o outputV3) (json.RawMessage, error) {
	switch o.Type {
	case "string":
		return json.RawMessage(`"string"`), nil
	case "list":
		var l []string
		if json.Unmarshal(o.Value, &l) == nil {
			return json.RawMessage(`["list","string"]`), nil
		}
	case "map":
		var m map[string]string
		if json.Unmarshal(o.Value, &m) == nil {
			return json.RawMessage(`["map","string"]`), nil
		}
	default:
		return nil, fmt.Errorf("output %q has unsupported type %q", name, o.Type)
	}
	ty, err := ctyjson.ImpliedType(o.Value)
	if err != nil {
		return nil, fmt.Errorf("output %q has an invalid value: %w", name, err)
	}
	return ctyjson.MarshalType(ty)
}
