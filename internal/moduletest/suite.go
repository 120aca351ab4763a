package moduletest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// File is one test file and what running it produced.
type File struct {
	// Path is the file's path relative to the module directory, with
	// forward slashes (tests/main.tftest.hcl), as messages show it.
	Path   string
	Config *configs.TestFile
	Runs   []*Run
	Status Status
	// Diagnostics are about the file as a whole (override blocks whose
	// target no run's configuration has), reported when it is done.
	Diagnostics hcl.Diagnostics
}

// Run is one run block and its outcome.
type Run struct {
	Config *configs.TestRun
	Status Status
	// Diagnostics are what the run reported: failed assertions, errors
	// from planning or applying, warnings.
	Diagnostics hcl.Diagnostics
	// Plan is the run's plan; State the state after an apply run.
	Plan  *plans.Plan
	State *states.State
	// Start and Elapsed time the run (zero for a skipped run).
	Start   time.Time
	Elapsed time.Duration

	// failedAssert is set when an assertion was false.
	failedAssert bool
	// index is the run's position in its file.
	index int
}

// Counts tallies runs by status across files.
type Counts struct {
	Passed, Failed, Errored, Skipped int
}

// Count tallies the runs of files.
func Count(files []*File) Counts {
	var c Counts
	for _, f := range files {
		for _, r := range f.Runs {
			switch r.Status {
			case Pass:
				c.Passed++
			case Fail:
				c.Failed++
			case Error:
				c.Errored++
			case Skip, Pending:
				c.Skipped++
			}
		}
	}
	return c
}

// SuiteStatus is the worst status of files; Pass for none.
func SuiteStatus(files []*File) Status {
	s := Pass
	for _, f := range files {
		if f.Status > Pass {
			s = s.merge(f.Status)
		}
	}
	return s
}

// Discover lists the test files of the module in dir (absolute, or
// relative to the process's directory): those in dir itself
// and in its test directory (testDir, relative to dir), sorted by path.
// filter, when not empty, keeps only the files it names.
func Discover(dir, testDir string, filter []string) ([]string, error) {
	var paths []string
	for _, sub := range []string{".", testDir} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			if os.IsNotExist(err) && sub != "." {
				continue
			}
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() && configs.IsTestFile(e.Name()) {
				paths = append(paths, filepath.ToSlash(filepath.Join(sub, e.Name())))
			}
		}
	}
	sort.Strings(paths)
	if len(filter) == 0 {
		return paths, nil
	}
	keep := map[string]bool{}
	for _, f := range filter {
		keep[filepath.ToSlash(filepath.Clean(f))] = true
	}
	var out []string
	for _, p := range paths {
		if keep[p] {
			out = append(out, p)
		}
	}
	return out, nil
}

// Load parses the test files at paths (relative to dir). Files that
// cannot be decoded come back with status Error and the diagnostics.
func Load(p *configs.Parser, dir string, paths []string) ([]*File, hcl.Diagnostics) {
	var files []*File
	var diags hcl.Diagnostics
	for _, path := range paths {
		tf, fdiags := p.LoadTestFile(filepath.Join(dir, filepath.FromSlash(path)))
		diags = append(diags, fdiags...)
		f := &File{Path: path, Config: tf}
		if tf == nil || fdiags.HasErrors() {
			f.Status = Error
			f.Config = nil
		} else {
			for i, rc := range tf.Runs {
				f.Runs = append(f.Runs, &Run{Config: rc, index: i})
			}
		}
		files = append(files, f)
	}
	return files, diags
}

// Summary returns terraform test's closing line without colour: the
// verdict ("Success!" or "Failure!") and the counts ("2 passed, 1
// failed."). Errored runs count as failed.
func Summary(files []*File) (verdict, counts string) {
	c := Count(files)
	verdict = "Success!"
	if SuiteStatus(files) > Pass {
		verdict = "Failure!"
	}
	counts = fmt.Sprintf("%d passed, %d failed", c.Passed, c.Failed+c.Errored)
	if c.Skipped > 0 {
		counts += fmt.Sprintf(", %d skipped", c.Skipped)
	}
	return verdict, counts + "."
}
