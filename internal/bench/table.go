package main

import (
	"fmt"
	"strings"
	"time"
)

// sizesFor returns the sizes workload w runs at: every size for the
// workloads without a plugin; for those through a plugin (null), only
// those up to pluginMax (0: every size), as a plugin's calls take minutes
// beyond the few thousands.
func sizesFor(w string, ns []int, pluginMax int) []int {
	if w != "null" || pluginMax <= 0 {
		return ns
	}
	var out []int
	for _, n := range ns {
		if n <= pluginMax {
			out = append(out, n)
		}
	}
	return out
}

// skipAt says why tool t does not run at n resources ("" when it does):
// Terraform and OpenTofu take minutes beyond peerMax, and Terraform,
// whose apply writes the whole state after each operation, beyond
// terraformMax; other builds of strata (-extra) always run.
func skipAt(t tool, n, peerMax, terraformMax int) string {
	switch {
	case (t.name == "terraform" || t.name == "tofu") && n > peerMax:
		return "-peer-max"
	case t.name == "terraform" && n > terraformMax:
		return "-terraform-max"
	}
	return ""
}

// tableRow is one line of the closing table: a command (apply or no-op
// plan) of one workload at one size, with each tool's medians; a tool
// that did not run it has none.
type tableRow struct {
	work    string
	figures map[string]run
}

// tableRows returns the apply and no-op plan lines of a workload at one
// size from its rounds (rounds[i][t]: round i's result for peers[t]).
func tableRows(w string, n int, peers []tool, rounds [][]result) []tableRow {
	label := fmt.Sprintf("%s %s", w, thousands(n))
	apply := tableRow{work: "apply " + label, figures: map[string]run{}}
	plan := tableRow{work: "no-op plan " + label, figures: map[string]run{}}
	for t, p := range peers {
		var a, pl []run
		for _, r := range rounds {
			a, pl = append(a, r[t].apply), append(pl, r[t].plan)
		}
		apply.figures[p.name], plan.figures[p.name] = medianRun(a), medianRun(pl)
	}
	return []tableRow{apply, plan}
}

// medianRun is the median of each figure of runs, taken separately.
func medianRun(runs []run) run {
	pick := func(f func(run) float64) float64 {
		var v []float64
		for _, r := range runs {
			v = append(v, f(r))
		}
		return median(v)
	}
	return run{
		took:   secondsDuration(pick(func(r run) float64 { return r.took.Seconds() })),
		cpu:    secondsDuration(pick(func(r run) float64 { return r.cpu.Seconds() })),
		ownKB:  int64(pick(func(r run) float64 { return float64(r.ownKB) })),
		peakKB: int64(pick(func(r run) float64 { return float64(r.peakKB) })),
	}
}

// renderTable renders the rows as a Markdown table, a column per tool:
// wall time, CPU time and the CLI's own peak resident set (the plugin's
// in parentheses when larger), "–" where the tool did not run.
func renderTable(tools []tool, rows []tableRow) string {
	var b strings.Builder
	b.WriteString("| work |")
	for _, t := range tools {
		fmt.Fprintf(&b, " %s |", t.name)
	}
	b.WriteString("\n|---|")
	for range tools {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s |", r.work)
		for _, t := range tools {
			f, ok := r.figures[t.name]
			if !ok {
				b.WriteString(" – |")
				continue
			}
			fmt.Fprintf(&b, " %.2f s (CPU %.2f s), %s MB |", f.took.Seconds(), f.cpu.Seconds(), f.memory())
		}
		b.WriteString("\n")
	}
	return b.String()
}

// thousands renders n with commas between groups of three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func secondsDuration(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
