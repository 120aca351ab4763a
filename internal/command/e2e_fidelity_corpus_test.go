package command

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFidelityCorpus is the differential sweep behind the fidelity tests
// (e2e_fmt_fidelity_test.go, e2e_config_diags_fidelity_test.go): it runs
// terraform and strata over a corpus of real configurations and reports
// every difference. It runs only when STRATA_TEST_FIDELITY_CORPUS names
// the corpus directory (for example Terraform's repository and module
// repositories unpacked side by side) and terraform is installed:
//
//	STRATA_TEST_FIDELITY_CORPUS=/tmp/corpus go test ./internal/command -run TestFidelityCorpus -v
//
// STRATA_TEST_FIDELITY_SWEEPS picks sweeps (default "fmt,validate");
// STRATA_TEST_FIDELITY_LIMIT caps how many directories validate visits.
// The sweep fails on any difference; each one found is to be fixed and
// locked in by a minimized case in the always-on tests, or documented in
// website/docs/differences.md.
func TestFidelityCorpus(t *testing.T) {
	t.Parallel()
	root := os.Getenv("STRATA_TEST_FIDELITY_CORPUS")
	if root == "" {
		t.Skip("STRATA_TEST_FIDELITY_CORPUS is not set")
	}
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed")
	}
	sweeps := os.Getenv("STRATA_TEST_FIDELITY_SWEEPS")
	if sweeps == "" {
		sweeps = "fmt,validate"
	}
	for _, s := range strings.Split(sweeps, ",") {
		switch s {
		case "fmt":
			t.Run("fmt", func(t *testing.T) { sweepFmt(t, tf, root) })
		case "validate":
			t.Run("validate", func(t *testing.T) { sweepValidate(t, tf, root) })
		default:
			t.Fatalf("unknown sweep %q", s)
		}
	}
}

// corpusFmtFiles lists the files under root both tools format (.tofu files
// are strata's alone, as documented), relative to root.
func corpusFmtFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		n := d.Name()
		if strings.HasSuffix(n, ".tf") || strings.HasSuffix(n, ".tfvars") || strings.HasSuffix(n, ".tftest.hcl") {
			rel, _ := filepath.Rel(root, path)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// copyCorpusFiles copies files (relative to root) into a new directory.
func copyCorpusFiles(t *testing.T, root string, files []string) string {
	t.Helper()
	dst := t.TempDir()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// sweepFmt formats the whole corpus with each tool (-check -diff, then
// writing) and compares exit codes, output and the files written.
func sweepFmt(t *testing.T, tf, root string) {
	files := corpusFmtFiles(t, root)
	t.Logf("%d files", len(files))
	tfDir, stDir := copyCorpusFiles(t, root, files), copyCorpusFiles(t, root, files)
	for _, args := range [][]string{{"fmt", "-no-color", "-check", "-diff", "-recursive"}, {"fmt", "-no-color", "-recursive"}} {
		want := runIn(t, tfDir, "", tf, args...)
		got := runIn(t, stDir, "", strataBin, args...)
		want.stderr = strings.ReplaceAll(want.stderr, "terraform fmt", "strata fmt")
		if want.code != got.code {
			t.Errorf("%s: exit code %d, terraform %d", strings.Join(args, " "), got.code, want.code)
		}
		if diff := cmp.Diff(want.stdout, got.stdout); diff != "" {
			t.Errorf("%s: stdout differs (-terraform +strata):\n%s", strings.Join(args, " "), diff)
		}
		if diff := cmp.Diff(want.stderr, got.stderr); diff != "" {
			t.Errorf("%s: stderr differs (-terraform +strata):\n%s", strings.Join(args, " "), diff)
		}
	}
	differ := 0
	for _, f := range files {
		a, b := readFile(t, filepath.Join(tfDir, f)), readFile(t, filepath.Join(stDir, f))
		if string(a) != string(b) {
			differ++
			t.Errorf("%s formatted differently (-terraform +strata):\n%s", f, cmp.Diff(string(a), string(b)))
		}
	}
	t.Logf("%d of %d files formatted differently", differ, len(files))
}

// corpusConfigs lists what the validate sweep visits: every directory
// under root with .tf files, and each .tf file on its own in directories
// of single-file fixtures (Terraform's *-files test data).
func corpusConfigs(t *testing.T, root string) (dirs []string, single []string) {
	t.Helper()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".tf") {
			return nil
		}
		dir := filepath.Dir(path)
		if strings.HasSuffix(filepath.Base(dir), "-files") {
			single = append(single, path)
		} else if !seen[dir] {
			seen[dir] = true
			dirs = append(dirs, dir)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(dirs)
	return dirs, single
}

// sweepValidate runs `validate -json` with each tool on each
// configuration of the corpus, in a copy of the whole corpus per tool (so
// that relative module sources resolve). Without init, Terraform reports
// every module call "Module not installed" where strata reads local
// modules (a documented difference); STRATA_TEST_FIDELITY_INIT=1 runs
// `init -backend=false` first in both (modules install, providers cannot
// be downloaded here).
func sweepValidate(t *testing.T, tf, root string) {
	dirs, single := corpusConfigs(t, root)
	type job struct{ rel string }
	var jobs []job
	for _, d := range dirs {
		rel, _ := filepath.Rel(root, d)
		jobs = append(jobs, job{rel})
	}
	for _, f := range single {
		rel, _ := filepath.Rel(root, f)
		jobs = append(jobs, job{rel})
	}
	if n, err := strconv.Atoi(os.Getenv("STRATA_TEST_FIDELITY_LIMIT")); err == nil && n < len(jobs) {
		jobs = jobs[:n]
	}
	t.Logf("%d configurations (%d directories, %d single files)", len(jobs), len(dirs), len(single))
	tfRoot, stRoot := t.TempDir(), t.TempDir()
	for _, dst := range []string{tfRoot, stRoot} {
		if err := os.CopyFS(dst, os.DirFS(root)); err != nil {
			t.Fatal(err)
		}
	}
	withInit := os.Getenv("STRATA_TEST_FIDELITY_INIT") == "1"
	var mu sync.Mutex
	var differ []string
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			report := validateBoth(t, tf, filepath.Join(tfRoot, j.rel), filepath.Join(stRoot, j.rel), withInit)
			if report == "" {
				return
			}
			mu.Lock()
			differ = append(differ, j.rel)
			t.Errorf("%s:\n%s", j.rel, report)
			mu.Unlock()
		}()
	}
	wg.Wait()
	sort.Strings(differ)
	t.Logf("%d of %d configurations differ: %s", len(differ), len(jobs), strings.Join(differ, " "))
}

// validateBoth validates a configuration (a directory, or a single file
// validated on its own in a new directory) with both tools, tfSrc and
// stSrc being the same configuration in each tool's copy of the corpus,
// and describes how they differ ("" when they do not).
func validateBoth(t *testing.T, tf, tfSrc, stSrc string, withInit bool) string {
	dirOf := func(src string) string {
		st, err := os.Stat(src)
		if err != nil || st.IsDir() {
			return src
		}
		dst := t.TempDir()
		data, _ := os.ReadFile(src)
		_ = os.WriteFile(filepath.Join(dst, filepath.Base(src)), data, 0o644)
		return dst
	}
	tfDir, stDir := dirOf(tfSrc), dirOf(stSrc)
	if withInit {
		runIn(t, tfDir, "", tf, "init", "-backend=false", "-input=false", "-no-color")
		runIn(t, stDir, "", strataBin, "init", "-backend=false", "-input=false", "-no-color")
	}
	wantCode, want := validateDirDiags(t, tf, tfDir)
	gotCode, got := validateDirDiags(t, strataBin, stDir)
	var b strings.Builder
	if wantCode != gotCode {
		fmt.Fprintf(&b, "exit code %d, terraform %d\n", gotCode, wantCode)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		fmt.Fprintf(&b, "diagnostics (-terraform +strata):\n%s", diff)
	}
	return b.String()
}
