package command

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/runrecord"
)

// runsFormatVersion is the format_version of the -json documents of
// runs list, runs show and history.
const runsFormatVersion = "1.0"

type runsListOptions struct {
	view    viewFlags
	limit   int
	since   string
	command string
	outcome string
}

type runsShowOptions struct {
	view    viewFlags
	status  string
	typ     string
	module  string
	address string
}

type runsQueryOptions struct {
	view    viewFlags
	limit   int
	since   string
	command string
	outcome string
	status  string
	typ     string
	module  string
	address string
}

type historyOptions struct {
	view      viewFlags
	attribute string
}

func newRunsCommand(d *Deps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "runs <subcommand> [options]",
		Short: "Show the records of past runs",
		Long: `Usage: strata [global options] runs <subcommand> [options] [args]

  Every plan, apply, destroy and refresh leaves a record in the data
  directory (.terraform/runs.db): the run, and each resource instance it
  considered with its planned action, its outcome (up_to_date, skipped,
  updated, failed, unprocessed) and the attributes it changed. These
  commands read them. See also "strata history ADDRESS".`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return usageError(d, cmd, "Expected a subcommand: list, show or query")
		},
	}
	cmd.AddCommand(newRunsListCommand(d), newRunsShowCommand(d), newRunsQueryCommand(d))
	return cmd
}

func newRunsListCommand(d *Deps) *cobra.Command {
	opts := &runsListOptions{}
	cmd := &cobra.Command{
		Use:   "list [options]",
		Short: "List recorded runs, latest first",
		Long: `Usage: strata [global options] runs list [options]

  Lists the recorded runs, latest first, with how many resource instances
  ended in each outcome.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRunsList(cmd.Context(), d, opts)
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&opts.limit, "limit", 20, "Show at most this many runs (0: all).")
	fs.StringVar(&opts.since, "since", "", "Only runs started since this time: a duration (24h, 7d)\nor a date (2006-01-02, or RFC 3339).")
	fs.StringVar(&opts.command, "command", "", "Only runs of this command (plan, apply, destroy, refresh).")
	fs.StringVar(&opts.outcome, "outcome", "", "Only runs with this outcome (running, succeeded, failed,\ninterrupted, crashed).")
	fs.BoolVar(&opts.view.json, "json", false, "Print a JSON document instead of a table.")
	opts.view.register(fs)
	return cmd
}

func newRunsShowCommand(d *Deps) *cobra.Command {
	opts := &runsShowOptions{}
	cmd := &cobra.Command{
		Use:   "show [options] [RUN]",
		Short: "Show one run and every action it took",
		Long: `Usage: strata [global options] runs show [options] [RUN]

  Shows a run (the latest when RUN is not given; a unique prefix of a run
  ID will do) and every resource instance it considered: the planned
  action, the outcome and why, and each changed attribute with its value
  before and after. Sensitive values are never recorded.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := ""
			if len(args) == 1 {
				id = args[0]
			}
			return runRunsShow(cmd.Context(), d, opts, id)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.status, "status", "", "Only entries with these outcomes, comma-separated\n(up_to_date, skipped, updated, failed, unprocessed, unknown).")
	fs.StringVar(&opts.typ, "type", "", "Only entries of this resource type.")
	fs.StringVar(&opts.module, "module", "", "Only entries in this module (module.a) and the modules it calls.")
	fs.StringVar(&opts.address, "address", "", "Only entries whose address matches this pattern (* and ?).")
	fs.BoolVar(&opts.view.json, "json", false, "Print a JSON document instead of a table.")
	opts.view.register(fs)
	return cmd
}

func newRunsQueryCommand(d *Deps) *cobra.Command {
	opts := &runsQueryOptions{}
	cmd := &cobra.Command{
		Use:   "query [options]",
		Short: "List the actions of many runs, filtered",
		Long: `Usage: strata [global options] runs query [options]

  Lists the resource instances that recorded runs considered, across
  runs, latest run first: which run, the planned action and its outcome.
  The filters are those of "runs list" for the runs and of "runs show"
  for the instances. Instances with nothing to do (up_to_date) are listed
  only when -status names them. For example, the local_file resources
  that any run of the last 7 days updated:

      strata runs query -since=7d -type=local_file -status=updated`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRunsQuery(cmd.Context(), d, opts)
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&opts.limit, "limit", 1000, "Show at most this many entries (0: all).")
	fs.StringVar(&opts.since, "since", "", "Only runs started since this time: a duration (24h, 7d)\nor a date (2006-01-02, or RFC 3339).")
	fs.StringVar(&opts.command, "command", "", "Only runs of this command (plan, apply, destroy, refresh).")
	fs.StringVar(&opts.outcome, "outcome", "", "Only runs with this outcome (running, succeeded, failed,\ninterrupted, crashed).")
	fs.StringVar(&opts.status, "status", "", "Only entries with these outcomes, comma-separated\n(up_to_date, skipped, updated, failed, unprocessed, unknown).")
	fs.StringVar(&opts.typ, "type", "", "Only entries of this resource type.")
	fs.StringVar(&opts.module, "module", "", "Only entries in this module (module.a) and the modules it calls.")
	fs.StringVar(&opts.address, "address", "", "Only entries whose address matches this pattern (* and ?).")
	fs.BoolVar(&opts.view.json, "json", false, "Print a JSON document instead of a table.")
	opts.view.register(fs)
	return cmd
}

func newHistoryCommand(d *Deps) *cobra.Command {
	opts := &historyOptions{}
	cmd := &cobra.Command{
		Use:   "history [options] ADDRESS",
		Short: "Show every recorded change to one resource instance",
		Long: `Usage: strata [global options] history [options] ADDRESS

  Shows every change the run records hold for one resource instance,
  oldest first: when, which run, and each attribute's value before and
  after. Changes made by applies and drift found by refresh are listed;
  plans, which change nothing, are not.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError(d, cmd, "Expected a single argument: ADDRESS")
			}
			return runHistory(cmd.Context(), d, opts, args[0])
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.attribute, "attribute", "", "Only this attribute path (tags, tags[\"env\"]) and the paths\nunder it.")
	fs.BoolVar(&opts.view.json, "json", false, "Print a JSON document instead of a table.")
	opts.view.register(fs)
	return cmd
}

// openRunsForQuery opens the run records, after moving the run logs
// that wait into them, or returns nil (and no error) when none were ever
// written.
func openRunsForQuery(ctx context.Context, d *Deps) (runrecord.Store, error) {
	shared := savedSharedRuns(ctx, d)
	if shared != nil {
		// The runs of the other working directories on the same pg
		// backend.
		var local runrecord.Store
		if _, err := os.Stat(d.dataDir(runsDBFile)); err == nil {
			local, _ = openRunStore(d)
		}
		if _, err := shared.Download(ctx, d.dataDir(runsLogDir), local); err != nil {
			d.logger().Warn(fmt.Sprintf("run records: reading the runs shared through the pg backend: %s", err))
		}
		if local != nil {
			local.Close()
		}
	}
	if _, err := os.Stat(d.dataDir(runsDBFile)); errors.Is(err, os.ErrNotExist) {
		ended, running, _ := runrecord.Logs(d.dataDir(runsLogDir))
		if len(ended)+len(running) == 0 {
			return nil, nil
		}
	}
	var opts []runrecord.Option
	if c := d.runRecordCipher(false); c != nil {
		opts = append(opts, runrecord.WithCipher(c))
	}
	store, err := openRunStore(d, opts...)
	if err != nil {
		return nil, err
	}
	ingestRuns(ctx, d, store, shared)
	return store, nil
}

// savedSharedRuns returns the run log table of the pg backend init
// configured for the working directory, or nil.
func savedSharedRuns(ctx context.Context, d *Deps) *runrecord.Shared {
	saved, diags := readBackendState(d)
	if diags.HasErrors() || saved == nil || saved.Type != "pg" {
		return nil
	}
	c, err := saved.Configured()
	if err != nil {
		return nil
	}
	b, diags := d.configuredBackend(c)
	if diags.HasErrors() {
		return nil
	}
	mgr, diags := b.StateMgr(ctx, workspaceName(d))
	if diags.HasErrors() {
		return nil
	}
	return sharedRuns(mgr)
}

func runsError(d *Deps, f viewFlags, summary string, err error) error {
	d.newView(f).Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: err.Error()}})
	return errReported
}

func writeJSON(d *Deps, doc any) error {
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(d.Stdout, string(b))
	return err
}

// parseSince reads -since: a duration back from now (24h, 7d) or a time.
func parseSince(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil {
			return now.Add(-time.Duration(n) * 24 * time.Hour), nil
		}
	}
	if dur, err := time.ParseDuration(s); err == nil {
		return now.Add(-dur), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is neither a duration (24h, 7d) nor a date (2006-01-02, or RFC 3339)", s)
}

func runRunsList(ctx context.Context, d *Deps, opts *runsListOptions) error {
	since, err := parseSince(opts.since, time.Now())
	if err != nil {
		return runsError(d, opts.view, "Invalid -since", err)
	}
	var runs []runrecord.Run
	store, err := openRunsForQuery(ctx, d)
	if err != nil {
		return runsError(d, opts.view, "Failed to read the run records", err)
	}
	if store != nil {
		defer store.Close()
		runs, err = store.Runs(ctx, runrecord.RunFilter{Limit: opts.limit, Since: since, Command: opts.command, Outcome: opts.outcome})
		if err != nil {
			return runsError(d, opts.view, "Failed to read the run records", err)
		}
	}
	if opts.view.json {
		if runs == nil {
			runs = []runrecord.Run{}
		}
		return writeJSON(d, map[string]any{"format_version": runsFormatVersion, "runs": runs})
	}
	if len(runs) == 0 {
		fmt.Fprintln(d.Stdout, "No runs recorded.")
		return nil
	}
	tw := tabwriter.NewWriter(d.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tCOMMAND\tSTARTED\tDURATION\tOUTCOME\tUPDATED\tFAILED\tSKIPPED\tUNPROCESSED\tUP-TO-DATE")
	for _, r := range runs {
		c := r.Counts
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\n", r.ID, r.Command, r.Started.Local().Format("2006-01-02 15:04:05"), duration(r.Started, r.Ended),
			r.Outcome, c[runrecord.Updated], c[runrecord.Failed], c[runrecord.Skipped], c[runrecord.Unprocessed]+c[runrecord.Unknown], c[runrecord.UpToDate])
	}
	return tw.Flush()
}

func duration(start, end time.Time) string {
	if end.IsZero() {
		return "-"
	}
	d := end.Sub(start)
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(100 * time.Millisecond).String()
}

// parseStatus reads -status: outcomes, comma-separated.
func parseStatus(status string) ([]runrecord.Outcome, error) {
	var outcomes []runrecord.Outcome
	if status == "" {
		return nil, nil
	}
	for _, s := range strings.Split(status, ",") {
		o := runrecord.Outcome(strings.TrimSpace(s))
		switch o {
		case runrecord.UpToDate, runrecord.Skipped, runrecord.Updated, runrecord.Failed, runrecord.Unprocessed, runrecord.Unknown:
			outcomes = append(outcomes, o)
		default:
			return nil, fmt.Errorf("%q is not an outcome: use up_to_date, skipped, updated, failed, unprocessed or unknown", s)
		}
	}
	return outcomes, nil
}

func runRunsQuery(ctx context.Context, d *Deps, opts *runsQueryOptions) error {
	since, err := parseSince(opts.since, time.Now())
	if err != nil {
		return runsError(d, opts.view, "Invalid -since", err)
	}
	outcomes, err := parseStatus(opts.status)
	if err != nil {
		return runsError(d, opts.view, "Invalid -status", err)
	}
	q := runrecord.Query{
		Runs:    runrecord.RunFilter{Since: since, Command: opts.command, Outcome: opts.outcome},
		Entries: runrecord.EntryFilter{Outcomes: outcomes, Type: opts.typ, Module: opts.module, Address: opts.address},
		Limit:   opts.limit,
	}
	if len(outcomes) > 0 {
		// Drift entries have no outcome: a -status filter leaves them out.
		q.Entries.Kind = runrecord.KindChange
	}
	var items []runrecord.QueryItem
	store, err := openRunsForQuery(ctx, d)
	if err != nil {
		return runsError(d, opts.view, "Failed to read the run records", err)
	}
	if store != nil {
		defer store.Close()
		if items, err = store.Query(ctx, q); err != nil {
			return runsError(d, opts.view, "Failed to read the run records", err)
		}
	}
	if opts.view.json {
		if items == nil {
			items = []runrecord.QueryItem{}
		}
		return writeJSON(d, map[string]any{"format_version": runsFormatVersion, "entries": items})
	}
	if len(items) == 0 {
		fmt.Fprintln(d.Stdout, "No recorded resource instances match.")
		return nil
	}
	tw := tabwriter.NewWriter(d.Stdout, 0, 0, 2, ' ', 0)
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", it.RunStarted.Local().Format("2006-01-02 15:04:05"), it.RunID, it.Command, addr, action, outcome, changed)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if opts.limit > 0 && len(items) == opts.limit {
		fmt.Fprintf(d.Stdout, "\n(at most %d entries: -limit=0 lists them all)\n", opts.limit)
	}
	return nil
}

func runRunsShow(ctx context.Context, d *Deps, opts *runsShowOptions, id string) error {
	outcomes, err := parseStatus(opts.status)
	if err != nil {
		return runsError(d, opts.view, "Invalid -status", err)
	}
	store, err := openRunsForQuery(ctx, d)
	if err != nil {
		return runsError(d, opts.view, "Failed to read the run records", err)
	}
	var run *runrecord.Run
	if store != nil {
		defer store.Close()
		if run, err = store.Run(ctx, id); err != nil {
			return runsError(d, opts.view, "Failed to read the run records", err)
		}
	}
	if run == nil {
		if id == "" {
			//lint:ignore ST1005 the diagnostic's detail: a sentence
			return runsError(d, opts.view, "No runs recorded", errors.New("No plan, apply, destroy or refresh has run in this working directory since run records were kept."))
		}
		//lint:ignore ST1005 the diagnostic's detail: a sentence
		return runsError(d, opts.view, "No such run", fmt.Errorf("No recorded run has the ID %q. \"strata runs list\" lists them.", id))
	}
	entries, err := store.Entries(ctx, run.ID, runrecord.EntryFilter{Outcomes: outcomes, Type: opts.typ, Module: opts.module, Address: opts.address})
	if err != nil {
		return runsError(d, opts.view, "Failed to read the run records", err)
	}
	if len(outcomes) > 0 {
		// Drift entries have no outcome: a -status filter leaves them out.
		kept := entries[:0]
		for _, e := range entries {
			if e.Kind == runrecord.KindChange {
				kept = append(kept, e)
			}
		}
		entries = kept
	}
	if opts.view.json {
		if entries == nil {
			entries = []runrecord.Entry{}
		}
		return writeJSON(d, map[string]any{"format_version": runsFormatVersion, "run": run, "entries": entries})
	}
	v := d.newView(opts.view)
	var b strings.Builder
	fmt.Fprintf(&b, "[bold]Run %s[reset]: %s, %s\n", run.ID, run.Command, run.Outcome)
	fmt.Fprintf(&b, "  started   %s", run.Started.Local().Format("2006-01-02 15:04:05 MST"))
	if !run.Ended.IsZero() {
		fmt.Fprintf(&b, ", took %s", duration(run.Started, run.Ended))
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
			writeEntry(&b, e)
		}
	}
	if len(entries) == 0 {
		b.WriteString("\nNo resource instances match.\n")
	}
	v.Output(b.String())
	return nil
}

// outcomeColors color outcomes in human output.
var outcomeColors = map[runrecord.Outcome]string{
	runrecord.Updated: "[green]", runrecord.Failed: "[red]", runrecord.Skipped: "[yellow]",
	runrecord.Unprocessed: "[yellow]", runrecord.Unknown: "[red]", runrecord.UpToDate: "",
}

func writeEntry(b *strings.Builder, e runrecord.Entry) {
	dep := ""
	if e.Deposed != "" {
		dep = " (deposed " + e.Deposed + ")"
	}
	if e.Kind == runrecord.KindDrift {
		fmt.Fprintf(b, "  %s%s\n", e.Address, dep)
	} else {
		fmt.Fprintf(b, "  %s%s: %s, %s%s[reset]", e.Address, dep, e.Action, outcomeColors[e.Outcome], e.Outcome)
		if !e.Started.IsZero() && !e.Ended.IsZero() {
			fmt.Fprintf(b, " in %s", duration(e.Started, e.Ended))
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
		fmt.Fprintf(b, "      %s: %s -> %s\n", c.Path, displayValue(c.Before, c.BeforeMark), displayValue(c.After, c.AfterMark))
	}
}

// displayValue shows a recorded value: its JSON, or what stands in for it.
func displayValue(v json.RawMessage, mark string) string {
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

func runHistory(ctx context.Context, d *Deps, opts *historyOptions, address string) error {
	store, err := openRunsForQuery(ctx, d)
	if err != nil {
		return runsError(d, opts.view, "Failed to read the run records", err)
	}
	var items []runrecord.HistoryItem
	if store != nil {
		defer store.Close()
		if items, err = store.History(ctx, address, opts.attribute); err != nil {
			return runsError(d, opts.view, "Failed to read the run records", err)
		}
	}
	if opts.view.json {
		if items == nil {
			items = []runrecord.HistoryItem{}
		}
		return writeJSON(d, map[string]any{"format_version": runsFormatVersion, "address": address, "attribute": opts.attribute, "changes": items})
	}
	if len(items) == 0 {
		fmt.Fprintf(d.Stdout, "No recorded changes to %s.\n", address)
		return nil
	}
	tw := tabwriter.NewWriter(d.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tRUN\tCOMMAND\tKIND\tATTRIBUTE\tBEFORE\tAFTER")
	for _, h := range items {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", h.Time.Local().Format("2006-01-02 15:04:05"), h.RunID, h.Command, h.Kind, h.Path,
			displayValue(h.Before, h.BeforeMark), displayValue(h.After, h.AfterMark))
	}
	return tw.Flush()
}
