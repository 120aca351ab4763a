package ctyjson

import (
	"github.com/zclconf/go-cty/cty"
	gocty "github.com/zclconf/go-cty/cty/json"
)

// MarshalType encodes a type as JSON (go-cty's encoding).
func MarshalType(t cty.Type) ([]byte, error) { return gocty.MarshalType(t) }

// UnmarshalType decodes a type from JSON (go-cty's decoding).
func UnmarshalType(buf []byte) (cty.Type, error) { return gocty.UnmarshalType(buf) }
