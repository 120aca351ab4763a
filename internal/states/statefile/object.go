package statefile

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/strata-dev/strata/internal/states"
)

// MarshalObject encodes one object as a state file instance entry, for
// records outside a snapshot (the state journal).
func MarshalObject(obj *states.ObjectSrc) (json.RawMessage, error) {
	return AppendObject(make([]byte, 0, len(obj.AttrsJSON)+128), obj)
}

// AppendObject appends to buf what MarshalObject returns: one object as a
// compact state file instance entry on one line, with the members
// json.Marshal writes for it (in the same order), written directly: the
// journal records every object an apply makes, and json.Marshal would
// reflect over the entry and then scan each raw value again.
func AppendObject(buf []byte, o *states.ObjectSrc) ([]byte, error) {
	paths, err := encodePaths(o.SensitivePaths)
	if err != nil {
		return buf, err
	}
	buf = append(buf, '{')
	if o.Status == states.ObjectTainted {
		buf = append(buf, `"status":"tainted",`...)
	}
	buf = append(buf, `"schema_version":`...)
	buf = strconv.AppendUint(buf, o.SchemaVersion, 10)
	if len(o.AttrsJSON) > 0 {
		buf = append(buf, `,"attributes":`...)
		if buf, err = appendRawLine(buf, o.AttrsJSON); err != nil {
			return buf, err
		}
	}
	if len(o.AttrsFlat) > 0 {
		buf = append(buf, `,"attributes_flat":{`...)
		keys := make([]string, 0, len(o.AttrsFlat))
		for k := range o.AttrsFlat {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSONString(buf, k)
			buf = append(buf, ':')
			buf = appendJSONString(buf, o.AttrsFlat[k])
		}
		buf = append(buf, '}')
	}
	buf = append(buf, `,"sensitive_attributes":`...)
	buf = append(buf, paths...)
	if o.IdentitySchemaVersion != nil {
		buf = append(buf, `,"identity_schema_version":`...)
		buf = strconv.AppendUint(buf, *o.IdentitySchemaVersion, 10)
	}
	if len(o.IdentityJSON) > 0 {
		buf = append(buf, `,"identity":`...)
		if buf, err = appendRawLine(buf, o.IdentityJSON); err != nil {
			return buf, err
		}
	}
	if len(o.Private) > 0 {
		buf = append(buf, `,"private":"`...)
		buf = base64.StdEncoding.AppendEncode(buf, o.Private)
		buf = append(buf, '"')
	}
	if len(o.Dependencies) > 0 {
		buf = append(buf, `,"dependencies":[`...)
		for i, d := range o.Dependencies {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSONString(buf, d.String())
		}
		buf = append(buf, ']')
	}
	if o.CreateBeforeDestroy {
		buf = append(buf, `,"create_before_destroy":true`...)
	}
	return append(buf, '}'), nil
}

// appendRawLine appends a raw JSON value, compacted when it spans lines
// (values the engine encodes are compact already). A value that is not
// JSON is refused, as json.Marshal refuses it: a journal line that does
// not parse would read as the torn end of the journal.
func appendRawLine(buf, raw []byte) ([]byte, error) {
	if !json.Valid(raw) {
		return buf, fmt.Errorf("invalid JSON in object: %.40q", raw)
	}
	if bytes.IndexByte(raw, '\n') < 0 && bytes.IndexByte(raw, '\r') < 0 {
		return append(buf, raw...), nil
	}
	b := bytes.NewBuffer(buf)
	err := json.Compact(b, raw)
	return b.Bytes(), err
}

// AppendJSONString appends s as a JSON string, as encoding/json writes it.
func AppendJSONString(buf []byte, s string) []byte { return appendJSONString(buf, s) }

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
