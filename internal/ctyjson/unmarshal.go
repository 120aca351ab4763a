// Package ctyjson decodes cty values from their JSON encoding (the one
// go-cty's cty/json package defines and the state format uses) in a
// single pass over the bytes.
//
// go-cty's decoder starts a new encoding/json decoder for every nested
// value, re-reading and copying each level: on a state of 10,000
// resources it was the largest source of allocations in a plan. This one
// reads each byte once. It gives the same value as go-cty's for every
// input go-cty accepts, and for anything unusual (a string where a bool is
// expected, invalid UTF-8, trailing bytes, any error) it hands the whole
// input to go-cty, so errors and edge cases are go-cty's own.
package ctyjson

import (
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	gocty "github.com/zclconf/go-cty/cty/json"
)

// Unmarshal decodes buf as a value of type t, as go-cty's
// cty/json.Unmarshal does.
func Unmarshal(buf []byte, t cty.Type) (cty.Value, error) {
	d := decoder{buf: buf}
	if v, ok := d.value(t); ok {
		d.space()
		if d.pos == len(d.buf) {
			return v, nil
		}
	}
	return gocty.Unmarshal(buf, t)
}

// decoder reads one JSON document. Its methods return ok=false for
// anything they do not decode exactly as go-cty would; Unmarshal then
// starts over with go-cty.
type decoder struct {
	buf []byte
	pos int
}

func (d *decoder) space() {
	for d.pos < len(d.buf) {
		switch d.buf[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, or 0 at the end.
func (d *decoder) peek() byte {
	d.space()
	if d.pos < len(d.buf) {
		return d.buf[d.pos]
	}
	return 0
}

// consume skips white space and the byte c, reporting whether it was there.
func (d *decoder) consume(c byte) bool {
	if d.peek() != c {
		return false
	}
	d.pos++
	return true
}

func (d *decoder) literal(word string) bool {
	if len(d.buf)-d.pos < len(word) || string(d.buf[d.pos:d.pos+len(word)]) != word {
		return false
	}
	d.pos += len(word)
	return true
}

func (d *decoder) value(t cty.Type) (cty.Value, bool) {
	c := d.peek()
	if c == 'n' {
		return cty.NullVal(t), d.literal("null")
	}
	switch {
	case t == cty.DynamicPseudoType:
		return d.dynamic()
	case t == cty.String:
		if c != '"' {
			return cty.NilVal, false
		}
		s, ok := d.str()
		return cty.StringVal(s), ok
	case t == cty.Number:
		s, ok := d.number()
		if !ok {
			return cty.NilVal, false
		}
		v, err := cty.ParseNumberVal(s)
		return v, err == nil
	case t == cty.Bool:
		if d.literal("true") {
			return cty.True, true
		}
		return cty.False, d.literal("false")
	case t.IsListType(), t.IsSetType():
		return d.collection(t)
	case t.IsMapType():
		return d.mapping(t.ElementType())
	case t.IsTupleType():
		return d.tuple(t.TupleElementTypes())
	case t.IsObjectType():
		return d.object(t.AttributeTypes())
	}
	return cty.NilVal, false // capsules and anything new: go-cty's
}

// collection decodes a list or set of t's element type.
func (d *decoder) collection(t cty.Type) (cty.Value, bool) {
	ety := t.ElementType()
	var vals []cty.Value
	ok := d.array(func() bool {
		v, ok := d.value(ety)
		if ok && len(vals) > 0 && !v.Type().Equals(vals[0].Type()) {
			return false // go-cty would panic building it; let it
		}
		vals = append(vals, v)
		return ok
	})
	switch {
	case !ok:
		return cty.NilVal, false
	case t.IsListType() && len(vals) == 0:
		return cty.ListValEmpty(ety), true
	case t.IsListType():
		return cty.ListVal(vals), true
	case len(vals) == 0:
		return cty.SetValEmpty(ety), true
	}
	return cty.SetVal(vals), true
}

func (d *decoder) tuple(etys []cty.Type) (cty.Value, bool) {
	vals := make([]cty.Value, 0, len(etys))
	ok := d.array(func() bool {
		if len(vals) == len(etys) {
			return false
		}
		v, ok := d.value(etys[len(vals)])
		vals = append(vals, v)
		return ok
	})
	if !ok || len(vals) != len(etys) {
		return cty.NilVal, false
	}
	if len(vals) == 0 {
		return cty.EmptyTupleVal, true
	}
	return cty.TupleVal(vals), true
}

func (d *decoder) mapping(ety cty.Type) (cty.Value, bool) {
	vals := map[string]cty.Value{}
	var first cty.Type
	ok := d.members(func(key string) bool {
		v, ok := d.value(ety)
		if !ok {
			return false
		}
		if first == cty.NilType {
			first = v.Type()
		} else if !v.Type().Equals(first) {
			return false // go-cty would panic building it; let it
		}
		vals[key] = v
		return true
	})
	if !ok {
		return cty.NilVal, false
	}
	if len(vals) == 0 {
		return cty.MapValEmpty(ety), true
	}
	return cty.MapVal(vals), true
}

func (d *decoder) object(atys map[string]cty.Type) (cty.Value, bool) {
	vals := make(map[string]cty.Value, len(atys))
	ok := d.members(func(key string) bool {
		aty, known := atys[key]
		if !known {
			return false
		}
		v, ok := d.value(aty)
		vals[key] = v
		return ok
	})
	if !ok {
		return cty.NilVal, false
	}
	for name, aty := range atys {
		if _, set := vals[name]; !set {
			vals[name] = cty.NullVal(aty)
		}
	}
	if len(vals) == 0 {
		return cty.EmptyObjectVal, true
	}
	return cty.ObjectVal(vals), true
}

// dynamic decodes {"value": ..., "type": ...}, in either order.
func (d *decoder) dynamic() (cty.Value, bool) {
	var t cty.Type
	valueAt := -1
	ok := d.members(func(key string) bool {
		switch key {
		case "type":
			start := d.pos
			if !d.skip() {
				return false
			}
			var err error
			t, err = decodeType(d.buf[start:d.pos])
			return err == nil
		case "value":
			d.space()
			valueAt = d.pos
			return d.skip()
		}
		return false
	})
	if !ok || t == cty.NilType || valueAt < 0 {
		return cty.NilVal, false
	}
	end := d.pos
	d.pos = valueAt
	v, ok := d.value(t)
	d.pos = end
	return v, ok
}

// decodeType decodes a type's JSON, with the common primitive types
// recognised without a decoder.
func decodeType(raw []byte) (cty.Type, error) {
	switch string(raw) {
	case `"string"`:
		return cty.String, nil
	case `"number"`:
		return cty.Number, nil
	case `"bool"`:
		return cty.Bool, nil
	case `"dynamic"`:
		return cty.DynamicPseudoType, nil
	}
	var t cty.Type
	err := json.Unmarshal(raw, &t)
	return t, err
}

// array reads "[" elem ("," elem)* "]", calling elem for each element.
func (d *decoder) array(elem func() bool) bool {
	if !d.consume('[') {
		return false
	}
	if d.consume(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if d.consume(']') {
			return true
		}
		if !d.consume(',') {
			return false
		}
	}
}

// members reads "{" key ":" value ("," ...)* "}", calling member with each
// key and the decoder positioned at its value.
func (d *decoder) members(member func(key string) bool) bool {
	if !d.consume('{') {
		return false
	}
	if d.consume('}') {
		return true
	}
	for {
		if d.peek() != '"' {
			return false
		}
		key, ok := d.str()
		if !ok || !d.consume(':') || !member(key) {
			return false
		}
		if d.consume('}') {
			return true
		}
		if !d.consume(',') {
			return false
		}
	}
}

// skip moves past one value of any kind, checking its syntax.
func (d *decoder) skip() bool {
	switch c := d.peek(); {
	case c == '"':
		_, ok := d.str()
		return ok
	case c == '{':
		return d.members(func(string) bool { return d.skip() })
	case c == '[':
		return d.array(d.skip)
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	}
	_, ok := d.number()
	return ok
}

// number reads a number with JSON's grammar and returns its text.
func (d *decoder) number() (string, bool) {
	d.space()
	start := d.pos
	if d.pos < len(d.buf) && d.buf[d.pos] == '-' {
		d.pos++
	}
	switch {
	case d.pos < len(d.buf) && d.buf[d.pos] == '0':
		d.pos++
	case d.digits() == 0:
		return "", false
	}
	if d.pos < len(d.buf) && d.buf[d.pos] == '.' {
		d.pos++
		if d.digits() == 0 {
			return "", false
		}
	}
	if d.pos < len(d.buf) && (d.buf[d.pos] == 'e' || d.buf[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.buf) && (d.buf[d.pos] == '+' || d.buf[d.pos] == '-') {
			d.pos++
		}
		if d.digits() == 0 {
			return "", false
		}
	}
	return string(d.buf[start:d.pos]), true
}

func (d *decoder) digits() int {
	start := d.pos
	for d.pos < len(d.buf) && d.buf[d.pos] >= '0' && d.buf[d.pos] <= '9' {
		d.pos++
	}
	return d.pos - start
}

// str reads a string at the current position (which is its opening
// quote). Invalid UTF-8 and lone surrogates, which encoding/json replaces
// with U+FFFD, are left to go-cty.
func (d *decoder) str() (string, bool) {
	d.pos++ // the opening quote
	start := d.pos
	plain := true // no escapes: the bytes are the string
	ascii := true
	for ; d.pos < len(d.buf); d.pos++ {
		switch c := d.buf[d.pos]; {
		case c == '"':
			raw := d.buf[start:d.pos]
			d.pos++
			if !ascii && !utf8.Valid(raw) {
				return "", false
			}
			if plain {
				return string(raw), true
			}
			return unescape(raw)
		case c == '\\':
			plain = false
			d.pos++ // the escaped byte cannot end the string
		case c < 0x20:
			return "", false
		case c >= 0x80:
			ascii = false
		}
	}
	return "", false
}

// unescape decodes the escapes of a string's contents.
func unescape(raw []byte) (string, bool) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i >= len(raw) {
			return "", false
		}
		switch raw[i] {
		case '"', '\\', '/':
			out = append(out, raw[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(raw, i+1)
			if !ok {
				return "", false
			}
			i += 4
			if utf16.IsSurrogate(r) {
				if i+6 >= len(raw) || raw[i+1] != '\\' || raw[i+2] != 'u' {
					return "", false
				}
				lo, ok := hex4(raw, i+3)
				if !ok {
					return "", false
				}
				r = utf16.DecodeRune(r, lo)
				if r == utf8.RuneError {
					return "", false
				}
				i += 6
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", false
		}
	}
	return string(out), true
}

// hex4 reads the four hexadecimal digits at raw[i:].
func hex4(raw []byte, i int) (rune, bool) {
	if i+4 > len(raw) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(raw[i:i+4]), 16, 32)
	return rune(n), err == nil
}
