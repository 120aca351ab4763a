package render

import (
	"strings"

	"github.com/strata-dev/strata/internal/plans"
)

// primNode is a change of a primitive value: a string, number, bool or an
// explicit null. A nil side means absent.
type primNode struct {
	base
	before, after *jval
}

func (n *primNode) render(indent int, o opts) string {
	if isStringish(n.before) || isStringish(n.after) {
		return n.renderString(indent, o)
	}
	b, a := primText(n.before), primText(n.after)
	switch n.act {
	case plans.Create:
		return a + replaceNote(n.replace, o)
	case plans.Delete:
		return b + nullSuffix(n.act, o) + replaceNote(n.replace, o)
	case plans.NoOp:
		return b + replaceNote(n.replace, o)
	default:
		return b + " " + arrow + " " + a + replaceNote(n.replace, o)
	}
}

func isStringish(v *jval) bool { return v != nil && v.kind == jString }

// primText renders a non-string primitive.
func primText(v *jval) string {
	if v == nil || v.kind == jNull {
		return "[dark_gray]null[reset]"
	}
	if v.kind == jString {
		return quote(v.text)
	}
	return v.text
}

// strForm classifies a string for display: JSON documents are shown as
// jsonencode(...), strings with newlines as heredocs.
type strForm struct {
	null      bool
	text      string
	json      *jval
	multiline bool
}

func classify(v *jval) strForm {
	if v == nil || v.kind == jNull {
		return strForm{null: true}
	}
	s := v.text
	if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") {
		if j, ok := parseJSON(s); ok {
			return strForm{text: s, json: j}
		}
	}
	if strings.Contains(s, "\n") {
		return strForm{text: strings.TrimSpace(s), multiline: true}
	}
	return strForm{text: s}
}

func (f strForm) simple() string {
	if f.null {
		return "[dark_gray]null[reset]"
	}
	return quote(f.text)
}

// heredocLines renders every line of s as an unchanged heredoc line.
func heredocLines(s string, indent int, o opts) []string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = ind(indent+1) + sym(plans.NoOp, o) + esc(l)
	}
	return lines
}

func heredoc(lines []string, indent int, o opts, act plans.Action, replace bool) string {
	return "<<-EOT" + replaceNote(replace, o) + "\n" + strings.Join(lines, "\n") + "\n" +
		ind(indent) + sym(plans.NoOp, o) + "EOT" + nullSuffix(act, o)
}

func (n *primNode) renderString(indent int, o opts) string {
	switch n.act {
	case plans.Create, plans.NoOp:
		f := classify(n.after)
		if n.act == plans.NoOp && n.after == nil {
			f = classify(n.before)
		}
		if f.json != nil {
			if n.act == plans.NoOp {
				return renderJSONString(n.act, n.replace, indent, o, f.json, f.json)
			}
			return renderJSONString(n.act, n.replace, indent, o, nil, f.json)
		}
		if !f.multiline {
			return f.simple() + replaceNote(n.replace, o)
		}
		return heredoc(heredocLines(f.text, indent, o), indent, o, n.act, n.replace)
	case plans.Delete:
		f := classify(n.before)
		if f.null {
			return f.simple() + replaceNote(n.replace, o)
		}
		if f.json != nil {
			return renderJSONString(n.act, n.replace, indent, o, f.json, nil)
		}
		if !f.multiline {
			return f.simple() + nullSuffix(n.act, o) + replaceNote(n.replace, o)
		}
		return heredoc(heredocLines(f.text, indent, o), indent, o, n.act, n.replace)
	}

	bf, af := classify(n.before), classify(n.after)
	if bf.json != nil && af.json != nil {
		return renderJSONString(n.act, n.replace, indent, o, bf.json, af.json)
	}
	if bf.json != nil || af.json != nil {
		// One side is JSON and the other is not: show the two values
		// whole.
		from := &primNode{base{act: plans.Delete}, n.before, nil}
		to := &primNode{base{act: plans.Create}, nil, n.after}
		return (&typeChangeNode{base{act: n.act}, from, to}).render(indent, o)
	}
	if !bf.multiline && !af.multiline {
		return bf.simple() + " " + arrow + " " + af.simple() + replaceNote(n.replace, o)
	}
	bl, al := strings.Split(bf.text, "\n"), strings.Split(af.text, "\n")
	var lines []string
	for _, p := range alignSeq(bl, al, nil) {
		switch {
		case p.b < 0:
			lines = append(lines, ind(indent+1)+sym(plans.Create, o)+esc(al[p.a]))
		case p.a < 0:
			lines = append(lines, ind(indent+1)+sym(plans.Delete, o)+esc(bl[p.b]))
		case bl[p.b] != al[p.a]:
			lines = append(lines, ind(indent+1)+sym(plans.Delete, o)+esc(bl[p.b]))
			lines = append(lines, ind(indent+1)+sym(plans.Create, o)+esc(al[p.a]))
		default:
			lines = append(lines, ind(indent+1)+sym(plans.NoOp, o)+esc(bl[p.b]))
		}
	}
	return heredoc(lines, indent, o, n.act, n.replace)
}

// renderJSONString renders a string holding JSON as jsonencode(...), with
// the JSON documents diffed structurally.
func renderJSONString(act plans.Action, replace bool, indent int, o opts, before, after *jval) string {
	d := diffJSON(before, after, before != nil, after != nil)
	jo := o
	jo.noNullSuffix = true
	jo.forceReplace = false
	symAct := act
	var note, rep string
	if d.action() == plans.NoOp && act == plans.Update {
		// Only whitespace differs; show the document as unchanged. The
		// note is not coloured, as in Terraform.
		if replace || o.forceReplace {
			note = " # whitespace changes force replacement"
		} else {
			note = " # whitespace changes"
		}
		jo.showUnchanged = true
		symAct = plans.NoOp
	} else {
		rep = replaceNote(replace, o)
	}
	body := d.render(indent+1, jo)
	if act == plans.Create || act == plans.Delete {
		symAct = plans.NoOp
	}
	if strings.Contains(body, "\n") {
		return "jsonencode(" + note + "\n" + ind(indent+1) + sym(symAct, o) + body + rep + "\n" +
			ind(indent) + sym(plans.NoOp, o) + ")" + nullSuffix(act, o)
	}
	return "jsonencode(" + body + ")" + note + rep
}
