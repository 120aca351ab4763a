package statefile

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// docWriter writes a JSON document laid out as json.MarshalIndent(v, "",
// "  ") lays it out: each member and element on its own line, indented two
// spaces a level, "key": value, and empty objects and arrays as {} and [].
// Strings and raw values are escaped as encoding/json escapes them,
// including its HTML escaping.
type docWriter struct {
	buf []byte
	// empty records, for each open object or array, whether nothing has
	// been written in it yet.
	empty []bool
	err   error
	tmp   bytes.Buffer
}

func (w *docWriter) open(c byte) {
	w.buf = append(w.buf, c)
	w.empty = append(w.empty, true)
}

func (w *docWriter) close(c byte) {
	empty := w.empty[len(w.empty)-1]
	w.empty = w.empty[:len(w.empty)-1]
	if !empty {
		w.newline()
	}
	w.buf = append(w.buf, c)
}

// elem starts an array element (or an object member).
func (w *docWriter) elem() {
	if e := &w.empty[len(w.empty)-1]; *e {
		*e = false
	} else {
		w.buf = append(w.buf, ',')
	}
	w.newline()
}

// key starts an object member whose name needs no escaping.
func (w *docWriter) key(name string) {
	w.elem()
	w.buf = append(w.buf, '"')
	w.buf = append(w.buf, name...)
	w.buf = append(w.buf, `": `...)
}

// member starts an object member with any name.
func (w *docWriter) member(name string) {
	w.elem()
	w.string(name)
	w.buf = append(w.buf, `: `...)
}

func (w *docWriter) newline() {
	if n := 1 + 2*len(w.empty); n <= len(newlineIndent) {
		w.buf = append(w.buf, newlineIndent[:n]...)
		return
	}
	w.buf = append(w.buf, '\n')
	for range w.empty {
		w.buf = append(w.buf, "  "...)
	}
}

// newlineIndent is a newline and indentation enough for state documents.
const newlineIndent = "\n                                "

func (w *docWriter) string(s string) {
	w.buf = appendJSONString(w.buf, s)
}

// raw writes a JSON value held as bytes, as json.MarshalIndent writes a
// json.RawMessage: HTML-escaped and re-indented at the current level.
func (w *docWriter) raw(v []byte) {
	if len(v) == 0 {
		w.buf = append(w.buf, "null"...)
		return
	}
	v = bytes.TrimRight(v, " \t\r\n")
	if needsHTMLEscape(v) {
		w.tmp.Reset()
		json.HTMLEscape(&w.tmp, v)
		v = w.tmp.Bytes()
	}
	out := bytes.NewBuffer(w.buf)
	if err := json.Indent(out, v, strings.Repeat("  ", len(w.empty)), "  "); err != nil && w.err == nil {
		w.err = err
	}
	w.buf = out.Bytes()
}

func needsHTMLEscape(v []byte) bool {
	// U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8.
	return bytes.ContainsAny(v, "<>&") || bytes.IndexByte(v, 0xE2) >= 0
}

// appendJSONString appends s as encoding/json writes a string.
func appendJSONString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			quoted, _ := json.Marshal(s)
			return append(buf, quoted...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}
