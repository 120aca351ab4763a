package views

import (
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/mitchellh/go-wordwrap"

	"github.com/strata-dev/strata/internal/moduletest"
)

// Test is the view of strata test: a moduletest.Reporter that also opens
// and closes the output.
type Test interface {
	moduletest.Reporter
	// Abstract lists the files and run blocks about to run.
	Abstract(files []*moduletest.File)
	// Summary closes the output with the counts.
	Summary(files []*moduletest.File)
	// Diagnostics reports problems outside any file or run.
	Diagnostics(diags hcl.Diagnostics)
	// Interrupted reports an interrupt: the first (hard false) lets the
	// running operations finish and skips the rest; the second stops
	// them.
	Interrupted(hard bool)
}

const (
	testInterrupted     = "\nInterrupt received.\nPlease wait for strata to exit or data loss may occur.\nGracefully shutting down...\n"
	testHardInterrupted = "\nTwo interrupts received. Exiting immediately. Note that data loss may have occurred.\n"
)

// NewTestView returns the human view, or the -json stream when j is set.
// verbose, when set, prints what a run produced (its plan or its state)
// for -verbose.
func NewTestView(v *View, j *JSON, verbose func(*moduletest.Run)) Test {
	if j != nil {
		return &testJSON{j: j}
	}
	return &testHuman{v: v, verbose: verbose}
}

// testHuman prints terraform test's progress lines.
type testHuman struct {
	v       *View
	verbose func(*moduletest.Run)
}

// statusColor is how the human view shows a status; an errored run shows
// as failed, as in Terraform.
func statusColor(s moduletest.Status) string {
	switch s {
	case moduletest.Pass:
		return "[green]pass[reset]"
	case moduletest.Skip, moduletest.Pending:
		return "[light_gray]skip[reset]"
	}
	return "[red]fail[reset]"
}

func (t *testHuman) Abstract([]*moduletest.File) {}

func (t *testHuman) FileStart(f *moduletest.File) {
	t.v.Output(fmt.Sprintf("%s... [light_gray]in progress[reset]\n", escape(f.Path)))
}

// statusLine writes text and a coloured status, as terraform test does:
// the status coloured on its own.
func (t *testHuman) statusLine(text string, s moduletest.Status) {
	t.v.Raw(text + t.v.Colorize(statusColor(s)) + "\n")
}

func (t *testHuman) RunStart(*moduletest.File, *moduletest.Run) {}

func (t *testHuman) RunProgress(*moduletest.File, *moduletest.Run, bool, time.Duration) {}

func (t *testHuman) RunDone(f *moduletest.File, r *moduletest.Run) {
	t.statusLine(fmt.Sprintf("  run %q... ", r.Config.Name), r.Status)
	if t.verbose != nil && r.Status != moduletest.Skip {
		t.verbose(r)
	}
	t.runDiagnostics(r.Diagnostics)
}

// runDiagnostics prints a run's diagnostics as terraform test does:
// warnings with the same summary and a source location folded into the
// first ("and one more similar warning elsewhere"), and a blank line after
// them when there are warnings.
func (t *testHuman) runDiagnostics(diags hcl.Diagnostics) {
	if t.diagnostics(diags) {
		// Warnings go to stdout: a blank line separates them from what
		// follows, as in terraform test.
		t.v.Output("\n")
	}
}

// diagnostics prints diags with warnings folded as runDiagnostics says,
// and reports whether there were warnings.
func (t *testHuman) diagnostics(diags hcl.Diagnostics) bool {
	var out hcl.Diagnostics
	diags = sortDiagnostics(diags)
	first := map[string]int{}
	more := map[int]int{}
	for _, d := range diags {
		if d.Severity != hcl.DiagWarning || d.Subject == nil {
			out = append(out, d)
			continue
		}
		if i, ok := first[d.Summary]; ok {
			more[i]++
			continue
		}
		first[d.Summary] = len(out)
		out = append(out, d)
	}
	warned := false
	for i, d := range out {
		if d.Severity != hcl.DiagWarning {
			t.v.Diagnostics(hcl.Diagnostics{d})
			continue
		}
		warned = true
		if n := more[i]; n > 0 {
			c := *d
			if n == 1 {
				c.Detail += "\n\n(and one more similar warning elsewhere)"
			} else {
				c.Detail += fmt.Sprintf("\n\n(and %d more similar warnings elsewhere)", n)
			}
			d = &c
		}
		t.v.Diagnostics(hcl.Diagnostics{d})
	}
	return warned
}

func (t *testHuman) Teardown(f *moduletest.File) {
	t.v.Output(fmt.Sprintf("%s... [light_gray]tearing down[reset]\n", escape(f.Path)))
}

func (t *testHuman) TeardownRun(*moduletest.File, *moduletest.Run) {}

// CleanupFailed prints what terraform test prints when a destroy fails,
// and then where strata saved the state of what is left.
func (t *testHuman) CleanupFailed(f *moduletest.File, c *moduletest.Cleanup) {
	id := f.Path + "/" + c.Run.Config.Name
	var b strings.Builder
	if c.Diagnostics.HasErrors() {
		b.WriteString(wordwrap.WrapString(fmt.Sprintf("strata encountered an error destroying resources created while executing %s.", id), 78) + "\n")
	}
	t.errorOutput(b.String())
	t.v.Diagnostics(c.Diagnostics)
	if len(c.Left) == 0 {
		return
	}
	b.Reset()
	b.WriteString("\n" + wordwrap.WrapString(fmt.Sprintf("strata left the following resources in state after executing %s, and they need to be cleaned up manually:", id), 78) + "\n")
	for _, addr := range c.Left {
		fmt.Fprintf(&b, "  - %s\n", addr)
	}
	b.WriteString("\n" + recoveryNote(c) + "\n")
	t.errorOutput(b.String())
}

// recoveryNote says where the state of what a failed cleanup left is.
func recoveryNote(c *moduletest.Cleanup) string {
	if c.RecoveryErr != nil {
		return wordwrap.WrapString(fmt.Sprintf("Their state could not be saved either (%s): record these objects and delete them by hand.", c.RecoveryErr), 78)
	}
	return wordwrap.WrapString(fmt.Sprintf("Their state is saved in %s: destroy them with strata destroy -state=%s.", c.Recovery, c.Recovery), 78)
}

func (t *testHuman) errorOutput(s string) {
	if s != "" {
		fmt.Fprint(t.v.Stderr, s)
	}
}

func (t *testHuman) FileDone(f *moduletest.File) {
	t.statusLine(f.Path+"... ", f.Status)
	t.diagnostics(f.Diagnostics)
}

func (t *testHuman) Summary(files []*moduletest.File) {
	verdict, counts := moduletest.Summary(files)
	color := "[green]"
	if verdict != "Success!" {
		color = "[red]"
	}
	// As Terraform: the verdict coloured on its own, the counts plain.
	t.v.Raw("\n" + t.v.Colorize(color+verdict+"[reset]") + " " + counts + "\n")
}

func (t *testHuman) Diagnostics(diags hcl.Diagnostics) { t.v.Diagnostics(diags) }

func (t *testHuman) Interrupted(hard bool) {
	if hard {
		t.errorOutput(wordwrap.WrapString(testHardInterrupted, 78) + "\n")
		return
	}
	t.errorOutput(testInterrupted + "\n")
}

// escape protects text from colorstring markup.
func escape(s string) string { return strings.ReplaceAll(s, "[", "[[") }

// testJSON writes terraform test's -json events.
type testJSON struct {
	j *JSON
}

func (t *testJSON) Abstract(files []*moduletest.File) {
	abstract := map[string][]string{}
	runs := 0
	for _, f := range files {
		names := []string{}
		for _, r := range f.Runs {
			names = append(names, r.Config.Name)
		}
		runs += len(names)
		abstract[f.Path] = names
	}
	t.j.emit("info", fmt.Sprintf("Found %s and %s", plural(len(files), "file"), plural(runs, "run block")), "test_abstract", map[string]any{"test_abstract": abstract})
}

func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func (t *testJSON) fileEvent(f *moduletest.File, message string, body map[string]any) {
	body["path"] = f.Path
	t.j.emit("info", fmt.Sprintf("%s... %s", f.Path, message), "test_file", map[string]any{"@testfile": f.Path, "test_file": body})
}

func (t *testJSON) runEvent(f *moduletest.File, r *moduletest.Run, message string, body map[string]any) {
	body["path"], body["run"] = f.Path, r.Config.Name
	t.j.emit("info", fmt.Sprintf("  %q... %s", r.Config.Name, message), "test_run", map[string]any{"@testfile": f.Path, "@testrun": r.Config.Name, "test_run": body})
}

func (t *testJSON) FileStart(f *moduletest.File) {
	t.fileEvent(f, "in progress", map[string]any{"progress": "starting"})
}

func (t *testJSON) RunStart(f *moduletest.File, r *moduletest.Run) {
	t.runEvent(f, r, "in progress", map[string]any{"progress": "starting", "elapsed": 0})
}

func (t *testJSON) RunDone(f *moduletest.File, r *moduletest.Run) {
	human := "fail"
	switch r.Status {
	case moduletest.Pass:
		human = "pass"
	case moduletest.Skip, moduletest.Pending:
		human = "skip"
	}
	t.runEvent(f, r, human, map[string]any{"progress": "complete", "status": r.Status.String()})
	t.j.diagnostics(r.Diagnostics, map[string]any{"@testfile": f.Path, "@testrun": r.Config.Name})
}

// RunProgress writes terraform test's periodic "running" (or
// "teardown") event of a long run.
func (t *testJSON) RunProgress(f *moduletest.File, r *moduletest.Run, teardown bool, elapsed time.Duration) {
	if teardown {
		t.runEvent(f, r, "tearing down", map[string]any{"progress": "teardown", "elapsed": elapsed.Milliseconds()})
		return
	}
	t.runEvent(f, r, "in progress", map[string]any{"progress": "running", "elapsed": elapsed.Milliseconds()})
}

func (t *testJSON) Teardown(f *moduletest.File) {
	t.fileEvent(f, "tearing down", map[string]any{"progress": "teardown"})
}

// TeardownRun starts the destroy of the state r left: elapsed counts from
// here, as in terraform test.
func (t *testJSON) TeardownRun(f *moduletest.File, r *moduletest.Run) {
	t.runEvent(f, r, "tearing down", map[string]any{"progress": "teardown", "elapsed": 0})
}

// CleanupFailed writes terraform test's test_cleanup event (the objects
// left, with strata's recovery_state, where it saved them) and the
// destroy's diagnostics.
func (t *testJSON) CleanupFailed(f *moduletest.File, c *moduletest.Cleanup) {
	id := f.Path + "/" + c.Run.Config.Name
	fields := map[string]any{"@testfile": f.Path, "@testrun": c.Run.Config.Name}
	if len(c.Left) > 0 {
		failed := []map[string]any{}
		for _, addr := range c.Left {
			entry := map[string]any{"instance": addr}
			if i := strings.Index(addr, " ("); i > 0 {
				entry = map[string]any{"instance": addr[:i], "deposed_key": strings.Trim(addr[i+2:], ")")}
			}
			failed = append(failed, entry)
		}
		body := map[string]any{"failed_resources": failed}
		if c.Recovery != "" {
			body["recovery_state"] = c.Recovery
		}
		t.j.emit("error", fmt.Sprintf("strata left some resources in state after executing %s, they need to be cleaned up manually.", id), "test_cleanup",
			map[string]any{"@testfile": f.Path, "@testrun": c.Run.Config.Name, "test_cleanup": body})
	}
	t.j.diagnostics(c.Diagnostics, fields)
}

func (t *testJSON) FileDone(f *moduletest.File) {
	defer t.j.diagnostics(f.Diagnostics, map[string]any{"@testfile": f.Path})
	human := "fail"
	if f.Status == moduletest.Pass {
		human = "pass"
	}
	t.fileEvent(f, human, map[string]any{"progress": "complete", "status": f.Status.String()})
}

func (t *testJSON) Summary(files []*moduletest.File) {
	verdict, counts := moduletest.Summary(files)
	c := moduletest.Count(files)
	t.j.emit("info", verdict+" "+counts, "test_summary", map[string]any{"test_summary": map[string]any{
		"status": moduletest.SuiteStatus(files).String(), "passed": c.Passed, "failed": c.Failed, "errored": c.Errored, "skipped": c.Skipped,
	}})
}

func (t *testJSON) Diagnostics(diags hcl.Diagnostics) { t.j.Diagnostics(diags) }

func (t *testJSON) Interrupted(hard bool) {
	msg := testInterrupted
	if hard {
		msg = testHardInterrupted
	}
	t.j.emit("info", msg, "log", map[string]any{})
}
