// Command compat runs test suites that others wrote against Terraform —
// terraform-exec's end-to-end tests, terraform-plugin-testing's own tests,
// Terraform's own end-to-end tests (internal/command/e2etest)
// and the acceptance tests of upstream providers (null, random, local,
// time, tls, archive, external, http, cloudinit) — against strata and,
// when it is on PATH, against terraform, and prints how many tests pass
// with each. Run it with `make compat`; website/docs/compat.md explains
// the variables and what it needs.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-dev/strata/internal/provbuild"
)

func main() {
	strata := flag.String("strata", "bin/strata", "the strata binary to test")
	terraform := flag.String("terraform", "", "the terraform binary for the baseline (default: terraform on PATH, if any; \"none\" for no baseline run)")
	repos := flag.String("repos", "/work/.mirror", "directory holding the provider repositories")
	only := flag.String("suites", "", "comma-separated suites to run (default: all)")
	cache := flag.String("cache", "bin/compat-cache", "directory for provider builds, kept between runs")
	outDir := flag.String("out", "bin/compat-results", "directory for the results")
	strict := flag.Bool("strict", false, "exit 1 when a test passes on terraform and not on strata (for the equivalence suite: when a test fails on strata)")
	flag.Parse()

	bins := []tool{}
	abs, err := filepath.Abs(*strata)
	if err != nil {
		fatal(err)
	}
	bins = append(bins, tool{"strata", abs})
	switch *terraform {
	case "":
		*terraform, _ = exec.LookPath("terraform")
	case "none":
		*terraform = ""
	}
	if *terraform != "" {
		bins = append(bins, tool{"terraform", *terraform})
	}
	for _, dir := range []*string{cache, outDir, repos} {
		if *dir, err = filepath.Abs(*dir); err != nil {
			fatal(err)
		}
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		fatal(err)
	}
	selected := selectSuites(*only)
	if len(selected) == 0 {
		fatal(fmt.Errorf("no suite is called %q; the suites are %s", *only, suiteNames()))
	}

	rows := make([]row, 0, len(selected))
	failed := false
	for _, s := range selected {
		r := runSuite(s, bins, *repos, *cache, *outDir)
		if r.err != nil {
			failed = true
			logf("%s: %v", s.Name, r.err)
		}
		rows = append(rows, r)
	}
	printTable(os.Stdout, rows, bins)
	fmt.Printf("\nper-test results and failures: %s\n", *outDir)
	if *strict {
		for _, r := range rows {
			if r.suite.Equivalence != "" {
				// Terraform's goldens are the baseline: every test
				// must pass, with or without a terraform run.
				if f := r.results["strata"].Failed(); len(f) > 0 {
					logf("%s: %d tests differ from Terraform's goldens with strata: %s", r.suite.Name, len(f), strings.Join(f, ", "))
					failed = true
				}
				continue
			}
			base, ok := r.results["terraform"]
			if !ok {
				continue
			}
			if reg := r.suite.unexpected(r.results["strata"], base); len(reg) > 0 {
				logf("%s: %d tests pass on terraform and not on strata: %s", r.suite.Name, len(reg), strings.Join(reg, ", "))
				failed = true
			}
		}
	}
	if failed {
		os.Exit(1)
	}
}

// tool is a CLI binary under test.
type tool struct{ Name, Path string }

// row is one suite's outcome with every binary.
type row struct {
	suite   suite
	results map[string]Results
	took    map[string]time.Duration
	err     error
	notRun  string
}

func runSuite(s suite, bins []tool, repos, cache, outDir string) row {
	r := row{suite: s, results: map[string]Results{}, took: map[string]time.Duration{}}
	built := map[provider]string{}
	for _, p := range s.Needs {
		exe, err := provbuild.Build(cache, repos, p, logf)
		if err != nil {
			r.notRun = "not run: " + firstLine(err.Error())
			r.err = err
			return r
		}
		built[p] = exe
	}
	decoy, err := buildDecoy(cache)
	if err != nil {
		r.err = err
		return r
	}
	cliConfig, err := s.mirrorFor(filepath.Join(cache, "mirrors"), built, decoy)
	if err != nil {
		r.err = err
		return r
	}
	src, err := s.source(repos)
	if err != nil {
		r.notRun = "not run: " + firstLine(err.Error())
		r.err = err
		return r
	}
	defer os.RemoveAll(src)
	for _, b := range bins {
		logf("running %s against %s", s.Name, b.Name)
		start := time.Now()
		res, err := s.run(src, b.Path, cliConfig, filepath.Join(outDir, s.Name+"."+b.Name+".jsonl"))
		r.took[b.Name] = time.Since(start).Round(time.Second)
		r.results[b.Name] = res
		if err != nil && r.err == nil {
			r.err = fmt.Errorf("%s: %w", b.Name, err)
		}
	}
	if base, ok := r.results["terraform"]; ok {
		if err := writeRegressions(filepath.Join(outDir, s.Name+".regressions.txt"), s, r.results["strata"], base); err != nil && r.err == nil {
			r.err = err
		}
	}
	return r
}

// writeRegressions lists the tests that pass with terraform but not with
// strata, each with the start of its failure output; those that fail for
// a known reason come last, with the reason.
func writeRegressions(path string, s suite, got, base Results) error {
	var b strings.Builder
	var known []string
	for _, name := range got.Regressions(base) {
		if why, ok := s.Known[name]; ok {
			known = append(known, fmt.Sprintf("%s (%s): %s", name, orDash(string(got.Outcomes[name])), why))
			continue
		}
		fmt.Fprintf(&b, "%s (%s)\n", name, orDash(string(got.Outcomes[name])))
		for _, l := range got.FailureExcerpt(name, 12) {
			fmt.Fprintf(&b, "    %s\n", strings.TrimSpace(l))
		}
		b.WriteString("\n")
	}
	if len(known) > 0 {
		b.WriteString("Known differences (website/docs/differences.md):\n")
		for _, k := range known {
			fmt.Fprintf(&b, "    %s\n", k)
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func orDash(s string) string {
	if s == "" {
		return "did not run"
	}
	return s
}

func selectSuites(only string) []suite {
	if only == "" {
		return suites
	}
	var out []suite
	for _, name := range strings.Split(only, ",") {
		for _, s := range suites {
			if s.Name == strings.TrimSpace(name) {
				out = append(out, s)
			}
		}
	}
	return out
}

func suiteNames() string {
	var names []string
	for _, s := range suites {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "compat:", err)
	os.Exit(1)
}
