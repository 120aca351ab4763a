package statefile

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// readFast reads a version 4 snapshot in one pass over its bytes, without
// encoding/json's reflection and without copying the document: each
// resource is decoded and stored as it is met, its objects' attributes
// compacted straight from src into shared slabs, and its dependency lists
// resolved in place. At 10,000 resources (BenchmarkReadBench) it
// allocates 18 MB in 108k allocations where readCurrent allocated 56 MB
// in 460k.
//
// It handles what Terraform and strata write, and returns errNotPlain for
// anything else, for readCurrent and readWhole to decode (or reject) as
// they always have: a key that is not one of the format's, or matches one
// of them only without regard to case, or appears twice, or has an escape
// or a non-ASCII character; a value of an unexpected JSON type; a number
// that is not a plain non-negative integer; attributes_flat; or any error
// reading a resource (the other paths report it in their words). What it
// accepts, it reads as readWhole does (FuzzRead).
func readFast(src []byte) (*states.State, error) {
	r := &fastReader{sc: structScanner{src: src}, cache: depCache{}, s: states.New()}
	var sv stateV4
	hasVersion := false
	err := r.object(topKeys, func(key string) bool {
		switch key {
		case "version":
			hasVersion = true
			n, ok := r.uint(63)
			sv.Version = int(n)
			return ok
		case "terraform_version":
			return r.str(&sv.TerraformVersion)
		case "serial":
			var ok bool
			sv.Serial, ok = r.uint(64)
			return ok
		case "lineage":
			return r.str(&sv.Lineage)
		case "outputs":
			return r.decodeRaw(&sv.Outputs)
		case "resources":
			return r.resources()
		case "check_results":
			raw, ok := r.raw()
			if !ok || !json.Valid(raw) {
				return false
			}
			sv.CheckResults = bytes.Clone(raw) // not a slice of src, which it would keep
			return true
		case "strata":
			return r.decodeRaw(&sv.Strata)
		}
		return r.unknown(key, topKeys)
	})
	if err != nil {
		return nil, err
	}
	r.sc.space()
	if r.sc.i != len(src) || !hasVersion || sv.Version != CurrentVersion {
		return nil, errNotPlain
	}
	if err := readHeader(r.s, sv); err != nil {
		return nil, errNotPlain
	}
	return r.s, nil
}

// The keys of the format's objects, which encoding/json matches without
// regard to case.
var (
	topKeys      = []string{"version", "terraform_version", "serial", "lineage", "outputs", "resources", "check_results", "strata"}
	resourceKeys = []string{"module", "mode", "type", "name", "each", "provider", "instances"}
	instanceKeys = []string{"index_key", "status", "deposed", "provider", "schema_version", "attributes", "attributes_flat", "sensitive_attributes", "identity_schema_version", "identity", "private", "dependencies", "create_before_destroy"}
)

// fieldSet records the keys an object has had, to refuse duplicates
// (encoding/json keeps the last; readCurrent and readWhole take them):
// known keys by their index in the object's list, others by name.
type fieldSet struct {
	known  uint32
	others []string
}

// add records key, and reports false if the object had it already.
func (f *fieldSet) add(key string, known []string) bool {
	for i, k := range known {
		if k == key {
			if f.known&(1<<i) != 0 {
				return false
			}
			f.known |= 1 << i
			return true
		}
	}
	for _, k := range f.others {
		if k == key {
			return false
		}
	}
	f.others = append(f.others, key)
	return true
}

type fastReader struct {
	sc    structScanner
	cache depCache
	s     *states.State
	slab  []byte // the free end of the current slab for attributes
	strs  map[string]string
	buf   []byte // for unescaping strings
}

// object reads an object, calling member for each key with the scanner at
// its value; member returns false on anything readFast does not handle.
func (r *fastReader) object(known []string, member func(key string) bool) error {
	sc := &r.sc
	sc.space()
	if !sc.expect('{') {
		return errNotPlain
	}
	var seen fieldSet
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
		key, ok := r.key()
		if !ok || !seen.add(key, known) || !sc.expectSpaced(':') {
			return errNotPlain
		}
		sc.space()
		if !member(key) {
			return errNotPlain
		}
	}
}

// key reads an object's key: the known keys' strings are shared, not
// allocated for each object. A key with escapes or non-ASCII characters
// is refused.
func (r *fastReader) key() (string, bool) {
	sc := &r.sc
	if !sc.expect('"') {
		return "", false
	}
	start := sc.i
	for ; sc.i < len(sc.src); sc.i++ {
		switch c := sc.src[sc.i]; {
		case c == '"':
			b := sc.src[start:sc.i]
			sc.i++
			if k, ok := knownKeys[string(b)]; ok {
				return k, true
			}
			return string(b), true
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			return "", false
		}
	}
	return "", false
}

// knownKeys holds every key of the format, for key to share.
var knownKeys = func() map[string]string {
	m := map[string]string{}
	for _, ks := range [][]string{topKeys, resourceKeys, instanceKeys} {
		for _, k := range ks {
			m[k] = k
		}
	}
	return m
}()

// unknown skips the value of a key that is not one of known, after
// checking it is valid JSON; a key that matches one of known without
// regard to case is refused.
func (r *fastReader) unknown(key string, known []string) bool {
	for _, k := range known {
		if strings.EqualFold(k, key) {
			return false
		}
	}
	raw, ok := r.raw()
	return ok && json.Valid(raw)
}

// raw returns the bytes of the next value, whose structure only is
// checked: its reader checks the rest.
func (r *fastReader) raw() ([]byte, bool) {
	start := r.sc.i
	if !r.sc.skipValue() || r.sc.i == start {
		return nil, false
	}
	return r.sc.src[start:r.sc.i], true
}

// decodeRaw decodes the next value into v with encoding/json: for the
// small parts of a snapshot (outputs, the strata section).
func (r *fastReader) decodeRaw(v any) bool {
	raw, ok := r.raw()
	return ok && json.Unmarshal(raw, v) == nil
}

// null reads a null, which encoding/json decodes as no change.
func (r *fastReader) null() bool { return r.sc.literal("null") && r.delimited() }

// delimited reports whether the value just read ends there.
func (r *fastReader) delimited() bool {
	if r.sc.i == len(r.sc.src) {
		return true
	}
	switch r.sc.src[r.sc.i] {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// str reads a string (or null) into *s. The strings of a snapshot
// repeat (modes, types, providers, statuses): each is allocated once.
func (r *fastReader) str(s *string) bool {
	if r.null() {
		return true
	}
	b, ok := r.strBytes()
	if ok {
		if v, found := r.strs[string(b)]; found {
			*s = v
		} else {
			*s = string(b)
			if r.strs == nil {
				r.strs = map[string]string{}
			}
			if len(r.strs) < 1024 {
				r.strs[*s] = *s
			}
		}
	}
	return ok
}

// strBytes reads a string: in place when it has no escapes and is valid
// UTF-8, else through encoding/json.
func (r *fastReader) strBytes() ([]byte, bool) {
	sc := &r.sc
	if !sc.peek('"') {
		return nil, false
	}
	start := sc.i
	plain := true
	for i := start + 1; i < len(sc.src); i++ {
		switch c := sc.src[i]; {
		case c == '"':
			sc.i = i + 1
			if plain && utf8.Valid(sc.src[start+1:i]) {
				return sc.src[start+1 : i], true
			}
			if b, ok := r.unescape(sc.src[start+1 : i]); ok {
				return b, true
			}
			var s string
			if json.Unmarshal(sc.src[start:sc.i], &s) != nil {
				return nil, false
			}
			return []byte(s), true
		case c == '\\':
			plain = false
			i++
		case c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// unescape undoes the escapes of a string of ASCII characters with
// only one-character escapes (\" in a provider's address): anything else
// is left to encoding/json. The result is valid until the next call.
func (r *fastReader) unescape(s []byte) ([]byte, bool) {
	b := r.buf[:0]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return nil, false
		}
		if c != '\\' {
			b = append(b, c)
			continue
		}
		if i++; i == len(s) {
			return nil, false
		}
		switch s[i] {
		case '"', '\\', '/':
			b = append(b, s[i])
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		default:
			return nil, false
		}
	}
	r.buf = b
	return b, true
}

// uint reads a non-negative integer of at most bits bits, as encoding/json
// decodes one into an integer field; null reads as 0.
func (r *fastReader) uint(bits int) (uint64, bool) {
	if r.null() {
		return 0, true
	}
	sc := &r.sc
	start := sc.i
	for sc.i < len(sc.src) && sc.src[sc.i] >= '0' && sc.src[sc.i] <= '9' {
		sc.i++
	}
	digits := sc.src[start:sc.i]
	if len(digits) == 0 || len(digits) > 1 && digits[0] == '0' || !r.delimited() {
		return 0, false
	}
	n, err := strconv.ParseUint(string(digits), 10, bits)
	return n, err == nil
}

// bool reads true, false or null (false).
func (r *fastReader) bool(b *bool) bool {
	switch {
	case r.sc.literal("true"):
		*b = true
	case r.sc.literal("false"):
		*b = false
	case r.null():
		return true
	default:
		return false
	}
	return r.delimited()
}

// array reads an array (or null), calling elem for each element with the
// scanner at it.
func (r *fastReader) array(elem func() bool) bool {
	sc := &r.sc
	if r.null() {
		return true
	}
	if !sc.expect('[') {
		return false
	}
	sc.space()
	if sc.expect(']') {
		return true
	}
	for {
		sc.space()
		if !elem() {
			return false
		}
		sc.space()
		if sc.expect(']') {
			return true
		}
		if !sc.expect(',') {
			return false
		}
	}
}

// resources reads the resources array, storing each resource in r.s.
func (r *fastReader) resources() bool {
	return r.array(func() bool {
		var rs resourceStateV4
		err := r.object(resourceKeys, func(key string) bool {
			switch key {
			case "module":
				return r.str(&rs.Module)
			case "mode":
				return r.str(&rs.Mode)
			case "type":
				return r.str(&rs.Type)
			case "name":
				return r.str(&rs.Name)
			case "each":
				return r.str(&rs.Each)
			case "provider":
				return r.str(&rs.Provider)
			case "instances":
				rs.Instances = rs.Instances[:0]
				return r.array(func() bool {
					is, ok := r.instance()
					rs.Instances = append(rs.Instances, is)
					return ok
				})
			}
			return r.unknown(key, resourceKeys)
		})
		return err == nil && readResource(r.s, rs, r.cache) == nil
	})
}

// instance reads one object of a resource.
func (r *fastReader) instance() (instanceObjectV4, bool) {
	var is instanceObjectV4
	err := r.object(instanceKeys, func(key string) bool {
		switch key {
		case "index_key":
			var ok bool
			is.IndexKey, ok = r.raw()
			return ok
		case "status":
			return r.str(&is.Status)
		case "deposed":
			return r.str(&is.Deposed)
		case "provider":
			return r.str(&is.Provider)
		case "schema_version":
			var ok bool
			is.SchemaVersion, ok = r.uint(64)
			return ok
		case "attributes":
			return r.compacted(&is.AttributesRaw)
		case "attributes_flat":
			return r.null()
		case "sensitive_attributes":
			var ok bool
			is.SensitiveAttributes, ok = r.raw()
			return ok
		case "identity_schema_version":
			if r.null() {
				is.IdentitySchemaVersion = nil
				return true
			}
			n, ok := r.uint(64)
			is.IdentitySchemaVersion = &n
			return ok
		case "identity":
			return r.compacted(&is.IdentityRaw)
		case "private":
			return r.private(&is.PrivateRaw)
		case "dependencies":
			return r.dependencies(&is)
		case "create_before_destroy":
			return r.bool(&is.CreateBeforeDestroy)
		}
		return r.unknown(key, instanceKeys)
	})
	is.compacted = true
	return is, err == nil
}

// compacted reads a JSON value into *dst compacted, as readResource would
// compact it, in a slab shared by many values: one allocation for many
// small objects, instead of a copy by encoding/json and another by
// compact.
func (r *fastReader) compacted(dst *json.RawMessage) bool {
	raw, ok := r.raw()
	if !ok {
		return false
	}
	if len(raw) > cap(r.slab)-len(r.slab) {
		r.slab = make([]byte, 0, max(32<<10, len(raw)))
	}
	buf := bytes.NewBuffer(r.slab[:0])
	if json.Compact(buf, raw) != nil || len(buf.Bytes()) > cap(r.slab) || &buf.Bytes()[:1][0] != &r.slab[:1][0] {
		return false
	}
	n := len(buf.Bytes())
	*dst = r.slab[:n:n]
	r.slab = r.slab[n:n]
	return true
}

// private reads a base64 string (or null) as encoding/json reads one into
// a []byte.
func (r *fastReader) private(dst *[]byte) bool {
	if r.null() {
		*dst = nil
		return true
	}
	s, ok := r.strBytes()
	if !ok {
		return false
	}
	b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(b, s)
	*dst = b[:n]
	return err == nil
}

// dependencies reads an object's dependency list in place.
func (r *fastReader) dependencies(is *instanceObjectV4) bool {
	if r.null() {
		is.Dependencies, is.parsedDeps = nil, nil
		return true
	}
	deps, bad, end, ok := r.cache.parsePlainAt(r.sc.src, r.sc.i)
	if !ok || bad != nil {
		return false
	}
	r.sc.i = end
	if deps == nil {
		deps = []addrs.AbsResource{}
	}
	is.Dependencies, is.parsedDeps = nil, deps
	return true
}
