package statefile

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/go-version"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/upgrade"
)

// ErrEmpty is returned by Read for an empty file, which means "no state".
var ErrEmpty = fmt.Errorf("state file is empty")

// Read decodes a state snapshot of any supported format version, upgrading
// older versions to version 4 first. An empty input returns ErrEmpty.
func Read(src []byte) (*states.State, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, ErrEmpty
	}
	src, err := upgrade.StateFile(src, CurrentVersion)
	if err != nil {
		return nil, err
	}
	var sv stateV4
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	if err := dec.Decode(&sv); err != nil {
		return nil, fmt.Errorf("the state file could not be parsed as JSON: %w", err)
	}
	if sv.TerraformVersion != "" {
		if _, err := version.NewVersion(sv.TerraformVersion); err != nil {
			return nil, fmt.Errorf("the state file has an invalid terraform_version %q", sv.TerraformVersion)
		}
	}
	s := states.New()
	s.Lineage, s.Serial, s.TerraformVersion = sv.Lineage, sv.Serial, sv.TerraformVersion
	if len(sv.CheckResults) > 0 && string(sv.CheckResults) != "null" {
		s.CheckResults = sv.CheckResults
	}
	for name, o := range sv.Outputs {
		ov, err := decodeOutput(o)
		if err != nil {
			return nil, fmt.Errorf("output %q: %w", name, err)
		}
		s.Outputs[name] = ov
	}
	deps := depCache{}
	for _, rs := range sv.Resources {
		if err := readResource(s, rs, deps); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func decodeOutput(o outputStateV4) (*states.OutputValue, error) {
	ty, err := ctyjson.UnmarshalType(o.Type)
	if err != nil {
		return nil, fmt.Errorf("invalid type: %w", err)
	}
	v, err := ctyjson.Unmarshal(o.Value, ty)
	if err != nil {
		return nil, fmt.Errorf("invalid value: %w", err)
	}
	return &states.OutputValue{Value: v, Sensitive: o.Sensitive}, nil
}

func readResource(s *states.State, rs resourceStateV4, deps depCache) error {
	var mode addrs.ResourceMode
	switch rs.Mode {
	case "managed":
		mode = addrs.ManagedResourceMode
	case "data":
		mode = addrs.DataResourceMode
	default:
		return fmt.Errorf("resource %s.%s has invalid mode %q", rs.Type, rs.Name, rs.Mode)
	}
	if rs.Type == "" || rs.Name == "" {
		return fmt.Errorf("a resource in the state file has no type or name")
	}
	var module addrs.ModuleInstance
	if rs.Module != "" {
		inst, diags := addrs.ParseAbsResourceInstanceStr(rs.Module + ".x.y")
		// "data" or "module.a.data" parse as a data resource x.y: only a
		// non-empty module path followed by the managed resource x.y is valid.
		if diags.HasErrors() || inst.Module.IsRoot() || inst.Resource.Resource.Mode != addrs.ManagedResourceMode {
			return fmt.Errorf("resource %s.%s has invalid module address %q", rs.Type, rs.Name, rs.Module)
		}
		module = inst.Module
	}
	addr := addrs.Resource{Mode: mode, Type: rs.Type, Name: rs.Name}.Absolute(module)
	provider, err := addrs.ParseAbsProviderConfig(rs.Provider)
	if err != nil {
		return fmt.Errorf("resource %s: %w", addr, err)
	}
	if len(rs.Instances) == 0 {
		// Terraform keeps resources with no instances; so do we, by
		// registering the resource itself.
		s.Resources[addr.String()] = &states.Resource{Addr: addr, ProviderConfig: provider, Instances: map[addrs.InstanceKey]*states.ResourceInstance{}}
	}
	for _, is := range rs.Instances {
		key, err := decodeIndexKey(is.IndexKey)
		if err != nil {
			return fmt.Errorf("resource %s: %w", addr, err)
		}
		iaddr := addr.Instance(key)
		obj := &states.ObjectSrc{
			SchemaVersion:         is.SchemaVersion,
			AttrsFlat:             is.AttributesFlat,
			Private:               is.PrivateRaw,
			Status:                states.ObjectReady,
			CreateBeforeDestroy:   is.CreateBeforeDestroy,
			IdentitySchemaVersion: is.IdentitySchemaVersion,
		}
		if len(is.AttributesRaw) > 0 {
			obj.AttrsJSON = compact(is.AttributesRaw)
		}
		if len(is.IdentityRaw) > 0 {
			obj.IdentityJSON = compact(is.IdentityRaw)
		}
		switch is.Status {
		case "":
		case "tainted":
			obj.Status = states.ObjectTainted
		default:
			return fmt.Errorf("instance %s has invalid status %q", iaddr, is.Status)
		}
		if obj.SensitivePaths, err = decodePaths(is.SensitiveAttributes); err != nil {
			return fmt.Errorf("instance %s: %w", iaddr, err)
		}
		if len(is.Dependencies) > 0 {
			obj.Dependencies = make([]addrs.AbsResource, 0, len(is.Dependencies))
		}
		for _, d := range is.Dependencies {
			dep, err := deps.parse(d)
			if err != nil {
				return fmt.Errorf("instance %s has invalid dependency %q", iaddr, d)
			}
			obj.Dependencies = append(obj.Dependencies, dep)
		}
		if is.Deposed != "" {
			s.SetDeposed(iaddr, is.Deposed, obj, provider)
		} else {
			s.SetObject(iaddr, obj, provider)
		}
	}
	return nil
}

func decodeIndexKey(k any) (addrs.InstanceKey, error) {
	switch k := k.(type) {
	case nil:
		return addrs.NoKey, nil
	case string:
		return addrs.StringKey(k), nil
	case json.Number:
		i, err := k.Int64()
		if err != nil || i < 0 {
			return nil, fmt.Errorf("invalid index_key %s", k)
		}
		return addrs.IntKey(int(i)), nil
	default:
		return nil, fmt.Errorf("invalid index_key %v", k)
	}
}

func compact(raw []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return raw
	}
	return buf.Bytes()
}

// keyJSON renders an instance key as the state file's index_key.
func keyJSON(k addrs.InstanceKey) any {
	switch k := k.(type) {
	case addrs.IntKey:
		return int(k)
	case addrs.StringKey:
		return string(k)
	default:
		return nil
	}
}

// depCache parses each distinct dependency address of a state once: a
// state lists the same few addresses many times over, since every object
// records everything it depends on.
type depCache map[string]addrs.AbsResource

func (c depCache) parse(s string) (addrs.AbsResource, error) {
	if dep, ok := c[s]; ok {
		return dep, nil
	}
	dep, diags := addrs.ParseAbsResourceStr(s)
	if diags.HasErrors() {
		return addrs.AbsResource{}, diags
	}
	c[s] = dep
	return dep, nil
}
