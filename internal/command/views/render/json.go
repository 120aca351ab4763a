package render

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/plans"
)

// jkind is the JSON kind of a value. Values of dynamic type, and JSON
// documents held in strings, are compared with JSON semantics: lists, sets
// and tuples are arrays, maps and objects are objects.
type jkind int

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

// jval is a JSON-like value that may also be unknown or sensitive.
type jval struct {
	kind      jkind
	text      string // bool, number (exact text) or string
	arr       []*jval
	obj       map[string]*jval
	unknown   bool
	sensitive bool
}

const sensitiveMark = "sensitive"

// ephemeralMark is lang/marks.Ephemeral, which render does not import.
const ephemeralMark = "ephemeral"

// fromCty converts a cty value, which may hold marks and unknowns, to a
// jval.
func fromCty(v cty.Value) *jval {
	v, marks := v.Unmark()
	_, sens := marks[sensitiveMark]
	j := &jval{sensitive: sens}
	switch {
	case !v.IsKnown():
		j.unknown = true
		return j
	case v.IsNull():
		return j
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		j.kind, j.text = jString, v.AsString()
	case ty == cty.Number:
		j.kind, j.text = jNumber, numberText(v)
	case ty == cty.Bool:
		j.kind, j.text = jBool, strconv.FormatBool(v.True())
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		j.kind = jArray
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			j.arr = append(j.arr, fromCty(e))
		}
	case ty.IsMapType() || ty.IsObjectType():
		j.kind = jObject
		j.obj = map[string]*jval{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			j.obj[k.AsString()] = fromCty(e)
		}
	}
	return j
}

// numberText formats a number as Terraform's JSON plan does.
func numberText(v cty.Value) string {
	if v.RawEquals(cty.PositiveInfinity) {
		return "Infinity"
	}
	if v.RawEquals(cty.NegativeInfinity) {
		return "-Infinity"
	}
	return v.AsBigFloat().Text('f', -1)
}

// parseJSON parses a JSON document, keeping numbers as written.
func parseJSON(s string) (*jval, bool) {
	if !json.Valid([]byte(s)) {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, false
	}
	return fromGo(raw), true
}

func fromGo(x any) *jval {
	switch x := x.(type) {
	case nil:
		return &jval{}
	case bool:
		return &jval{kind: jBool, text: strconv.FormatBool(x)}
	case json.Number:
		return &jval{kind: jNumber, text: x.String()}
	case string:
		return &jval{kind: jString, text: x}
	case []any:
		j := &jval{kind: jArray}
		for _, e := range x {
			j.arr = append(j.arr, fromGo(e))
		}
		return j
	case map[string]any:
		j := &jval{kind: jObject, obj: map[string]*jval{}}
		for k, e := range x {
			j.obj[k] = fromGo(e)
		}
		return j
	}
	return &jval{}
}

// key returns a canonical encoding of v for equality tests; unknown values
// get a key that equals nothing else. Sensitivity is ignored.
func (j *jval) key(uniq *int) string {
	var b bytes.Buffer
	j.writeKey(&b, uniq)
	return b.String()
}

func (j *jval) writeKey(b *bytes.Buffer, uniq *int) {
	if j == nil {
		b.WriteString("~")
		return
	}
	if j.unknown {
		*uniq++
		b.WriteString("?" + strconv.Itoa(*uniq) + ";")
		return
	}
	switch j.kind {
	case jNull:
		b.WriteString("n;")
	case jBool, jNumber:
		b.WriteString("p" + j.text + ";")
	case jString:
		b.WriteString("s" + strconv.Quote(j.text) + ";")
	case jArray:
		b.WriteString("[")
		for _, e := range j.arr {
			e.writeKey(b, uniq)
		}
		b.WriteString("]")
	case jObject:
		keys := make([]string, 0, len(j.obj))
		for k := range j.obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("{")
		for _, k := range keys {
			b.WriteString(strconv.Quote(k) + ":")
			j.obj[k].writeKey(b, uniq)
		}
		b.WriteString("}")
	}
}

// hasSensitive reports whether v or anything within it is sensitive.
func (j *jval) hasSensitive() bool {
	if j == nil {
		return false
	}
	if j.sensitive {
		return true
	}
	for _, e := range j.arr {
		if e.hasSensitive() {
			return true
		}
	}
	for _, e := range j.obj {
		if e.hasSensitive() {
			return true
		}
	}
	return false
}

func jsonEqual(b, a *jval) bool {
	var u int
	return b.key(&u) == a.key(&u)
}

// calcAction is the action for a value that exists before (bp) and/or
// after (ap).
func calcAction(bp, ap, equal bool) plans.Action {
	switch {
	case !bp && ap:
		return plans.Create
	case bp && !ap:
		return plans.Delete
	case equal:
		return plans.NoOp
	}
	return plans.Update
}

// diffJSON compares two JSON-like values; bp and ap say whether each side
// exists (a JSON null that is present differs from an absent value).
func diffJSON(b, a *jval, bp, ap bool) node {
	if !bp {
		b = nil
	}
	if !ap {
		a = nil
	}
	if (b != nil && b.sensitive) || (a != nil && a.sensitive) {
		bs, as := b != nil && b.sensitive, a != nil && a.sensitive
		inner := calcAction(bp, ap, jsonEqual(b, a))
		act := inner
		if act == plans.NoOp && bs != as {
			act = plans.Update
		}
		return &sensitiveNode{base: base{act: act}, inner: inner, beforeSens: bs, afterSens: as}
	}
	if a != nil && a.unknown {
		if b == nil {
			return &unknownNode{base: base{act: plans.Create}}
		}
		return &unknownNode{base: base{act: plans.Update}, before: diffJSON(b, nil, true, false)}
	}
	kb, ka := jNull, jNull
	if b != nil {
		kb = b.kind
	}
	if a != nil {
		ka = a.kind
	}
	if kb != ka && bp && ap {
		return &typeChangeNode{
			base: base{act: plans.Update},
			from: diffJSON(b, nil, true, false),
			to:   diffJSON(nil, a, false, true),
		}
	}
	kind := kb
	if !bp {
		kind = ka
	}
	switch kind {
	case jArray:
		return diffJSONArray(b, a)
	case jObject:
		return diffJSONObject(b, a)
	}
	return &primNode{base: base{act: calcAction(bp, ap, jsonEqual(b, a))}, before: b, after: a}
}

func diffJSONArray(b, a *jval) node {
	var bs, as []*jval
	if b != nil {
		bs = b.arr
	}
	if a != nil {
		as = a.arr
	}
	var u int
	bk, ak := make([]string, len(bs)), make([]string, len(as))
	for i, e := range bs {
		bk[i] = e.key(&u)
	}
	for i, e := range as {
		ak[i] = e.key(&u)
	}
	isObj := func(j *jval) bool { return !j.unknown && j.kind == jObject }
	n := &listNode{base: base{act: defaultAction(b != nil, a != nil)}, context: true}
	for _, p := range alignSeq(bk, ak, func(i, j int) bool { return isObj(bs[i]) && isObj(as[j]) }) {
		var be, ae *jval
		if p.b >= 0 {
			be = bs[p.b]
		}
		if p.a >= 0 {
			ae = as[p.a]
		}
		e := diffJSON(be, ae, p.b >= 0, p.a >= 0)
		n.elems = append(n.elems, e)
		n.act = combine(n.act, e.action())
	}
	return n
}

func diffJSONObject(b, a *jval) node {
	n := &mapNode{base: base{act: defaultAction(b != nil, a != nil)}, object: true, elems: map[string]node{}}
	keys := map[string]bool{}
	if b != nil {
		for k := range b.obj {
			keys[k] = true
		}
	}
	if a != nil {
		for k := range a.obj {
			keys[k] = true
		}
	}
	for k := range keys {
		var be, ae *jval
		var bp, ap bool
		if b != nil {
			be, bp = b.obj[k]
		}
		if a != nil {
			ae, ap = a.obj[k]
		}
		e := diffJSON(be, ae, bp, ap)
		n.elems[k] = e
		n.act = combine(n.act, e.action())
	}
	return n
}
