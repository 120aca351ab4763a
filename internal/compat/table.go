package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// printTable prints one line per suite: passed/failed/skipped tests with
// each binary, the time each run took, and how many tests pass with
// terraform but not with strata (and how many of those for a known,
// documented reason).
func printTable(w io.Writer, rows []row, bins []tool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"suite"}
	for _, b := range bins {
		head = append(head, b.Name+" pass/fail/skip", "time")
	}
	if len(bins) > 1 {
		head = append(head, "pass on terraform, not on strata")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range rows {
		cells := []string{r.suite.Name}
		if r.notRun != "" {
			cells = append(cells, r.notRun)
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
			continue
		}
		for _, b := range bins {
			res, ok := r.results[b.Name]
			if !ok {
				cells = append(cells, "-", "-")
				continue
			}
			p, f, s := res.Counts()
			cell := fmt.Sprintf("%d/%d/%d", p, f, s)
			if res.BuildFailed {
				cell += " (incomplete)"
			}
			cells = append(cells, cell, r.took[b.Name].String())
		}
		if base, ok := r.results["terraform"]; ok && len(bins) > 1 {
			all := len(r.results["strata"].Regressions(base))
			unexpected := len(r.suite.unexpected(r.results["strata"], base))
			cell := fmt.Sprint(unexpected)
			if known := all - unexpected; known > 0 {
				cell += fmt.Sprintf(" (+%d known)", known)
			}
			cells = append(cells, cell)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
}
