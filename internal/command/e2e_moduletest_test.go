package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// copyTree copies testdata/<name> and everything under it, golden files
// aside, into a temporary directory.
func copyTree(t *testing.T, name string) string {
	t.Helper()
	src, dst := filepath.Join("testdata", name), t.TempDir()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".golden") {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// testEvents reduces a test -json stream to what must match Terraform's:
// one line per event (type, file, run, progress, status, diagnostic
// severity and summary), sorted, since Terraform reports the diagnostics
// of one run in no fixed order, without the periodic progress events.
func testEvents(t *testing.T, stream string) []string {
	t.Helper()
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(stream), "\n") {
		var ev struct {
			Type       string `json:"type"`
			File       string `json:"@testfile"`
			Run        string `json:"@testrun"`
			Message    string `json:"@message"`
			Diagnostic struct {
				Severity string `json:"severity"`
				Summary  string `json:"summary"`
			} `json:"diagnostic"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("bad JSON line %q: %v", line, err)
		}
		var progress struct {
			Progress string `json:"progress"`
			Status   string `json:"status"`
		}
		var raw map[string]json.RawMessage
		_ = json.Unmarshal([]byte(line), &raw)
		if body, ok := raw[ev.Type]; ok && (ev.Type == "test_file" || ev.Type == "test_run") {
			_ = json.Unmarshal(body, &progress)
		}
		switch ev.Type {
		case "version":
			continue
		case "test_summary", "test_abstract":
			var body any
			_ = json.Unmarshal(raw[ev.Type], &body)
			s, _ := json.Marshal(body) // keys sorted
			out = append(out, ev.Type+" "+ev.Message+" "+string(s))
		default:
			line := strings.Join([]string{ev.Type, ev.File, ev.Run, progress.Progress, progress.Status, ev.Diagnostic.Severity, ev.Diagnostic.Summary}, "|")
			// How many "still running" (and "still tearing down")
			// events a run gets depends on how long it takes: they
			// are left out, and repeated teardown events counted once.
			if progress.Progress == "running" || (progress.Progress == "teardown" && seen[line]) {
				continue
			}
			seen[line] = true
			out = append(out, line)
		}
	}
	sort.Strings(out)
	return out
}

// junitTimes matches the timing attributes of a JUnit report's test cases.
var junitTimes = regexp.MustCompile(` time="[^"]*" timestamp="[^"]*"`)

// TestE2EModuleTest runs strata test on test files with passing and
// failing assertions, expect_failures on every kind of condition, helper
// modules, run outputs, state keys and cleanup, and compares the human
// output and the -junit-xml report (goldens), the -json events, the exit
// code and what the cleanup destroyed, in what order, with terraform test
// on the same files.
func TestE2EModuleTest(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		code int
		// summary is the last line of the human output.
		summary string
		// destroyed is what destroy-time provisioners logged.
		destroyed string
		// ordered is false where Terraform prints a run's diagnostics
		// in no fixed order: only the JSON events are compared.
		ordered bool
		// plugin installs the framework test provider for init.
		plugin bool
		// initFails is set where init refuses the test files too.
		initFails bool
		// onlyStrata is set for what Terraform 1.11 does not have
		// (parallel runs came with Terraform 1.12).
		onlyStrata bool
		// recovery is set where the cleanup fails: strata saves the
		// state of what is left (once per run of the tests), Terraform
		// does not.
		recovery bool
	}{
		"passing":    {code: 0, summary: "Success! 1 passed, 0 failed.", ordered: true},
		"failing":    {code: 1, summary: "Failure! 0 passed, 1 failed.", ordered: true},
		"features":   {code: 1, summary: "Failure! 4 passed, 2 failed, 1 skipped.", ordered: true},
		"conditions": {code: 1, summary: "Failure! 8 passed, 4 failed, 4 skipped."},
		"cleanup": {code: 1, summary: "Failure! 3 passed, 1 failed.", ordered: true,
			destroyed: "destroy second\ndestroy other\ndestroy helper h1\n"},
		"mocks": {code: 1, summary: "Failure! 6 passed, 2 failed.", plugin: true},
		// init installs the providers of helper modules run blocks load.
		"helper_provider": {code: 0, summary: "Success! 2 passed, 0 failed.", ordered: true, plugin: true},
		// Provider blocks evaluated in the test file; references to
		// runs and variables that are not available (Terraform's
		// provider_vars, provider_runs, provider_runs_invalid and
		// bad-references fixtures).
		"references": {code: 1, summary: "Failure! 3 passed, 3 failed, 1 skipped.", ordered: true, plugin: true},
		// An apply run whose check fails is applied, and torn down; a
		// state of data sources only is not (Terraform's
		// custom_condition_checks and skip_destroy_on_empty fixtures); a
		// check known only after apply fails a plan run; a plan run's
		// unknown output is no value for a later run (nested_unknown_values).
		"teardown": {code: 1, summary: "Failure! 2 passed, 3 failed, 1 skipped.", ordered: true, plugin: true},
		// From terraform's own test fixtures: undeclared and lazily
		// evaluated file variables, the test directory's tfvars, null
		// outputs, ephemeral values in error messages.
		"variables": {code: 1, summary: "Failure! 3 passed, 5 failed, 1 skipped.", ordered: true},
		// No configuration files: the runs plan and apply an empty module.
		"no_config": {code: 0, summary: "Success! 2 passed, 0 failed.", ordered: true},
		// Overrides of things the configuration does not have: warnings.
		"invalid_overrides": {code: 0, summary: "Success! 1 passed, 0 failed.", ordered: true},
		// An assertion that refers to nothing: the file is invalid.
		"invalid_assert": {code: 1, summary: "", ordered: true, initFails: true},
		"override_module": {code: 0, summary: "Success! 3 passed, 0 failed.", ordered: true,
			destroyed: "destroy inner real\n"},
		// parallel = true: states destroyed in the reverse order of the
		// runs that last applied to them in the file, whatever order
		// the runs finished in.
		"parallel": {code: 1, summary: "Failure! 2 passed, 1 failed, 2 skipped.", ordered: true, onlyStrata: true,
			destroyed: "destroy d\ndestroy b\n"},
		// A destroy that fails at the end of the file: the same report
		// as terraform test, and the state saved.
		"destroy_fails": {code: 1, summary: "Failure! 1 passed, 0 failed.", recovery: true},
	}
	tf, tfErr := referenceTerraform()
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var recovery []string
			run := func(bin string) (human, jsonOut result, destroyed, junit string) {
				dir := copyTree(t, filepath.Join("moduletest", name))
				initArgs := []string{"init", "-no-color"}
				if tc.plugin {
					initArgs = append(initArgs, "-plugin-dir="+testProviderMirror(t))
				}
				if r := runIn(t, dir, "", bin, initArgs...); (r.code != 0) != tc.initFails {
					t.Fatalf("%s init: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
				}
				human = runIn(t, dir, "", bin, "test", "-no-color", "-junit-xml=report.xml")
				// An invalid test file stops both tools before any report.
				report, _ := os.ReadFile(filepath.Join(dir, "report.xml"))
				junit = junitTimes.ReplaceAllString(string(report), "")
				if data, err := os.ReadFile(filepath.Join(dir, "log.txt")); err == nil {
					destroyed = string(data)
					os.Remove(filepath.Join(dir, "log.txt"))
				}
				jsonOut = runIn(t, dir, "", bin, "test", "-json")
				recovery, _ = filepath.Glob(filepath.Join(dir, "errored_test*.tfstate"))
				return human, jsonOut, destroyed, junit
			}
			human, js, destroyed, junit := run(strataBin)
			if human.code != tc.code || js.code != tc.code {
				t.Errorf("exit codes %d (human) and %d (-json), want %d\n%s%s", human.code, js.code, tc.code, human.stdout, human.stderr)
			}
			lines := strings.Split(strings.TrimSpace(human.stdout), "\n")
			if got := lines[len(lines)-1]; got != tc.summary {
				t.Errorf("summary %q, want %q", got, tc.summary)
			}
			if destroyed != tc.destroyed {
				t.Errorf("cleanup destroyed:\n%s\nwant:\n%s", destroyed, tc.destroyed)
			}
			if want := map[bool]int{true: 2}[tc.recovery]; len(recovery) != want {
				t.Errorf("recovery states %v, want %d", recovery, want)
			}
			if tc.recovery && (!strings.Contains(human.stderr, "strata left the following resources in state after executing\ntests/fails.tftest.hcl/create, and they need to be cleaned up manually:\n  - terraform_data.item\n") ||
				!strings.Contains(human.stderr, "Their state is saved in errored_test.tfstate")) {
				t.Errorf("cleanup failure report:\n%s", human.stderr)
			}
			if tc.ordered {
				golden(t, filepath.Join("moduletest", name), "stdout.golden", human.stdout)
				golden(t, filepath.Join("moduletest", name), "junit.golden", junit)
			}
			if tfErr != nil || tc.onlyStrata {
				return
			}
			tfHuman, tfJSON, tfDestroyed, tfJunit := run(tf)
			if tfHuman.code != human.code || tfJSON.code != js.code {
				t.Errorf("exit codes: strata %d/%d, terraform %d/%d", human.code, js.code, tfHuman.code, tfJSON.code)
			}
			if tc.ordered {
				if diff := cmp.Diff(tfHuman.stdout, human.stdout); diff != "" {
					t.Errorf("stdout (-terraform +strata):\n%s", diff)
				}
				if diff := cmp.Diff(tfHuman.stderr, human.stderr); diff != "" {
					t.Errorf("stderr (-terraform +strata):\n%s", diff)
				}
				if diff := cmp.Diff(tfJunit, junit); diff != "" {
					t.Errorf("-junit-xml report (-terraform +strata):\n%s", diff)
				}
			}
			if diff := cmp.Diff(testEvents(t, tfJSON.stdout), testEvents(t, js.stdout)); diff != "" {
				t.Errorf("-json events (-terraform +strata):\n%s", diff)
			}
			if tfDestroyed != destroyed {
				t.Errorf("cleanup: terraform destroyed\n%s\nstrata destroyed\n%s", tfDestroyed, destroyed)
			}
		})
	}
}

// TestE2EValidateTestFiles: validate decodes test files too, unless
// -no-tests, and reports the same error as terraform validate.
func TestE2EValidateTestFiles(t *testing.T) {
	t.Parallel()
	run := func(bin string) []result {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
		if err := os.Mkdir(filepath.Join(dir, "checks"), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "checks", "bad.tftest.hcl"), "run \"x\" {\n  command = destroy\n}\n")
		return []result{
			runIn(t, dir, "", bin, "validate", "-no-color"),
			runIn(t, dir, "", bin, "validate", "-no-color", "-test-directory=checks"),
			runIn(t, dir, "", bin, "validate", "-no-color", "-test-directory=checks", "-no-tests"),
		}
	}
	got := run(strataBin)
	for i, want := range []int{0, 1, 0} {
		if got[i].code != want {
			t.Errorf("validate #%d: exit code %d, want %d\n%s", i, got[i].code, want, got[i].stderr)
		}
	}
	if !strings.Contains(got[1].stderr, `Error: Invalid "command" keyword`) || !strings.Contains(got[1].stderr, "on checks/bad.tftest.hcl line 2") {
		t.Errorf("validate -test-directory=checks:\n%s", got[1].stderr)
	}
	if tf, err := referenceTerraform(); err == nil {
		want := run(tf)
		for i := range want {
			if want[i].code != got[i].code || want[i].stderr != got[i].stderr {
				t.Errorf("validate #%d: terraform %d\n%s\nstrata %d\n%s", i, want[i].code, want[i].stderr, got[i].code, got[i].stderr)
			}
		}
	}
}

// TestE2EInitRecordsTestModules: init records the modules of test files'
// run blocks in the module manifest as Terraform's init does, so that
// terraform test works in a directory strata initialised, and refuses the
// sources Terraform refuses there.
func TestE2EInitRecordsTestModules(t *testing.T) {
	t.Parallel()
	initIn := func(bin string) (string, result) {
		dir := copyTree(t, filepath.Join("moduletest", "features"))
		r := runIn(t, dir, "", bin, "init", "-no-color")
		if r.code != 0 {
			t.Fatalf("%s init: %s", bin, r.stderr)
		}
		manifest := string(readFile(t, filepath.Join(dir, ".terraform", "modules", "modules.json")))
		writeFile(t, filepath.Join(dir, "tests", "git.tftest.hcl"), "run \"helper\" {\n  module {\n    source = \"git::file:///nowhere/repo\"\n  }\n}\n")
		return manifest, runIn(t, dir, "", bin, "init", "-no-color")
	}
	manifest, bad := initIn(strataBin)
	if want := `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"test.tests.a.setup","Source":"./setup","Dir":"setup"}]}`; manifest != want {
		t.Errorf("modules.json:\n%s\nwant:\n%s", manifest, want)
	}
	if bad.code != 1 || !strings.Contains(bad.stderr, "Only local or registry module sources are currently supported from within\ntest run blocks.") {
		t.Errorf("init with a git source in a run block: exit %d\n%s", bad.code, bad.stderr)
	}
	if tf, err := referenceTerraform(); err == nil {
		tfManifest, tfBad := initIn(tf)
		if tfManifest != manifest {
			t.Errorf("modules.json: terraform\n%s\nstrata\n%s", tfManifest, manifest)
		}
		if tfBad.code != bad.code {
			t.Errorf("init with a git source: terraform exit %d, strata %d", tfBad.code, bad.code)
		}
	}
}

// TestE2ETestVerbose: test -verbose prints each run's plan or state as
// terraform test -verbose does (product name aside).
func TestE2ETestVerbose(t *testing.T) {
	t.Parallel()
	run := func(bin string) string {
		dir := copyTree(t, filepath.Join("moduletest", "features"))
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: %s", bin, r.stderr)
		}
		r := runIn(t, dir, "", bin, "test", "-verbose", "-no-color", "-filter=tests/a.tftest.hcl")
		if r.code != 1 {
			t.Fatalf("%s test -verbose: exit %d\n%s", bin, r.code, r.stderr)
		}
		return uuidRe.ReplaceAllString(r.stdout, "<uuid>")
	}
	got := run(strataBin)
	for _, want := range []string{"  run \"plan_it\"... pass\n\nstrata used the selected providers", "  + upper = \"PRE-X\"\n\n  run \"apply_it\"... pass\n\n# terraform_data.r[0]:"} {
		if !strings.Contains(got, want) {
			t.Errorf("verbose output lacks %q:\n%s", want, got)
		}
	}
	if tf, err := referenceTerraform(); err == nil {
		want := strings.ReplaceAll(run(tf), "Terraform", "strata")
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("-verbose output (-terraform +strata):\n%s", diff)
		}
	}
}
