package runrecord

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
)

// The run log's records are written on the apply's goroutines, so the
// entries are encoded by hand here, in the JSON encoding/json gives
// them (the reader decodes them with encoding/json), at a fraction of
// the reflection's cost.

// appendEntry appends e as JSON.
func appendEntry(b []byte, e *Entry) []byte {
	b = append(b, `{"run_id":`...)
	b = appendString(b, e.RunID)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(e.Seq), 10)
	b = appendField(b, "kind", e.Kind, false)
	b = appendField(b, "address", e.Address, false)
	b = appendField(b, "deposed", e.Deposed, true)
	b = appendField(b, "type", e.Type, false)
	b = appendField(b, "module", e.Module, true)
	b = appendField(b, "provider", e.Provider, false)
	b = appendField(b, "action", e.Action, false)
	b = appendField(b, "action_reason", e.ActionReason, true)
	if len(e.ReplacePaths) > 0 {
		b = append(b, `,"replace_paths":[`...)
		for i, p := range e.ReplacePaths {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, p)
		}
		b = append(b, ']')
	}
	b = appendField(b, "import_id", e.Import, true)
	b = appendField(b, "moved_from", e.MovedFrom, true)
	b = appendField(b, "outcome", string(e.Outcome), false)
	b = appendField(b, "reason", e.Reason, true)
	b = appendField(b, "diagnostics", e.Diagnostics, true)
	b = appendTime(b, "started_at", e.Started)
	b = appendTime(b, "ended_at", e.Ended)
	b = append(b, `,"changes":`...)
	if e.Changes == nil {
		b = append(b, "null"...)
	} else {
		b = appendChanges(b, e.Changes)
	}
	if e.SealedChanges != nil {
		b = append(b, `,"changes_sealed":`...)
		b = append(b, e.SealedChanges...)
	}
	if e.SealedDiagnostics != nil {
		b = append(b, `,"diagnostics_sealed":`...)
		b = append(b, e.SealedDiagnostics...)
	}
	return append(b, '}')
}

func appendChange(b []byte, c *AttrChange) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, c.Path)
	b = append(b, `,"before":`...)
	b = appendRaw(b, c.Before)
	b = append(b, `,"after":`...)
	b = appendRaw(b, c.After)
	b = appendField(b, "before_mark", c.BeforeMark, true)
	b = appendField(b, "after_mark", c.AfterMark, true)
	return append(b, '}')
}

// appendRaw appends a JSON value, compacted (encoding/json compacts a
// RawMessage too); nil is null.
func appendRaw(b []byte, v json.RawMessage) []byte {
	if len(v) == 0 {
		return append(b, "null"...)
	}
	if !bytes.ContainsAny(v, " \t\r\n") {
		return append(b, v...)
	}
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil {
		return append(b, "null"...)
	}
	return append(b, buf.Bytes()...)
}

func appendField(b []byte, name, v string, omitEmpty bool) []byte {
	if omitEmpty && v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendString(b, v)
}

func appendTime(b []byte, name string, t time.Time) []byte {
	if t.IsZero() {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, `":"`...)
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string, as encoding/json writes it
// (HTML characters escaped, invalid UTF-8 replaced).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// objectField returns the raw value of key in the JSON object obj,
// without decoding the rest of it.
func objectField(obj []byte, key string) (json.RawMessage, bool) {
	var found json.RawMessage
	ok := eachField(obj, func(k, v []byte) bool {
		if keyEquals(k, key) {
			found = v
			return false
		}
		return true
	})
	return found, ok && found != nil
}

// objectLen counts the members of a JSON object, -1 if obj is not one.
func objectLen(obj []byte) int {
	n := 0
	if !eachField(obj, func(k, v []byte) bool { n++; return true }) {
		return -1
	}
	return n
}

// eachField calls fn with each member of the JSON object obj (the key as
// a string token, with its quotes, and the raw value) until fn returns
// false. It returns false when obj is not a well-formed object.
func eachField(obj []byte, fn func(k, v []byte) bool) bool {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	i = skipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return true
	}
	for {
		if i >= len(obj) || obj[i] != '"' {
			return false
		}
		end := skipString(obj, i)
		if end < 0 {
			return false
		}
		k := obj[i:end]
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return false
		}
		i = skipSpace(obj, i+1)
		vEnd := skipValue(obj, i)
		if vEnd < 0 {
			return false
		}
		if !fn(k, obj[i:vEnd]) {
			return true
		}
		i = skipSpace(obj, vEnd)
		if i < len(obj) && obj[i] == '}' {
			return true
		}
		if i >= len(obj) || obj[i] != ',' {
			return false
		}
		i = skipSpace(obj, i+1)
	}
}

// keyEquals compares a JSON string token (with its quotes) with key.
func keyEquals(tok []byte, key string) bool {
	if bytes.IndexByte(tok, '\\') < 0 {
		return string(tok[1:len(tok)-1]) == key
	}
	var s string
	return json.Unmarshal(tok, &s) == nil && s == key
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] ('"'),
// or -1.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipValue returns the index after the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				end := skipString(b, i)
				if end < 0 {
					return -1
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	default:
		for ; i < len(b); i++ {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
		}
		return i
	}
}

// containsMarked is cty's Value.ContainsMarked without building a path
// for every value it walks.
func containsMarked(v cty.Value) bool {
	if v.IsMarked() {
		return true
	}
	if !v.IsKnown() || v.IsNull() {
		return false
	}
	ty := v.Type()
	if !(ty.IsObjectType() || ty.IsMapType() || ty.IsListType() || ty.IsSetType() || ty.IsTupleType()) {
		return false
	}
	if ty.IsObjectType() {
		for name := range ty.AttributeTypes() {
			if containsMarked(v.GetAttr(name)) {
				return true
			}
		}
		return false
	}
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if containsMarked(e) {
			return true
		}
	}
	return false
}
