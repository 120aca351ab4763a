package views

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/strata-dev/strata/internal/runrecord"
)

// RunsFormatVersion is the format_version of the -json documents of
// runs list, runs show, runs query and history.
const RunsFormatVersion = "1.0"

// Runs is the view of the run record queries: runs list, runs show,
// runs query and history (see website/docs/runs.md).
type Runs interface {
	// List shows runs, latest first.
	List(runs []runrecord.Run) error
	// Show shows one run and its entries.
	Show(run *runrecord.Run, entries []runrecord.Entry) error
	// Query shows entries across runs; limit is the -limit that bounded
	// them (0: none).
	Query(items []runrecord.QueryItem, limit int) error
	// History shows the changes to one resource instance (and attribute).
	History(address, attribute string, items []runrecord.HistoryItem) error
}

// NewRuns returns the JSON view when json is set, else the human one.
func NewRuns(json bool, v *View) Runs {
	if json {
		return &RunsJSON{View: v}
	}
	return &RunsHuman{View: v}
}

// RunsHuman prints tables, and a run's entries with coloured outcomes.
type RunsHuman struct{ *View }

var _ Runs = (*RunsHuman)(nil)

// runsTime is how the tables show a time: local, to the second.
const runsTime = "2006-01-02 15:04:05"

// List implements Runs.
func (h *RunsHuman) List(runs []runrecord.Run) error {
	if len(runs) == 0 {
		h.Raw("No runs recorded.\n")
		return nil
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tCOMMAND\tSTARTED\tDURATION\tOUTCOME\tUPDATED\tFAILED\tSKIPPED\tUNPROCESSED\tUP-TO-DATE")
	for _, r := range runs {
		c := r.Counts
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\n", r.ID, r.Command, r.Started.Local().Format(runsTime), runDuration(r.Started, r.Ended),
			r.Outcome, c[runrecord.Updated], c[runrecord.Failed], c[runrecord.Skipped], c[runrecord.Unprocessed]+c[runrecord.Unknown], c[runrecord.UpToDate])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	h.Raw(b.String())
	return nil
}

// Query implements Runs.
func (h *RunsHuman) Query(items []runrecord.QueryItem, limit int) error {
	if len(items) == 0 {
		h.Raw("No recorded resource instances match.\n")
		return nil
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "STARTED\tRUN\tCOMMAND\tADDRESS\tACTION\tOUTCOME\tCHANGED")
	for _, it := range items {
		action, outcome := it.Action, string(it.Outcome)
		if it.Kind == runrecord.KindDrift {
			action, outcome = "drift", "-"
		}
		var paths []string
		for _, c := range it.Changes {
			paths = append(paths, c.Path)
		}
		changed := strings.Join(paths, ", ")
		if len(changed) > 60 {
			changed = changed[:57] + "..."
		}
		addr := it.Address
		if it.Deposed != "" {
			addr += " (deposed " + it.Deposed + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", it.RunStarted.Local().Format(runsTime), it.RunID, it.Command, addr, action, outcome, changed)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if limit > 0 && len(items) == limit {
		fmt.Fprintf(&b, "\n(at most %d entries: -limit=0 lists them all)\n", limit)
	}
	h.Raw(b.String())
	return nil
}

// Show implements Runs.
func (h *RunsHuman) Show(run *runrecord.Run, entries []runrecord.Entry) error {
	var b strings.Builder
	fmt.Fprintf(&b, "[bold]Run %s[reset]: %s, %s\n", run.ID, run.Command, run.Outcome)
	fmt.Fprintf(&b, "  started   %s", run.Started.Local().Format("2006-01-02 15:04:05 MST"))
	if !run.Ended.IsZero() {
		fmt.Fprintf(&b, ", took %s", runDuration(run.Started, run.Ended))
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "  by        %s on %s (strata %s)\n", run.User, run.Host, run.Version)
	fmt.Fprintf(&b, "  arguments %s\n", strings.Join(run.Args, " "))
	fmt.Fprintf(&b, "  workspace %s, backend %s\n", run.Workspace, run.Backend)
	fmt.Fprintf(&b, "  state     lineage %s, serial %d -> %d\n", run.LineageAfter, run.SerialBefore, run.SerialAfter)
	if run.PlanFile != "" {
		fmt.Fprintf(&b, "  plan file %s\n", run.PlanFile)
	}
	if run.Noop {
		b.WriteString("  This run changed nothing: its entries say what would change.\n")
	}
	for _, kind := range []string{runrecord.KindDrift, runrecord.KindChange} {
		first := true
		for _, e := range entries {
			if e.Kind != kind {
				continue
			}
			if first {
				if kind == runrecord.KindDrift {
					b.WriteString("\nChanged outside strata (found by refresh):\n")
				} else {
					b.WriteString("\nResource instances:\n")
				}
				first = false
			}
			writeRunEntry(&b, e)
		}
	}
	if len(entries) == 0 {
		b.WriteString("\nNo resource instances match.\n")
	}
	h.Output(b.String())
	return nil
}

// History implements Runs.
func (h *RunsHuman) History(address, _ string, items []runrecord.HistoryItem) error {
	if len(items) == 0 {
		h.Raw(fmt.Sprintf("No recorded changes to %s.\n", address))
		return nil
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tRUN\tCOMMAND\tKIND\tATTRIBUTE\tBEFORE\tAFTER")
	for _, it := range items {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", it.Time.Local().Format(runsTime), it.RunID, it.Command, it.Kind, it.Path,
			recordedValue(it.Before, it.BeforeMark), recordedValue(it.After, it.AfterMark))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	h.Raw(b.String())
	return nil
}

func runDuration(start, end time.Time) string {
	if end.IsZero() {
		return "-"
	}
	d := end.Sub(start)
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(100 * time.Millisecond).String()
}

// outcomeColors color outcomes in human output.
var outcomeColors = map[runrecord.Outcome]string{
	runrecord.Updated: "[green]", runrecord.Failed: "[red]", runrecord.Skipped: "[yellow]",
	runrecord.Unprocessed: "[yellow]", runrecord.Unknown: "[red]", runrecord.UpToDate: "",
}

func writeRunEntry(b *strings.Builder, e runrecord.Entry) {
	dep := ""
	if e.Deposed != "" {
		dep = " (deposed " + e.Deposed + ")"
	}
	if e.Kind == runrecord.KindDrift {
		fmt.Fprintf(b, "  %s%s\n", e.Address, dep)
	} else {
		fmt.Fprintf(b, "  %s%s: %s, %s%s[reset]", e.Address, dep, e.Action, outcomeColors[e.Outcome], e.Outcome)
		if !e.Started.IsZero() && !e.Ended.IsZero() {
			fmt.Fprintf(b, " in %s", runDuration(e.Started, e.Ended))
		}
		b.WriteString("\n")
	}
	if e.ActionReason != "" {
		fmt.Fprintf(b, "      because %s", e.ActionReason)
		if len(e.ReplacePaths) > 0 {
			fmt.Fprintf(b, " (%s)", strings.Join(e.ReplacePaths, ", "))
		}
		b.WriteString("\n")
	}
	if e.MovedFrom != "" {
		fmt.Fprintf(b, "      moved from %s\n", e.MovedFrom)
	}
	if e.Import != "" {
		fmt.Fprintf(b, "      imported from ID %q\n", e.Import)
	}
	if e.Reason != "" {
		fmt.Fprintf(b, "      %s\n", e.Reason)
	}
	if e.Diagnostics != "" {
		fmt.Fprintf(b, "      [red]error:[reset] %s\n", strings.ReplaceAll(strings.TrimSpace(e.Diagnostics), "\n", "\n        "))
	}
	if e.Outcome == runrecord.UpToDate {
		return
	}
	for _, c := range e.Changes {
		fmt.Fprintf(b, "      %s: %s -> %s\n", c.Path, recordedValue(c.Before, c.BeforeMark), recordedValue(c.After, c.AfterMark))
	}
}

// recordedValue shows a recorded value: its JSON, or what stands in for
// it.
func recordedValue(v json.RawMessage, mark string) string {
	switch mark {
	case runrecord.MarkSensitive:
		return "(sensitive value)"
	case runrecord.MarkWriteOnly:
		return "(write-only value)"
	case runrecord.MarkUnknown:
		return "(known after apply)"
	}
	if v == nil {
		return "null"
	}
	return string(v)
}

// RunsJSON prints the documents of website/docs/runs.md, each with its
// format_version.
type RunsJSON struct{ *View }

var _ Runs = (*RunsJSON)(nil)

func (j *RunsJSON) write(doc map[string]any) error {
	doc["format_version"] = RunsFormatVersion
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	j.Raw(string(b) + "\n")
	return nil
}

// List implements Runs.
func (j *RunsJSON) List(runs []runrecord.Run) error {
	if runs == nil {
		runs = []runrecord.Run{}
	}
	return j.write(map[string]any{"runs": runs})
}

// Show implements Runs.
func (j *RunsJSON) Show(run *runrecord.Run, entries []runrecord.Entry) error {
	if entries == nil {
		entries = []runrecord.Entry{}
	}
	return j.write(map[string]any{"run": run, "entries": entries})
}

// Query implements Runs.
func (j *RunsJSON) Query(items []runrecord.QueryItem, _ int) error {
	if items == nil {
		items = []runrecord.QueryItem{}
	}
	return j.write(map[string]any{"entries": items})
}

// History implements Runs.
func (j *RunsJSON) History(address, attribute string, items []runrecord.HistoryItem) error {
	if items == nil {
		items = []runrecord.HistoryItem{}
	}
	return j.write(map[string]any{"address": address, "attribute": attribute, "changes": items})
}
