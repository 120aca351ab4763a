package command

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fmtCase is one run of fmt over a directory of files (and standard input).
type fmtCase struct {
	files map[string]string
	args  []string
	stdin string
	// code is the exit code, which Terraform gives too.
	code int
}

// fmtOutcome is what one tool did: its exit code, output, and the files
// it left.
type fmtOutcome struct {
	Code           int
	Stdout, Stderr string
	Files          map[string]string
}

func runFmtCase(t *testing.T, bin string, c fmtCase) fmtOutcome {
	t.Helper()
	dir := t.TempDir()
	for name, src := range c.files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, src)
	}
	r := runIn(t, dir, c.stdin, bin, append([]string{"fmt"}, c.args...)...)
	out := fmtOutcome{Code: r.code, Stdout: r.stdout, Stderr: r.stderr, Files: map[string]string{}}
	for name := range c.files {
		out.Files[name] = string(readFile(t, filepath.Join(dir, filepath.FromSlash(name))))
	}
	// The product name is the one documented difference.
	out.Stderr = strings.ReplaceAll(out.Stderr, "terraform fmt", "strata fmt")
	return out
}

// TestE2EFmtMatchesTerraform: fmt's exit codes, listed files, diffs and
// diagnostics (errors in files and on standard input, missing targets,
// -check with and without -list) are Terraform's. Each case was a
// difference found by sweeping real modules and Terraform's own test
// configurations (TestFidelityCorpus).
func TestE2EFmtMatchesTerraform(t *testing.T) {
	t.Parallel()
	ugly := "a  = 1\n"
	broken := "b = \n"
	block := "resource \"a\" \"b\" {\n  x = \n}\n"
	tests := map[string]fmtCase{
		// A file with a syntax error: exit 2, the other files are still
		// listed and written; the snippet leaves out the empty line the
		// error's range ends on; a blank line follows each diagnostic.
		"syntax error":          {files: map[string]string{"a.tf": ugly, "b.tf": broken, "c.tf": ugly}, args: []string{"-no-color"}, code: 2},
		"syntax error in block": {files: map[string]string{"main.tf": block}, args: []string{"-no-color"}, code: 2},
		// -check shows neither the list nor the diffs when a file has
		// errors.
		"check with error":   {files: map[string]string{"a.tf": ugly, "b.tf": broken}, args: []string{"-no-color", "-check", "-diff"}, code: 2},
		"check":              {files: map[string]string{"a.tf": ugly}, args: []string{"-no-color", "-check", "-diff"}, code: 3},
		"check without list": {files: map[string]string{"a.tf": ugly}, args: []string{"-no-color", "-check", "-diff", "-list=false"}, code: 3},
		"stdin":              {args: []string{"-no-color", "-"}, stdin: ugly},
		"stdin diff":         {args: []string{"-no-color", "-diff", "-"}, stdin: ugly},
		"stdin check":        {args: []string{"-no-color", "-check", "-"}, stdin: ugly, code: 3},
		"stdin check diff":   {args: []string{"-no-color", "-check", "-diff", "-"}, stdin: ugly, code: 3},
		"stdin syntax error": {args: []string{"-no-color", "-"}, stdin: broken, code: 2},
		// The output ends with a newline, added when the input has none
		// (a blank line for an empty input); the input still counts as
		// formatted.
		"stdin empty":                  {args: []string{"-"}},
		"stdin newlines":               {args: []string{"-"}, stdin: "\n\n\n"},
		"stdin blanks":                 {args: []string{"-"}, stdin: " \t "},
		"stdin blank lines and blanks": {args: []string{"-"}, stdin: " \n\t\n  "},
		"stdin no final newline":       {args: []string{"-"}, stdin: "a = 1"},
		"stdin unformatted no newline": {args: []string{"-"}, stdin: "a=1 \n  "},
		"stdin no newline check":       {args: []string{"-check", "-"}, stdin: "a = 1"},
		"stdin no newline diff":        {args: []string{"-diff", "-"}, stdin: "a=1"},
		"missing target stops":         {files: map[string]string{"a.tf": ugly}, args: []string{"-no-color", "nope", "a.tf"}, code: 2},
		"wrong extension":              {files: map[string]string{"a.tf": ugly, "x.txt": "x\n"}, args: []string{"-no-color", "x.txt", "a.tf", "nope", "x.txt"}, code: 2},
		"recursive check":              {files: map[string]string{"a.tf": ugly, "sub/b.tfvars": ugly, "sub/c.tftest.hcl": "run  \"x\" {}\n"}, args: []string{"-no-color", "-check", "-recursive"}, code: 3},
		// An error at the end of the input shows the empty line after
		// the last newline, underlined when in colour.
		"stdin error at the end": {args: []string{"-"}, stdin: "a = {\n", code: 2},
		"file error at the end":  {files: map[string]string{"main.tf": "resource \"a\" \"b\" {\n"}, args: []string{"-no-color"}, code: 2},
		"recursive with errors":  {files: map[string]string{"a.tf": ugly, "sub/b.tf": block}, args: []string{"-no-color", "-recursive"}, code: 2},
	}
	tf, _ := referenceTerraform()
	names := make([]string, 0, len(tests))
	for name := range tests {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		c := tests[name]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := runFmtCase(t, strataBin, c)
			if got.Code != c.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", got.Code, c.code, got.Stdout, got.Stderr)
			}
			if tf == "" {
				return
			}
			want := runFmtCase(t, tf, c)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("strata differs from terraform (-terraform +strata):\n%s", diff)
			}
		})
	}
}
