package convert

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/msgpack"

	"github.com/strata-dev/strata/internal/ctyjson"
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
