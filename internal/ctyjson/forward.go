package ctyjson

import (
	"github.com/zclconf/go-cty/cty"
	gocty "github.com/zclconf/go-cty/cty/json"
)

// Marshal encodes v as JSON for type t. It is go-cty's encoder, here so
// that code decoding with this package needs one import for both ways.
func Marshal(v cty.Value, t cty.Type) ([]byte, error) { return gocty.Marshal(v, t) }

// MarshalType encodes a type as JSON (go-cty's encoding).
func MarshalType(t cty.Type) ([]byte, error) { return gocty.MarshalType(t) }

// UnmarshalType decodes a type from JSON (go-cty's decoding).
func UnmarshalType(buf []byte) (cty.Type, error) { return gocty.UnmarshalType(buf) }
