package command

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tfFixtureArgs are the arguments and environment Terraform's own tests
// give the fixtures that need some (internal/command/test_test.go).
var tfFixtureArgs = map[string]struct {
	args, env []string
}{
	"simple_pass_nested_alternate": {args: []string{"-test-directory", "other"}},
	"simple_pass_very_nested":      {args: []string{"-test-directory", "tests/subdir"}},
	"variable_references":          {args: []string{`-var=global="triple"`}},
	"variables_types":              {args: []string{"-var=number_input=0", "-var=string_input=Hello, world!", `-var=list_input=["Hello","world"]`}},
	"env-vars":                     {env: []string{"TF_VAR_input=foo"}},
	"env-vars-in-module":           {env: []string{"TF_VAR_input=foo"}},
}

// tfFixtureKnown are the fixtures whose output differs on purpose, with
// the reason (website/docs/differences.md): their exit codes and -json
// events must still agree.
var tfFixtureKnown = map[string]string{
	"missing-provider":                "a resource using an undeclared aliased provider configuration: strata says so and points at it; Terraform says the configuration was removed",
	"missing-provider-in-run-block":   "as missing-provider",
	"missing-provider-in-test-module": "as missing-provider",
}

var (
	tftestOnce   sync.Once
	tftestMirror string
	tftestErr    error
)

// tftestProviderMirror builds the stand-in for Terraform's internal test
// provider (hashicorp/test, testdata/providers/tftest) into a filesystem
// mirror both tools install from.
func tftestProviderMirror(t *testing.T) string {
	t.Helper()
	tftestOnce.Do(func() {
		bin, err := e2eBinDir()
		if err != nil {
			tftestErr = err
			return
		}
		dir := filepath.Join(bin, "mirror-tftest")
		// Terraform's tests also serve the test provider as
		// hashicorp/setup (with_setup_module); both share the store.
		for _, name := range []string{"test", "setup"} {
			target := filepath.Join(dir, "registry.terraform.io", "hashicorp", name, "1.0.0", runtime.GOOS+"_"+runtime.GOARCH, "terraform-provider-"+name+"_v1.0.0")
			if err := goBuild(filepath.Join("..", "providers", "plugin", "testdata", "providers"), "./tftest", target, "-s -w"); err != nil {
				tftestErr = err
				return
			}
		}
		tftestMirror = dir
	})
	if tftestErr != nil {
		t.Fatal(tftestErr)
	}
	return tftestMirror
}

// fixtureResult is what a tool did with one fixture.
type fixtureResult struct {
	initCode       int
	human, json    result
	events         []string
	recoveryStates []string
}

// runTFFixture copies fixture src to a temporary directory, initialises it
// from mirror and runs test (human, then -json) with bin.
func runTFFixture(t *testing.T, bin, src, mirror string) fixtureResult {
	t.Helper()
	name := filepath.Base(src)
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	extra := tfFixtureArgs[name]
	run := func(args ...string) result {
		// Each command gets an empty store of objects, as Terraform's
		// tests give each case a new in-process provider.
		return runWith(t, dir, "", bin, append([]string{"TFTEST_STORE_DIR=" + t.TempDir()}, extra.env...), args...)
	}
	var res fixtureResult
	res.initCode = run("init", "-no-color", "-plugin-dir="+mirror).code
	res.human = run(append([]string{"test", "-no-color"}, extra.args...)...)
	res.json = run(append([]string{"test", "-json"}, extra.args...)...)
	res.events = testEvents(t, res.json.stdout)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "errored_test") {
			res.recoveryStates = append(res.recoveryStates, e.Name())
		}
	}
	return res
}

// recoveryNoteRe matches strata's note on where it saved the state of
// what a failed cleanup left.
var recoveryNoteRe = regexp.MustCompile(`\nTheir state is saved in errored_test[.0-9]*\.tfstate: destroy them with strata\s+destroy\s+-state=errored_test[.0-9]*\.tfstate\.\n`)

// normalizeFixtureOutput makes the two tools' output comparable: the
// product name, what changes from run to run (ids, times), and strata's
// own plan notes (dropStrataNotes).
func normalizeFixtureOutput(s string) string {
	s = dropStrataNotes(s)
	s = strings.ReplaceAll(s, "Terraform", "strata")
	s = strings.ReplaceAll(s, "terraform", "strata")
	return uuidRe.ReplaceAllString(s, "<uuid>")
}

// TestE2ETerraformFixtures runs every one of Terraform's own `terraform
// test` fixtures (internal/command/testdata/test in Terraform's repository,
// at the release installed) through terraform and strata, with the
// stand-in test provider, and compares the exit codes, the human output,
// the -json events and the recovery state files. It needs terraform on
// PATH and STRATA_TF_FIXTURES naming the fixtures' directory; `make
// tf-fixtures` extracts them and runs it.
func TestE2ETerraformFixtures(t *testing.T) {
	t.Parallel()
	root := os.Getenv("STRATA_TF_FIXTURES")
	if root == "" {
		t.Skip("STRATA_TF_FIXTURES is not set (make tf-fixtures sets it)")
	}
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed")
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	mirror := tftestProviderMirror(t)
	var mu sync.Mutex
	var same, differ []string
	t.Cleanup(func() {
		sort.Strings(differ)
		var known []string
		for _, n := range same {
			if strings.HasSuffix(n, " (text differs on purpose)") {
				known = append(known, strings.TrimSuffix(n, " (text differs on purpose)"))
			}
		}
		sort.Strings(known)
		t.Logf("%d of %d fixtures give the same results (%d of them with wording that differs on purpose: %s); differ: %s",
			len(same), len(same)+len(differ), len(known), strings.Join(known, ", "), strings.Join(differ, ", "))
	})
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src := filepath.Join(root, name)
			want := runTFFixture(t, tf, src, mirror)
			got := runTFFixture(t, strataBin, src, mirror)
			ok := true
			check := func(what string, w, g any) {
				if diff := cmp.Diff(w, g); diff != "" {
					ok = false
					t.Errorf("%s (-terraform +strata):\n%s", what, diff)
				}
			}
			// Text is compared word by word: "strata" is shorter than
			// "Terraform", so the same paragraph can wrap differently.
			checkText := func(what, w, g string) {
				w, g = normalizeFixtureOutput(w), normalizeFixtureOutput(g)
				if strings.Join(strings.Fields(w), " ") == strings.Join(strings.Fields(g), " ") {
					return
				}
				if reason, ok := tfFixtureKnown[name]; ok {
					t.Logf("%s differs on purpose (%s):\n%s", what, reason, cmp.Diff(w, g))
					return
				}
				check(what, w, g)
			}
			check("init exit code", want.initCode, got.initCode)
			check("test exit code", want.human.code, got.human.code)
			check("test -json exit code", want.json.code, got.json.code)
			checkText("stdout", want.human.stdout, got.human.stdout)
			check("-json events", want.events, got.events)
			// strata saves what a failed cleanup left (a deliberate
			// difference: Terraform 1.11 saves nothing) and says where.
			leftSome := strings.Contains(want.human.stderr, "left the following resources in state")
			if n := len(got.recoveryStates); leftSome != (n == 2) || len(want.recoveryStates) != 0 {
				ok = false
				t.Errorf("recovery state files: terraform %v, strata %v (terraform left objects: %v)", want.recoveryStates, got.recoveryStates, leftSome)
			}
			got.human.stderr = recoveryNoteRe.ReplaceAllString(got.human.stderr, "")
			checkText("stderr", want.human.stderr, got.human.stderr)
			mu.Lock()
			defer mu.Unlock()
			switch _, known := tfFixtureKnown[name]; {
			case ok && known:
				same = append(same, name+" (text differs on purpose)")
			case ok:
				same = append(same, name)
			default:
				differ = append(differ, name)
			}
		})
	}
}
