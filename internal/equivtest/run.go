package equivtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// Output is one captured output file of a test run.
type Output struct {
	Text   string // as printed, for an output that is not JSON
	JSON   any    // decoded, for a JSON output
	IsJSON bool
}

// skipped are the files of a test directory not copied to the scratch
// directory: the spec, and the dependency lock file, whose checksums are
// those of the providers' registry packages while the suite installs
// providers built from source.
var skipped = map[string]bool{"spec.json": true, ".terraform.lock.hcl": true}

// Run runs the test's commands with the CLI binary bin in a copy of its
// directory under scratch, with env as the environment, and returns the
// captured outputs by file name, each stripped of the ignored fields. A
// command that fails ends the run with an error holding what it printed.
func Run(ctx context.Context, t Test, bin, scratch string, env []string) (map[string]Output, error) {
	dir, err := os.MkdirTemp(scratch, t.Name+"-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := copyDir(t.Dir, dir); err != nil {
		return nil, err
	}
	outs := map[string]Output{}
	for _, c := range t.commands() {
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, bin, c.Arguments...)
		cmd.Dir = dir
		cmd.Env = env
		cmd.Stdout = &stdout
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return outs, fmt.Errorf("%s (%s): %v\n%s%s", c.Name, strings.Join(c.Arguments, " "), err, stdout.String(), stderr.String())
		}
		if !c.CaptureOutput {
			continue
		}
		if !c.HasJSONOutput {
			outs[c.OutputFileName] = Output{Text: stdout.String()}
			continue
		}
		text := stdout.Bytes()
		if c.StreamsJSONOutput {
			var lines [][]byte
			for _, l := range bytes.Split(text, []byte("\n")) {
				if len(l) > 0 {
					lines = append(lines, l)
				}
			}
			text = append(append([]byte("["), bytes.Join(lines, []byte(","))...), ']')
		}
		var v any
		if err := json.Unmarshal(text, &v); err != nil {
			return outs, fmt.Errorf("%s (%s): the output is not JSON: %v\n%s", c.Name, strings.Join(c.Arguments, " "), err, stdout.String())
		}
		outs[c.OutputFileName] = Output{JSON: Strip(c.OutputFileName, t.Spec, v), IsJSON: true}
	}
	for _, name := range t.Spec.IncludeFiles {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return outs, fmt.Errorf("included file: %w", err)
		}
		o, err := decode(name, b)
		if err != nil {
			return outs, fmt.Errorf("included file %s: %w", name, err)
		}
		if o.IsJSON {
			o.JSON = Strip(name, t.Spec, o.JSON)
		}
		outs[name] = o
	}
	return outs, nil
}

// decode reads a file: JSON when its name says so.
func decode(name string, b []byte) (Output, error) {
	if filepath.Ext(name) != ".json" {
		return Output{Text: string(b)}, nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return Output{}, err
	}
	return Output{JSON: v, IsJSON: true}, nil
}

// Compare compares the outputs of a run with the golden files in dir and
// returns the differences by file name ("-golden +got"); none when all
// match. A golden file with no output, or an output with no golden file,
// is a difference too.
func Compare(dir string, outs map[string]Output) (map[string]string, error) {
	diffs := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	goldens := map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() {
			goldens[e.Name()] = true
		}
	}
	for name := range goldens {
		if _, ok := outs[name]; !ok {
			diffs[name] = "no output for this golden file"
		}
	}
	for name, got := range outs {
		if !goldens[name] {
			diffs[name] = "no golden file for this output"
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		var d string
		if got.IsJSON {
			var want any
			if err := json.Unmarshal(b, &want); err != nil {
				return nil, fmt.Errorf("golden %s: %w", name, err)
			}
			d = cmp.Diff(want, got.JSON)
		} else {
			d = cmp.Diff(string(b), got.Text)
		}
		if d != "" {
			diffs[name] = d
		}
	}
	return diffs, nil
}

// Names returns the keys of the map of differences in order.
func Names(diffs map[string]string) []string {
	names := make([]string, 0, len(diffs))
	for n := range diffs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func copyDir(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil || rel == "." {
			return err
		}
		if skipped[d.Name()] {
			return nil
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
