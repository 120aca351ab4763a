package statefile

import (
	"encoding/json"
	"fmt"
	"sort"

	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/states"
)

// CurrentVersion is the state format version strata writes.
const CurrentVersion = 4

// Write encodes s as a version 4 state document, indented as Terraform
// writes it, with a trailing newline.
func Write(s *states.State) ([]byte, error) {
	sv := stateV4{
		Version:          CurrentVersion,
		TerraformVersion: s.TerraformVersion,
		Serial:           s.Serial,
		Lineage:          s.Lineage,
		Outputs:          map[string]outputStateV4{},
		Resources:        []resourceStateV4{},
		CheckResults:     s.CheckResults,
	}
	if len(sv.CheckResults) == 0 {
		sv.CheckResults = json.RawMessage("null")
	}
	for name, o := range s.Outputs {
		out, err := EncodeOutput(o)
		if err != nil {
			return nil, fmt.Errorf("output %q: %w", name, err)
		}
		sv.Outputs[name] = out
	}
	dc := newDependencyClosure(s)
	for _, r := range s.SortedResources() {
		rs, err := encodeResource(r, dc)
		if err != nil {
			return nil, err
		}
		sv.Resources = append(sv.Resources, rs)
	}
	buf, err := json.MarshalIndent(sv, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(buf, '\n'), nil
}

// EncodeOutput renders an output value as the state file stores it.
func EncodeOutput(o *states.OutputValue) (outputStateV4, error) {
	v, _ := o.Value.UnmarkDeep()
	if !v.IsWhollyKnown() {
		return outputStateV4{}, fmt.Errorf("value is not known")
	}
	ty := v.Type()
	val, err := ctyjson.Marshal(v, ty)
	if err != nil {
		return outputStateV4{}, err
	}
	tyJSON, err := ctyjson.MarshalType(ty)
	if err != nil {
		return outputStateV4{}, err
	}
	return outputStateV4{Value: val, Type: tyJSON, Sensitive: o.Sensitive}, nil
}

func encodeResource(r *states.Resource, dc *dependencyClosure) (resourceStateV4, error) {
	rs := resourceStateV4{
		Module:    r.Addr.Module.String(),
		Mode:      r.Addr.Resource.Mode.StateName(),
		Type:      r.Addr.Resource.Type,
		Name:      r.Addr.Resource.Name,
		Provider:  r.ProviderConfig.String(),
		Instances: []instanceObjectV4{},
	}
	for _, k := range r.SortedKeys() {
		inst := r.Instances[k]
		if inst.Current != nil {
			is, err := EncodeObject(withClosure(dc, r, inst.Current))
			if err != nil {
				return rs, fmt.Errorf("%s: %w", r.Addr.Instance(k), err)
			}
			is.IndexKey = keyJSON(k)
			rs.Instances = append(rs.Instances, is)
		}
		dks := make([]string, 0, len(inst.Deposed))
		for dk := range inst.Deposed {
			dks = append(dks, dk)
		}
		sort.Strings(dks)
		for _, dk := range dks {
			is, err := EncodeObject(withClosure(dc, r, inst.Deposed[dk]))
			if err != nil {
				return rs, fmt.Errorf("%s (deposed %s): %w", r.Addr.Instance(k), dk, err)
			}
			is.IndexKey = keyJSON(k)
			is.Deposed = dk
			rs.Instances = append(rs.Instances, is)
		}
	}
	return rs, nil
}

// withClosure returns o, or a shallow copy of it whose dependencies are
// completed with their transitive dependencies.
func withClosure(dc *dependencyClosure, r *states.Resource, o *states.ObjectSrc) *states.ObjectSrc {
	deps := dc.complete(r, o)
	if len(deps) == len(o.Dependencies) {
		return o
	}
	c := *o
	c.Dependencies = deps
	return &c
}

// EncodeObject renders one object as a state file instance entry (without
// its index key or deposed key).
func EncodeObject(o *states.ObjectSrc) (instanceObjectV4, error) {
	is := instanceObjectV4{
		SchemaVersion:         o.SchemaVersion,
		AttributesRaw:         o.AttrsJSON,
		AttributesFlat:        o.AttrsFlat,
		PrivateRaw:            o.Private,
		CreateBeforeDestroy:   o.CreateBeforeDestroy,
		IdentitySchemaVersion: o.IdentitySchemaVersion,
		IdentityRaw:           o.IdentityJSON,
	}
	if o.Status == states.ObjectTainted {
		is.Status = "tainted"
	}
	paths, err := encodePaths(o.SensitivePaths)
	if err != nil {
		return is, err
	}
	is.SensitiveAttributes = paths
	// Dependencies keep the order they were recorded in, as Terraform
	// writes them: sorting here would rewrite states Terraform wrote (the
	// engine sorts the dependencies it computes itself).
	for _, d := range o.Dependencies {
		is.Dependencies = append(is.Dependencies, d.String())
	}
	return is, nil
}
