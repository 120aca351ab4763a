package command

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/runrecord"
	"github.com/strata-dev/strata/internal/runrecord/recorder"
)

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
	return recorder.OpenForQuery(ctx, recorder.Records{
		DBPath: d.dataDir(runsDBFile), LogDir: d.dataDir(runsLogDir), Shared: savedSharedRuns(ctx, d),
		Cipher: d.runRecordCipher(false), Retention: recorder.RetentionFromEnv(d.Getenv), Warn: d.warnRuns,
	})
}

// savedSharedRuns returns the shared run log table of the backend init
// configured for the working directory, when its type keeps one (pg), or
// nil.
func savedSharedRuns(ctx context.Context, d *Deps) *runrecord.Shared {
	saved, diags := readBackendState(d)
	if diags.HasErrors() || saved == nil {
		return nil
	}
	if t, ok := backend.Lookup(saved.Type); !ok || !t.SharesRuns {
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
	return recorder.SharedRuns(mgr)
}

func runsError(d *Deps, f viewFlags, summary string, err error) error {
	d.newView(f).Diagnostics(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: err.Error()}})
	return errReported
}

// withRuns opens the run records and calls fn with them (nil when none
// were ever written), reporting a failure to read them.
func withRuns(ctx context.Context, d *Deps, f viewFlags, fn func(runrecord.Store) error) error {
	store, err := openRunsForQuery(ctx, d)
	if err == nil && store != nil {
		defer store.Close()
	}
	if err == nil {
		err = fn(store)
	}
	if err != nil {
		return runsError(d, f, "Failed to read the run records", err)
	}
	return nil
}

func runRunsList(ctx context.Context, d *Deps, opts *runsListOptions) error {
	since, err := runrecord.ParseSince(opts.since, time.Now())
	if err != nil {
		return runsError(d, opts.view, "Invalid -since", err)
	}
	var runs []runrecord.Run
	err = withRuns(ctx, d, opts.view, func(s runrecord.Store) (err error) {
		if s != nil {
			runs, err = s.Runs(ctx, runrecord.RunFilter{Limit: opts.limit, Since: since, Command: opts.command, Outcome: opts.outcome})
		}
		return err
	})
	if err != nil {
		return err
	}
	return views.NewRuns(opts.view.json, d.newView(opts.view)).List(runs)
}

func runRunsQuery(ctx context.Context, d *Deps, opts *runsQueryOptions) error {
	since, err := runrecord.ParseSince(opts.since, time.Now())
	if err != nil {
		return runsError(d, opts.view, "Invalid -since", err)
	}
	outcomes, err := runrecord.ParseOutcomes(opts.status)
	if err != nil {
		return runsError(d, opts.view, "Invalid -status", err)
	}
	q := runrecord.Query{
		Runs:    runrecord.RunFilter{Since: since, Command: opts.command, Outcome: opts.outcome},
		Entries: runrecord.EntryFilter{Outcomes: outcomes, Type: opts.typ, Module: opts.module, Address: opts.address},
		Limit:   opts.limit,
	}
	var items []runrecord.QueryItem
	err = withRuns(ctx, d, opts.view, func(s runrecord.Store) (err error) {
		if s != nil {
			items, err = runrecord.QueryEntries(ctx, s, q)
		}
		return err
	})
	if err != nil {
		return err
	}
	return views.NewRuns(opts.view.json, d.newView(opts.view)).Query(items, opts.limit)
}

func runRunsShow(ctx context.Context, d *Deps, opts *runsShowOptions, id string) error {
	outcomes, err := runrecord.ParseOutcomes(opts.status)
	if err != nil {
		return runsError(d, opts.view, "Invalid -status", err)
	}
	var run *runrecord.Run
	var entries []runrecord.Entry
	err = withRuns(ctx, d, opts.view, func(s runrecord.Store) (err error) {
		if s != nil {
			run, entries, err = runrecord.ShowRun(ctx, s, id, runrecord.EntryFilter{Outcomes: outcomes, Type: opts.typ, Module: opts.module, Address: opts.address})
		}
		return err
	})
	if err != nil {
		return err
	}
	if run == nil {
		if id == "" {
			//lint:ignore ST1005 the diagnostic's detail: a sentence
			return runsError(d, opts.view, "No runs recorded", errors.New("No plan, apply, destroy or refresh has run in this working directory since run records were kept."))
		}
		//lint:ignore ST1005 the diagnostic's detail: a sentence
		return runsError(d, opts.view, "No such run", fmt.Errorf("No recorded run has the ID %q. \"strata runs list\" lists them.", id))
	}
	return views.NewRuns(opts.view.json, d.newView(opts.view)).Show(run, entries)
}

func runHistory(ctx context.Context, d *Deps, opts *historyOptions, address string) error {
	var items []runrecord.HistoryItem
	err := withRuns(ctx, d, opts.view, func(s runrecord.Store) (err error) {
		if s != nil {
			items, err = s.History(ctx, address, opts.attribute)
		}
		return err
	})
	if err != nil {
		return err
	}
	return views.NewRuns(opts.view.json, d.newView(opts.view)).History(address, opts.attribute, items)
}
