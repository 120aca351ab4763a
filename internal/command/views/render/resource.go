package render

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
)

// Change is one resource instance change to render.
type Change struct {
	Addr     string // e.g. `terraform_data.a["x"]`
	PrevAddr string // the previous address when the instance moved
	Action   plans.Action
	Reason   plans.ActionReason
	// Before is null for a create and After null for a delete. After may
	// hold unknown values. Either may carry the "sensitive" mark on
	// sensitive parts.
	Before, After cty.Value
	Schema        *configschema.Block
	// RequiresReplace lists the attribute paths that force replacement;
	// their lines are annotated "# forces replacement".
	RequiresReplace []cty.Path
	Deposed         string // deposed object key, if the change is to one
	// Importing is the import ID when an import block adopts the object.
	Importing string
	// ImportingByIdentity is set when an import block adopts the object
	// by its resource identity, without an ID.
	ImportingByIdentity bool
	// Generated is set when the object's configuration was generated
	// (plan -generate-config-out).
	Generated bool
	// Drift marks a change made outside strata, found by refreshing:
	// "has changed" or "has been deleted" rather than what will happen.
	Drift bool
	// Relevant, when not nil, limits a drift change to the attributes at
	// or around these paths, those that may have affected the plan (see
	// plans.RelevantAttr); every other attribute shows as unchanged, and a
	// change left with no difference renders as "". An empty path stands
	// for the whole object. Nil shows every difference.
	Relevant []cty.Path
	// ReplaceReasons adds, to a replacement, strata's comment line saying
	// why it is replaced and in which order (see StrataNotePrefix).
	ReplaceReasons bool
	// ProviderConfigChanged lists the identity arguments of the provider
	// configuration that changed (`region "a" → "b"`), for that line.
	ProviderConfigChanged []string
}

// ResourceChange renders one change block as Terraform prints it under
// "Terraform will perform the following actions:": the comment header, the
// resource line and its body, ending with a newline. It returns "" for a
// no-op change of an instance that did not move. The text holds
// colorstring markup; pass it through Colorize.
func ResourceChange(c Change) string {
	importing := c.Importing != "" || c.ImportingByIdentity
	if c.Action == plans.NoOp && (c.PrevAddr == "" || c.PrevAddr == c.Addr) && !importing {
		return ""
	}
	a := parseAddr(c.Addr)
	d := &differ{replace: c.RequiresReplace, relevant: c.Relevant}
	before, after := c.Before, c.After
	if c.Action == plans.Create || before == cty.NilVal {
		before = cty.NilVal
	}
	if c.Action == plans.Delete || after == cty.NilVal {
		after = cty.NilVal
	}
	if c.Action == plans.Forget {
		after = before
	}
	body := d.block(before, after, c.Schema, nil)
	if c.Drift && c.Relevant != nil && body.action() == plans.NoOp {
		return ""
	}

	var b strings.Builder
	b.WriteString(header(c, a))
	kw := "resource"
	if a.data {
		kw = "data"
	}
	// The line starts with a reset, as Terraform's does.
	fmt.Fprintf(&b, "[reset]%s%s %s %s %s\n", sym(c.Action, opts{}), kw, quote(a.typ), quote(a.name), body.render(0, opts{}))
	return b.String()
}

// header renders the comment lines above a change.
func header(c Change, a addr) string {
	disp := esc(c.Addr)
	if c.Deposed != "" {
		disp = fmt.Sprintf("%s (deposed object %s)", disp, esc(c.Deposed))
	}
	var b strings.Builder
	moved := c.PrevAddr != "" && c.PrevAddr != c.Addr
	switch {
	case c.Drift && c.Action == plans.NoOp:
		fmt.Fprintf(&b, "[bold]  # %s[reset] has moved to [bold]%s[reset]\n", esc(c.PrevAddr), disp)
		return b.String()
	case c.Drift && c.Action == plans.Delete:
		fmt.Fprintf(&b, "[bold]  # %s[reset] has been deleted\n", disp)
	case c.Drift:
		fmt.Fprintf(&b, "[bold]  # %s[reset] has changed\n", disp)
	}
	if c.Drift {
		if moved {
			fmt.Fprintf(&b, "  # [reset](moved from %s)\n", esc(c.PrevAddr))
		}
		return b.String()
	}
	switch c.Action {
	case plans.Forget:
		fmt.Fprintf(&b, "[bold] # %s[reset] will no longer be managed by strata, but will not be destroyed\n # (destroy = false is set in the configuration)", disp)
	case plans.Create:
		fmt.Fprintf(&b, "[bold]  # %s[reset] will be created", disp)
	case plans.Read:
		fmt.Fprintf(&b, "[bold]  # %s[reset] will be read during apply", disp)
		switch {
		case c.Reason == plans.ReasonReadBecauseCheckNested:
			b.WriteString("\n  # (config will be reloaded to verify a check block)")
		case c.Reason == plans.ReasonReadBecauseDependencyPending:
			b.WriteString("\n  # (depends on a resource or a module with changes pending)")
		case c.Reason == plans.ReasonReadBecauseConfigUnknown || configUnknown(c.After, c.Schema):
			b.WriteString("\n  # (config refers to values not yet known)")
		default:
			b.WriteString("\n  # (depends on a resource or a module with changes pending)")
		}
	case plans.Update:
		fmt.Fprintf(&b, "[bold]  # %s[reset] will be updated in-place", disp)
	case plans.DeleteThenCreate, plans.CreateThenDelete:
		switch c.Reason {
		case plans.ReasonReplaceBecauseTainted:
			fmt.Fprintf(&b, "[bold]  # %s[reset] is tainted, so must be [bold][red]replaced[reset]", disp)
		case plans.ReasonReplaceByRequest:
			fmt.Fprintf(&b, "[bold]  # %s[reset] will be [bold][red]replaced[reset], as requested", disp)
		case plans.ReasonReplaceByTriggers:
			fmt.Fprintf(&b, "[bold]  # %s[reset] will be [bold][red]replaced[reset] due to changes in replace_triggered_by", disp)
		default:
			fmt.Fprintf(&b, "[bold]  # %s[reset] must be [bold][red]replaced[reset]", disp)
		}
	case plans.Delete:
		fmt.Fprintf(&b, "[bold]  # %s[reset] will be [bold][red]destroyed[reset]", disp)
		switch c.Reason {
		case plans.ReasonDeleteBecauseNoResourceConfig:
			fmt.Fprintf(&b, "\n  # (because %s.%s is not in configuration)", esc(a.typ), esc(a.name))
		case plans.ReasonDeleteBecauseWrongRepetition:
			switch {
			case a.key == "":
				b.WriteString("\n  # (because resource uses count or for_each)")
			case strings.HasPrefix(a.key, `"`):
				b.WriteString("\n  # (because resource does not use for_each)")
			default:
				b.WriteString("\n  # (because resource does not use count)")
			}
		case plans.ReasonDeleteBecauseCountIndex:
			fmt.Fprintf(&b, "\n  # (because index [%s] is out of range for count)", esc(a.key))
		case plans.ReasonDeleteBecauseEachKey:
			fmt.Fprintf(&b, "\n  # (because key [%s] is not in for_each map)", esc(a.key))
		case plans.ReasonDeleteBecauseNoModule:
			fmt.Fprintf(&b, "\n  # (because %s is not in configuration)", esc(a.module))
		case plans.ReasonDeleteBecauseNoMoveTarget:
			fmt.Fprintf(&b, "\n  # (because %s was moved to %s, which is not in configuration)", esc(c.PrevAddr), esc(c.Addr))
		case plans.ReasonDeleteBecauseEnabledFalse:
			b.WriteString("\n  # (because enabled is false)")
		}
		if c.Deposed != "" {
			b.WriteString("\n  # (left over from a partially-failed replacement of this instance)")
		}
	case plans.NoOp:
		if (c.Importing != "" || c.ImportingByIdentity) && (c.PrevAddr == "" || c.PrevAddr == c.Addr) {
			fmt.Fprintf(&b, "[bold]  # %s[reset] will be imported", disp)
		} else {
			fmt.Fprintf(&b, "[bold]  # %s[reset] has moved to [bold]%s[reset]", esc(c.PrevAddr), disp)
		}
	}
	switch {
	case c.Importing != "" && c.Action != plans.NoOp:
		fmt.Fprintf(&b, "\n  # (imported from %q)", c.Importing)
	case c.ImportingByIdentity && c.Action != plans.NoOp:
		// As Terraform, which names no ID for an import by identity.
		b.WriteString("\n  # (will be imported first)")
	}
	if c.Generated {
		b.WriteString("\n  # (config will be generated)")
	}
	b.WriteString("\n")
	if moved && c.Action != plans.NoOp {
		fmt.Fprintf(&b, "  # [reset](moved from %s)\n", esc(c.PrevAddr))
	}
	if c.ReplaceReasons {
		b.WriteString(replaceReasons(c))
	}
	return b.String()
}

// configUnknown reports whether a planned data source read has unknown
// values in its configurable (not computed-only) attributes.
func configUnknown(v cty.Value, schema *configschema.Block) bool {
	if v == cty.NilVal || schema == nil {
		return false
	}
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() {
		return true
	}
	if v.IsNull() || !v.Type().IsObjectType() {
		return false
	}
	for name, at := range schema.Attributes {
		if !at.Optional && !at.Required {
			continue
		}
		if av := getAttr(v, name); av != cty.NilVal && !av.IsWhollyKnown() {
			return true
		}
	}
	for name := range schema.BlockTypes {
		if bv := getAttr(v, name); bv != cty.NilVal && !bv.IsWhollyKnown() {
			return true
		}
	}
	return false
}

// addr is the parts of a resource instance address the header needs.
type addr struct {
	data      bool
	typ, name string
	key       string // instance key as written between brackets, or ""
	module    string // the module instance, such as module.m["a"], or ""
}

// parseAddr splits an address such as module.m["a"].data.t.n[0].
func parseAddr(s string) addr {
	var parts []string
	depth, inStr, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case inStr && ch == '\\':
			i++
		case ch == '"':
			inStr = !inStr
		case inStr:
		case ch == '[':
			depth++
		case ch == ']':
			depth--
		case ch == '.' && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	parts = append(parts, s[start:])
	var a addr
	var module []string
	for len(parts) > 2 && strings.HasPrefix(parts[0], "module") && (parts[0] == "module" || strings.HasPrefix(parts[0], "module[")) {
		module = append(module, parts[0], parts[1])
		parts = parts[2:]
	}
	a.module = strings.Join(module, ".")
	if len(parts) == 3 && parts[0] == "data" {
		a.data = true
		parts = parts[1:]
	}
	if len(parts) < 2 {
		a.typ = s
		return a
	}
	a.typ = parts[len(parts)-2]
	a.name = parts[len(parts)-1]
	if i := strings.IndexByte(a.name, '['); i >= 0 && strings.HasSuffix(a.name, "]") {
		a.key = a.name[i+1 : len(a.name)-1]
		a.name = a.name[:i]
	}
	return a
}

// quote renders a string as a quoted literal.
func quote(s string) string {
	return esc(strconv.Quote(s))
}

// attrName renders an attribute or object key: bare when it is a valid
// identifier, quoted otherwise.
func attrName(s string) string {
	if validIdent(s) {
		return s
	}
	return quote(s)
}

func validIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || unicode.IsLetter(r):
		case i > 0 && (r == '-' || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc)):
		default:
			return false
		}
	}
	return true
}
