package statefile

import (
	"errors"
	"strings"

	"github.com/strata-dev/strata/internal/addrs"
)

// errNotPlain stops stripDependencies on anything it does not handle,
// leaving the document to be decoded as a whole.
var errNotPlain = errors.New("not a plain snapshot")

// stripped is a snapshot with its instances' dependency arrays replaced
// by null: they are most of a large snapshot's bytes (quadratic in the
// length of a chain of resources), and are read in place rather than by
// encoding/json, which would scan each of them twice and copy it.
type stripped struct {
	doc   []byte
	deps  map[[2]int][]addrs.AbsResource // by resource and instance index
	cache depCache
}

// stripDependencies replaces the "dependencies" values of the objects in
// the "instances" arrays of the objects in the "resources" array of src by
// null, and resolves them. It checks the structure of what it walks
// (brackets, strings, colons and commas) but not scalar values, which are
// left in doc for encoding/json. It fails on
// anything that could make decoding doc differ from decoding src: a
// duplicate of one of those three keys, another spelling of one
// (encoding/json matches keys without regard to case), escapes in keys,
// or invalid structure.
func stripDependencies(src []byte) (stripped, error) {
	st := stripped{doc: make([]byte, 0, len(src)), deps: map[[2]int][]addrs.AbsResource{}, cache: depCache{}}
	sc := &structScanner{src: src}
	last := 0 // start of src not yet copied to doc
	// walk reads the object at sc.i, at depth len(path) below the
	// document, index giving its position in the arrays above.
	var walk func(depth int, index [2]int) error
	walk = func(depth int, index [2]int) error {
		if !sc.expect('{') {
			return errNotPlain
		}
		special := [...]string{"resources", "instances", "dependencies"}[depth]
		seen := false
		for first := true; ; first = false {
			sc.space()
			if sc.expect('}') {
				return nil
			}
			if !first {
				if !sc.expect(',') {
					return errNotPlain
				}
				sc.space()
			}
			key, ok := sc.plainString()
			if !ok || !sc.expectSpaced(':') {
				return errNotPlain
			}
			sc.space()
			if !strings.EqualFold(key, special) {
				if !sc.skipValue() {
					return errNotPlain
				}
				continue
			}
			if key != special || seen {
				return errNotPlain
			}
			seen = true
			if depth == 2 {
				// An array of plain strings, all valid addresses, is
				// resolved here; anything else is left to Read.
				start := sc.i
				deps, bad, end, ok := st.cache.parsePlainAt(src, start)
				if !ok || bad != nil {
					return errNotPlain
				}
				if deps == nil {
					deps = []addrs.AbsResource{}
				}
				st.deps[index] = deps
				sc.i = end
				st.doc = append(append(st.doc, src[last:start]...), "null"...)
				last = sc.i
				continue
			}
			if sc.literal("null") {
				continue
			}
			if !sc.expect('[') {
				return errNotPlain
			}
			sc.space()
			if sc.expect(']') {
				continue
			}
			for n := 0; ; n++ {
				next := index
				next[depth] = n
				if err := walk(depth+1, next); err != nil {
					return err
				}
				sc.space()
				if sc.expect(']') {
					break
				}
				if !sc.expect(',') {
					return errNotPlain
				}
				sc.space()
			}
		}
	}
	sc.space()
	if err := walk(0, [2]int{}); err != nil {
		return st, err
	}
	sc.space()
	if sc.i != len(src) {
		return st, errNotPlain
	}
	st.doc = append(st.doc, src[last:]...)
	return st, nil
}

// structScanner walks JSON text, checking its structure but not its
// scalar values.
type structScanner struct {
	src []byte
	i   int
}

func (sc *structScanner) space() { sc.i = skipSpace(sc.src, sc.i) }

func (sc *structScanner) peek(c byte) bool { return sc.i < len(sc.src) && sc.src[sc.i] == c }

func (sc *structScanner) expect(c byte) bool {
	if sc.peek(c) {
		sc.i++
		return true
	}
	return false
}

func (sc *structScanner) expectSpaced(c byte) bool {
	sc.space()
	return sc.expect(c)
}

func (sc *structScanner) literal(s string) bool {
	if strings.HasPrefix(string(sc.src[sc.i:min(len(sc.src), sc.i+len(s))]), s) {
		sc.i += len(s)
		return true
	}
	return false
}

// plainString reads a string without escapes.
func (sc *structScanner) plainString() (string, bool) {
	if !sc.expect('"') {
		return "", false
	}
	start := sc.i
	for sc.i < len(sc.src) {
		switch c := sc.src[sc.i]; {
		case c == '"':
			sc.i++
			return string(sc.src[start : sc.i-1]), true
		case c == '\\' || c < 0x20:
			return "", false
		}
		sc.i++
	}
	return "", false
}

// skipValue moves past one value: a string, an object or array (checking
// its brackets and strings), or a scalar (up to the next delimiter).
func (sc *structScanner) skipValue() bool {
	depth := 0
	for sc.i < len(sc.src) {
		switch c := sc.src[sc.i]; c {
		case '"':
			sc.i++
			for {
				if sc.i >= len(sc.src) {
					return false
				}
				c := sc.src[sc.i]
				sc.i++
				if c == '"' {
					break
				}
				if c == '\\' {
					sc.i++
				}
			}
			if depth == 0 {
				return true
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return sc.i > 0
			}
			depth--
			if depth == 0 {
				sc.i++
				return true
			}
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return true
			}
		}
		sc.i++
	}
	return depth == 0
}
