package runrecord

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/lang/marks"
)

// SensitiveMark is the cty mark on sensitive values.
const SensitiveMark = marks.Sensitive

// Diff returns the attribute paths where before and after differ, with
// their values as JSON. It descends into objects and maps; lists, sets
// and tuples compare whole. Values carrying the sensitive mark, or under a
// path writeOnly reports, are stored as marks only; so are unknown values.
// writeOnly may be nil.
//
// secrets, when not nil, holds sensitive strings seen elsewhere in the
// run: an unmarked value that contains one (terraform_data's output
// copies its sensitive input without the mark) is stored as a mark too.
func Diff(before, after cty.Value, writeOnly func(cty.Path) bool, secrets Secrets) []AttrChange {
	return DiffMarked(before, after, writeOnly, secrets, containsMarked(before) || containsMarked(after))
}

// DiffMarked is Diff for a caller that knows whether before or after
// carry marks anywhere (Secrets.Add reports it), so that the values are
// not walked once more to find out. marked must be true if either does.
func DiffMarked(before, after cty.Value, writeOnly func(cty.Path) bool, secrets Secrets, marked bool) []AttrChange {
	// Room for a change per top-level attribute, the common case (a
	// create, a replace), so that the slice is allocated once.
	out := make([]AttrChange, 0, max(attrCount(before), attrCount(after)))
	d := differ{writeOnly: writeOnly, secrets: secrets, marked: marked}
	d.diffValue(nil, before, after, &out)
	if len(out) == 0 {
		return nil
	}
	return out
}

// attrCount is the number of attributes of an object type, 0 otherwise.
func attrCount(v cty.Value) int {
	if ty := v.Type(); ty.IsObjectType() {
		return len(ty.AttributeTypes())
	}
	return 0
}

type differ struct {
	writeOnly func(cty.Path) bool
	secrets   Secrets
	// marked is false when neither value has marks anywhere, so that
	// nothing needs unmarking.
	marked bool
}

func (d differ) diffValue(path cty.Path, before, after cty.Value, out *[]AttrChange) {
	writeOnly := d.writeOnly
	if writeOnly != nil && len(path) > 0 && writeOnly(path) {
		// Write-only values are never stored, so nothing can be said about
		// whether they changed, except that one is set now.
		if after.IsNull() && before.IsNull() {
			return
		}
		*out = append(*out, AttrChange{Path: FormatPath(path), BeforeMark: MarkWriteOnly, AfterMark: MarkWriteOnly, path: path})
		return
	}
	bu, au := before, after
	var bs, as bool
	if d.marked {
		var bm, am cty.ValueMarks
		bu, bm = before.UnmarkDeep()
		au, am = after.UnmarkDeep()
		_, bs = bm[SensitiveMark]
		_, as = am[SensitiveMark]
	}
	bn, an := bu.IsKnown() && bu.IsNull(), au.IsKnown() && au.IsNull()
	switch {
	case bn && an:
		if bs == as {
			return
		}
	case bn != an:
		// One side is null, the other not: they differ.
	default:
		if bu.IsWhollyKnown() && au.IsWhollyKnown() && bu.Equals(au).True() && bs == as {
			return
		}
	}
	// Descend where both sides are objects or maps, or one side is null.
	// Marks on an object or map pass down to its attributes (childKeys).
	bt, _ := before.Unmark()
	at, _ := after.Unmark()
	if at.IsKnown() && bt.IsKnown() && !(bt.IsNull() && at.IsNull()) &&
		(descendable(bt.Type()) || bt.IsNull()) && (descendable(at.Type()) || at.IsNull()) {
		for _, k := range childKeys(before, after) {
			bv, av := k.get(before), k.get(after)
			if bv.IsKnown() && av.IsKnown() && bv.IsNull() && av.IsNull() && !bv.IsMarked() && !av.IsMarked() {
				// Null on both sides: no change, and no path to build.
				continue
			}
			var step cty.PathStep = cty.GetAttrStep{Name: k.name}
			if k.isMap {
				step = cty.IndexStep{Key: cty.StringVal(k.name)}
			}
			d.diffValue(append(path[:len(path):len(path)], step), bv, av, out)
		}
		return
	}
	c := AttrChange{Path: FormatPath(path), path: path, ty: after.Type()}
	c.Before, c.BeforeMark = d.secrets.redact(encodeValue(before, d.marked))
	c.After, c.AfterMark = d.secrets.redact(encodeValue(after, d.marked))
	*out = append(*out, c)
}

func descendable(t cty.Type) bool {
	return t.IsObjectType() || t.IsMapType()
}

type child struct {
	name  string
	isMap bool
}

// get returns the child's value in v (an object or map, or null), with
// v's marks.
func (c child) get(v cty.Value) cty.Value {
	u, m := v.Unmark()
	if u.IsNull() || !u.IsKnown() {
		return cty.NullVal(cty.DynamicPseudoType).WithMarks(m)
	}
	switch {
	case u.Type().IsObjectType():
		if !u.Type().HasAttribute(c.name) {
			return cty.NullVal(cty.DynamicPseudoType)
		}
		return u.GetAttr(c.name).WithMarks(m)
	case u.Type().IsMapType():
		k := cty.StringVal(c.name)
		if !u.HasIndex(k).True() {
			return cty.NullVal(u.Type().ElementType())
		}
		return u.Index(k).WithMarks(m)
	}
	return cty.NullVal(cty.DynamicPseudoType)
}

// childKeys lists the attributes or keys of two object or map values (one
// may be null), sorted.
func childKeys(vals ...cty.Value) []child {
	names := make([]string, 0, attrCount(vals[0])+1)
	var seen map[string]bool // when there are many names
	has := func(name string) bool {
		if len(names) < 32 {
			return slices.Contains(names, name)
		}
		if seen == nil {
			seen = make(map[string]bool, len(names))
			for _, n := range names {
				seen[n] = true
			}
		}
		return seen[name]
	}
	add := func(name string) {
		names = append(names, name)
		if seen != nil {
			seen[name] = true
		}
	}
	isMap := false
	for i, v := range vals {
		u, _ := v.Unmark()
		switch {
		case u.Type().IsObjectType():
			for name := range u.Type().AttributeTypes() {
				if i == 0 || !has(name) {
					add(name)
				}
			}
		case u.Type().IsMapType():
			isMap = true
			if u.IsNull() {
				continue
			}
			for it := u.ElementIterator(); it.Next(); {
				k, _ := it.Element()
				if !has(k.AsString()) {
					add(k.AsString())
				}
			}
		}
	}
	sort.Strings(names)
	out := make([]child, len(names))
	for i, name := range names {
		out[i] = child{name: name, isMap: isMap}
	}
	return out
}

// encodeValue returns v as JSON, or a mark when it is not stored.
// Unless marked, v has no marks anywhere.
func encodeValue(v cty.Value, marked bool) (json.RawMessage, string) {
	u := v
	if marked {
		var marks cty.ValueMarks
		u, marks = v.UnmarkDeep()
		if _, ok := marks[SensitiveMark]; ok {
			return nil, MarkSensitive
		}
	}
	if !u.IsWhollyKnown() {
		return nil, MarkUnknown
	}
	if u.IsNull() {
		return nil, ""
	}
	switch u.Type() {
	case cty.String:
		return appendString(nil, u.AsString()), ""
	case cty.Bool:
		if u.True() {
			return json.RawMessage("true"), ""
		}
		return json.RawMessage("false"), ""
	}
	b, err := ctyjson.Marshal(u, u.Type())
	if err != nil {
		return nil, MarkUnknown
	}
	return b, ""
}

// FormatPath renders an attribute path as in Terraform's diagnostics:
// tags["env"], rule[0].port.
func FormatPath(p cty.Path) string {
	if len(p) == 1 {
		// A top-level attribute, the common case: no copy.
		if s, ok := p[0].(cty.GetAttrStep); ok {
			return s.Name
		}
	}
	var b strings.Builder
	for _, s := range p {
		switch s := s.(type) {
		case cty.GetAttrStep:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		case cty.IndexStep:
			switch s.Key.Type() {
			case cty.String:
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			case cty.Number:
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().Text('f', -1))
			default:
				b.WriteString("[?]")
			}
		}
	}
	return b.String()
}

// FillAfter completes the changes whose After was unknown at plan time
// from the applied object's attributes, as the state stores them (JSON).
// Paths listed in sensitive, and values holding one of the secrets, are
// stored as marks.
func FillAfter(changes []AttrChange, attrsJSON []byte, sensitive []cty.Path, secrets Secrets) {
	for i := range changes {
		c := &changes[i]
		if c.AfterMark != MarkUnknown || c.path == nil {
			continue
		}
		if underAny(c.path, sensitive) {
			c.AfterMark = MarkSensitive
			continue
		}
		raw, ok := lookupJSON(attrsJSON, c.path)
		if !ok {
			continue
		}
		if c.ty == cty.DynamicPseudoType || !(c.ty.IsObjectType() || c.ty.IsMapType()) {
			// A dynamically-typed attribute is stored with its type.
			if len(raw) > 0 && raw[0] == '{' {
				if v, ok := objectField(raw, "value"); ok {
					if _, ok := objectField(raw, "type"); ok && objectLen(raw) == 2 {
						raw = v
					}
				}
			}
		}
		if string(raw) == "null" || raw == nil {
			c.After, c.AfterMark = nil, ""
			continue
		}
		c.After, c.AfterMark = secrets.redact(append(json.RawMessage(nil), raw...), "")
	}
}

// lookupJSON finds the value at p in a JSON object.
func lookupJSON(obj []byte, p cty.Path) (json.RawMessage, bool) {
	cur := json.RawMessage(obj)
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			v, ok := objectField(cur, s.Name)
			if !ok {
				return nil, false
			}
			cur = v
		case cty.IndexStep:
			switch s.Key.Type() {
			case cty.String:
				v, ok := objectField(cur, s.Key.AsString())
				if !ok {
					return nil, false
				}
				cur = v
			case cty.Number:
				var l []json.RawMessage
				n, _ := s.Key.AsBigFloat().Int64()
				if json.Unmarshal(cur, &l) != nil || n < 0 || int(n) >= len(l) {
					return nil, false
				}
				cur = l[n]
			default:
				return nil, false
			}
		}
	}
	return cur, cur != nil
}

// NeedsFill reports whether some change waits for FillAfter.
func NeedsFill(changes []AttrChange) bool {
	for _, c := range changes {
		if c.AfterMark == MarkUnknown {
			return true
		}
	}
	return false
}

// underAny reports whether p is one of paths or under one of them.
func underAny(p cty.Path, paths []cty.Path) bool {
	for _, s := range paths {
		if len(s) <= len(p) && cty.Path(p[:len(s)]).Equals(s) {
			return true
		}
		// A sensitive value inside the attribute makes the whole value
		// sensitive when it is stored as one piece.
		if len(s) > len(p) && cty.Path(s[:len(p)]).Equals(p) {
			return true
		}
	}
	return false
}

// Secrets is a set of sensitive strings to keep out of the record even
// where they appear without the sensitive mark.
type Secrets map[string]struct{}

// minSecretLen is the shortest secret also searched for inside longer
// values; shorter ones only match a whole value.
const minSecretLen = 4

// Add records the sensitive strings inside v (marked parts of it), and
// reports whether v carries marks anywhere.
func (s Secrets) Add(v cty.Value) (marked bool) {
	if !containsMarked(v) {
		return false
	}
	if s == nil {
		return true
	}
	_ = cty.Walk(v, func(_ cty.Path, v cty.Value) (bool, error) {
		if !v.HasMark(SensitiveMark) {
			return true, nil
		}
		u, _ := v.UnmarkDeep()
		_ = cty.Walk(u, func(_ cty.Path, leaf cty.Value) (bool, error) {
			if leaf.IsKnown() && !leaf.IsNull() && leaf.Type() == cty.String && leaf.AsString() != "" {
				s[leaf.AsString()] = struct{}{}
			}
			return true, nil
		})
		return false, nil
	})
	return true
}

// AddJSON adds the strings an object holds at paths, its attributes as
// the state stores them (JSON): the values of its sensitive attributes,
// known only once it is applied. It reports whether it added any.
func (s Secrets) AddJSON(attrsJSON []byte, paths []cty.Path) bool {
	if s == nil {
		return false
	}
	added := false
	for _, p := range paths {
		raw, ok := lookupJSON(attrsJSON, p)
		if !ok {
			continue
		}
		var v any
		if json.Unmarshal(raw, &v) != nil {
			continue
		}
		// A dynamically-typed attribute is stored with its type.
		if m, ok := v.(map[string]any); ok && len(m) == 2 && m["type"] != nil {
			if inner, ok := m["value"]; ok {
				v = inner
			}
		}
		added = s.addStrings(v) || added
	}
	return added
}

func (s Secrets) addStrings(v any) bool {
	switch v := v.(type) {
	case string:
		if _, ok := s[v]; v == "" || ok {
			return false
		}
		s[v] = struct{}{}
		return true
	case []any:
		added := false
		for _, e := range v {
			added = s.addStrings(e) || added
		}
		return added
	case map[string]any:
		added := false
		for _, e := range v {
			added = s.addStrings(e) || added
		}
		return added
	}
	return false
}

// redact replaces a JSON value holding a secret by the sensitive mark.
func (s Secrets) redact(v json.RawMessage, mark string) (json.RawMessage, string) {
	if len(s) == 0 || v == nil {
		return v, mark
	}
	for secret := range s {
		quoted, _ := json.Marshal(secret)
		if len(secret) >= minSecretLen {
			// Inside a longer string or structure, JSON-escaped.
			if strings.Contains(string(v), string(quoted[1:len(quoted)-1])) {
				return nil, MarkSensitive
			}
		} else if string(v) == string(quoted) {
			return nil, MarkSensitive
		}
	}
	return v, mark
}

// ObjectChanges lists an object's top-level attributes that are set, as
// changes from null: what an import brought into the state. Sensitive
// paths, and values holding one of the secrets, are stored as marks.
func ObjectChanges(attrsJSON []byte, sensitive []cty.Path, secrets Secrets) []AttrChange {
	var top map[string]json.RawMessage
	if json.Unmarshal(attrsJSON, &top) != nil {
		return nil
	}
	names := make([]string, 0, len(top))
	for n := range top {
		names = append(names, n)
	}
	sort.Strings(names)
	out := []AttrChange{}
	for _, n := range names {
		raw := top[n]
		if string(raw) == "null" {
			continue
		}
		c := AttrChange{Path: n, path: cty.GetAttrPath(n)}
		if underAny(c.path, sensitive) {
			c.AfterMark = MarkSensitive
		} else {
			c.After, c.AfterMark = secrets.redact(append(json.RawMessage(nil), raw...), "")
		}
		out = append(out, c)
	}
	return out
}
