package engine

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/ctyjson"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/states"
)

// encodeObject turns a wholly known object value into its stored form,
// recording sensitive marks as paths.
func encodeObject(v cty.Value, rt *resourceType, private []byte, deps []addrs.AbsResource, cbd bool) (*states.ObjectSrc, error) {
	unmarked, paths := marks.Paths(v)
	// Write-only attributes are never stored.
	unmarked = nullWriteOnly(unmarked, rt.schema)
	// rt.ty, built once per walk: building the schema's type for every
	// object was a twentieth of a large plan's CPU.
	raw, err := ctyjson.Marshal(unmarked, rt.ty)
	if err != nil {
		return nil, err
	}
	return &states.ObjectSrc{
		SchemaVersion:       uint64(rt.version),
		AttrsJSON:           raw,
		SensitivePaths:      paths,
		Private:             private,
		Status:              states.ObjectReady,
		Dependencies:        deps,
		CreateBeforeDestroy: cbd,
	}, nil
}

// decodeObject decodes a stored object of the current schema version and
// re-applies its sensitive marks.
func decodeObject(obj *states.ObjectSrc, rt *resourceType) (cty.Value, error) {
	v, err := ctyjson.Unmarshal(obj.AttrsJSON, rt.ty)
	if err != nil {
		return cty.NilVal, fmt.Errorf("the stored object does not match the resource type's schema: %w", err)
	}
	return marks.Apply(v, obj.SensitivePaths), nil
}

// nullWriteOnly replaces write-only attributes of v with nulls.
func nullWriteOnly(v cty.Value, schema *configschema.Block) cty.Value {
	if v.IsNull() || !v.IsKnown() {
		return v
	}
	has := false
	for _, a := range schema.Attributes {
		if a.WriteOnly {
			has = true
		}
	}
	if !has {
		return v
	}
	m := v.AsValueMap()
	for name, a := range schema.Attributes {
		if a.WriteOnly {
			m[name] = cty.NullVal(a.ImpliedType())
		}
	}
	return cty.ObjectVal(m)
}

// markSchemaSensitive marks the attributes the schema declares sensitive.
func markSchemaSensitive(v cty.Value, schema *configschema.Block) cty.Value {
	if v.IsNull() || !v.IsKnown() {
		return v
	}
	var paths []cty.Path
	for name, a := range schema.Attributes {
		if a.Sensitive {
			paths = append(paths, cty.GetAttrPath(name))
		}
	}
	return marks.Apply(v, paths)
}
