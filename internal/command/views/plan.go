package views

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/command/views/render"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
)

// SchemaFunc returns the schema of a change's resource type, or nil.
type SchemaFunc func(c *plans.ResourceInstanceChange) *configschema.Block

// shownOutputs counts, like Terraform, the output changes that show: an
// update whose values render the same (a list become a tuple, say) is
// left out, and a plan with nothing else says "No changes.".
func shownOutputs(changes *plans.Changes) int {
	outputs := 0
	for _, o := range changes.Outputs {
		if render.OutputChange(o.Name, o.Action, o.Before, o.After, o.Sensitive) != "" {
			outputs++
		}
	}
	return outputs
}

// FailedPlanShown reports whether an apply shows a plan that failed, as
// Terraform decides it: when the plan has any resource instance or output
// change, no-ops included (then "Planning failed." when none shows). The
// plan command always shows it.
func FailedPlanShown(p *plans.Plan) bool {
	return len(p.Changes.Resources) > 0 || len(p.Changes.Outputs) > 0
}

// Plan renders a plan as `strata plan` shows it: the changes made outside
// strata, the legend, each change, the summary line and the output
// changes. relevant lists the attributes the plan's changes depend on
// (plans.Plan.RelevantAttributes): as in Terraform, a normal plan shows
// only the drift in those attributes, and only when it plans changes; a
// refresh-only plan shows all drift.
func (v *View) Plan(p *plans.Plan, schema SchemaFunc, relevant []plans.RelevantAttr) {
	v.plan(p, schema, relevant, planChunk)
}

// plan is Plan writing the text out in parts of about chunk bytes.
func (v *View) plan(p *plans.Plan, schema SchemaFunc, relevant []plans.RelevantAttr, chunk int) {
	var b strings.Builder
	changes := p.Changes
	var shown []*plans.ResourceInstanceChange
	used := map[plans.Action]bool{}
	for _, c := range changes.Resources {
		if c.Action == plans.NoOp && c.PrevRunAddr == nil && c.Importing == nil {
			continue
		}
		shown = append(shown, c)
		if c.Action != plans.NoOp {
			used[c.Action] = true
		}
	}
	outputs := shownOutputs(changes)
	if p.Mode == plans.RefreshOnlyMode && len(p.DriftedResources) > 0 {
		b.WriteString(driftNote(p.DriftedResources, schema, nil, false))
		b.WriteString("\nThis is a refresh-only plan, so strata will not take any actions to undo\n" +
			"these. If you were expecting these changes then you can apply this plan to\n" +
			"record the updated values in the strata state without changing any remote\n" +
			"objects.\n")
		if outputs == 0 {
			v.OutputNoReset(b.String()) // no reset after it, as Terraform's
			return
		}
		b.WriteString(driftRule) // before the changes to outputs
	}
	if p.Mode == plans.NormalMode && (len(shown) > 0 || outputs > 0) {
		if note := driftNote(p.DriftedResources, schema, relevant, true); note != "" {
			b.WriteString(note)
			b.WriteString("\n" + wrapParagraphs("Unless you have made equivalent changes to your configuration, or ignored the relevant attributes using ignore_changes, the following plan may include actions to undo or respond to these changes.", 78) + "\n")
			b.WriteString(driftRule)
		}
	}
	if p.Errored && len(shown) == 0 && outputs == 0 {
		v.Output("\n[reset][bold][red]Planning failed.[reset][bold] strata encountered an error while generating this plan.[reset]\n\n")
		return
	}
	if len(shown) == 0 && outputs == 0 {
		if p.Mode == plans.RefreshOnlyMode {
			b.WriteString("\n[reset][bold][green]No changes.[reset][bold] Your infrastructure still matches the configuration.[reset]\n\n")
			b.WriteString("strata has checked that the real remote objects still match the result of\nyour most recent changes, and found no differences.\n")
			v.Output(b.String())
			return
		}
		if p.Mode == plans.DestroyMode {
			b.WriteString("\n[reset][bold][green]No changes.[reset][bold] No objects need to be destroyed.[reset]\n\n")
			b.WriteString("Either you have not created any objects yet or the existing objects were\nalready deleted outside of strata.\n")
		} else {
			b.WriteString("\n[reset][bold][green]No changes.[reset][bold] Your infrastructure matches the configuration.[reset]\n\n")
			b.WriteString("strata has compared your real infrastructure against your configuration\nand found no differences, so no changes are needed.\n")
		}
		v.Output(b.String())
		return
	}
	if len(shown) > 0 {
		if len(used) > 0 {
			b.WriteString("\nstrata used the selected providers to generate the following execution\nplan. Resource actions are indicated with the following symbols:\n")
		}
		for _, l := range []struct {
			a    plans.Action
			text string
		}{
			{plans.Create, "  [green]+[reset] create"},
			{plans.Update, "  [yellow]~[reset] update in-place"},
			{plans.Delete, "  [red]-[reset] destroy"},
			{plans.DeleteThenCreate, "[red]-[reset]/[green]+[reset] destroy and then create replacement"},
			{plans.CreateThenDelete, "[green]+[reset]/[red]-[reset] create replacement and then destroy"},
			{plans.Read, " [cyan]<=[reset] read (data resources)"},
		} {
			if used[l.a] {
				// Terraform colours each line apart: a reset ends it.
				b.WriteString(l.text + "[reset]\n")
			}
		}
		if p.Errored {
			b.WriteString("\nstrata planned the following actions, but then encountered a problem:\n")
		} else {
			b.WriteString("\nstrata will perform the following actions:\n")
		}
		for _, c := range shown {
			if b.Len() >= chunk {
				// A large plan goes out as it is rendered rather than
				// held whole (with its coloured copy) in memory.
				v.OutputNoReset(b.String())
				b.Reset()
			}
			b.WriteString("\n")
			prev := ""
			if c.PrevRunAddr != nil {
				prev = c.PrevRunAddr.String()
			}
			importing, byIdentity, generated := "", false, false
			if c.Importing != nil {
				importing, generated = c.Importing.ID, c.Importing.GeneratedConfig != ""
				byIdentity = importing == ""
			}
			b.WriteString(render.ResourceChange(render.Change{
				Addr: c.Addr.String(), PrevAddr: prev, Importing: importing, ImportingByIdentity: byIdentity,
				Generated: generated, Action: c.Action, Reason: c.Reason,
				Before: c.Before, After: c.After, Schema: schema(c),
				RequiresReplace: c.RequiredReplace, Deposed: c.DeposedKey, ReplaceReasons: true, ProviderConfigChanged: c.ProviderConfigChanged,
			}))
		}
		add, change, destroy := changes.Counts()
		if n := changes.Imports(); n > 0 {
			fmt.Fprintf(&b, "\n[bold]Plan:[reset] %d to import, %d to add, %d to change, %d to destroy.\n[reset]", n, add, change, destroy)
		} else {
			fmt.Fprintf(&b, "\n[bold]Plan:[reset] %d to add, %d to change, %d to destroy.\n[reset]", add, change, destroy)
		}
	}
	if outputs > 0 {
		b.WriteString("\nChanges to Outputs:\n") // not bold, as in Terraform
		outs := make([]render.Output, len(changes.Outputs))
		for i, o := range changes.Outputs {
			outs[i] = render.Output{Name: o.Name, Action: o.Action, Before: o.Before, After: o.After, Sensitive: o.Sensitive}
		}
		b.WriteString(render.OutputChanges(outs))
		if len(shown) == 0 {
			b.WriteString("\nYou can apply this plan to save these new output values to the strata\nstate, without changing any real infrastructure.\n")
		}
	}
	// As Terraform's, the text has the resets its parts place and no
	// other after it.
	v.OutputNoReset(b.String())
}

// planChunk is the size of plan text View.Plan renders before writing
// it out: the plan of 100,000 resources is tens of megabytes.
const planChunk = 1 << 20

// driftNote renders the changes made outside strata: all of them, or
// with filter only those that touch a relevant attribute (see
// DriftFilter); "" when none is left.
func driftNote(drift []*plans.ResourceInstanceChange, schema SchemaFunc, relevant []plans.RelevantAttr, filter bool) string {
	var body strings.Builder
	for _, c := range drift {
		rc := render.Change{
			Addr: c.Addr.String(), Action: c.Action, Before: c.Before, After: c.After,
			Schema: schema(c), Deposed: c.DeposedKey, Drift: true,
		}
		if c.PrevRunAddr != nil {
			rc.PrevAddr = c.PrevRunAddr.String()
		}
		if filter {
			if c.Action == plans.NoOp {
				continue // a move only: the planned changes show it
			}
			if rc.Relevant = DriftFilter(c.Addr.String(), relevant); rc.Relevant == nil {
				continue
			}
		}
		if text := render.ResourceChange(rc); text != "" {
			body.WriteString("\n" + text)
		}
	}
	if body.Len() == 0 {
		return ""
	}
	// Terraform says "which may have affected this plan" in refresh-only
	// plans too. The line breaks are Terraform's, with the product name
	// replaced.
	// Terraform colours the heading line with its newline, so the reset
	// comes after it.
	return "\n[bold][cyan]Note:[reset][bold] Objects have changed outside of strata\n[reset]\n" +
		"strata detected the following changes made outside of strata since the\n" +
		"last \"strata apply\" which may have affected this plan:\n" + body.String() + "\n"
}

// DriftFilter returns the paths of the relevant attributes of the
// resource instance at addr, for render.Change.Relevant: those whose
// resource is addr (or unnamed). Like Terraform, it compares addresses
// as written, so a reference to a whole resource with count or for_each
// (aws_instance.a rather than aws_instance.a[0]) makes none of its
// instances' drift relevant. It returns nil when there is none: the
// drift of that instance cannot have affected the plan.
func DriftFilter(addr string, relevant []plans.RelevantAttr) []cty.Path {
	var paths []cty.Path
	for _, ra := range relevant {
		if ra.Resource != "" && ra.Resource != addr {
			continue
		}
		p := ra.Attr
		if p == nil {
			p = cty.Path{}
		}
		paths = append(paths, p)
	}
	return paths
}

// PlanNoSavedPlanNote ends a plan run without -out.
func (v *View) PlanNoSavedPlanNote() {
	v.OutputNoReset(v.rule() +
		"Note: You didn't use the -out option to save this plan, so strata can't\n" +
		"guarantee to take exactly these actions if you run \"strata apply\" now.\n")
}

// ConfigGenerated says where plan -generate-config-out wrote the
// configuration it generated.
func (v *View) ConfigGenerated(path string) {
	v.Output(v.rule() + wrapParagraphs(fmt.Sprintf("strata has generated configuration and written it to %s. Please review the configuration and edit it as necessary before adding it to version control.", path), 78) + "\n")
}

// rule returns the line that closes a plan, the first time only.
func (v *View) rule() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.ruleShown {
		return "\n"
	}
	v.ruleShown = true
	// As Terraform: in dark gray, the colour starting on the line before.
	return "[dark_gray]" + strings.TrimSuffix(planRule, "\n") + "[reset]\n\n"
}

// PlanSaved ends a plan run with -out. In automation (TF_IN_AUTOMATION)
// it says nothing, as Terraform says nothing there: automation knows where
// it saved the plan and what it runs next.
func (v *View) PlanSaved(path string, automation bool) {
	if automation {
		return
	}
	v.OutputNoReset(fmt.Sprintf(v.rule()+"Saved the plan to: %s\n", path))
	v.Outputf("\nTo perform exactly these actions, run the following command to apply:\n    strata apply %q\n", path)
}

// driftRule ends the changes made outside strata when a plan follows:
// Terraform's rule in dark gray, the colour starting on the line before.
var driftRule = "[dark_gray]" + strings.TrimSuffix(planRule, "\n") + "[reset]\n"

const planRule = "\n─────────────────────────────────────────────────────────────────────────────\n"
