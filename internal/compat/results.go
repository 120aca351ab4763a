package main

import (
	"bufio"
	"encoding/json"
	"io"
	"sort"
	"strings"
)

// Outcome is how one top-level test ended.
type Outcome string

// The outcomes go test reports for a test.
const (
	Pass Outcome = "pass"
	Fail Outcome = "fail"
	Skip Outcome = "skip"
)

// Results are the outcomes of one suite's run with one binary: each
// top-level test function, with the output of the test and its subtests.
type Results struct {
	Outcomes map[string]Outcome
	Output   map[string][]string
	// BuildFailed is set when a package of the suite did not compile or
	// its test binary failed outside any test (a panic in TestMain, a
	// timeout): the suite did not really run.
	BuildFailed bool
}

// event is one line of `go test -json`.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// ParseTestJSON reads the output of `go test -json` and returns the
// outcome of every top-level test. Subtests count toward their top-level
// test, which go test itself fails when one of them fails. Lines that are
// not JSON (build errors printed by the go command) are kept as output of
// the run and mark it as not built.
func ParseTestJSON(r io.Reader) Results {
	res := Results{Outcomes: map[string]Outcome{}, Output: map[string][]string{}}
	pkgFailed := map[string]bool{}
	failedTests := map[string]int{} // per package
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var ev event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &ev) != nil {
			res.Output[""] = append(res.Output[""], string(line))
			continue
		}
		top, _, _ := strings.Cut(ev.Test, "/")
		switch {
		case ev.Action == "output" && top != "":
			res.Output[top] = append(res.Output[top], strings.TrimRight(ev.Output, "\n"))
		case ev.Action == "output":
			res.Output[""] = append(res.Output[""], strings.TrimRight(ev.Output, "\n"))
		case ev.Test == "" && ev.Action == "fail":
			pkgFailed[ev.Package] = true
		case ev.Test != "" && ev.Test == top && (ev.Action == "pass" || ev.Action == "fail" || ev.Action == "skip"):
			res.Outcomes[top] = Outcome(ev.Action)
			if ev.Action == "fail" {
				failedTests[ev.Package]++
			}
		}
	}
	for pkg := range pkgFailed {
		// A package that failed without a failing test did not run.
		if failedTests[pkg] == 0 {
			res.BuildFailed = true
		}
	}
	if len(res.Outcomes) == 0 && len(res.Output[""]) > 0 {
		res.BuildFailed = true
	}
	return res
}

// Counts returns how many tests passed, failed and were skipped.
func (r Results) Counts() (pass, fail, skip int) {
	for _, o := range r.Outcomes {
		switch o {
		case Pass:
			pass++
		case Fail:
			fail++
		case Skip:
			skip++
		}
	}
	return
}

// Failed are the tests that did not pass (failed, or did not run to an
// outcome), sorted.
func (r Results) Failed() []string {
	var out []string
	for name, o := range r.Outcomes {
		if o != Pass && o != Skip {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Regressions are the tests that pass in base but not in r, sorted.
func (r Results) Regressions(base Results) []string {
	var out []string
	for name, o := range base.Outcomes {
		if o == Pass && r.Outcomes[name] != Pass {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// FailureExcerpt is the first n lines of a test's output that say why it
// failed: the RUN/PAUSE/CONT bookkeeping lines of go test are left out.
func (r Results) FailureExcerpt(test string, n int) []string {
	var out []string
	for _, l := range r.Output[test] {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") {
			continue
		}
		out = append(out, l)
		if len(out) == n {
			break
		}
	}
	return out
}
