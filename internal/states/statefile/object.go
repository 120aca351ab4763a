package statefile

import (
	"encoding/json"

	"github.com/strata-dev/strata/internal/states"
)

// MarshalObject encodes one object as a state file instance entry, for
// records outside a snapshot (the state journal).
func MarshalObject(obj *states.ObjectSrc) (json.RawMessage, error) {
	is, err := EncodeObject(obj)
	if err != nil {
		return nil, err
	}
	return json.Marshal(is)
}

// UnmarshalObject decodes what MarshalObject produced.
func UnmarshalObject(raw json.RawMessage) (*states.ObjectSrc, error) {
	var is instanceObjectV4
	if err := json.Unmarshal(raw, &is); err != nil {
		return nil, err
	}
	obj := &states.ObjectSrc{
		SchemaVersion:         is.SchemaVersion,
		AttrsJSON:             compact(is.AttributesRaw),
		AttrsFlat:             is.AttributesFlat,
		Private:               is.PrivateRaw,
		Status:                states.ObjectReady,
		CreateBeforeDestroy:   is.CreateBeforeDestroy,
		IdentitySchemaVersion: is.IdentitySchemaVersion,
		IdentityJSON:          is.IdentityRaw,
	}
	if is.Status == "tainted" {
		obj.Status = states.ObjectTainted
	}
	var err error
	if obj.SensitivePaths, err = decodePaths(is.SensitiveAttributes); err != nil {
		return nil, err
	}
	if obj.Dependencies, _, err = (depCache{}).parseList(is.Dependencies); err != nil {
		return nil, err
	}
	return obj, nil
}

// MarshalOutput encodes an output value as the state file stores it.
func MarshalOutput(o *states.OutputValue) (json.RawMessage, error) {
	out, err := EncodeOutput(o)
	if err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

// UnmarshalOutput decodes what MarshalOutput produced.
func UnmarshalOutput(raw json.RawMessage) (*states.OutputValue, error) {
	var o outputStateV4
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, err
	}
	return decodeOutput(o)
}
