package render

import (
	"sort"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
)

// differ computes diff trees for values that conform to a schema.
type differ struct {
	replace []cty.Path
	// relevant, when not nil, limits the differences shown to the values
	// at, above or below these paths; every other attribute, nested block
	// or element is shown as unchanged (its after value taken to be its
	// before value), as Terraform's relevant-attribute matcher does for
	// drift.
	relevant []cty.Path
	// inSeq counts the primitive-typed lists, tuples and sets being walked:
	// below them every element is relevant, as in Terraform, which cannot
	// tell which of the before and after elements a path means.
	inSeq int
}

// irrelevant reports whether the value at path is outside every relevant
// path (see differ.relevant).
func (d *differ) irrelevant(path cty.Path) bool {
	if d.relevant == nil || d.inSeq > 0 {
		return false
	}
	for _, r := range d.relevant {
		if pathsOverlap(r, path) {
			return false
		}
	}
	return true
}

// pathsOverlap reports whether one path is a prefix of the other. Names
// and keys compare by their text, so that labels.env, labels["env"] and
// list["0"] match as in Terraform; a set element matches any step.
func pathsOverlap(r, p cty.Path) bool {
	for i := 0; i < len(r) && i < len(p); i++ {
		if p[i] == cty.PathStep(setElement) {
			return true
		}
		rk, rok := stepKey(r[i])
		pk, pok := stepKey(p[i])
		if !rok || !pok || rk != pk {
			return false
		}
	}
	return true
}

// stepKey is the text of a path step's name or known key.
func stepKey(s cty.PathStep) (string, bool) {
	switch s := s.(type) {
	case cty.GetAttrStep:
		return s.Name, true
	case cty.IndexStep:
		k, _ := s.Key.Unmark()
		if !k.IsKnown() || k.IsNull() {
			return "", false
		}
		switch k.Type() {
		case cty.String:
			return k.AsString(), true
		case cty.Number:
			return k.AsBigFloat().Text('f', -1), true
		}
	}
	return "", false
}

func (d *differ) forces(path cty.Path) bool {
	for _, p := range d.replace {
		if p.Equals(path) {
			return true
		}
	}
	return false
}

func extend(path cty.Path, step cty.PathStep) cty.Path {
	out := make(cty.Path, len(path), len(path)+1)
	copy(out, path)
	return append(out, step)
}

// isNull reports whether v is null, looking through marks.
func isNull(v cty.Value) bool {
	v, _ = v.Unmark()
	return v.IsKnown() && v.IsNull()
}

// present reports whether v has a value (unknown counts as a value).
func present(v cty.Value) bool {
	return v != cty.NilVal && !isNull(v)
}

func sensitive(v cty.Value) bool {
	return v != cty.NilVal && v.HasMark(sensitiveMark)
}

// rawEqual compares two values ignoring marks; unknowns are never equal.
func rawEqual(b, a cty.Value) bool {
	if b == cty.NilVal || a == cty.NilVal {
		return b == a
	}
	b, _ = b.UnmarkDeep()
	a, _ = a.UnmarkDeep()
	if !b.IsWhollyKnown() || !a.IsWhollyKnown() {
		return false
	}
	return b.RawEquals(a)
}

// checkSensitive returns a sensitive node when either side is sensitive
// (by mark or, when schemaSens, by schema), and otherwise nil.
func (d *differ) checkSensitive(b, a cty.Value, schemaSens bool, path cty.Path) node {
	bp, ap := present(b), present(a)
	bs := bp && (schemaSens || sensitive(b))
	as := ap && (schemaSens || sensitive(a))
	if !bs && !as {
		return nil
	}
	inner := calcAction(bp, ap, rawEqual(b, a))
	act := inner
	if act == plans.NoOp && bs != as {
		act = plans.Update
	}
	return &sensitiveNode{base: base{act: act, replace: d.forces(path)}, inner: inner, beforeSens: bs, afterSens: as}
}

// checkUnknown returns an unknown node when the after value is unknown.
func (d *differ) checkUnknown(b, a cty.Value, path cty.Path, before func() node) node {
	if a == cty.NilVal {
		return nil
	}
	if au, _ := a.Unmark(); au.IsKnown() {
		return nil
	}
	if !present(b) {
		return &unknownNode{base: base{act: plans.Create, replace: d.forces(path)}}
	}
	return &unknownNode{base: base{act: plans.Update, replace: d.forces(path)}, before: before()}
}

// attr computes the diff of one attribute value.
func (d *differ) attr(b, a cty.Value, at *configschema.Attribute, path cty.Path) node {
	if at.NestedType != nil {
		return d.nested(b, a, at.NestedType, at.Sensitive, path)
	}
	return d.typed(b, a, at.Type, at.Sensitive, path)
}

// typed computes the diff of a value of type ty. A cty.NilVal side is
// absent.
func (d *differ) typed(b, a cty.Value, ty cty.Type, schemaSens bool, path cty.Path) node {
	if n := d.checkSensitive(b, a, schemaSens, path); n != nil {
		return n
	}
	if n := d.checkUnknown(b, a, path, func() node { return d.typed(b, cty.NilVal, ty, false, path) }); n != nil {
		return n
	}
	bp, ap := present(b), present(a)
	if ty == cty.DynamicPseudoType {
		var bj, aj *jval
		if bp {
			bj = fromCty(b)
		}
		if ap {
			aj = fromCty(a)
		}
		return diffJSON(bj, aj, bp, ap)
	}
	bu, au := unmarkTop(b), unmarkTop(a)
	rep := d.forces(path)
	switch {
	case ty.IsPrimitiveType():
		var bj, aj *jval
		if bp {
			bj = fromCty(bu)
		}
		if ap {
			aj = fromCty(au)
		}
		return &primNode{base: base{act: calcAction(bp, ap, rawEqual(bu, au)), replace: rep}, before: bj, after: aj}
	case ty.IsListType():
		bs, as := elems(bu), elems(au)
		ety := ty.ElementType()
		pairs := alignSeq(keys(bs), keys(as), func(int, int) bool { return ety.IsObjectType() })
		d.inSeq++
		defer func() { d.inSeq-- }()
		return d.seq(bp, ap, bs, as, pairs, path, rep, true, func(be, ae cty.Value, _ int, p cty.Path) node {
			return d.typed(be, ae, ety, false, p)
		})
	case ty.IsTupleType():
		bs, as := elems(bu), elems(au)
		etys := ty.TupleElementTypes()
		d.inSeq++
		defer func() { d.inSeq-- }()
		return d.seq(bp, ap, bs, as, indexPairs(len(bs), len(as)), path, rep, true, func(be, ae cty.Value, i int, p cty.Path) node {
			ety := cty.DynamicPseudoType
			if i < len(etys) {
				ety = etys[i]
			}
			return d.typed(be, ae, ety, false, p)
		})
	case ty.IsSetType():
		bs, as := elems(bu), elems(au)
		ety := ty.ElementType()
		d.inSeq++
		defer func() { d.inSeq-- }()
		return d.seq(bp, ap, bs, as, setPairs(bs, as), setPath(path), rep, false, func(be, ae cty.Value, _ int, p cty.Path) node {
			return d.typed(be, ae, ety, false, p)
		})
	case ty.IsMapType():
		ety := ty.ElementType()
		return d.mapping(bp, ap, bu, au, rep, false, true, path, func(be, ae cty.Value, _ int, p cty.Path) node {
			return d.typed(be, ae, ety, false, p)
		})
	case ty.IsObjectType():
		n := &mapNode{base: base{act: defaultAction(bp, ap), replace: rep}, object: true, elems: map[string]node{}}
		for name, aty := range ty.AttributeTypes() {
			be, ae := getAttr(bu, name), getAttr(au, name)
			p := extend(path, cty.GetAttrStep{Name: name})
			if d.irrelevant(p) {
				ae = be
			}
			if !present(be) && !present(ae) {
				continue
			}
			e := d.typed(be, ae, aty, false, p)
			n.elems[name] = e
			n.act = combine(n.act, e.action())
		}
		return n
	}
	return &primNode{base: base{act: plans.NoOp}}
}

// nested computes the diff of a nested attribute type value.
func (d *differ) nested(b, a cty.Value, o *configschema.Object, schemaSens bool, path cty.Path) node {
	if n := d.checkSensitive(b, a, schemaSens, path); n != nil {
		return n
	}
	if n := d.checkUnknown(b, a, path, func() node { return d.nested(b, cty.NilVal, o, false, path) }); n != nil {
		return n
	}
	bp, ap := present(b), present(a)
	bu, au := unmarkTop(b), unmarkTop(a)
	rep := d.forces(path)
	object := func(be, ae cty.Value, _ int, p cty.Path) node {
		return d.nestedObject(be, ae, o.Attributes, p)
	}
	switch o.Nesting {
	case configschema.NestingList:
		bs, as := elems(bu), elems(au)
		return d.seq(bp, ap, bs, as, indexPairs(len(bs), len(as)), path, rep, false, object)
	case configschema.NestingSet:
		bs, as := elems(bu), elems(au)
		n := d.seq(bp, ap, bs, as, setPairs(bs, as), setPath(path), false, false, object).(*listNode)
		if rep {
			for _, e := range n.elems {
				forceReplace(e)
			}
		}
		return n
	case configschema.NestingMap:
		n := d.mapping(bp, ap, bu, au, false, false, false, path, object).(*mapNode)
		n.unaligned = true
		if rep {
			for _, e := range n.elems {
				forceReplace(e)
			}
		}
		return n
	default:
		n := d.nestedObject(b, a, o.Attributes, path)
		n.(*mapNode).replace = rep
		return n
	}
}

// forceReplace marks a node as forcing replacement. A nested attribute
// of set or map nesting that forces replacement has each of its elements
// shown marked, rather than itself, as Terraform shows it.
func forceReplace(n node) {
	if r, ok := n.(interface{ markReplace() }); ok {
		r.markReplace()
	}
}

// nestedObject computes the diff of one object of a nested attribute type.
func (d *differ) nestedObject(b, a cty.Value, attrs map[string]*configschema.Attribute, path cty.Path) node {
	if n := d.checkSensitive(b, a, false, path); n != nil {
		return n
	}
	if n := d.checkUnknown(b, a, path, func() node { return d.nestedObject(b, cty.NilVal, attrs, path) }); n != nil {
		return n
	}
	bu, au := unmarkTop(b), unmarkTop(a)
	n := &mapNode{base: base{act: defaultAction(present(b), present(a)), replace: d.forces(path)}, object: true, childNull: true, elems: map[string]node{}}
	for name, at := range attrs {
		be, ae := getAttr(bu, name), getAttr(au, name)
		p := extend(path, cty.GetAttrStep{Name: name})
		if d.irrelevant(p) {
			ae = be
		}
		if !present(be) && !present(ae) {
			continue
		}
		e := d.attr(be, ae, at, p)
		n.elems[name] = e
		n.act = combine(n.act, e.action())
	}
	return n
}

// elemFunc computes the diff of one element of a collection; i is its
// index (after the change where it exists then) and p its path.
type elemFunc func(b, a cty.Value, i int, p cty.Path) node

// setElement marks paths through set elements, which replacement paths
// cannot address here.
var setElement = cty.IndexStep{Key: cty.StringVal("\x00set element")}

func setPath(path cty.Path) cty.Path { return extend(path, setElement) }

// seq builds a sequence node from aligned element pairs; the elements of
// a set share the path setPath returns.
func (d *differ) seq(bp, ap bool, bs, as []cty.Value, pairs []pairIdx, path cty.Path, rep, context bool, elem elemFunc) node {
	n := &listNode{base: base{act: defaultAction(bp, ap), replace: rep}, context: context}
	for _, p := range pairs {
		be, ae := cty.NilVal, cty.NilVal
		idx := p.a
		if p.b >= 0 {
			be = bs[p.b]
		}
		if p.a >= 0 {
			ae = as[p.a]
		} else {
			idx = p.b
		}
		ep := path
		if len(path) == 0 || path[len(path)-1] != cty.PathStep(setElement) {
			ep = extend(path, cty.IndexStep{Key: cty.NumberIntVal(int64(idx))})
		}
		if d.irrelevant(ep) {
			ae = be
			if be == cty.NilVal {
				continue
			}
		}
		e := elem(be, ae, idx, ep)
		n.elems = append(n.elems, e)
		n.act = combine(n.act, e.action())
	}
	return n
}

// mapping builds a map node from two map (or object) values.
func (d *differ) mapping(bp, ap bool, b, a cty.Value, rep, object, childNull bool, path cty.Path, elem elemFunc) node {
	n := &mapNode{base: base{act: defaultAction(bp, ap), replace: rep}, object: object, childNull: childNull, elems: map[string]node{}}
	bm, am := entries(b), entries(a)
	for k := range union(bm, am) {
		be, ae, p := bm[k], am[k], extend(path, cty.IndexStep{Key: cty.StringVal(k)})
		if d.irrelevant(p) {
			ae = be
			if be == cty.NilVal {
				continue
			}
		}
		e := elem(be, ae, 0, p)
		n.elems[k] = e
		n.act = combine(n.act, e.action())
	}
	return n
}

func unmarkTop(v cty.Value) cty.Value {
	if v == cty.NilVal {
		return v
	}
	v, _ = v.Unmark()
	return v
}

// elems returns the elements of a known, non-null collection.
func elems(v cty.Value) []cty.Value {
	if v == cty.NilVal || !v.IsKnown() || v.IsNull() {
		return nil
	}
	var out []cty.Value
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		out = append(out, e)
	}
	return out
}

// entries returns the elements of a known, non-null map or object by key.
func entries(v cty.Value) map[string]cty.Value {
	out := map[string]cty.Value{}
	if v == cty.NilVal || !v.IsKnown() || v.IsNull() {
		return out
	}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		out[k.AsString()] = e
	}
	return out
}

func union(a, b map[string]cty.Value) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func getAttr(v cty.Value, name string) cty.Value {
	if v == cty.NilVal || !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() || !v.Type().HasAttribute(name) {
		return cty.NilVal
	}
	return v.GetAttr(name)
}

// keys returns comparison keys for the elements of a sequence.
func keys(vs []cty.Value) []string {
	var u int
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fromCty(v).key(&u)
	}
	return out
}

func indexPairs(n, m int) []pairIdx {
	var out []pairIdx
	for i := 0; i < n || i < m; i++ {
		p := pairIdx{i, i}
		if i >= n {
			p.b = -1
		}
		if i >= m {
			p.a = -1
		}
		out = append(out, p)
	}
	return out
}

// setPairs matches equal set elements; the rest are deletions (in before
// order) followed by additions.
func setPairs(bs, as []cty.Value) []pairIdx {
	var u int
	ak := make([]string, len(as))
	for i, v := range as {
		ak[i] = setKey(v, &u)
	}
	used := make([]bool, len(as))
	var out []pairIdx
	for i, v := range bs {
		k := setKey(v, &u)
		p := pairIdx{i, -1}
		for j := range as {
			if !used[j] && ak[j] == k {
				p.a = j
				used[j] = true
				break
			}
		}
		out = append(out, p)
	}
	for j := range as {
		if !used[j] {
			out = append(out, pairIdx{-1, j})
		}
	}
	return out
}

func setKey(v cty.Value, u *int) string {
	j := fromCty(v)
	k := j.key(u)
	if j.hasSensitive() {
		k = "!" + k
	}
	return k
}

func sortedKeys[T any](m map[string]T) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
