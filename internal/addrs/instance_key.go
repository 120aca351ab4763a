package addrs

import (
	"fmt"
	"strconv"

	"github.com/zclconf/go-cty/cty"
)

// InstanceKey identifies one instance of a resource or module that uses
// count (IntKey) or for_each (StringKey). NoKey is the key of a single
// instance.
type InstanceKey interface {
	instanceKey()
	// String returns the key in index syntax: `[0]` or `["a"]`, or "" for NoKey.
	String() string
	// Value returns the key as a cty value (count.index or each.key).
	Value() cty.Value
}

// NoKey is the key of a resource with neither count nor for_each.
var NoKey InstanceKey

// IntKey is a count index.
type IntKey int

// StringKey is a for_each key.
type StringKey string

func (IntKey) instanceKey()    {}
func (StringKey) instanceKey() {}

// String implements InstanceKey.
func (k IntKey) String() string { return fmt.Sprintf("[%d]", int(k)) }

// String implements InstanceKey.
func (k StringKey) String() string { return "[" + strconv.Quote(string(k)) + "]" }

// Value implements InstanceKey.
func (k IntKey) Value() cty.Value { return cty.NumberIntVal(int64(k)) }

// Value implements InstanceKey.
func (k StringKey) Value() cty.Value { return cty.StringVal(string(k)) }

// KeyString returns k.String(), or "" for NoKey.
func KeyString(k InstanceKey) string {
	if k == nil {
		return ""
	}
	return k.String()
}

// CompareKeys orders instance keys: NoKey first, then integer keys
// numerically, then string keys lexically.
func CompareKeys(a, b InstanceKey) int {
	rank := func(k InstanceKey) int {
		switch k.(type) {
		case nil:
			return 0
		case IntKey:
			return 1
		default:
			return 2
		}
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra - rb
	}
	switch a := a.(type) {
	case IntKey:
		return int(a) - int(b.(IntKey))
	case StringKey:
		bs := string(b.(StringKey))
		switch {
		case string(a) < bs:
			return -1
		case string(a) > bs:
			return 1
		}
	}
	return 0
}
