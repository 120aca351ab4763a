package render

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/plans"
)

// StrataNotePrefix starts the comment lines strata adds to a plan that
// Terraform does not print, such as the replace reasons: "# (strata) ".
// Tests that compare plans with Terraform's drop these lines, and only
// these.
const StrataNotePrefix = "# (strata) "

// replaceReasons renders, for a replacement, one comment line naming
// why the instance is replaced (each attribute path that forces it, a
// taint, -replace, replace_triggered_by) and in which order the old and
// new objects are handled, and why. It returns "" for anything else.
func replaceReasons(c Change) string {
	if !c.Action.IsReplace() || c.Drift {
		return ""
	}
	var why string
	switch c.Reason {
	case plans.ReasonReplaceBecauseTainted:
		why = "the object is tainted (a create or provisioner failed, or it was tainted by hand)"
	case plans.ReasonReplaceByRequest:
		why = "-replace names it"
		if len(c.ProviderConfigChanged) > 0 {
			// lifecycle replace_on_provider_change asks with the same
			// reason.
			why = "-replace names it or lifecycle replace_on_provider_change is set"
		}
	case plans.ReasonReplaceByTriggers:
		why = "a reference in lifecycle replace_triggered_by changed"
	default:
		if len(c.RequiresReplace) == 0 {
			why = "the provider cannot update it in place"
			break
		}
		names := make([]string, 0, len(c.RequiresReplace))
		seen := map[string]bool{}
		for _, p := range c.RequiresReplace {
			n := "`" + replacePath(p) + "`"
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
		why = strings.Join(names, ", ") + " changed (force new)"
	}
	if len(c.ProviderConfigChanged) > 0 {
		why += ", and the provider configuration changed: " + strings.Join(c.ProviderConfigChanged, ", ")
	}
	order := "destroy first, then create (no create_before_destroy)"
	if c.Action == plans.CreateThenDelete {
		order = "create the new object first, then destroy the old one (create_before_destroy)"
	}
	return "  " + StrataNotePrefix + "replaced because: " + esc(why) + "; " + order + "\n"
}

// replacePath renders an attribute path as written in configuration:
// `name`, `rule[0].port`, `tags["env"]`.
func replacePath(p cty.Path) string {
	var b strings.Builder
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		case cty.IndexStep:
			k, _ := s.Key.Unmark()
			switch {
			case !k.IsKnown() || k.IsNull():
				b.WriteString("[*]")
			case k.Type() == cty.String:
				fmt.Fprintf(&b, "[%q]", k.AsString())
			case k.Type() == cty.Number:
				fmt.Fprintf(&b, "[%s]", k.AsBigFloat().Text('f', -1))
			default:
				b.WriteString("[*]")
			}
		}
	}
	return b.String()
}
