package render

import (
	"fmt"
	"sort"
	"strings"

	"github.com/strata-dev/strata/internal/plans"
)

// node is one computed difference between a before and an after value,
// ready to be printed.
type node interface {
	action() plans.Action
	// render prints the value part of the node (what follows "name = ")
	// for a line indented by indent levels. Continuation lines carry their
	// own indentation; the text has no trailing newline.
	render(indent int, o opts) string
}

// opts controls how a node renders; containers adjust it for children.
type opts struct {
	showUnchanged bool // print unchanged children rather than counting them
	hideSymbols   bool // print no action symbols (state output)
	noNullSuffix  bool // omit " -> null" after a deleted value
	forceReplace  bool // annotate with "# forces replacement" regardless of the node's own flag
}

// child returns the options for a container's children: replacement
// annotations are never inherited.
func (o opts) child(noNull bool) opts {
	o.noNullSuffix = noNull
	o.forceReplace = false
	return o
}

type base struct {
	act     plans.Action
	replace bool
}

func (b base) action() plans.Action { return b.act }

func (b *base) markReplace() { b.replace = true }

func ind(n int) string { return strings.Repeat("    ", n) }

// sym is the action column printed before a line's content: three
// characters wide plus a separating space.
//
// Terraform colours each symbol apart, so that a reset follows its own:
// the doubled [reset] gives its bytes when colour is on.
func sym(a plans.Action, o opts) string {
	if o.hideSymbols {
		return ""
	}
	switch a {
	case plans.Create:
		return "  [green]+[reset][reset] "
	case plans.Delete:
		return "  [red]-[reset][reset] "
	case plans.Update:
		return "  [yellow]~[reset][reset] "
	case plans.DeleteThenCreate:
		return "[red]-[reset]/[green]+[reset][reset] "
	case plans.CreateThenDelete:
		return "[green]+[reset]/[red]-[reset][reset] "
	case plans.Read:
		return " [cyan]<=[reset][reset] "
	case plans.Forget:
		return " [red].[reset][reset] "
	default:
		return "    "
	}
}

func nullSuffix(a plans.Action, o opts) string {
	if a == plans.Delete && !o.noNullSuffix {
		return " [dark_gray]-> null[reset][reset]"
	}
	return ""
}

func replaceNote(replace bool, o opts) string {
	if replace || o.forceReplace {
		// Terraform colours the note on its own, so a reset follows
		// its own.
		return " [red]# forces replacement[reset][reset]"
	}
	return ""
}

const arrow = "[yellow]->[reset][reset]"

func unchangedNote(noun string, n int) string {
	if n != 1 {
		noun += "s"
	}
	return fmt.Sprintf("[dark_gray]# (%d unchanged %s hidden)[reset][reset]", n, noun)
}

// combine folds a child's action into its container's: any difference
// between changing children makes the container an update.
func combine(cur, next plans.Action) plans.Action {
	if next == plans.NoOp || cur == next {
		return cur
	}
	return plans.Update
}

// defaultAction is a container's action before looking at its children.
func defaultAction(before, after bool) plans.Action {
	switch {
	case !before && after:
		return plans.Create
	case before && !after:
		return plans.Delete
	}
	return plans.NoOp
}

// ---- unknown ----

type unknownNode struct {
	base
	before node // the prior value, or nil when created
}

func (n *unknownNode) render(indent int, o opts) string {
	if n.before == nil || n.act == plans.Create {
		return "(known after apply)" + replaceNote(n.replace, o)
	}
	bo := o
	bo.noNullSuffix = true
	bo.forceReplace = false
	// As Terraform: the arrow to an unknown value is not coloured.
	return n.before.render(indent, bo) + " -> (known after apply)" + replaceNote(n.replace, o)
}

// ---- sensitive ----

type sensitiveNode struct {
	base
	inner                 plans.Action
	beforeSens, afterSens bool
}

func (n *sensitiveNode) render(indent int, o opts) string {
	return "(sensitive value)" + nullSuffix(n.act, o) + replaceNote(n.replace, o)
}

// warnings returns the lines printed above an attribute whose sensitivity
// changes.
func warnings(n node, indent int) []string {
	s, ok := n.(*sensitiveNode)
	if !ok || s.beforeSens == s.afterSens || s.inner == plans.Create || s.inner == plans.Delete {
		return nil
	}
	var w string
	if s.beforeSens {
		w = "  # [yellow]Warning[reset]: this attribute value will no longer be marked as sensitive\n" +
			ind(indent) + "  # after applying this change."
	} else {
		w = "  # [yellow]Warning[reset]: this attribute value will be marked as sensitive and will not\n" +
			ind(indent) + "  # display in UI output after applying this change."
	}
	if s.inner == plans.NoOp {
		w += " The value is unchanged."
	}
	return []string{w}
}

// ---- type change ----

type typeChangeNode struct {
	base
	from, to node
}

func (n *typeChangeNode) render(indent int, o opts) string {
	o.noNullSuffix = true
	return n.from.render(indent, o) + " " + arrow + " " + n.to.render(indent, o)
}

// ---- sequences: lists, tuples, sets, nested lists ----

type listNode struct {
	base
	elems   []node
	context bool // show the unchanged neighbours of changed elements
}

func (n *listNode) render(indent int, o opts) string {
	if len(n.elems) == 0 {
		return "[]" + nullSuffix(n.act, o) + replaceNote(n.replace, o)
	}
	eo := o.child(true)
	uo := eo
	uo.showUnchanged = true

	var b strings.Builder
	b.WriteString("[" + replaceNote(n.replace, o) + "\n")
	line := func(e node, eo opts) {
		for _, w := range warnings(e, indent+1) {
			b.WriteString(ind(indent+1) + w + "\n")
		}
		b.WriteString(ind(indent+1) + sym(e.action(), eo) + e.render(indent+1, eo) + ",\n")
	}
	var skipped []node
	next := false
	for _, e := range n.elems {
		if e.action() == plans.NoOp && !next && !o.showUnchanged {
			skipped = append(skipped, e)
			continue
		}
		next = false
		lo := eo
		if n.context {
			if len(skipped) > 1 {
				b.WriteString(ind(indent+1) + sym(plans.NoOp, o) + unchangedNote("element", len(skipped)-1) + "\n")
			}
			if len(skipped) > 0 {
				line(skipped[len(skipped)-1], uo)
			}
			skipped = nil
			if e.action() == plans.NoOp {
				lo = uo
			} else {
				next = true
			}
		}
		line(e, lo)
	}
	if len(skipped) > 0 {
		b.WriteString(ind(indent+1) + sym(plans.NoOp, o) + unchangedNote("element", len(skipped)) + "\n")
	}
	b.WriteString(ind(indent) + sym(plans.NoOp, o) + "]" + nullSuffix(n.act, o))
	return b.String()
}

// ---- maps and objects ----

// mapNode is a map (quoted keys, "elements") or an object (identifier keys,
// "attributes").
type mapNode struct {
	base
	elems  map[string]node
	object bool // render as an object rather than a map
	// childNull makes deleted children show " -> null"; for maps only
	// while the map itself is not deleted.
	childNull bool
	// unaligned leaves the keys unpadded: Terraform aligns the " = " of
	// a map's entries, but not those of a nested attribute of map
	// nesting, whose values are all objects.
	unaligned bool
}

func (n *mapNode) render(indent int, o opts) string {
	if len(n.elems) == 0 {
		return "{}" + nullSuffix(n.act, o) + replaceNote(n.replace, o)
	}
	keys := make([]string, 0, len(n.elems))
	width := 0
	disp := make(map[string]string, len(n.elems))
	for k := range n.elems {
		keys = append(keys, k)
		d := quote(k)
		if n.object {
			d = attrName(k)
		}
		disp[k] = d
		if !n.unaligned {
			width = max(width, len(d))
		}
	}
	sort.Strings(keys)

	noNull := !n.childNull || (!n.object && n.act == plans.Delete)
	eo := o.child(noNull)
	noun := "element"
	if n.object {
		noun = "attribute"
	}

	var b strings.Builder
	b.WriteString("{" + replaceNote(n.replace, o) + "\n")
	hidden := 0
	for _, k := range keys {
		e := n.elems[k]
		lo := eo
		if n.object && importantAttr(k) {
			// As for a block's attributes: shown whole, changed or not.
			lo.showUnchanged = true
		} else if e.action() == plans.NoOp && !o.showUnchanged {
			hidden++
			continue
		}
		for _, w := range warnings(e, indent+1) {
			b.WriteString(ind(indent+1) + w + "\n")
		}
		comma := ""
		if !n.object && isObjectNode(e) {
			comma = ","
		}
		b.WriteString(ind(indent+1) + sym(e.action(), lo) + pad(disp[k], width) + " = " + e.render(indent+1, lo) + comma + "\n")
	}
	if hidden > 0 {
		b.WriteString(ind(indent+1) + sym(plans.NoOp, o) + unchangedNote(noun, hidden) + "\n")
	}
	b.WriteString(ind(indent) + sym(plans.NoOp, o) + "}" + nullSuffix(n.act, o))
	return b.String()
}

func isObjectNode(n node) bool {
	m, ok := n.(*mapNode)
	return ok && m.object
}

// pad right-pads s with spaces to width. Widths are measured in bytes but
// padding is counted in characters, as Terraform does.
func pad(s string, width int) string {
	return fmt.Sprintf("%-*s", width, s)
}
