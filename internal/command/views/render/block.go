package render

import (
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
)

// blockNode is the change of a block: the resource body or a nested block.
type blockNode struct {
	base
	attrs  map[string]node
	groups []blockGroup // by block type name, sorted
}

// blockGroup holds the blocks of one nested block type.
type blockGroup struct {
	name    string
	items   []blockItem
	replace bool  // the whole collection forces replacement
	unknown *base // the collection is unknown
}

type blockItem struct {
	label     string // ` "key"` for map blocks
	n         node
	sensitive bool // the block is (or was) sensitive: its contents are not shown
}

// importantAttr names attributes that are shown even when unchanged.
func importantAttr(name string) bool {
	return name == "id" || name == "name" || name == "tags"
}

func (n *blockNode) render(indent int, o opts) string {
	if len(n.attrs) == 0 && len(n.groups) == 0 {
		return "{}" + replaceNote(n.replace, o)
	}
	var b strings.Builder
	b.WriteString("{" + replaceNote(n.replace, o) + "\n")

	names := sortedKeys(n.attrs)
	width := 0
	for _, k := range names {
		width = max(width, len(attrName(k)))
	}
	ao := o.child(false)
	hidden := 0
	for _, k := range names {
		a := n.attrs[k]
		lo := ao
		if importantAttr(k) {
			lo.showUnchanged = true
		} else if a.action() == plans.NoOp && !o.showUnchanged {
			hidden++
			continue
		}
		for _, w := range warnings(a, indent+1) {
			b.WriteString(ind(indent+1) + w + "\n")
		}
		b.WriteString(ind(indent+1) + sym(a.action(), lo) + pad(attrName(k), width) + " = " + a.render(indent+1, lo) + "\n")
	}
	if hidden > 0 {
		b.WriteString(ind(indent+1) + sym(plans.NoOp, o) + unchangedNote("attribute", hidden) + "\n")
	}

	hiddenBlocks := 0
	for _, g := range n.groups {
		first := true
		bo := o.child(false)
		bo.forceReplace = g.replace
		if g.unknown != nil {
			if len(n.attrs) > 0 {
				b.WriteString("\n")
			}
			b.WriteString(ind(indent+1) + sym(g.unknown.act, bo) + attrName(g.name) + " (known after apply)" + replaceNote(g.unknown.replace, bo) + "\n")
			continue
		}
		for _, it := range g.items {
			if it.n.action() == plans.NoOp && !o.showUnchanged {
				hiddenBlocks++
				continue
			}
			if first && len(n.attrs) > 0 {
				b.WriteString("\n")
			}
			first = false
			body := ""
			if it.sensitive {
				body = sensitiveBlockBody(it.n, indent+1, bo)
			} else {
				body = it.n.render(indent+1, bo)
			}
			b.WriteString(ind(indent+1) + sym(it.n.action(), bo) + attrName(g.name) + esc(it.label) + " " + body + "\n")
		}
	}
	if hiddenBlocks > 0 {
		b.WriteString("\n" + ind(indent+1) + sym(plans.NoOp, o) + unchangedNote("block", hiddenBlocks) + "\n")
	}
	b.WriteString(ind(indent) + sym(plans.NoOp, o) + "}")
	return b.String()
}

// writeOnlyNode stands for a write-only attribute, whose value is never
// known after the plan.
type writeOnlyNode struct{ base }

func (n *writeOnlyNode) render(_ int, o opts) string {
	return "(write-only attribute)" + nullSuffix(n.act, o)
}

// sensitiveBlockBody stands for the body of a block that is (or was)
// sensitive.
func sensitiveBlockBody(n node, indent int, o opts) string {
	pfx := ind(indent) + sym(plans.NoOp, o)
	return "{" + replaceNote(n.(*blockNode).replace, o) + "\n" +
		pfx + "  # At least one attribute in this block is (or was) sensitive,\n" +
		pfx + "  # so its contents will not be displayed.\n" +
		pfx + "}"
}

// block computes the diff of a block value against its schema. A
// cty.NilVal or null side is absent.
func (d *differ) block(b, a cty.Value, schema *configschema.Block, path cty.Path) *blockNode {
	bu, au := unmarkTop(b), unmarkTop(a)
	if au != cty.NilVal && !au.IsKnown() {
		// A wholly unknown object: every attribute is unknown.
		au = unknownObject(schema)
	}
	n := &blockNode{base: base{act: defaultAction(present(b), present(a)), replace: d.forces(path)}, attrs: map[string]node{}}
	if schema == nil {
		schema = impliedSchema(bu, au)
	}
	for name, at := range schema.Attributes {
		if at.WriteOnly {
			// Write-only values are never stored: Terraform shows the
			// attribute whenever the block exists, with the block's own
			// action.
			if present(b) || present(a) {
				n.attrs[name] = &writeOnlyNode{base{act: defaultAction(present(b), present(a))}}
			}
			continue
		}
		be, ae := getAttr(bu, name), getAttr(au, name)
		p := extend(path, cty.GetAttrStep{Name: name})
		if d.irrelevant(p) {
			ae = be
		}
		if !present(be) && !present(ae) {
			continue
		}
		e := d.attr(be, ae, at, p)
		n.attrs[name] = e
		n.act = combine(n.act, e.action())
	}
	for _, name := range sortedKeys(schema.BlockTypes) {
		nb := schema.BlockTypes[name]
		bb, ab, p := getAttr(bu, name), getAttr(au, name), extend(path, cty.GetAttrStep{Name: name})
		if d.irrelevant(p) {
			ab = bb
		}
		g := d.blockGroup(name, bb, ab, nb, p)
		if g.unknown == nil && len(g.items) == 0 {
			continue
		}
		for _, it := range g.items {
			n.act = combine(n.act, it.n.action())
		}
		if g.unknown != nil {
			n.act = combine(n.act, g.unknown.act)
		}
		n.groups = append(n.groups, g)
	}
	return n
}

func (d *differ) blockGroup(name string, b, a cty.Value, nb *configschema.NestedBlock, path cty.Path) blockGroup {
	g := blockGroup{name: name, replace: d.forces(path)}
	bu, au := unmarkTop(b), unmarkTop(a)
	if au != cty.NilVal && !au.IsKnown() {
		act := plans.Create
		if present(bu) {
			act = plans.Update
		}
		g.unknown = &base{act: act}
		return g
	}
	collSens := sensitive(b) || sensitive(a)
	item := func(label string, be, ae cty.Value, p cty.Path) {
		if !present(be) && !present(ae) {
			return
		}
		g.items = append(g.items, blockItem{
			label:     label,
			n:         d.block(be, ae, &nb.Block, p),
			sensitive: collSens || sensitive(be) || sensitive(ae),
		})
	}
	switch nb.Nesting {
	case configschema.NestingList:
		bs, as := elems(bu), elems(au)
		for _, p := range indexPairs(len(bs), len(as)) {
			be, ae, idx := cty.NilVal, cty.NilVal, p.a
			if p.b >= 0 {
				be = bs[p.b]
			}
			if p.a >= 0 {
				ae = as[p.a]
			} else {
				idx = p.b
			}
			item("", be, ae, extend(path, cty.IndexStep{Key: cty.NumberIntVal(int64(idx))}))
		}
	case configschema.NestingSet:
		bs, as := elems(bu), elems(au)
		for _, p := range setPairs(bs, as) {
			be, ae := cty.NilVal, cty.NilVal
			if p.b >= 0 {
				be = bs[p.b]
			}
			if p.a >= 0 {
				ae = as[p.a]
			}
			item("", be, ae, setPath(path))
		}
	case configschema.NestingMap:
		bm, am := entries(bu), entries(au)
		for _, k := range sortedKeys(union(bm, am)) {
			item(" "+quote(k), bm[k], am[k], extend(path, cty.IndexStep{Key: cty.StringVal(k)}))
		}
	default:
		item("", b, a, path)
	}
	return g
}

// unknownObject returns an object of the block's type whose attributes and
// nested blocks are all unknown.
func unknownObject(schema *configschema.Block) cty.Value {
	if schema == nil {
		return cty.EmptyObjectVal
	}
	vals := map[string]cty.Value{}
	for name, at := range schema.Attributes {
		vals[name] = cty.UnknownVal(at.ImpliedType())
	}
	for name, nb := range schema.BlockTypes {
		vals[name] = cty.UnknownVal(nb.ImpliedType())
	}
	return cty.ObjectVal(vals)
}

// impliedSchema describes an object value of unknown schema: every
// attribute is of dynamic type.
func impliedSchema(vs ...cty.Value) *configschema.Block {
	s := &configschema.Block{Attributes: map[string]*configschema.Attribute{}}
	for _, v := range vs {
		if v == cty.NilVal || !v.Type().IsObjectType() {
			continue
		}
		for name := range v.Type().AttributeTypes() {
			s.Attributes[name] = &configschema.Attribute{Type: cty.DynamicPseudoType, Optional: true}
		}
	}
	return s
}
