package command

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/configs/format"
)

type fmtOptions struct {
	view      viewFlags
	list      bool
	write     bool
	diff      bool
	check     bool
	recursive bool
}

func newFmtCommand(d *Deps, runF func(*fmtOptions, []string) error) *cobra.Command {
	opts := &fmtOptions{}
	cmd := &cobra.Command{
		Use:   "fmt [options] [target...]",
		Short: "Reformat your configuration in the standard style",
		Long: `Usage: strata [global options] fmt [options] [target...]

  Rewrites all configuration files to a canonical format. All
  configuration files (.tf), variables files (.tfvars), and testing files
  (.tftest.hcl) are updated. JSON files (.tf.json, .tfvars.json, or
  .tftest.json) are not modified.

  By default, fmt scans the current directory for configuration files. If
  you provide a directory for the target argument, then fmt will scan that
  directory instead. If you provide a file, then fmt will process just that
  file. If you provide a single dash ("-"), then fmt will read from standard
  input (STDIN).

  The content must be in the strata language native syntax; JSON is not
  supported.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts, args)
			}
			return runFmt(d, opts, args)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.list, "list", true, "Don't list files whose formatting differs\n(always disabled if using STDIN)")
	fs.BoolVar(&opts.write, "write", true, "Don't write to source files\n(always disabled if using STDIN or -check)")
	fs.BoolVar(&opts.diff, "diff", false, "Display diffs of formatting changes")
	fs.BoolVar(&opts.check, "check", false, "Check if the input is formatted. Exit status will be 0 if all\ninput is properly formatted and non-zero otherwise.")
	opts.view.register(fs)
	fs.BoolVar(&opts.recursive, "recursive", false, "Also process files in subdirectories. By default, only the\ngiven directory (or current directory) is processed.")
	return cmd
}

// fmtExtensions are the file kinds fmt rewrites.
var fmtExtensions = []string{".tf", ".tofu", ".tfvars", ".tftest.hcl"}

func runFmt(d *Deps, opts *fmtOptions, args []string) error {
	v := d.newView(opts.view)
	// Terraform reports fmt's diagnostics as its older commands do, with
	// a blank line after each, and exits with 2 when there are errors.
	v.Legacy = true
	if opts.check {
		opts.write = false
	}
	if len(args) == 0 {
		args = []string{"."}
	}
	// With -check, the list of files and their diffs are shown only once
	// every file has been read without errors, and only with -list (which
	// standard input turns off), as Terraform does.
	var checkOut strings.Builder
	out := v.Raw
	if opts.check {
		out = func(s string) { checkOut.WriteString(s) }
	}
	diags, changed := fmtTargets(d, v, opts, args, out)
	v.Diagnostics(diags)
	if diags.HasErrors() {
		return &ExitError{Code: 2}
	}
	if opts.check {
		if opts.list && !(len(args) == 1 && args[0] == "-") {
			v.Raw(checkOut.String())
		}
		if changed {
			return &ExitError{Code: 3}
		}
	}
	return nil
}

// fmtTargets formats the files and directories in args ("-" is standard
// input), writing file names, diffs and formatted standard input to out.
// changed reports whether any input was not formatted. Relative paths are
// in the working directory, and named as given.
func fmtTargets(d *Deps, v *views.View, opts *fmtOptions, args []string, out func(string)) (diags hcl.Diagnostics, changed bool) {
	if len(args) == 1 && args[0] == "-" {
		src, err := io.ReadAll(d.Stdin)
		if err != nil {
			return errorDiag("Failed to read standard input", err), false
		}
		formatted, fdiags := format.Source(src, "<stdin>")
		if fdiags.HasErrors() {
			v.AddSource("<stdin>", src)
			return fdiags, false
		}
		if opts.diff {
			out(format.UnifiedDiff("<stdin>", src, formatted))
		} else {
			// As Terraform, the output ends with a newline: one is added
			// when the input has none at its end (a blank line for an
			// empty input); whether the input counts as formatted does
			// not change.
			s := string(formatted)
			if !strings.HasSuffix(s, "\n") {
				s += "\n"
			}
			out(s)
		}
		return nil, !bytes.Equal(src, formatted)
	}
	for _, target := range args {
		st, err := d.stat(target)
		if err != nil {
			// Terraform stops at the first target that is not there.
			return append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No file or directory at " + target}), changed
		}
		var files []string
		if st.IsDir() {
			files, err = fmtFiles(d, target, opts.recursive)
			if err != nil {
				diags = append(diags, errorDiag("Failed to read directory", err)...)
				continue
			}
		} else {
			if !hasFmtExtension(target) {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Only .tf, .tfvars, and .tftest.hcl files can be processed with strata fmt"})
				continue
			}
			files = []string{target}
		}
		for _, path := range files {
			c, fdiags := fmtFile(d, v, opts, path, out)
			diags = append(diags, fdiags...)
			changed = changed || c
		}
	}
	return diags, changed
}

// fmtFile formats one file, reporting whether it was not formatted.
func fmtFile(d *Deps, v *views.View, opts *fmtOptions, path string, out func(string)) (bool, hcl.Diagnostics) {
	src, err := d.readFile(path)
	if err != nil {
		return false, errorDiag("Failed to read file", err)
	}
	formatted, diags := format.Source(src, path)
	if diags.HasErrors() {
		v.AddSource(path, src)
		return false, diags
	}
	if bytes.Equal(src, formatted) {
		return false, nil
	}
	display := filepath.ToSlash(path)
	if opts.list {
		out(display + "\n")
	}
	if opts.write {
		st, _ := d.stat(path)
		if err := os.WriteFile(d.abs(path), formatted, st.Mode().Perm()); err != nil {
			return true, errorDiag("Failed to write file", d.asGiven(err, path))
		}
	}
	if opts.diff {
		out(format.UnifiedDiff(display, src, formatted))
	}
	return true, nil
}

// fmtFiles lists the files fmt processes in dir, in lexical order,
// descending into subdirectories (but not hidden ones such as .terraform)
// when recursive.
func fmtFiles(d *Deps, dir string, recursive bool) ([]string, error) {
	entries, err := os.ReadDir(d.abs(dir))
	if err != nil {
		return nil, d.asGiven(err, dir)
	}
	var files []string
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if dir == "." {
			path = e.Name()
		}
		if e.IsDir() {
			if recursive && !strings.HasPrefix(e.Name(), ".") {
				sub, err := fmtFiles(d, path, true)
				if err != nil {
					return nil, err
				}
				files = append(files, sub...)
			}
			continue
		}
		if hasFmtExtension(e.Name()) {
			files = append(files, path)
		}
	}
	return files, nil
}

func hasFmtExtension(name string) bool {
	for _, ext := range fmtExtensions {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}
