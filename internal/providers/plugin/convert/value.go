package convert

import (
	"errors"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/msgpack"

	"github.com/strata-dev/strata/internal/ctyjson"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin5"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin6"
)

// EncodeValue returns the msgpack encoding of val as type ty, the form
// DynamicValue carries. Unknown values, refined or not, become the msgpack
// extension the protocol uses for them; marks are removed first, since
// they never cross the wire. A cty.NilVal encodes as a null of ty.
func EncodeValue(val cty.Value, ty cty.Type) ([]byte, error) {
	if val == cty.NilVal {
		val = cty.NullVal(ty)
	}
	if val.ContainsMarked() {
		val, _ = val.UnmarkDeep()
	}
	return msgpack.Marshal(val, ty)
}

// DecodeValue decodes the two encodings of a DynamicValue as type ty:
// msgpack when present, otherwise JSON. A DynamicValue with neither is a
// null of ty.
func DecodeValue(mp, js []byte, ty cty.Type) (cty.Value, error) {
	switch {
	case len(mp) > 0:
		return msgpack.Unmarshal(mp, ty)
	case len(js) > 0:
		return ctyjson.Unmarshal(js, ty)
	default:
		return cty.NullVal(ty), nil
	}
}

// errNoType is returned when a value must be decoded or encoded without a
// schema to take its type from.
var errNoType = errors.New("no type to encode the value with")

// DynamicValue5 encodes val as a protocol 5 DynamicValue of type ty.
func DynamicValue5(val cty.Value, ty cty.Type) (*tfplugin5.DynamicValue, error) {
	if ty == cty.NilType {
		return nil, errNoType
	}
	mp, err := EncodeValue(val, ty)
	if err != nil {
		return nil, err
	}
	return &tfplugin5.DynamicValue{Msgpack: mp}, nil
}

// FromDynamicValue5 decodes a protocol 5 DynamicValue as type ty; nil is a
// null of ty.
func FromDynamicValue5(dv *tfplugin5.DynamicValue, ty cty.Type) (cty.Value, error) {
	if ty == cty.NilType {
		return cty.NilVal, errNoType
	}
	return DecodeValue(dv.GetMsgpack(), dv.GetJson(), ty)
}

// DynamicValue6 encodes val as a protocol 6 DynamicValue of type ty.
func DynamicValue6(val cty.Value, ty cty.Type) (*tfplugin6.DynamicValue, error) {
	if ty == cty.NilType {
		return nil, errNoType
	}
	mp, err := EncodeValue(val, ty)
	if err != nil {
		return nil, err
	}
	return &tfplugin6.DynamicValue{Msgpack: mp}, nil
}

// FromDynamicValue6 decodes a protocol 6 DynamicValue as type ty; nil is a
// null of ty.
func FromDynamicValue6(dv *tfplugin6.DynamicValue, ty cty.Type) (cty.Value, error) {
	if ty == cty.NilType {
		return cty.NilVal, errNoType
	}
	return DecodeValue(dv.GetMsgpack(), dv.GetJson(), ty)
}
