package ctyjson

import (
	"encoding/json"
	"sort"

	"github.com/zclconf/go-cty/cty"
	gocty "github.com/zclconf/go-cty/cty/json"
)

// Marshal encodes v as JSON for type t, as go-cty's cty/json.Marshal
// does, byte for byte. go-cty encodes every string (attribute names
// included) with encoding/json, by reflection, into a fresh slice; the
// state of every object is encoded at least once per plan and apply. This
// encoder appends to one buffer and writes plain ASCII strings itself.
// Anything else (strings needing escapes, conversions, infinities,
// capsules, any error) is left to go-cty, for the whole value or for the
// one string, so the output and the errors are go-cty's own.
func Marshal(v cty.Value, t cty.Type) ([]byte, error) {
	if v.Type().TestConformance(t) == nil {
		e := encoder{buf: make([]byte, 0, 256)}
		if e.value(v, t) {
			return e.buf, nil
		}
	}
	return gocty.Marshal(v, t)
}

type encoder struct{ buf []byte }

// value appends v's encoding; false when go-cty must do it.
func (e *encoder) value(v cty.Value, t cty.Type) bool {
	if v.IsMarked() || !v.IsKnown() {
		return false
	}
	if t == cty.DynamicPseudoType && v.Type() != cty.DynamicPseudoType {
		var typeJSON []byte
		switch v.Type() {
		case cty.String:
			typeJSON = []byte(`"string"`)
		case cty.Number:
			typeJSON = []byte(`"number"`)
		case cty.Bool:
			typeJSON = []byte(`"bool"`)
		default:
			var err error
			if typeJSON, err = gocty.MarshalType(v.Type()); err != nil {
				return false
			}
		}
		e.buf = append(e.buf, `{"value":`...)
		if !e.value(v, v.Type()) {
			return false
		}
		e.buf = append(e.buf, `,"type":`...)
		e.buf = append(e.buf, typeJSON...)
		e.buf = append(e.buf, '}')
		return true
	}
	if v.IsNull() {
		e.buf = append(e.buf, "null"...)
		return true
	}
	switch {
	case t == cty.String:
		return e.string(v.AsString())
	case t == cty.Number:
		f := v.AsBigFloat()
		if f.IsInf() {
			return false
		}
		e.buf = f.Append(e.buf, 'f', -1)
		return true
	case t == cty.Bool:
		if v.True() {
			e.buf = append(e.buf, "true"...)
		} else {
			e.buf = append(e.buf, "false"...)
		}
		return true
	case t.IsListType(), t.IsSetType():
		ety := t.ElementType()
		e.buf = append(e.buf, '[')
		first := true
		for it := v.ElementIterator(); it.Next(); {
			if !first {
				e.buf = append(e.buf, ',')
			}
			first = false
			if _, ev := it.Element(); !e.value(ev, ety) {
				return false
			}
		}
		e.buf = append(e.buf, ']')
		return true
	case t.IsMapType():
		ety := t.ElementType()
		e.buf = append(e.buf, '{')
		first := true
		for it := v.ElementIterator(); it.Next(); {
			if !first {
				e.buf = append(e.buf, ',')
			}
			first = false
			ek, ev := it.Element()
			if !e.value(ek, ek.Type()) {
				return false
			}
			e.buf = append(e.buf, ':')
			if !e.value(ev, ety) {
				return false
			}
		}
		e.buf = append(e.buf, '}')
		return true
	case t.IsTupleType():
		etys := t.TupleElementTypes()
		e.buf = append(e.buf, '[')
		i := 0
		for it := v.ElementIterator(); it.Next(); {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if _, ev := it.Element(); !e.value(ev, etys[i]) {
				return false
			}
			i++
		}
		e.buf = append(e.buf, ']')
		return true
	case t.IsObjectType():
		atys := t.AttributeTypes()
		var arr [16]string
		names := arr[:0]
		for k := range atys {
			names = append(names, k)
		}
		sort.Strings(names)
		e.buf = append(e.buf, '{')
		for i, k := range names {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if !e.string(k) {
				return false
			}
			e.buf = append(e.buf, ':')
			if !e.value(v.GetAttr(k), atys[k]) {
				return false
			}
		}
		e.buf = append(e.buf, '}')
		return true
	}
	return false // capsules, and anything unforeseen
}

// string appends s quoted as encoding/json quotes it: plain printable
// ASCII here, anything else through encoding/json.
func (e *encoder) string(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			b, err := json.Marshal(s)
			if err != nil {
				return false
			}
			e.buf = append(e.buf, b...)
			return true
		}
	}
	e.buf = append(e.buf, '"')
	e.buf = append(e.buf, s...)
	e.buf = append(e.buf, '"')
	return true
}
