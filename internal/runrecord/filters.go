package runrecord

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseSince reads a -since option: a duration back from now (24h, 7d)
// or a time (2006-01-02, RFC 3339...), local unless it says otherwise.
// "" is the zero time (no bound).
func ParseSince(s string, now time.Time) (time.Time, error) {
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

// ParseOutcomes reads a -status option: outcomes, comma-separated.
func ParseOutcomes(status string) ([]Outcome, error) {
	var outcomes []Outcome
	if status == "" {
		return nil, nil
	}
	for _, s := range strings.Split(status, ",") {
		o := Outcome(strings.TrimSpace(s))
		switch o {
		case UpToDate, Skipped, Updated, Failed, Unprocessed, Unknown:
			outcomes = append(outcomes, o)
		default:
			return nil, fmt.Errorf("%q is not an outcome: use up_to_date, skipped, updated, failed, unprocessed or unknown", s)
		}
	}
	return outcomes, nil
}

// ShowRun returns run id (the latest when id is "", a unique prefix
// will do) and its entries that f selects, or a nil run when there is
// none. Drift entries have no outcome: a filter on outcomes leaves them
// out.
func ShowRun(ctx context.Context, s Store, id string, f EntryFilter) (*Run, []Entry, error) {
	run, err := s.Run(ctx, id)
	if err != nil || run == nil {
		return nil, nil, err
	}
	if len(f.Outcomes) > 0 {
		f.Kind = KindChange
	}
	entries, err := s.Entries(ctx, run.ID, f)
	return run, entries, err
}

// QueryEntries is s.Query(q), except that, as in ShowRun, a filter on
// outcomes leaves out drift entries.
func QueryEntries(ctx context.Context, s Store, q Query) ([]QueryItem, error) {
	if len(q.Entries.Outcomes) > 0 {
		q.Entries.Kind = KindChange
	}
	return s.Query(ctx, q)
}
